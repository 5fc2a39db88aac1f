/**
 * The values of the `authMode` context key, as passed to `containerEnvironmentVariables(fqdn, sslEnabled, authMode)`.
 *
 * They are string constants rather than an enum because a plugin receives the auth mode as text.
 */
export class AuthMode {
  /** No sign-in is added by the framework or the application. */
  public static readonly NONE = 'none';
  /** The application performs OIDC sign-in itself (see `IApplicationSpec.oidcIntegration()`). */
  public static readonly APPLICATION_OIDC = 'application-oidc';
  /** The load balancer authenticates users against the identity provider before any request reaches the application. */
  public static readonly ALB_OIDC = 'alb-oidc';

  /** Every accepted value, in documentation order. */
  public static readonly ALL: string[] = [AuthMode.NONE, AuthMode.APPLICATION_OIDC, AuthMode.ALB_OIDC];

  private constructor() {}
}

/** Who signs a user in under an auth mode. */
export type SignIn =
  /** Nobody: the application is open to whoever reaches it. */
  | 'nobody'
  /** The application itself, with the identity provider (`IApplicationSpec.oidcIntegration()`). */
  | 'application'
  /** The load balancer, before any request reaches the application (its HTTPS listener's authenticate action). */
  | 'load-balancer';

/** What an auth mode is, for every part that treats modes differently: one row a mode (docs/extending.md, "An auth mode"). */
export interface AuthModeTraits {
  readonly signIn: SignIn;
  /** What the mode does, for the `authMode` key's row of docs/context-keys.md. */
  readonly describes: string;
  /**
   * The plugin contract version that added the mode: a plugin built against an older contract is not offered it
   * (`PluginContract`, docs/writing-a-plugin.md "Upgrading").
   */
  readonly since: string;
}

/** Every auth mode, in `AuthMode.ALL`'s order (a test compares them). */
export const AUTH_MODES: Readonly<Record<string, AuthModeTraits>> = {
  [AuthMode.NONE]: { signIn: 'nobody', since: '1.0', describes: 'nobody signs users in' },
  [AuthMode.APPLICATION_OIDC]: { signIn: 'application', since: '1.0', describes: 'the application signs users in' },
  [AuthMode.ALB_OIDC]: { signIn: 'load-balancer', since: '1.0', describes: 'the load balancer does; needs TLS' },
};

/** Who signs users in under `mode`; undefined for a value that is no mode (the context reader has refused it). */
export function signInOf(mode: string | undefined): SignIn | undefined {
  return mode === undefined ? undefined : AUTH_MODES[mode]?.signIn;
}

/**
 * The modes a plugin can run under by default: those whose sign-in asks nothing of it, and the one where it signs users
 * in itself when it can (`supportsOidcIntegration()`).
 */
export function defaultAuthModes(supportsOidcIntegration: boolean): string[] {
  return AuthMode.ALL.filter((mode) => AUTH_MODES[mode].signIn !== 'application' || supportsOidcIntegration);
}

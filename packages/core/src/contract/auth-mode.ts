/**
 * The values of the `authMode` context key, as passed to `containerEnvironmentVariables(fqdn, sslEnabled, authMode)`.
 *
 * They are string constants rather than an enum because the spec passes the auth mode to plugins as text.
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

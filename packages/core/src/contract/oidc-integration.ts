/**
 * The identity provider an application signs users in with, as the deployment configures it.
 * Only references to secrets appear here, never their values.
 */
export interface OidcProviderSettings {
  /** Issuer URL of the identity provider. */
  readonly issuer: string;
  /** Authorization endpoint URL. */
  readonly authorizationEndpoint: string;
  /** Token endpoint URL. */
  readonly tokenEndpoint: string;
  /** User-info endpoint URL. */
  readonly userInfoEndpoint: string;
  /** OAuth client id (not a secret). */
  readonly clientId: string;
  /** ARN of the Secrets Manager secret that holds the client secret. */
  readonly clientSecretArn: string;
  /**
   * Scopes requested at sign-in (the `oidcScopes` context key), `openid` among them.
   * @default - `OIDC_DEFAULT_SCOPES`: openid, profile and email (the `oidcScopes` key's default)
   */
  readonly scopes?: string[];
}

/**
 * How an application performs its own OIDC sign-in (auth mode `application-oidc`). Returned by
 * `IApplicationSpec.oidcIntegration()`.
 *
 * The same entries serve both runtimes. On Fargate they join the container environment and the client secret is
 * injected as a container secret. On EC2 the framework writes them, with the client secret read from Secrets Manager
 * at boot, to the root-only file `Ec2Files.APPLICATION_ENVIRONMENT_FILE` before `configureUserData`'s commands
 * run; the plugin's service unit reads it with `EnvironmentFile=`.
 */
export interface IOidcIntegration {
  /**
   * Path on the application to which the identity provider redirects after sign-in, for example
   * `/securityRealm/finishLogin`. Register `https://<fqdn><callbackPath>` with the identity provider.
   */
  callbackPath(): string;

  /**
   * Name of the environment variable in which the framework puts the client secret. The value only ever travels
   * as a reference (container secret, or read at boot on EC2), never in a template.
   */
  clientSecretVariable(): string;

  /**
   * Plain (non-secret) environment entries that point the application at the provider.
   */
  environment(provider: OidcProviderSettings): Record<string, string>;
}

/** Files the framework writes on EC2 before the plugin's user data runs. */
export class Ec2Files {
  /**
   * Root-only (0600) systemd environment file with the application's environment on EC2: the OIDC integration's
   * entries and every secret, read from Secrets Manager at boot, each as `NAME="value"` quoted so that systemd (and a
   * shell that sources the file) reads the value exactly. Absent when there is nothing to put in it; read it with
   * `EnvironmentFile=-/etc/fw/application.env`.
   */
  public static readonly APPLICATION_ENVIRONMENT_FILE = '/etc/fw/application.env';

  private constructor() {}
}

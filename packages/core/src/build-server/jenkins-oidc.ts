import type { IOidcIntegration, OidcProviderSettings } from '../contract/oidc-integration';
import { ENV } from './jenkins-configuration';

/** Jenkins' own sign-in with the oic-auth plugin: the provider reaches the realm through its environment variables. */
export class JenkinsOidcIntegration implements IOidcIntegration {
  public callbackPath(): string {
    return '/securityRealm/finishLogin';
  }

  public clientSecretVariable(): string {
    return ENV.oidcClientSecret;
  }

  public environment(provider: OidcProviderSettings): Record<string, string> {
    return {
      [ENV.oidcIssuer]: provider.issuer,
      [ENV.oidcAuthorizationUrl]: provider.authorizationEndpoint,
      [ENV.oidcTokenUrl]: provider.tokenEndpoint,
      [ENV.oidcUserInfoUrl]: provider.userInfoEndpoint,
      [ENV.oidcClientId]: provider.clientId,
    };
  }
}

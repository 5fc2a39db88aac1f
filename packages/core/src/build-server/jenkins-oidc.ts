import { ENV } from './jenkins-configuration';
import { OIDC_DEFAULT_SCOPES } from '../context/context-keys';
import type { IOidcIntegration, OidcProviderSettings } from '../contract/oidc-integration';

/**
 * Jenkins' own sign-in with the oic-auth plugin. The realm reads the provider's discovery document (OpenID Connect
 * Discovery 1.0, section 4: `<issuer>/.well-known/openid-configuration`), which brings the endpoints and the keys
 * that sign the ID tokens; the endpoints given to the framework serve the load balancer's sign-in only.
 */
export class JenkinsOidcIntegration implements IOidcIntegration {
  public callbackPath(): string {
    return '/securityRealm/finishLogin';
  }

  public clientSecretVariable(): string {
    return ENV.oidcClientSecret;
  }

  public environment(provider: OidcProviderSettings): Record<string, string> {
    return {
      [ENV.oidcWellKnownUrl]: `${provider.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
      [ENV.oidcClientId]: provider.clientId,
      [ENV.oidcScopes]: (provider.scopes ?? OIDC_DEFAULT_SCOPES).join(' '),
    };
  }
}

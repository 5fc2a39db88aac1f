import { assertNotExpandedByCasc } from './casc-variable';
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

  /**
   * The provider's values reach jenkins.yaml as `${VARIABLE}`s, and configuration-as-code substitutes in what a
   * variable resolves to as well (commons-text's StringSubstitutor, which SecretSourceResolver uses, substitutes
   * recursively by default): so they refuse `${` too, named by their context keys.
   */
  public environment(provider: OidcProviderSettings): Record<string, string> {
    assertNotExpandedByCasc({ oidcIssuer: provider.issuer, oidcClientId: provider.clientId, oidcScopes: (provider.scopes ?? []).join(' ') },
      'JenkinsSpec: the identity provider\'s keys');
    return {
      [ENV.oidcWellKnownUrl]: `${provider.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
      [ENV.oidcClientId]: provider.clientId,
      [ENV.oidcScopes]: (provider.scopes ?? OIDC_DEFAULT_SCOPES).join(' '),
    };
  }
}

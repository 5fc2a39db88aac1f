import { UserError } from '../errors';

/** A configuration-as-code variable: resolved from the controller's environment at start. */
export const ref = (name: string) => `\${${name}}`;

/**
 * Configuration-as-code expands `${NAME}` in every string of jenkins.yaml at each start, from the controller's
 * environment and secrets, lookups such as `${base64:...}` and `${json:...}` included (configuration-as-code
 * 2117.vc05a_0b_e6b_f4e SecretSourceResolver.java lines 45-69). A user's value carrying `${` would read the OIDC client
 * secret or a token into a page anyone with Overall/Read sees. Every user value rendered into jenkins.yaml is refused
 * with it, naming the setting; none has a reason to hold it (names, URLs, git refs, image references).
 */
export function assertNotExpandedByCasc(values: Record<string, string | undefined>, where: string): void {
  const bad = Object.entries(values).filter(([, value]) => value?.includes('${'));
  if (bad.length > 0) {
    throw new UserError(`${where}: ${bad.map(([name]) => name).join(', ')} contain${bad.length === 1 ? 's' : ''} "\${", which ` +
      'configuration-as-code would expand at start from the controller\'s environment and secrets (the value is not ' +
      'shown: it may name one); allowed: any value without "${".');
  }
}

import { UserError } from '../errors';
import { Shell } from '../userdata/shell';

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

/**
 * The runtime secrets jenkins.yaml names as `${VAR}` (the OIDC client secret, SonarQube's token and webhook secret, the
 * library's git user) pass through the same expansion at start: configuration-as-code's resolver keeps substituting
 * inside a resolved value (2117.vc05a_0b_e6b_f4e SecretSourceResolver.java lines 59-68), so a secret holding `${` is
 * silently altered, and `${readFile:...}` would read a controller file into the credential. Synth cannot see their
 * values, so the boot refuses them, naming the variable and never the value.
 */
function expandedSecretMessage(name: string): string {
  return `${name}: its value holds "\${", which configuration-as-code would expand at start (the value is not shown); ` +
    'change the secret in Secrets Manager';
}

/** Fargate's init container (sh, the secrets in its environment): stops the task before Jenkins starts. */
export function refuseExpandedSecrets(names: readonly string[]): string[] {
  return names.map((name) => `case "\${${name}-}" in *'\${'*) echo ${Shell.quote(expandedSecretMessage(name))} >&2; exit 1 ;; esac`);
}

/**
 * EC2, after the environment file is written (bash): each entry as `fw_env_line` wrote it, `NAME="..."` with `\`, `"`,
 * backquote and `$` escaped by a `\`, so a value holds `${` exactly when its entry holds `\${` outside an escape, and
 * ends at its first unescaped `"` (a line break inside is part of the value, as systemd reads it). The awk program walks
 * each entry so. A name absent from the file is not checked: nothing of it reaches Jenkins.
 */
export function refuseExpandedSecretsInFile(file: string, names: readonly string[]): string[] {
  if (names.length === 0) return [];
  // "$" "{" is awk's concatenation: no ${ inside the shell's single quotes.
  const walk = [
    '!on && index($0, n "=\\"") == 1 { on = 1; $0 = substr($0, length(n) + 3) }',
    '!on { next }',
    '{ for (i = 1; i <= length($0); i++) { c = substr($0, i, 1);',
    'if (c == "\\\\") { if (substr($0, i + 1, 2) == "$" "{") found = 1; i++ } else if (c == "\\"") exit } }',
    'END { exit !found }',
  ].join(' ');
  const message = expandedSecretMessage('$1').replace('"${"', '\\"\\${\\"');
  return [
    `fw_casc_refuse() { [ -f "$2" ] || return 0; if awk -v n="$1" ${Shell.quote(walk)} "$2"; then fw_log "${message}"; exit 1; fi; }`,
    ...names.map((name) => `fw_casc_refuse ${Shell.quote(name)} ${Shell.quote(file)}`),
  ];
}

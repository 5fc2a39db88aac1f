/**
 * An environment variable name as POSIX defines one, and as systemd's `EnvironmentFile=` and ECS take it: a letter or
 * `_`, then letters, digits and `_`. A line break or `=` in a name would write other entries into an EC2 environment
 * file.
 * @see https://pubs.opengroup.org/onlinepubs/9799919799/basedefs/V1_chap08.html
 */
export const ENVIRONMENT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Who sets a set of variables: `containerImage.environment`, `secrets`, the OIDC integration, ... */
export interface VariableSource {
  readonly setBy: string;
  readonly names: readonly string[];
}

/**
 * Every variable set by two sources, and every name that is no environment variable name: the application gets each
 * variable once. Otherwise the runtimes disagree: on EC2 systemd keeps the environment file's entry over `Environment=`
 * (systemd.exec(5)), so a `secrets` entry named JAVA_OPTS would replace the build server's hardening flags, and ECS
 * refuses a secret named like an environment variable only at deploy. Names are shown (never values).
 */
export function variableProblems(sources: readonly VariableSource[]): string[] {
  const problems: string[] = [];
  const setters = new Map<string, string[]>();
  for (const { setBy, names } of sources) {
    for (const name of names) {
      if (!ENVIRONMENT_NAME.test(name)) {
        problems.push(`${setBy} names the variable ${JSON.stringify(name)}; allowed: a letter or _, then letters, digits and _`);
      } else {
        setters.set(name, [...setters.get(name) ?? [], setBy]);
      }
    }
  }
  for (const [name, by] of setters) {
    if (by.length > 1) problems.push(`${name} is set by ${by.join(' and by ')}; each variable is set once: rename it in ${by[by.length - 1]}`);
  }
  return problems;
}

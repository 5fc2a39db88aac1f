import { spawnSync } from 'node:child_process';

/** shellcheck's findings for a bash script (empty when clean), or undefined when shellcheck is not installed. */
export function shellcheck(script: string): string | undefined {
  const run = spawnSync('shellcheck', ['--shell=bash', '--severity=style', '-'], { input: script, encoding: 'utf-8' });
  if (run.error) return undefined;
  return run.stdout + run.stderr;
}

/** In CI a missing tool is a failure, not a skip. */
export function requireInCi(available: boolean, what: string): boolean {
  if (!available && process.env.CI) {
    throw new Error(`${what} is required in CI (.ci/run installs it)`);
  }
  return available;
}

import { spawnSync } from 'node:child_process';

/** shellcheck's findings for a bash script (empty when clean), or undefined when shellcheck is not installed. */
export function shellcheck(script: string): string | undefined {
  const run = spawnSync('shellcheck', ['--shell=bash', '--severity=style', '-'], { input: script, encoding: 'utf-8' });
  if (run.error) return undefined;
  return run.stdout + run.stderr;
}

/** Whether CI is set (`CI=true`, `CI=1`, ...; `false`, `0` and empty do not count). */
export function inCi(): boolean {
  const ci = (process.env.CI ?? '').trim().toLowerCase();
  return ci !== '' && ci !== 'false' && ci !== '0';
}

/** In CI a missing tool is a failure, not a skip. */
export function requireInCi(available: boolean, what: string): boolean {
  if (!available && inCi()) {
    throw new Error(`${what} is required in CI (.ci/run installs it)`);
  }
  return available;
}

type Body = () => void;
type TestBody = (...args: any[]) => unknown;

/** `describe`, `test` and `test.each` for tests that need `what`: the skipping variants when it is missing. */
export interface Needing {
  readonly describe: (name: string, body: Body) => void;
  readonly test: (name: string, body: TestBody) => void;
  readonly testEach: (table: readonly unknown[]) => (name: string, body: TestBody) => void;
}

/**
 * Tests that need something this machine may lack (root, a loop device, a tool): registered either way, so outside CI
 * they show as skipped with the reason in their name instead of vanishing; in CI a missing prerequisite fails.
 * `unavailable` is why it is missing, or undefined when it is there.
 */
export function needing(what: string, unavailable: string | undefined): Needing {
  if (unavailable !== undefined && inCi()) {
    throw new Error(`${what} is required in CI (.ci/run runs as root and installs the tools): ${unavailable}`);
  }
  if (unavailable === undefined) {
    return {
      describe: (name, body) => describe(name, body),
      test: (name, body) => test(name, body as any),
      testEach: (table) => (name, body) => test.each(table as any[])(name, body as any),
    };
  }
  const reason = (name: string) => `${name} [skipped: needs ${what}; ${unavailable}]`;
  // Jest names skipped tests only in a verbose run of a file that runs others too, and drops the console output of a
  // file whose tests are all skipped: straight to stderr, this line shows in every run.
  process.stderr.write(`skipped: the tests that need ${what} (${unavailable}); in CI they fail instead\n`);
  return {
    describe: (name, body) => describe.skip(reason(name), body),
    test: (name, body) => test.skip(reason(name), body as any),
    testEach: (table) => (name, body) => test.skip.each(table as any[])(reason(name), body as any),
  };
}

/** Why shellcheck cannot run here, or undefined when it can. */
export function shellcheckUnavailable(): string | undefined {
  return shellcheck('true') === undefined ? 'shellcheck is not installed' : undefined;
}

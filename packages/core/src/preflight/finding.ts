/** What one preflight check found: `ok` findings say what holds, the others what the deployment would meet. */
export interface Finding {
  /** The check, as its line starts: `vpc`, `endpoints`, `images`, `secrets`, `dns`, `certificate`, `config`, ... */
  readonly check: string;
  /** The configuration key the fact comes from (a context key, or `the deployment` for what no single key sets). */
  readonly key: string;
  /** `ok`, `fail` (the deployment would fail or be unsafe), or `warn` (it may: a person decides). */
  readonly status: 'ok' | 'fail' | 'warn';
  /** What was found, naming the resource. */
  readonly message: string;
  /** For `fail` and `warn`: what to change, where. */
  readonly fix?: string;
}

/** A finding that holds. */
export function ok(check: string, key: string, message: string): Finding {
  return { check, key, status: 'ok', message };
}

/** A finding the deployment would fail on. */
export function fail(check: string, key: string, message: string, fix: string): Finding {
  return { check, key, status: 'fail', message, fix };
}

/** A finding a person has to judge. */
export function warn(check: string, key: string, message: string, fix: string): Finding {
  return { check, key, status: 'warn', message, fix };
}

/** The AWS error name of a failed call (`ResourceNotFoundException`, `AccessDeniedException`, ...). */
export function errorName(e: unknown): string {
  return (e as { name?: string })?.name ?? String(e);
}

import type { IConstruct } from 'constructs';

/**
 * A mistake in what a user or a plugin author supplied (context keys, a manifest, a spec value).
 *
 * The deployment app prints its message alone, without a stack trace: the message names what was wrong, the value
 * given and what is allowed.
 */
export class UserError extends Error {
  public readonly isUserError = true;
  /** The construct the mistake is about, by its path in the tree (as aws-cdk-lib's ValidationError has it). */
  public readonly constructPath?: string;

  /**
   * @param message what was wrong, the value given and what is allowed
   * @param scope the construct it is about, when there is one
   */
  constructor(message: string, scope?: IConstruct) {
    super(message);
    this.name = 'UserError';
    this.constructPath = scope?.node.path;
  }
}

/**
 * `error`, given the path of `scope` when it is a user error that names no construct yet. The constructs a user creates
 * (`ApplicationFactory`, `Platform`) pass every error of their construction through it, so a mistake found in a
 * helper that has no construct of its own still says where it was made.
 */
export function withConstructPath(error: unknown, scope: IConstruct): unknown {
  if (error instanceof UserError && error.constructPath === undefined) {
    (error as { constructPath?: string }).constructPath = scope.node.path;
  }
  return error;
}

/**
 * A value as an error message shows it: JSON, and when long its first 40 characters, `…` and its length, so a
 * message stays on one line; a missing value is `absent`.
 */
export function shownValue(raw: unknown): string {
  // A Java or Python caller never wrote `undefined` or `null`: what it passed is absent.
  if (raw === undefined || raw === null) return 'absent';
  const shown = typeof raw === 'string' ? raw : JSON.stringify(raw) ?? String(raw);
  if (shown.length <= 60) return typeof raw === 'string' ? JSON.stringify(raw) : shown;
  return `${JSON.stringify(shown.slice(0, 40)).slice(0, -1)}…" (${shown.length} characters)`;
}

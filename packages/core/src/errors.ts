/**
 * A mistake in what a user or a plugin author supplied (context keys, a manifest, a spec value).
 *
 * The deployment app prints its message alone, without a stack trace: the message names what was wrong, the value
 * given and what is allowed.
 */
export class UserError extends Error {
  public readonly isUserError = true;

  constructor(message: string) {
    super(message);
    this.name = 'UserError';
  }
}

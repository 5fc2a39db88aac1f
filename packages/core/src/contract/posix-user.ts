import { UserError } from '../errors';

/** Numeric user and group ids, as text (the form the user-data operations take). */
export interface PosixIds {
  /** Numeric user id. */
  readonly uid: string;
  /** Numeric group id. */
  readonly gid: string;
}

/**
 * Parses the `<UID>:<GID>` form of `containerUser()`.
 */
export class PosixUser {
  /** Splits `<UID>:<GID>` into its numeric ids. Fails on any other form. */
  public static parse(containerUser: string): PosixIds {
    const match = /^(\d{1,10}):(\d{1,10})$/.exec(containerUser);
    if (!match) {
      throw new UserError(
        `containerUser '${containerUser}' is not of the form <UID>:<GID> with numeric ids (for example '1000:1000').`,
      );
    }
    return { uid: match[1], gid: match[2] };
  }

  private constructor() {}
}

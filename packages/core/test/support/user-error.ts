import { UserError } from '../../src/errors';

/** The error `build` throws, which must be a UserError (the test fails otherwise). */
export function userErrorOf(build: () => unknown): UserError {
  try {
    build();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return e as UserError;
  }
  throw new Error('expected a UserError');
}

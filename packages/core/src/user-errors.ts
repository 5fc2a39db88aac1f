/** Set to `1`, `UserErrors.exitOnUserError` rethrows, so the stack trace shows. */
export const DEBUG_VARIABLE = 'FW_DEBUG';

/**
 * A mistake the user can fix, reported as `fw-deploy` reports it: its message, without a stack trace. For a CDK app
 * of your own, around building and synthesising it (Python: `fw_deploy.user_errors()`; see docs/deploying.md):
 *
 * ```ts
 * try { new ApplicationFactory(stack, 'App', RuntimeType.FARGATE, spec, props); app.synth(); }
 * catch (e) { UserErrors.exitOnUserError(e); }
 * ```
 */
export class UserErrors {
  /**
   * Whether `error` is a mistake in what a user or plugin author supplied (the framework's `UserError`: a context key,
   * a prop, a plugin's value) or a PRODUCTION compliance finding (the CDK's `Validation failed`), not a fault.
   * @param error what was thrown
   */
  public static isUserError(error: any): boolean {
    return error?.isUserError === true || /^Validation failed/.test(String(error?.message));
  }

  /**
   * A user error: its message and a one-line hint on standard error, then exit status 1. Anything else, and every
   * error while `DEBUG_VARIABLE` is set, is rethrown unchanged.
   * @param error what was thrown
   * @param program the name each line starts with (`fw` when not given)
   */
  public static exitOnUserError(error: any, program: string = 'fw'): void {
    if (!UserErrors.isUserError(error) || process.env[DEBUG_VARIABLE]) throw error;
    const where = error.constructPath ? `${program}: in ${error.constructPath}\n` : '';
    process.stderr.write(`${program}: ${error.message}\n${where}${program}: (a mistake in the settings, not a fault: set ${DEBUG_VARIABLE}=1 for the stack trace)\n`);
    process.exit(1);
  }

  private constructor() {}
}

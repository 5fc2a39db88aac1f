/**
 * The one quoting helper for everything the framework interpolates into a shell script.
 */
export class Shell {
  /**
   * Quotes a value as a single bash word: single quotes, with each embedded `'` written as `'\''`.
   * Nothing inside expands. CDK tokens pass through intact and are resolved at deploy time.
   */
  public static quote(value: string): string {
    if (value.includes('\0')) {
      throw new Error('a shell word cannot contain a NUL character');
    }
    return `'${value.replace(/'/g, '\'\\\'\'')}'`;
  }

  private constructor() {}
}

/** A configuration-as-code variable: resolved from the controller's environment at start. */
export const ref = (name: string) => `\${${name}}`;

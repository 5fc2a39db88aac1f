/**
 * Runs before each test file. The CDK validates every synthesised template with its CloudFormation validation plugin
 * (`@aws/cloudformation-validate`, a WASM rule engine) unless `CDK_VALIDATION` is `false`; it reports, it never fails
 * a synth, and it takes about four fifths of a synth's time (about 4 s to load in each test file, then about 0.2 s a
 * synth). The suites synthesise hundreds of times, so they turn it off here, and `cfn-lint.test.ts` runs the same
 * plugin on purpose over every configuration it lints, failing on any finding. Child processes the tests start with
 * `{ ...process.env }` inherit the setting.
 */
process.env.CDK_VALIDATION = 'false';

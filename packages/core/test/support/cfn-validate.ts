import * as path from 'node:path';
import { App, CloudFormationValidatePlugin } from 'aws-cdk-lib';
import { REGION_ENV } from './synth';

/**
 * What the CDK's own CloudFormation validation (`CloudFormationValidatePlugin`, which `cdk synth` runs on every
 * template unless `CDK_VALIDATION=false`) reports on these template files, one line a finding: the same plugin, rules
 * and severity level (warnings and above) a user's synth gets. The test suites turn the synth-time run off
 * (test/support/jest-setup.ts) and call this instead where they check templates.
 */
export function cfnValidateFindings(templatePaths: string[]): string[] {
  const report = new CloudFormationValidatePlugin().validate({
    templatePaths,
    // Each stack's account and region are the engine's pseudo parameters (aws-cdk-lib 2.270's
    // cloudformation-validate-plugin.js reads them per stack); as the tests synthesise: a region, no account.
    stackTemplates: templatePaths.map((templatePath) => ({
      stackConstructPath: path.basename(templatePath), templatePath, accountId: undefined, region: REGION_ENV.region,
    })),
    accountId: undefined,
    region: REGION_ENV.region,
    // The plugin reads only the template files; no tree here.
    appConstruct: new App(),
  });
  return report.violations.flatMap((v) => v.violatingResources.map((r) =>
    `${path.basename(r.templatePath ?? '')} ${r.resourceLogicalId ?? r.constructPath ?? ''}: ${v.ruleName} (${v.severity}) ${v.description}`));
}

import { aws_config as config, Stack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { UserError } from '../errors';
import { warn } from '../warnings';
import { PCI_DSS_MAPPING } from './pci-dss-401/mapping';

/** The start of the conformance pack's name; the stack's name follows. */
const PACK_NAME_PREFIX = 'fw-pci-dss-4-';

/** AWS Config's limit on a conformance pack's template body (botocore 1.44.8 config model, `TemplateBody.max`). */
export const CONFORMANCE_PACK_TEMPLATE_MAX = 51200;

/**
 * AWS Config's quota "Maximum number of AWS Config Rules per conformance pack", not adjustable (AWS General Reference,
 * AWS Config endpoints and quotas): a refreshed mapping with more rules would fail at deploy (conformance-pack.test.ts).
 */
export const CONFORMANCE_PACK_RULES_MAX = 130;

/**
 * Rules of AWS's pack left out of the deployed body, each with why: their input is the customer's to write, and AWS's
 * pack ships a placeholder (`controlPolicy` '1024' is no bucket policy), with which the rule would judge nothing.
 */
export const CUSTOMER_INPUT_RULES: Record<string, string> = {
  's3-bucket-policy-not-more-permissive': 'its controlPolicy is the bucket policy no bucket may exceed, which only the ' +
    'account\'s owner can write; deploy the rule with it yourself',
};

/**
 * The template of AWS's PCI DSS 4.0 conformance pack, rebuilt from the derived mapping: every Config rule with its
 * source, scope and the pack's default input parameters (resolved: the body declares no parameter), but
 * `CUSTOMER_INPUT_RULES`.
 */
export function conformancePackTemplate(): string {
  const resources = Object.fromEntries(PCI_DSS_MAPPING.rules.filter((r) => !(r.configRule in CUSTOMER_INPUT_RULES)).map((r) => [
    r.configRule.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(''),
    {
      Type: 'AWS::Config::ConfigRule',
      Properties: {
        ConfigRuleName: r.configRule,
        Source: { Owner: 'AWS', SourceIdentifier: r.sourceIdentifier },
        ...(r.resourceTypes.length ? { Scope: { ComplianceResourceTypes: r.resourceTypes } } : {}),
        ...(Object.keys(r.inputParameters).length ? { InputParameters: r.inputParameters } : {}),
      },
    },
  ]));
  return JSON.stringify({ AWSTemplateFormatVersion: '2010-09-09', Resources: resources });
}

/**
 * AWS's PCI DSS 4.0 conformance pack, deployed with the stack (`pciConformancePack`), so AWS Config evaluates what
 * only the deployed account shows. AWS Config needs a configuration recorder in the account and region; the synth
 * warns of it, because nothing in a template can create or find one without owning it.
 */
export function addPciConformancePack(scope: Construct, id: string): config.CfnConformancePack {
  const stack = Stack.of(scope);
  // Its Config rules are account-wide, toward Config's quota of rules: a second pack in the same account and region
  // (or one whose stack names neither) would run each rule twice.
  const environment = (s: Stack) => `${s.account}/${s.region}`;
  const other = stack.node.root.node.findAll().find((c): c is config.CfnConformancePack => c instanceof config.CfnConformancePack &&
    c.conformancePackName?.startsWith(PACK_NAME_PREFIX) === true && environment(Stack.of(c)) === environment(stack));
  if (other) {
    throw new UserError(`pciConformancePack on ${stack.stackName}: ${Stack.of(other).stackName} deploys it in the same account ` +
      'and region already; an account and region needs it once. Set it on one stack only (on a platform, the platform\'s).');
  }
  warn(scope, 'pciConformancePackNeedsRecorder', 'pciConformancePack deploys AWS\'s PCI DSS 4.0 ' +
    'conformance pack, which needs an AWS Config configuration recorder recording in this account and region ' +
    '(`aws configservice describe-configuration-recorder-status`); without one the deployment fails with ' +
    'NoAvailableConfigurationRecorderException.');
  return new config.CfnConformancePack(scope, id, {
    conformancePackName: `${PACK_NAME_PREFIX}${stack.stackName}`,
    templateBody: conformancePackTemplate(),
  });
}

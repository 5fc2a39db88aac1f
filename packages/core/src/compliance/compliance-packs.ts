import { Aspects, Stack } from 'aws-cdk-lib';
import { AwsSolutionsChecks, HIPAASecurityChecks, NIST80053R5Checks, WriteNagSuppressionsToCloudFormationAspect } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { acknowledgementFor } from './acknowledgements';
import { attachEvidenceReport } from './evidence-report';
import { PciDss401Checks } from './pci-dss-401/pci-dss-401-checks';
import type { Applicability, SourcedControl } from './report-model';

// PRODUCTION's checks: the four packs, the failing synth and the evidence report. It loads cdk-nag, so the factory and
// the platform load it only where the profile runs the packs.

/** The cdk-nag packs a PRODUCTION deployment must pass. */
export function compliancePacks() {
  return [new AwsSolutionsChecks(), new PciDss401Checks(), new NIST80053R5Checks(), new HIPAASecurityChecks()];
}

/**
 * Every unacknowledged finding of the packs below `scope`, one line each: rule, what is wrong, where.
 * Acknowledgments are made with `Validations.of(resource).acknowledge({ id, reason })` on the resource concerned.
 */
export function complianceFindings(scope: IConstruct): string[] {
  const constructs = new Map(scope.node.findAll().map((c) => [c.node.path, c]));
  return compliancePacks().flatMap((pack) => pack.validateScope(scope).violations.flatMap((v) => {
    const open = v.violatingResources.filter((r) => !coversFinding(r.constructPath ? constructs.get(r.constructPath) : undefined, v.ruleName));
    return open.length === 0 ? [] : [`${v.ruleName} (${v.severity}): ${v.description} [${open.map((r) => r.constructPath).join(', ')}]`];
  }));
}

/**
 * Whether an acknowledgement of a rule's plain id (`AwsSolutions-IAM5`) on the resource covers one of that rule's
 * per-value findings (`AwsSolutions-IAM5[Resource::...]`). cdk-nag matches only the exact finding id, whose text
 * holds deploy-time names (logical ids, region); the resource-level acknowledgement with its reason is the same.
 */
function coversFinding(resource: IConstruct | undefined, ruleName: string): boolean {
  const plainId = /^([^[]+)\[.+\]$/.exec(ruleName)?.[1];
  return !!(plainId && resource && acknowledgementFor(resource, plainId) !== undefined);
}

/**
 * Makes synth fail, through `owner`'s validation, on any unacknowledged finding in `stack`, writes every
 * acknowledgement into its resource's template metadata, and puts the PCI DSS evidence report, with the application's
 * own `controls`, beside the template.
 */
export function requireCompliance(owner: IConstruct, stack: Stack, controls: SourcedControl[] = [], applicability?: Applicability): void {
  requireComplianceOf(owner, stack, stack, controls, applicability);
}

/** The scopes already under the packs: a scope inside one is not checked twice. */
const CHECKED = new WeakSet<IConstruct>();

/**
 * `requireCompliance` for any scope: synth fails, through `owner`'s validation, on any unacknowledged finding below
 * `scope`; the acknowledgements are written into the template, and the evidence report of `stack` covers it. Nothing
 * more when `scope` or a scope above it is already checked.
 */
export function requireComplianceOf(owner: IConstruct, scope: IConstruct, stack: Stack, controls: SourcedControl[] = [],
  applicability?: Applicability): void {
  attachEvidenceReport(stack, controls, applicability);
  for (let c: IConstruct | undefined = scope; c; c = c.node.scope) if (CHECKED.has(c)) return;
  CHECKED.add(scope);
  owner.node.addValidation({ validate: () => complianceFindings(scope) });
  // The deployed template carries the evidence: each resource's acknowledgements, with their reasons, in its
  // Metadata (cdk_nag.rules_to_suppress, cdk-nag's own format).
  Aspects.of(scope).add(new WriteNagSuppressionsToCloudFormationAspect());
}


import { Aspects, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks, HIPAASecurityChecks, NIST80053R5Checks, PCIDSS321Checks, WriteNagSuppressionsToCloudFormationAspect } from 'cdk-nag';
import type { Construct, IConstruct } from 'constructs';

/** The cdk-nag packs a PRODUCTION deployment must pass. */
export function compliancePacks() {
  return [new AwsSolutionsChecks(), new PCIDSS321Checks(), new NIST80053R5Checks(), new HIPAASecurityChecks()];
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
  for (let c = resource; plainId && c; c = c.node.scope) {
    for (const entry of c.node.metadata) {
      if (entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY && entry.data &&
        Object.keys(entry.data).some((key) => key.replace(/^annotation::/i, '') === plainId)) return true;
    }
  }
  return false;
}

/**
 * Makes synth fail, through `owner`'s validation, on any unacknowledged finding below `scope`, and writes every
 * acknowledgement below `scope` into its resource's template metadata.
 */
export function requireCompliance(owner: IConstruct, scope: IConstruct): void {
  owner.node.addValidation({ validate: () => complianceFindings(scope) });
  // The deployed template carries the evidence: each resource's acknowledgements, with their reasons, in its
  // Metadata (cdk_nag.rules_to_suppress, cdk-nag's own format).
  Aspects.of(scope).add(new WriteNagSuppressionsToCloudFormationAspect());
}

/** The rule-id prefixes of the four packs. */
const PACK_PREFIXES = ['AwsSolutions', 'PCI.DSS.321', 'NIST.800.53.R5', 'HIPAA.Security'];

/**
 * Construct-tree context the factory sets to `false` below itself when its profile runs no packs: nothing reads the
 * acknowledgements then, and each one records a stack trace (Validations.acknowledge), which showed in the synth profile.
 */
export const RECORD_ACKNOWLEDGEMENTS = 'fw:recordAcknowledgements';

/**
 * Acknowledges a finding on the one resource it concerns, in every pack that has the rule, with the reason it is safe.
 * `rule` is the pack-independent part of the id (`VPCNoUnrestrictedRouteToIGW`), or a whole id (`AwsSolutions-EC23`).
 */
export function acknowledge(resource: IConstruct, rule: string, reason: string): void {
  if (resource.node.tryGetContext(RECORD_ACKNOWLEDGEMENTS) === false) return;
  const target = resource.node.defaultChild ?? resource;
  const ids = rule.includes('-') ? [rule] : PACK_PREFIXES.map((p) => `${p}-${rule}`);
  Validations.of(target).acknowledge(...ids.map((id) => ({ id, reason })));
}

/**
 * A policy of its own on `role` for statements whose wildcards cannot be narrowed (ids that exist only at run time,
 * actions AWS scopes by nothing but "*"): AwsSolutions-IAM5 is acknowledged on it with `wildcardReason`, so the
 * acknowledgement covers these statements and nothing else of the role.
 */
export function wildcardPolicy(scope: Construct, id: string, role: iam.IRole, purpose: string,
  statements: iam.PolicyStatement[], wildcardReason: string): iam.Policy {
  const policy = new iam.Policy(scope, id, { roles: [role], statements });
  acknowledge(policy, 'AwsSolutions-IAM5', wildcardReason);
  acknowledge(policy, 'IAMNoInlinePolicy', `The ${purpose} statements of one role, kept apart so their ` +
    'acknowledgements cover nothing else; a customer-managed policy would hold the same statements.');
  return policy;
}

/** CDK's grants write each role's statements into a DefaultPolicy, which the packs count as an inline policy. */
export function acknowledgeGrantPolicies(scope: Construct): void {
  for (const policy of scope.node.findAll().filter((c): c is iam.Policy => c instanceof iam.Policy && c.node.id === 'DefaultPolicy')) {
    acknowledge(policy, 'IAMNoInlinePolicy', 'Generated by CDK grants: least-privilege statements on this stack\'s own ' +
      'resources, attached to one role; a customer-managed policy would hold the same statements.');
  }
}

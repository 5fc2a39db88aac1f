import { Aspects, CfnResource, Stack, Stage, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks, HIPAASecurityChecks, NIST80053R5Checks, rules as nagRules, WriteNagSuppressionsToCloudFormationAspect } from 'cdk-nag';
import type { Construct, IConstruct } from 'constructs';
import { acknowledgementFor } from '../compliance/acknowledgements';
import { attachEvidenceReport } from '../compliance/evidence-report';
import { PCI_DSS_VERSION } from '../compliance/pci-dss-401/mapping';
import { PCI_DSS_401_PACK, PciDss401Checks } from '../compliance/pci-dss-401/pci-dss-401-checks';
import { PCI_DSS_401_RULES, requirementsOf } from '../compliance/pci-dss-401/pci-dss-401-rules';
import type { Applicability, SourcedControl } from '../compliance/report-model';
import { didYouMean } from '../context/did-you-mean';
import { shownValue, UserError } from '../errors';

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

/** The rule-id prefixes of the four packs. */
export const PACK_PREFIXES = ['AwsSolutions', PCI_DSS_401_PACK, 'NIST.800.53.R5', 'HIPAA.Security'];

/** The rule names the PCI, NIST and HIPAA packs apply (cdk-nag's rules by their names, and ours). */
const RULE_NAMES: ReadonlySet<string> = new Set([
  ...Object.values(nagRules).flatMap((group) => Object.keys(group)), ...PCI_DSS_401_RULES.map((r) => r.name),
]);

/** The shortest reason accepted: a sentence an assessor can weigh, not a word. */
export const MIN_REASON_LENGTH = 20;

/**
 * Construct-tree context the factory sets to `false` below itself when its profile runs no packs: nothing reads the
 * acknowledgements then, and each one records a stack trace (Validations.acknowledge), which showed in the synth profile.
 */
export const RECORD_ACKNOWLEDGEMENTS = 'fw:recordAcknowledgements';

/**
 * Acknowledges a finding on the one resource it concerns, in every pack that has the rule, with the reason it is
 * acceptable: what `Compliance.acknowledge` does for a user's resource, and the framework for its own. `rule` is the
 * pack-independent part of the id (`VPCNoUnrestrictedRouteToIGW`), or a whole id (`AwsSolutions-EC23`). The PCI
 * acknowledgement's reason ends with the requirements the rule concerns. Refused, with a UserError naming the value:
 * a reason shorter than `MIN_REASON_LENGTH`, a stack or app (it would cover every resource), a construct that is not
 * one resource, an unknown rule.
 */
export function acknowledge(resource: IConstruct, rule: string, reason: string): void {
  const target = resource?.node?.defaultChild ?? resource;
  if (!(target instanceof CfnResource)) {
    const what = resource && (Stack.isStack(resource) || Stage.isStage(resource)) ? 'a whole stack or app' : 'not one resource';
    throw new UserError(`Acknowledging ${shownValue(rule)} on ${resource?.node?.path ?? shownValue(resource)}: that is ${what}; ` +
      'allowed: the resource with the finding (a CfnResource, or an L2 construct whose default child is one).');
  }
  if (typeof reason !== 'string' || reason.trim().length < MIN_REASON_LENGTH) {
    throw new UserError(`Acknowledging ${shownValue(rule)} on ${target.node.path}: reason ${shownValue(reason)}; allowed: why the ` +
      `finding is acceptable, at least ${MIN_REASON_LENGTH} characters (it is the evidence an assessor reads).`);
  }
  const ids = idsOf(rule, target.node.path);
  if (resource.node.tryGetContext(RECORD_ACKNOWLEDGEMENTS) === false) return;
  Validations.of(target).acknowledge(...ids.map((id) => {
    const requirements = requirementsOf(id);
    return { id, reason: requirements ? `${reason} (PCI DSS v${PCI_DSS_VERSION} ${requirements.join(', ')})` : reason };
  }));
}

/** The finding ids a rule names: a whole id as given, a plain name in every pack that has it. */
function idsOf(rule: string, where: string): string[] {
  const refuse = (allowed: string) => new UserError(`Acknowledging ${shownValue(rule)} on ${where}: no such rule; allowed: ${allowed}.`);
  if (typeof rule !== 'string') throw refuse('a rule name or id');
  const prefix = PACK_PREFIXES.find((p) => rule.startsWith(`${p}-`));
  if (prefix === 'AwsSolutions') return [rule];
  const name = prefix ? rule.slice(prefix.length + 1) : rule;
  if (!RULE_NAMES.has(name)) {
    const guess = didYouMean(name, [...RULE_NAMES]);
    throw refuse(`a rule of cdk-nag or PciDss401Checks${guess ? ` (did you mean ${guess}?)` : ''}, alone or after one of ` +
      `${PACK_PREFIXES.join(', ')} and "-"`);
  }
  if (prefix) return [rule];
  return PACK_PREFIXES.filter((p) => p !== 'AwsSolutions' && (p !== PCI_DSS_401_PACK || PCI_DSS_401_RULES.some((r) => r.name === name)))
    .map((p) => `${p}-${name}`);
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

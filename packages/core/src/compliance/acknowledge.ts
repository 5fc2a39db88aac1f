import { aws_iam as iam, CfnResource, Stack, Stage, Validations } from 'aws-cdk-lib';
import type { Construct, IConstruct } from 'constructs';
import { PCI_DSS_401_PACK } from './pci-dss-401/pack-name';
import type * as pciDss401Rules from './pci-dss-401/pci-dss-401-rules';
import { didYouMean } from '../context/did-you-mean';
import { shownValue, UserError } from '../errors';

// Acknowledging a finding, as the framework does for its own resources and Compliance.acknowledge for a user's: light
// enough for every synth (cdk-nag is loaded only when a rule name must be checked).

/**
 * Our PCI DSS pack's rules, loaded on the first acknowledgement that is recorded or checked: they are read from the
 * PCI DSS mapping (157 KB of JSON), which a profile without packs never needs.
 */
function pciRules(): typeof pciDss401Rules {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./pci-dss-401/pci-dss-401-rules');
}

/** The rule-id prefixes of the four packs. */
export const PACK_PREFIXES = ['AwsSolutions', PCI_DSS_401_PACK, 'NIST.800.53.R5', 'HIPAA.Security'];

let ruleNames: ReadonlySet<string> | undefined;
/**
 * The rule names the PCI, NIST and HIPAA packs apply (cdk-nag's rules by their names, and ours). cdk-nag is loaded
 * here, on the first acknowledgement that is checked, not by every synth: a profile without packs never needs it.
 */
function knownRules(): ReadonlySet<string> {
  if (!ruleNames) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const nag: typeof import('cdk-nag') = require('cdk-nag');
    ruleNames = new Set([...Object.values(nag.rules).flatMap((group) => Object.keys(group)), ...pciRules().PCI_DSS_401_RULES.map((r) => r.name)]);
  }
  return ruleNames;
}

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
 * one resource, an unknown rule (checked where a pack reads the acknowledgement, and always when `always`, as
 * `Compliance.acknowledge` asks).
 */
export function acknowledge(resource: IConstruct, rule: string, reason: string, always = false): void {
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
  // Where no pack reads it, the framework's own acknowledgement (`always` false) records and checks nothing.
  const recording = resource.node.tryGetContext(RECORD_ACKNOWLEDGEMENTS) !== false;
  if (!recording && !always) return;
  const ids = idsOf(rule, target.node.path);
  if (!recording) return;
  const { requirementsOf, PCI_DSS_VERSION } = pciRules();
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
  if (!knownRules().has(name)) {
    const guess = didYouMean(name, [...knownRules()]);
    throw refuse(`a rule of cdk-nag or PciDss401Checks${guess ? ` (did you mean ${guess}?)` : ''}, alone or after one of ` +
      `${PACK_PREFIXES.join(', ')} and "-"`);
  }
  if (prefix) return [rule];
  return PACK_PREFIXES.filter((p) => p !== 'AwsSolutions' && (p !== PCI_DSS_401_PACK || pciRules().PCI_DSS_401_RULES.some((r) => r.name === name)))
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

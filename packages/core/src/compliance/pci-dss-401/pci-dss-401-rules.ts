import { PCI_DSS_MAPPING } from './mapping';

export { PCI_DSS_401_PACK } from './pack-name';
export { PCI_DSS_VERSION } from './mapping';

/** A rule of the pack: what it checks and the PCI DSS requirements that property supports. */
export interface PciDssRule {
  /** The rule's name; its finding id is `PCI.DSS.401-<name>`. */
  readonly name: string;
  readonly requirements: string[];
  readonly checks: string;
  /** The AWS Config rules of AWS's pack that check the same property after deployment; none for our own additions. */
  readonly configRules: string[];
}

/** The requirements a rule is read under: AWS's (or ours, for our own rules), and the pairs of ours grades.tsv adds. */
function readUnder(name: string, requirements: string[]): string[] {
  const ours = Object.entries(PCI_DSS_MAPPING.grades[name] ?? {}).filter(([, g]) => g.ours).map(([q]) => q);
  return [...requirements, ...ours.filter((q) => !requirements.includes(q))];
}

/** The pack's rules, in the mapping's order: every Config rule with a synth-time check, then our own additions. */
export const PCI_DSS_401_RULES: PciDssRule[] = [
  ...PCI_DSS_MAPPING.rules.flatMap((r) => {
    if (r.check.kind === 'after-deploy') return [];
    const checks = r.check.kind === 'cdk-nag' ? r.check.checks : `AWS Config's ${r.configRule}, checked in the template`;
    return [{ name: r.check.rule, requirements: readUnder(r.check.rule, r.requirements), checks, configRules: [r.configRule] }];
  }),
  ...Object.entries(PCI_DSS_MAPPING.frameworkRules)
    .map(([name, r]) => ({ name, requirements: readUnder(name, r.requirements), checks: r.checks, configRules: [] })),
];

/** The requirements a finding id (`PCI.DSS.401-LogGroupRetentionOneYear`, with or without a `[...]` suffix) concerns. */
export function requirementsOf(ruleId: string): string[] | undefined {
  const name = /^PCI\.DSS\.401-([^[]+)/.exec(ruleId)?.[1];
  return PCI_DSS_401_RULES.find((r) => r.name === name)?.requirements;
}

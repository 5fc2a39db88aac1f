import * as fs from 'fs';
import * as path from 'path';

/** `aws/pci-dss-4/pci-dss-4.0.json`, derived from AWS's PCI DSS 4.0 conformance pack (its README says how). */
export const PCI_DSS_MAPPING_FILE = path.join(__dirname, '..', '..', '..', 'aws', 'pci-dss-4', 'pci-dss-4.0.json');

/** One AWS Config rule of the pack, the requirements AWS maps it to, and what checks it before deployment. */
export interface ConfigRuleMapping {
  readonly configRule: string;
  readonly sourceIdentifier: string;
  readonly resourceTypes: string[];
  readonly inputParameters: Record<string, string>;
  readonly requirements: string[];
  readonly check:
  | { readonly kind: 'cdk-nag'; readonly rule: string; readonly source: string; readonly checks: string }
  | { readonly kind: 'ours'; readonly rule: string }
  | { readonly kind: 'after-deploy'; readonly why: 'account' | 'no synth-time rule' };
}

/**
 * How far a check that passes goes toward one requirement (`tools/aws/pci-dss-4/grades.tsv`): `full` shows what the
 * requirement asks of the resources it looks at, `partial` part of it, `supporting` helps without meeting it, `none`
 * (a pair AWS's table lists) earns nothing.
 */
export type CheckGrade = 'full' | 'partial' | 'supporting' | 'none';

export interface PciDssMapping {
  readonly provenance: { readonly repository: string; readonly commit: string; readonly file: string; readonly requirementsFrom: string };
  readonly rules: ConfigRuleMapping[];
  /** The framework's rules no Config rule of the pack matches, with the requirements it reads them under. */
  readonly frameworkRules: Record<string, { readonly requirements: string[]; readonly checks: string }>;
  /** Every (check, requirement) pair of the synth-time pack, graded, with the reason in our words. */
  readonly grades: Record<string, Record<string, { readonly grade: CheckGrade; readonly reason: string }>>;
}

export const PCI_DSS_MAPPING: PciDssMapping = JSON.parse(fs.readFileSync(PCI_DSS_MAPPING_FILE, 'utf-8'));

/** The version of the standard the pack and the report are written against. */
export const PCI_DSS_VERSION = '4.0.1';

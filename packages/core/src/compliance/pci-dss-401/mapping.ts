import { pciDssMappingData } from '../../contract/pci-dss-requirements';

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
 * How far a check that passes goes toward one requirement (`tools/aws/pci-dss-4/grades.tsv`): `full` shows all that
 * the testing procedures it names examine, for the resources it looks at; `partial` part of it; `supporting` helps
 * without showing any procedure; `none` earns nothing.
 */
export type CheckGrade = 'full' | 'partial' | 'supporting' | 'none';

/** What a testing procedure has the assessor do (`tools/aws/pci-dss-4/procedures.tsv`); only `configuration` is something a template can show. */
export type ProcedureMethod = 'documentation' | 'configuration' | 'records' | 'interview' | 'observation' | 'unknown';

/** One defined-approach testing procedure of a requirement, by its number in PCI DSS v4.0.1 (`10.5.1.b`). */
export interface TestingProcedure {
  readonly id: string;
  readonly methods: ProcedureMethod[];
}

/** A graded (check, requirement) pair. */
export interface PairGrade {
  readonly grade: CheckGrade;
  /** The testing procedures the check shows, fully (`full`) or in part (`partial`); none for the other grades. */
  readonly procedures: string[];
  readonly reason: string;
  /** A pair of ours, which AWS's table does not list: the rule is read under this requirement too. @default false */
  readonly ours?: boolean;
}

export interface PciDssMapping {
  readonly provenance: { readonly repository: string; readonly commit: string; readonly file: string; readonly requirementsFrom: string };
  readonly rules: ConfigRuleMapping[];
  /** The framework's rules no Config rule of the pack matches, with the requirements it reads them under. */
  readonly frameworkRules: Record<string, { readonly requirements: string[]; readonly checks: string }>;
  /** Every (check, requirement) pair of the synth-time pack, graded, with the reason in our words. */
  readonly grades: Record<string, Record<string, PairGrade>>;
  /** Every PCI DSS v4.0.1 requirement with its testing procedures: the list requirement numbers are checked against. */
  readonly procedures: Record<string, TestingProcedure[]>;
  readonly proceduresFrom: string;
}

export const PCI_DSS_MAPPING = pciDssMappingData() as unknown as PciDssMapping;

/** The version of the standard the pack and the report are written against. */
export const PCI_DSS_VERSION = '4.0.1';

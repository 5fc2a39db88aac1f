import { pciDssRequirements } from './pci-dss-requirements';
import { shownValue } from '../errors';

/**
 * How far a declared control goes toward the requirements it names, judged against each requirement's testing
 * procedure: the evidence report never grades a requirement higher than the best control or check behind it.
 */
export enum ControlGrade {
  /** What the requirement asks of the application is in the configuration the control names. */
  FULL = 'full',
  /** Part of it is. The statement says what is left (to the customer, the identity provider, a process). */
  PARTIAL = 'partial',
  /** It helps. The requirement is met, if at all, by something else (a review, a policy, a person). */
  SUPPORTING = 'supporting',
}

/**
 * A control the application itself implements (sign-in, authorisation, audit, masking), for the PCI DSS evidence
 * report: what no template shows, stated by the plugin that configures it.
 */
export interface ComplianceControl {
  /** The PCI DSS v4.0.1 requirement numbers it supports, for example `8.4.2` or `A3.3.1`. At least one. */
  readonly requirements: string[];
  /** What the application does, in one or two sentences an assessor can check against the running system. */
  readonly statement: string;
  /** Where it is configured, so it can be inspected: a setting, a file, a job. */
  readonly configuredIn: string;
  /**
   * How far it goes toward every requirement it names. Declare a control once per grade when they differ.
   * @default ControlGrade.SUPPORTING
   */
  readonly grade?: ControlGrade;
}

/** A control's grade: the one it declares, else `SUPPORTING` (the `grade` default). */
export function gradeOf(control: ComplianceControl): ControlGrade {
  return control.grade ?? ControlGrade.SUPPORTING;
}

/** A requirement number as PCI DSS v4.0.1 writes it: `10.5.1`, `3.4`, `A1.1.2`. */
export const REQUIREMENT_NUMBER = /^(?:[1-9]|1[0-2]|A[1-3])(?:\.\d{1,2}){0,4}$/;

/** Every problem with a plugin's declared controls, each naming the entry, its value and what is allowed. */
export function complianceControlProblems(controls: unknown, where: string): string[] {
  if (!Array.isArray(controls)) return [`${where} returned ${shownValue(controls)}; allowed: a list of ComplianceControl.`];
  return controls.flatMap((control: ComplianceControl, i) => {
    const problems: string[] = [];
    const requirements = control?.requirements;
    if (!Array.isArray(requirements) || requirements.length === 0 || !requirements.every((r) => typeof r === 'string' && REQUIREMENT_NUMBER.test(r))) {
      problems.push(`${where}[${i}].requirements ${shownValue(requirements)}; allowed: one or more PCI DSS v4.0.1 requirement numbers such as "8.4.2" or "A3.3.1".`);
    } else {
      const unknown = requirements.filter((r) => !pciDssRequirements().has(r));
      if (unknown.length) {
        problems.push(`${where}[${i}].requirements names ${unknown.map((r) => `"${r}"`).join(', ')}, which PCI DSS v4.0.1 does not define; ` +
          'allowed: a requirement with testing procedures, such as "8.4.2" or "A3.3.1" (a heading such as "8.4" is not one).');
      }
    }
    for (const field of ['statement', 'configuredIn'] as const) {
      if (typeof control?.[field] !== 'string' || !control[field].trim()) {
        problems.push(`${where}[${i}].${field} ${shownValue(control?.[field])}; allowed: non-empty text.`);
      }
    }
    if (control?.grade !== undefined && !Object.values(ControlGrade).includes(control.grade)) {
      problems.push(`${where}[${i}].grade ${shownValue(control.grade)}; allowed: ${Object.values(ControlGrade).join(', ')} (ControlGrade), or leave it out for supporting.`);
    }
    return problems;
  });
}

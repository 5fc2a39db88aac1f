import { PCI_DSS_MAPPING, type TestingProcedure } from './pci-dss-401/mapping';
import type { Coverage, Evaluation, ProcedureEvidence, SourcedControl } from './report-model';
import { ControlGrade, gradeOf } from '../contract/compliance-control';

/**
 * A requirement's coverage, from the testing procedures its evidence shows (`tools/aws/pci-dss-4/procedures.tsv`), not
 * from the best single grade:
 * - a check earns only if every resource it looked at passes (an acknowledged failure is a deviation, never coverage);
 *   it shows the procedures `grades.tsv` names for the pair, fully (`full`) or in part (`partial`);
 * - `configuration-shown` when every procedure of the requirement that examines configuration is shown fully: what a
 *   template can show is there, and the documentation, records, interviews and observations are still the assessor's;
 * - `partial` when some procedure is shown at least in part, or a control declares `partial` or `full` (a plugin's
 *   statement names no procedure, and no template shows it, so it never reaches the top); a control counts at most
 *   `supporting` toward a requirement none of whose procedures examines configuration (the rule checks obey), and
 *   toward one a deployed advisory undermines (`undermined`, its ids), which the coverage names;
 * - `supporting` when only supporting evidence exists; then `after-deploy` where AWS Config evaluates the account
 *   (`evaluated`), else `not-addressed`.
 */
export function procedureCoverage(requirement: string, evaluations: Evaluation[], controls: SourcedControl[],
  configRules: string[], evaluated: boolean, undermined: string[] = []): { coverage: Coverage; coverageBy: string; procedures: ProcedureEvidence[] } {
  const earning = [...new Set(evaluations.map((e) => e.rule))]
    .map((rule) => evaluations.filter((e) => e.rule === rule))
    .filter((results) => results.every((e) => e.result === 'passes') && results[0].grade !== 'none')
    .map((results) => ({ ...results[0], procedures: results[0].procedures ?? [] }));
  const procedures = (PCI_DSS_MAPPING.procedures[requirement] ?? []).map((p) => shownBy(p, earning));
  const configuration = procedures.filter((p) => p.methods.includes('configuration'));
  const capped = capReason(requirement, configuration.length > 0, undermined);
  const controlsPartial = capped ? [] : controls.filter((c) => gradeOf(c) !== ControlGrade.SUPPORTING);
  const left = procedures.filter((p) => p.shown !== 'shown').map((p) => `${p.id} (${p.shown === 'in part' ? 'the rest of it' : p.methods.join(', ')})`);
  const leftText = left.length ? `; left to the assessor: ${left.join(', ')}` : '';
  const withLeft = (text: string) => text.replace(/\.$/, '') + leftText;
  const shown = procedures.filter((p) => p.shown !== 'not shown').map((p) => `${p.id} ${p.shown} by ${p.by.join(', ')}`);
  if (configuration.length && configuration.every((p) => p.shown === 'shown')) {
    return { coverage: 'configuration-shown', coverageBy: withLeft(`the template shows ${shown.join('; ')}`), procedures };
  }
  if (shown.length || controlsPartial.length) {
    const declared = controlsPartial.map((c) => `control of ${c.source} (${gradeOf(c)}): ${c.statement}`);
    return { coverage: 'partial', coverageBy: withLeft([...shown, ...declared].join('; ')), procedures };
  }
  const supporting = [...earning.map((e) => `${e.rule} (supporting): ${e.gradeReason}`),
    ...controls.map((c) => `control of ${c.source} (${gradeOf(c) === ControlGrade.SUPPORTING || !capped ? 'supporting' : `declared ${gradeOf(c)}, supporting: ${capped}`}): ${c.statement}`)];
  if (supporting.length) return { coverage: 'supporting', coverageBy: withLeft(supporting.join('; ')), procedures };
  if (configRules.length && evaluated) {
    return { coverage: 'after-deploy', coverageBy: withLeft(`AWS Config after deployment: ${configRules.join(', ')}`), procedures };
  }
  return {
    coverage: 'not-addressed',
    coverageBy: 'No check of this report earns anything toward it (the checks listed, if any, are graded none or have a failure)' +
      (configRules.length ? `; AWS Config's ${configRules.join(', ')} would see it after deployment, but nothing deploys AWS's ` +
        'conformance pack for this stack (pciConformancePack, here or on its platform), so nothing will evaluate them.' : '.'),
    procedures,
  };
}

/** Why a declared control counts only as supporting toward `requirement`, or undefined when it counts as declared. */
function capReason(requirement: string, examinesConfiguration: boolean, undermined: string[]): string | undefined {
  if (undermined.length) return `undermined while ${undermined.join(', ')} ${undermined.length > 1 ? 'are' : 'is'} deployed`;
  return examinesConfiguration ? undefined : `no testing procedure of ${requirement} examines configuration`;
}

/** How far the earning checks show one procedure: fully by a `full` pair naming it, in part by a `partial` one. */
function shownBy(procedure: TestingProcedure, earning: (Evaluation & { procedures: string[] })[]): ProcedureEvidence {
  const naming = earning.filter((e) => e.procedures.includes(procedure.id));
  const full = naming.filter((e) => e.grade === 'full');
  return {
    ...procedure,
    shown: full.length ? 'shown' : naming.length ? 'in part' : 'not shown',
    by: (full.length ? full : naming).map((e) => e.rule),
  };
}

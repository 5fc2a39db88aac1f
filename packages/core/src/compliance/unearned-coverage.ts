import { PCI_DSS_MAPPING } from './pci-dss-401/mapping';
import { PCI_DSS_401_PACK } from './pci-dss-401/pci-dss-401-rules';
import { type Coverage, COVERAGE_ORDER, type EvidenceReport, EXPOSED_REQUIREMENTS, type RequirementEvidence } from './report-model';
import { ControlGrade, gradeOf } from '../contract/compliance-control';

/**
 * Every requirement of a report whose coverage is higher than its evidence earns, stated on its own terms from the
 * report's results, the grading table and the testing procedures (not from the grades the report copied, nor by the
 * report's code):
 * - a rule earns toward a requirement only if every resource it looked at passes: one failure, even acknowledged, and
 *   the rule earns nothing (a deviation is never coverage);
 * - `configuration-shown` needs every procedure of the requirement that examines configuration named by a `full` pair;
 *   `partial` a pair naming any procedure, or a control declared above `supporting`; `supporting` any other evidence;
 *   `after-deploy` a Config rule of AWS's pack not graded `none` under the requirement, where the pack is deployed;
 * - `exposed` is right exactly for `EXPOSED_REQUIREMENTS` when the report lists a known vulnerability.
 * The tests run it on the reports the main job and the suites write.
 */
export function unearnedCoverage(report: EvidenceReport): string[] {
  const exposedExpected = report.knownVulnerabilities.length > 0;
  return report.requirements.flatMap((r) => {
    const shouldBeExposed = exposedExpected && EXPOSED_REQUIREMENTS.includes(r.requirement);
    if (shouldBeExposed !== (r.coverage === 'exposed')) {
      return [`${r.requirement}: coverage ${r.coverage}, but ${shouldBeExposed ? 'a known vulnerability makes it exposed' : 'nothing deployed is under an advisory'}`];
    }
    if (shouldBeExposed) return [];
    const earns = earned(report, r);
    return COVERAGE_ORDER.indexOf(r.coverage) > COVERAGE_ORDER.indexOf(earns)
      ? [`${r.requirement}: coverage ${r.coverage}, but its evidence earns at most ${earns} (tools/aws/pci-dss-4/grades.tsv, procedures.tsv)`]
      : [];
  });
}

function earned(report: EvidenceReport, r: RequirementEvidence): Coverage {
  const byRule = new Map<string, string[]>();
  for (const e of r.evaluations) byRule.set(e.rule, [...byRule.get(e.rule) ?? [], e.result]);
  const pairs = [...byRule].filter(([, results]) => results.every((result) => result === 'passes'))
    .map(([rule]) => PCI_DSS_MAPPING.grades[rule.slice(PCI_DSS_401_PACK.length + 1)]?.[r.requirement])
    .filter((pair) => pair !== undefined && pair.grade !== 'none');
  const fully = new Set(pairs.filter((pair) => pair!.grade === 'full').flatMap((pair) => pair!.procedures));
  const configuration = (PCI_DSS_MAPPING.procedures[r.requirement] ?? []).filter((p) => p.methods.includes('configuration'));
  if (configuration.length && configuration.every((p) => fully.has(p.id))) return 'configuration-shown';
  if (pairs.some((pair) => pair!.procedures.length) || r.controls.some((c) => gradeOf(c) !== ControlGrade.SUPPORTING)) return 'partial';
  if (pairs.length || r.controls.length) return 'supporting';
  // after-deploy only where AWS Config will evaluate the rules (the report's afterDeployment says whether the pack is
  // deployed), and only from a rule not graded none under the requirement.
  const evaluates = r.afterDeploy.some((rule) => PCI_DSS_MAPPING.grades[rule]?.[r.requirement]?.grade !== 'none');
  return evaluates && !report.afterDeployment.configConformancePack.startsWith('Not ') ? 'after-deploy' : 'not-addressed';
}

import { PCI_DSS_MAPPING } from './pci-dss-401/mapping';
import { PCI_DSS_401_PACK } from './pci-dss-401/pci-dss-401-rules';
import { COVERAGE_ORDER, type EvidenceReport, EXPOSED_REQUIREMENTS } from './report-model';
import { gradeOf } from '../contract/compliance-control';

/**
 * Every requirement of a report whose coverage is higher than its evidence earns, stated on its own terms from the
 * report's results and the grading table (not from the grades the report copied, nor by the report's code):
 * - a rule earns its table grade toward a requirement only if every resource it looked at passes: one failure, even
 *   acknowledged, and the rule earns nothing (a deviation is never coverage);
 * - a declared control earns its declared grade; a Config rule of AWS's pack `after-deploy`, where the pack is deployed;
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
    const rank = (grade: string) => COVERAGE_ORDER.indexOf(grade as any);
    // after-deploy only where AWS Config will evaluate the rules: the report's afterDeployment says whether the pack is deployed.
    const evaluated = !report.afterDeployment.configConformancePack.startsWith('Not ');
    let best = r.afterDeploy.length && evaluated ? rank('after-deploy') : rank('not-addressed');
    const byRule = new Map<string, string[]>();
    for (const e of r.evaluations) byRule.set(e.rule, [...byRule.get(e.rule) ?? [], e.result]);
    for (const [rule, results] of byRule) {
      if (!results.every((result) => result === 'passes')) continue;
      best = Math.max(best, rank(PCI_DSS_MAPPING.grades[rule.slice(PCI_DSS_401_PACK.length + 1)]?.[r.requirement]?.grade ?? 'none'));
    }
    for (const control of r.controls) best = Math.max(best, rank(gradeOf(control)));
    return rank(r.coverage) > best
      ? [`${r.requirement}: coverage ${r.coverage}, but its evidence earns at most ${COVERAGE_ORDER[best]} (grades in tools/aws/pci-dss-4/grades.tsv)`]
      : [];
  });
}

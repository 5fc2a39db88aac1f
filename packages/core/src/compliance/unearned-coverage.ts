import { PCI_DSS_MAPPING } from './pci-dss-401/mapping';
import { PCI_DSS_401_PACK } from './pci-dss-401/pci-dss-401-rules';
import { type Coverage, COVERAGE_ORDER, type EvidenceReport } from './report-model';
import { gradeOf } from '../contract/compliance-control';

/** A check graded `none` earns less than any coverage. */
const ORDER: readonly string[] = ['none', ...COVERAGE_ORDER];

/**
 * Every requirement of a report whose coverage is higher than its evidence earns, re-derived from the report's own
 * results and the grading table (not from the grades the report copied): a check earns its table grade when every
 * resource it looked at passes (at most `partial` with one acknowledged), a control its declared grade, AWS Config
 * `after-deploy`. The tests run it on the reports the main job and the suites write.
 */
export function unearnedCoverage(report: EvidenceReport): string[] {
  return report.requirements.flatMap((r) => {
    const earned: string[] = ['not-addressed'];
    if (r.afterDeploy.length) earned.push('after-deploy');
    for (const rule of new Set(r.evaluations.map((e) => e.rule))) {
      const results = r.evaluations.filter((e) => e.rule === rule).map((e) => e.result);
      const grade = PCI_DSS_MAPPING.grades[rule.slice(PCI_DSS_401_PACK.length + 1)]?.[r.requirement]?.grade ?? 'none';
      if (results.includes('fails')) continue;
      earned.push(results.includes('acknowledged') && grade === 'full' ? 'partial' : grade);
    }
    for (const control of r.controls) earned.push(gradeOf(control));
    const best = earned.reduce((a, b) => (ORDER.indexOf(b) > ORDER.indexOf(a) ? b : a)) as Coverage;
    return ORDER.indexOf(r.coverage) > ORDER.indexOf(best)
      ? [`${r.requirement}: coverage ${r.coverage}, but its evidence earns at most ${best} (grades in tools/aws/pci-dss-4/grades.tsv)`]
      : [];
  });
}

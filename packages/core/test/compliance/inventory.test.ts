import * as fs from 'node:fs';
import * as path from 'node:path';
import { RuntimeType, SecurityProfile, SoftwareComponentType } from '../../src';
import type { EvidenceReport } from '../../src/compliance/report-model';
import { WikiSpec } from '../fixtures/wiki-spec';
import { propsFor, synth } from '../support/synth';

// 6.3.1 and 6.3.2 from what the stack shows (src/compliance/inventory-controls.ts): the bill of materials and the
// advisory comparison support them; an application that declares no components of its own is a stated gap.

function reportOf(spec: WikiSpec): EvidenceReport {
  const { app, stack } = synth(RuntimeType.FARGATE, propsFor(SecurityProfile.PRODUCTION), spec);
  return JSON.parse(fs.readFileSync(path.join(app.synth().directory, `${stack.stackName}.pci-dss-4.0.1.json`), 'utf-8'));
}

test('an application that declares no software components: 6.3.1 and 6.3.2 list it as a gap; the bill has the framework\'s images only', () => {
  const report = reportOf(new WikiSpec());
  expect(report.deviations.filter((d) => d.rule === 'softwareComponents').map((d) => d.requirement)).toEqual(['6.3.1', '6.3.2']);
  const inventory = report.requirements.find((r) => r.requirement === '6.3.2')!;
  expect(inventory.controls.map((c) => c.statement)).toEqual([expect.stringMatching(/lists the 1 software components .*: 0 the application declares, the rest the framework's images only\.$/)]);
  expect(report.requirements.find((r) => r.requirement === '6.3.1')?.controls ?? []).toEqual([]);
});

test('one that declares them: no gap, and 6.3.1 reads the comparison with the advisories', () => {
  class Declaring extends WikiSpec {
    public softwareComponents() { return [{ name: 'wiki', version: '1.4.2', type: SoftwareComponentType.APPLICATION }]; }
  }
  const report = reportOf(new Declaring());
  expect(report.deviations.filter((d) => d.rule === 'softwareComponents')).toEqual([]);
  expect(report.requirements.find((r) => r.requirement === '6.3.1')!.controls.map((c) => c.source)).toEqual(['@fw/core']);
});

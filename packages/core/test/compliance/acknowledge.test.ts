import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ApplicationFactory, Compliance, RuntimeType, SecurityProfile } from '../../src';
import { MIN_REASON_LENGTH } from '../../src/compliance/acknowledge';
import { complianceFindings } from '../../src/compliance/compliance-packs';
import type { EvidenceReport } from '../../src/compliance/report-model';
import { WikiSpec } from '../fixtures/wiki-spec';
import { propsFor, REGION_ENV } from '../support/synth';

const REASON = 'Kept a month here; the same events are exported nightly to the archive account, which keeps them 13 months.';

/** A user's own log group beside the factory: PRODUCTION checks the whole stack, so it is checked too. */
describe('a resource a user adds beside the factory, acknowledged through Compliance.acknowledge', () => {
  const app = new App();
  const stack = new Stack(app, 'WikiStack', { env: REGION_ENV });
  new ApplicationFactory(stack, 'App', RuntimeType.FARGATE, new WikiSpec(), propsFor(SecurityProfile.PRODUCTION));
  const audit = new logs.LogGroup(stack, 'PaymentsAudit', { retention: logs.RetentionDays.ONE_MONTH });
  const before = complianceFindings(stack);
  Compliance.acknowledge(audit, 'LogGroupRetentionOneYear', REASON);
  for (const rule of ['CloudWatchLogGroupEncrypted', 'EncryptedWithCustomerKey']) {
    Compliance.acknowledge(audit, rule, 'CloudWatch Logs encrypts it with its own key; no card data is logged here.');
  }
  Compliance.acknowledge(audit, 'LogGroupCardDataMasked', 'The payments service logs transaction ids only; its log lines never hold a card number.');
  const after = complianceFindings(stack);
  Template.fromStack(stack);
  const report: EvidenceReport = JSON.parse(fs.readFileSync(path.join(app.outdir, 'WikiStack.pci-dss-4.0.1.json'), 'utf-8'));

  test('fails PRODUCTION until acknowledged, then passes', () => {
    expect(before).toEqual(expect.arrayContaining([expect.stringMatching(/^PCI\.DSS\.401-LogGroupRetentionOneYear .*10\.5\.1.*\[WikiStack\/PaymentsAudit\/Resource\]$/)]));
    expect(after).toEqual([]);
  });

  test('the report lists the finding with the user\'s reason and the requirements it concerns, and the plugin\'s own controls', () => {
    const evaluation = report.requirements.find((r) => r.requirement === '10.5.1')!.evaluations.find((e) => e.resource === 'WikiStack/PaymentsAudit/Resource');
    expect(evaluation).toEqual(expect.objectContaining({ result: 'acknowledged', reason: expect.stringContaining(REASON) }));
    expect(evaluation!.reason).toMatch(/\(PCI DSS v4\.0\.1 [^)]*10\.5\.1\)$/);
    expect(report.requirements.find((r) => r.requirement === '8.2.8')!.controls).toEqual([expect.objectContaining({ source: 'WikiSpec', configuredIn: 'WIKI_SESSION_TIMEOUT' })]);
  });
});

describe('Compliance.acknowledge refuses, naming what was wrong', () => {
  const stack = new Stack(new App(), 'S');
  const group = new logs.LogGroup(stack, 'G');
  test.each([
    ['a whole stack', () => Compliance.acknowledge(stack, 'LogGroupRetentionOneYear', REASON), /on S: that is a whole stack or app; allowed: the resource with the finding/],
    ['a construct that is not one resource', () => Compliance.acknowledge(new Construct(stack, 'Group'), 'LogGroupRetentionOneYear', REASON), /S\/Group: that is not one resource/],
    ['no reason', () => Compliance.acknowledge(group, 'LogGroupRetentionOneYear', ' '), new RegExp(`reason " "; allowed: why the finding is acceptable, at least ${MIN_REASON_LENGTH} characters`)],
    ['an unknown rule', () => Compliance.acknowledge(group, 'LogGroupRetentionOneYr', REASON), /"LogGroupRetentionOneYr" on S\/G\/Resource: no such rule; allowed: .*did you mean LogGroupRetentionOneYear\?/],
  ])('%s', (_, call, message) => {
    expect(call).toThrow(message);
    expect(group.node.defaultChild!.node.metadata.filter((m) => m.type === 'aws:cdk:acknowledged-rules')).toEqual([]);
  });
});

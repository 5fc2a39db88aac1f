import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, CfnResource, Stack } from 'aws-cdk-lib';
import { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnLogGroup } from 'aws-cdk-lib/aws-logs';
import { NagRuleCompliance, rules } from 'cdk-nag';
import { ApplicationFactory, ControlGrade, Ec2Storage, JenkinsSpec, PciDssScope, RuntimeType, SecurityProfile, SoftwareComponentType } from '../src';
import { deliveredOnFargate } from './support/casc-delivery';
import { OIDC, propsFor, REGION_ENV, resources, synth, type Synthesised } from './support/synth';
import { JENKINS_CORE, JENKINS_PLUGIN_CLOSURE, JENKINS_PLUGINS } from '../src/build-server/versions';
import { acknowledge } from '../src/compliance/acknowledge';
import { billOfMaterials } from '../src/compliance/bill-of-materials';
import { complianceFindings } from '../src/compliance/compliance-packs';
import { renderMarkdown } from '../src/compliance/evidence-markdown';
import { canonicalJson, evidenceReport, REPORT_NOTICE } from '../src/compliance/evidence-report';
import { oscalAssessmentResults } from '../src/compliance/oscal-assessment-results';
import { addPciConformancePack } from '../src/compliance/pci-conformance-pack';
import { procedureCoverage } from '../src/compliance/procedure-coverage';
import type { Coverage, Evaluation, EvidenceReport, RequirementEvidence } from '../src/compliance/report-model';
import { addSecurityHubPciDss } from '../src/compliance/security-hub-standard';
import { sourceRevision } from '../src/compliance/source-revision';
import { unearnedCoverage } from '../src/compliance/unearned-coverage';
import { complianceControlProblems } from '../src/contract/compliance-control';

const COVERAGES: Coverage[] = ['configuration-shown', 'partial', 'supporting', 'after-deploy', 'not-addressed', 'exposed'];
const synthesised = new Map<string, Synthesised>();
/** The PRODUCTION build server, synthesised once per runtime and storage for every test of this file. */
function productionBuildServer(runtime: RuntimeType, ec2Storage: Ec2Storage): Synthesised {
  const key = `${runtime}/${ec2Storage}`;
  if (!synthesised.has(key)) {
    synthesised.set(key, synth(runtime, {
      ...propsFor(SecurityProfile.PRODUCTION), ec2Storage, authMode: 'application-oidc', oidc: OIDC, alarmEmail: 'ops@example.com',
    }, new JenkinsSpec()));
  }
  return synthesised.get(key)!;
}

/**
 * The packs apply a rule to a resource by its L1 class (cdk-nag's rules test `node instanceof CfnFunction` and the
 * like), so a raw CfnResource of a type they have rules for is invisible to them. The whole stack is checked only if
 * no such resource exists: custom resources themselves (Custom::*) have no rules.
 */
describe.each([
  [RuntimeType.FARGATE, Ec2Storage.EFS], [RuntimeType.EC2, Ec2Storage.EFS], [RuntimeType.EC2, Ec2Storage.EBS],
])('the PRODUCTION build server on %s (%s)', (runtime, ec2Storage) => {
  const { stack, json } = productionBuildServer(runtime, ec2Storage);
  const cfnResources = stack.node.findAll().filter(CfnResource.isCfnResource);

  test('every resource the packs have rules for is an L1 construct they recognise, the default group\'s function included', () => {
    const raw = cfnResources.filter((r) => r.constructor === CfnResource).map((r) => r.cfnResourceType);
    expect(raw.length).toBeGreaterThan(0);
    expect(raw.filter((type) => !type.startsWith('Custom::'))).toEqual([]);
    // The functions (the one that closes the default security group, the check of the pinned digests the tasks pull:
    // the controller's on Fargate, the agents' on both) are CfnFunctions, which the Lambda rules examine: outside the
    // VPC, acknowledged.
    const functions = cfnResources.filter((r): r is CfnFunction => r instanceof CfnFunction);
    expect(functions).toHaveLength(resources(json, 'AWS::Lambda::Function').length);
    expect(functions.length).toBe(2);
    expect(functions.every((f) => rules.lambda.LambdaInsideVPC(f) === NagRuleCompliance.NON_COMPLIANT)).toBe(true);
  });

  test('the four packs report nothing unacknowledged, and the function\'s acknowledgements are in its template metadata', () => {
    expect(complianceFindings(stack)).toEqual([]);
    const [, fn] = resources(json, 'AWS::Lambda::Function')[0];
    expect(fn.Metadata.cdk_nag.rules_to_suppress.map((r: any) => r.id)).toEqual(expect.arrayContaining([
      'NIST.800.53.R5-LambdaInsideVPC', 'NIST.800.53.R5-LambdaConcurrency', 'HIPAA.Security-LambdaDLQ',
    ]));
  });

  test('the default security group is closed by the two revoke calls of CDK\'s own handler, each allowed on that group only', () => {
    expect(resources(json, 'Custom::VpcRestrictDefaultSG')).toEqual([]);
    const calls = resources(json, 'Custom::AWS').map(([, r]) => JSON.stringify(r.Properties.Create));
    expect(calls).toHaveLength(2);
    expect(calls.some((c) => c.includes('revokeSecurityGroupIngress') && c.includes('UserIdGroupPairs'))).toBe(true);
    expect(calls.some((c) => c.includes('revokeSecurityGroupEgress') && c.includes('0.0.0.0/0'))).toBe(true);
    const policies = resources(json, 'AWS::IAM::Policy').filter(([id]) => id.includes('DefaultSecurityGroup'));
    expect(policies.map(([, p]) => p.Properties.PolicyDocument.Statement.map((s: any) => s.Action)).flat().sort())
      .toEqual(['ec2:RevokeSecurityGroupEgress', 'ec2:RevokeSecurityGroupIngress']);
  });
});

/** The evidence report of the PRODUCTION build server on Fargate, as `cdk synth` leaves it beside the template. */
describe('the PCI DSS evidence report', () => {
  const { app, stack } = productionBuildServer(RuntimeType.FARGATE, Ec2Storage.EFS);
  const base = path.join(app.outdir, `${stack.stackName}.pci-dss-4.0.1`);
  const report: EvidenceReport = JSON.parse(fs.readFileSync(`${base}.json`, 'utf-8'));
  const principal = (r: RequirementEvidence) => r.requirement.split('.')[0];

  test('sits beside the template, in JSON and Markdown, and says it does not replace an assessment', () => {
    expect(fs.existsSync(path.join(app.outdir, `${stack.artifactId}.template.json`))).toBe(true);
    expect(report.notice).toBe(REPORT_NOTICE);
    expect(fs.readFileSync(`${base}.md`, 'utf-8')).toContain(REPORT_NOTICE);
  });

  test('covers requirements 1, 3, 4, 7, 8 and 10, with resources and results, acknowledgements and the server\'s own controls', () => {
    const covered = new Set(report.requirements.filter((r) => r.evaluations.length || r.controls.length).map(principal));
    expect([...covered]).toEqual(expect.arrayContaining(['1', '3', '4', '7', '8', '10']));
    const evaluations = report.requirements.flatMap((r) => r.evaluations);
    // 10.5.1: every log group keeps a year; 4.2.1: the HTTPS listener offers TLS 1.2 or later only.
    const at = (requirement: string, rule: string) =>
      report.requirements.find((r) => r.requirement === requirement)!.evaluations.filter((e) => e.rule === rule);
    expect(at('10.5.1', 'PCI.DSS.401-LogGroupRetentionOneYear').length).toBeGreaterThan(1);
    expect(at('10.5.1', 'PCI.DSS.401-LogGroupRetentionOneYear').every((e) => e.result === 'passes')).toBe(true);
    expect(at('4.2.1', 'PCI.DSS.401-ListenerTls12')).toEqual([expect.objectContaining({ result: 'passes', type: 'AWS::ElasticLoadBalancingV2::Listener' })]);
    expect(evaluations.some((e) => e.result === 'fails')).toBe(false);
    // An acknowledgement, its reason naming the requirement, in the requirement's evidence and in the full list.
    const lock = at('10.3.4', 'PCI.DSS.401-S3BucketDefaultLockEnabled');
    expect(lock).toEqual([expect.objectContaining({ result: 'acknowledged', reason: expect.stringMatching(/versioned.*\(PCI DSS v4\.0\.1 10\.3\.4, 10\.3\.2\)$/) })]);
    expect(report.acknowledgements).toEqual(expect.arrayContaining([
      expect.objectContaining({ rule: 'PCI.DSS.401-S3BucketDefaultLockEnabled', resource: lock[0].resource }),
      expect.objectContaining({ rule: 'AwsSolutions-EC23' }),
    ]));
    const controls = report.requirements.flatMap((r) => r.controls.map((c) => [r.requirement, c.source]));
    expect(controls).toEqual(expect.arrayContaining([['8.4.2', 'JenkinsSpec'], ['7.2.1', 'JenkinsSpec'], ['10.4.1', 'JenkinsSpec'], ['3.4.1', 'JenkinsSpec'], ['8.2.8', 'JenkinsSpec']]));
    // What only AWS Config can see: the account's trail, for 10.2.
    expect(report.requirements.flatMap((r) => r.afterDeploy)).toEqual(expect.arrayContaining(['cloudtrail-enabled']));
  });
});

/** Coverage: what each requirement's evidence earns, from the grading table, on both runtimes' reports. */
describe.each([RuntimeType.FARGATE, RuntimeType.EC2])('the evidence report\'s coverage on %s', (runtime) => {
  const { app, stack } = productionBuildServer(runtime, Ec2Storage.EFS);
  const base = path.join(app.outdir, `${stack.stackName}.pci-dss-4.0.1`);
  const report: EvidenceReport = JSON.parse(fs.readFileSync(`${base}.json`, 'utf-8'));
  const markdown = fs.readFileSync(`${base}.md`, 'utf-8');
  const at = (requirement: string) => report.requirements.find((r) => r.requirement === requirement);

  test('every requirement has a coverage and what earned it; no result and no line says "met"', () => {
    for (const r of report.requirements) {
      expect([r.requirement, COVERAGES.includes(r.coverage), r.coverageBy.length > 0]).toEqual([r.requirement, true, true]);
    }
    expect(JSON.stringify(report)).not.toMatch(/\bmet\b/i);
    expect(markdown).not.toMatch(/\bmet\b/i);
  });

  test('no requirement is graded above what its evidence earns (unearnedCoverage finds nothing)', () => {
    expect(unearnedCoverage(report)).toEqual([]);
  });

  test('8.2.8, 3.2.1, 3.3.1, 5.3.4 and 10.5.1 are not at the top (retention alone is partial toward 10.5.1); the WAF is under 6.4.2', () => {
    for (const requirement of ['8.2.8', '3.2.1', '3.3.1', '3.3.1.1', '5.3.4']) expect([requirement, at(requirement)?.coverage]).not.toEqual([requirement, 'configuration-shown']);
    expect(at('8.2.8')).toEqual(expect.objectContaining({ coverage: 'partial', coverageBy: expect.stringMatching(/^control of JenkinsSpec/) }));
    if (runtime === RuntimeType.EC2) {
      expect(at('8.2.8')!.evaluations).toEqual(expect.arrayContaining([expect.objectContaining({ rule: 'PCI.DSS.401-EC2IMDSv2Enabled', result: 'passes', grade: 'none' })]));
    }
    expect(at('10.5.1')!.coverage).toBe('partial');
    expect(at('10.5.1')!.procedures.map((p) => [p.id, p.shown])).toEqual([['10.5.1.a', 'not shown'], ['10.5.1.b', 'in part'], ['10.5.1.c', 'not shown']]);
    expect(report.requirements.filter((r) => r.coverage === 'configuration-shown').map((r) => r.requirement)).toEqual([]);
    expect(at('6.4.2')).toEqual(expect.objectContaining({ coverage: 'partial', coverageBy: expect.stringMatching(/^6\.4\.2 in part by PCI\.DSS\.401-PublicLoadBalancerWaf/) }));
    // A requirement only AWS Config can see is never more than after-deploy, and not even that here: nothing deploys
    // AWS's conformance pack for this stack, so nothing will evaluate the rules.
    const configOnly = report.requirements.filter((r) => !r.evaluations.length && !r.controls.length && r.afterDeploy.length);
    expect(configOnly.length).toBeGreaterThan(0);
    expect(new Set(configOnly.map((r) => r.coverage))).toEqual(new Set(['not-addressed']));
    expect(configOnly[0].coverageBy).toMatch(/nothing deploys AWS's conformance pack for this stack \(pciConformancePack, here or on its platform\), so nothing will evaluate them\.$/);
    expect(markdown).toMatch(/^### 10\.5\.1: partial$/m);
  });

  test('the scope is the one stated, and appendix A1 is left out unless you are a multi-tenant provider', () => {
    // PRODUCTION requires the scope: the test helpers state CONNECTED.
    expect(report.scope).toEqual({ stated: 'CONNECTED', statement: expect.stringMatching(/^You state that this application is connected/), multiTenantProvider: 'not stated' });
    expect(report.requirements.filter((r) => r.requirement.startsWith('A1'))).toEqual([]);
    expect(report.principals.find((p) => p.requirement === 'A1')).toEqual(expect.objectContaining({ applicable: false }));
    const provider = evidenceReport(stack, [], report.system, { scope: PciDssScope.CDE, multiTenantProvider: true });
    expect(provider.scope.statement).toMatch(/^You state that this application stores, processes or transmits account data/);
    expect(provider.requirements.filter((r) => r.requirement.startsWith('A1')).length).toBeGreaterThan(0);
    expect(provider.principals.find((p) => p.requirement === 'A1')).toEqual(expect.objectContaining({ applicable: true }));
  });

  test('a Config rule graded none under a requirement is not listed under it (8.4.2 is no MFA delete; 11.6.1 is no alarm)', () => {
    expect(report.requirements.flatMap((r) => r.afterDeploy.map((rule) => `${rule} ${r.requirement}`)))
      .not.toEqual(expect.arrayContaining(['s3-bucket-mfa-delete-enabled 8.4.2']));
    expect(at('11.6.1')).toBeUndefined();
    expect(at('8.4.2')!.afterDeploy).not.toContain('s3-bucket-mfa-delete-enabled');
  });

  test('says what evaluates the account after deployment: here neither, elsewhere set on the platform; in a stack that has them, both', () => {
    expect(report.afterDeployment).toEqual({
      configConformancePack: 'Not in this stack: set pciConformancePack on the platform, or on one stack of the account and region.',
      securityHubStandard: 'Not in this stack: set securityHubPciDss on the platform, or on one stack of the account and region.',
    });
    const withBoth = new Stack(new App(), 'Account', { env: REGION_ENV });
    addPciConformancePack(withBoth, 'Pack');
    addSecurityHubPciDss(withBoth, 'Standard');
    const { afterDeployment } = evidenceReport(withBoth, [], report.system);
    expect(afterDeployment.configConformancePack).toMatch(/^This stack deploys AWS's PCI DSS 4\.0 conformance pack/);
    expect(afterDeployment.securityHubStandard).toMatch(/^This stack enables Security Hub's PCI DSS v4\.0\.1 standard/);
  });
});

test('unearnedCoverage names a requirement graded above its evidence (negative controls)', () => {
  const { app, stack } = productionBuildServer(RuntimeType.EC2, Ec2Storage.EFS);
  const report: EvidenceReport = JSON.parse(fs.readFileSync(path.join(app.outdir, `${stack.stackName}.pci-dss-4.0.1.json`), 'utf-8'));
  const raised = (requirement: string, coverage: string) => ({
    ...report,
    requirements: report.requirements.map((r) => (r.requirement === requirement ? { ...r, coverage } : r)),
  }) as EvidenceReport;
  // 8.2.8 on EC2: IMDSv2 (graded none) and the session timeout (a control, partial) cannot show its procedure.
  expect(unearnedCoverage(raised('8.2.8', 'configuration-shown')))
    .toEqual(['8.2.8: coverage configuration-shown, but its evidence earns at most partial (tools/aws/pci-dss-4/grades.tsv, procedures.tsv)']);
  // 3.2.1: a year's retention is graded none toward keeping account data to a minimum.
  expect(unearnedCoverage(raised('3.2.1', 'supporting'))).toEqual([expect.stringMatching(/^3\.2\.1: coverage supporting, but its evidence earns at most not-addressed/)]);
  // A grade the report copied does not count: the table's does.
  const copied = {
    ...report,
    requirements: report.requirements.map((r) => (r.requirement === '3.2.1'
      ? { ...r, coverage: 'configuration-shown', evaluations: r.evaluations.map((e) => ({ ...e, grade: 'full', procedures: ['3.2.1.b'] })) } : r)),
  } as EvidenceReport;
  expect(unearnedCoverage(copied)).toEqual([expect.stringMatching(/^3\.2\.1: coverage configuration-shown/)]);
  // after-deploy from a Config rule graded none under the requirement, though the pack were deployed: named.
  const packDeployed = { ...report, afterDeployment: { ...report.afterDeployment, configConformancePack: 'Its platform deploys it.' } };
  const fromNone = {
    ...packDeployed,
    requirements: [{ ...report.requirements[0], requirement: '11.6.1', coverage: 'after-deploy', evaluations: [], controls: [], afterDeploy: ['cloudwatch-alarm-action-check'] }],
  } as EvidenceReport;
  expect(unearnedCoverage(fromNone)).toEqual([expect.stringMatching(/^11\.6\.1: coverage after-deploy, but its evidence earns at most not-addressed/)]);
  expect(unearnedCoverage({ ...fromNone, requirements: [{ ...fromNone.requirements[0], requirement: '12.10.5' }] })).toEqual([]);
  // exposed only where a known vulnerability is, and always there.
  expect(unearnedCoverage(raised('6.3.3', 'supporting'))).toEqual(['6.3.3: coverage supporting, but a known vulnerability makes it exposed']);
  expect(unearnedCoverage({ ...report, knownVulnerabilities: [] })).toEqual(expect.arrayContaining(['6.3.3: coverage exposed, but nothing deployed is under an advisory']));
});

describe('known vulnerabilities first (6.3.1, 6.3.2, 6.3.3)', () => {
  const { app, stack } = productionBuildServer(RuntimeType.FARGATE, Ec2Storage.EFS);
  const base = path.join(app.outdir, `${stack.stackName}.pci-dss-4.0.1`);
  const report: EvidenceReport = JSON.parse(fs.readFileSync(`${base}.json`, 'utf-8'));
  const oscal = JSON.parse(fs.readFileSync(`${base}.oscal.json`, 'utf-8'))['assessment-results'];

  test('SECURITY-3972 is listed with its acceptance and 6.3.3 is exposed, whatever else is shown toward it; 6.3.1 and 6.3.2 are not', () => {
    expect(report.knownVulnerabilities).toContainEqual(expect.objectContaining({ id: 'SECURITY-3972', accepted: expect.objectContaining({ reason: expect.any(String) }) }));
    const r = report.requirements.find((x) => x.requirement === '6.3.3')!;
    expect([r.coverage, r.coverageBy]).toEqual(['exposed', expect.stringContaining('SECURITY-3972 (')]);
    // The advisory comparison and the bill of materials are the framework's controls toward 6.3.1 and 6.3.2 (v4.0.1:
    // identifying and ranking, the inventory), not exposures.
    for (const requirement of ['6.3.1', '6.3.2']) {
      const q = report.requirements.find((x) => x.requirement === requirement)!;
      expect([requirement, q.coverage, q.controls.map((c) => c.source)]).toEqual([requirement, 'supporting', expect.arrayContaining(['@fw/core'])]);
    }
    // The build server's controls toward 8.2.1, 8.3.1 (no configuration procedure) and 7.3.1 (undermined by the accepted
    // script-security sandbox bypasses) count at most as supporting.
    for (const q of ['8.2.1', '8.3.1', '7.3.1']) {
      const e = report.requirements.find((x) => x.requirement === q)!;
      expect([q, e.controls.length > 0, e.coverage]).toEqual([q, true, 'supporting']);
    }
    // The weekly job's control is still listed under 6.3.3, earning nothing past the exposure.
    expect(report.requirements.find((x) => x.requirement === '6.3.3')!.controls.length).toBeGreaterThan(0);
  });

  test('the first page counts each principal requirement\'s coverages, deviations and exposures', () => {
    const markdown = fs.readFileSync(`${base}.md`, 'utf-8');
    const row = markdown.split('\n').find((l) => l.startsWith('| 6 | '))!;
    const counts = row.split('|').slice(2, -1).map((c) => Number(c.trim()));
    const under6 = report.requirements.filter((r) => r.requirement.split('.')[0] === '6');
    expect(counts[0]).toBe(under6.filter((r) => r.coverage === 'exposed').length);
    expect(counts[0]).toBe(1);
    expect(counts.slice(0, -1).reduce((a, b) => a + b, 0)).toBe(under6.length);
    expect(markdown.indexOf('## At a glance')).toBeLessThan(markdown.indexOf('## Who answers for each principal requirement'));
  });

  test('the OSCAL document carries each as a risk, its acceptance a deviation requested (the assessor approves it, not us)', () => {
    const risks = oscal.results[0].risks;
    expect(risks.map((r: any) => r.title)).toEqual(report.knownVulnerabilities.map((v) => `${v.id}: ${v.component} ${v.version}`));
    const risk = risks.find((r: any) => r.title.startsWith('SECURITY-3972:'));
    expect([risk.status, risk.statement]).toEqual(['deviation-requested', expect.stringMatching(/^Deployed under the acceptance given in acceptedAdvisories: /)]);
    // Each risk names the observation of what it exposes (6.3.3), a discovery; the observations are typed by what was found.
    const observations = oscal.results[0].observations;
    const exposure = observations.find((o: any) => o.title.startsWith('6.3.3: '));
    expect(exposure.types).toEqual(['discovery']);
    for (const r of risks) expect(r['related-observations']).toEqual([{ 'observation-uuid': exposure.uuid }]);
    // Each is characterized by its publisher's severity, from the report's tool; one full stop ends each sentence (R12).
    for (const [i, r] of risks.entries()) {
      expect(r.characterizations).toEqual([{
        origin: { actors: [{ 'type': 'tool', 'actor-uuid': oscal.results[0]['local-definitions'].components[0].uuid }] },
        facets: [{ name: 'severity', system: 'https://www.first.org/cvss/v3.1/specification-document', value: report.knownVulnerabilities[i].severity }],
      }]);
      expect(r.statement).not.toMatch(/\.\./);
    }
    // An acceptance with an end is the risk's deadline; one without has none.
    expect(risks.map((r: any) => r.deadline)).toEqual(report.knownVulnerabilities.map(() => undefined));
    const dated = { ...report, knownVulnerabilities: report.knownVulnerabilities.map((v) => ({ ...v, accepted: { ...v.accepted!, until: '2027-01-31' } })) };
    expect((oscalAssessmentResults(dated) as any)['assessment-results'].results[0].risks[0].deadline).toBe('2027-01-31T00:00:00Z');
    expect(new Set(observations.map((o: any) => o.types[0]))).toEqual(new Set(['discovery', 'control-objective',
      ...report.requirements.some((q) => q.evaluations.some((e) => e.result !== 'passes')) ? ['finding'] : []]));
  });

  test('the OSCAL document: EXAMINE, the template as each observation\'s subject, hashed evidence, one id per system', () => {
    const observations = oscal.results[0].observations;
    expect(new Set(observations.map((o: any) => o.methods.join()))).toEqual(new Set(['EXAMINE']));
    const backMatter = Object.fromEntries(oscal['back-matter'].resources.map((r: any) => [r.uuid, r]));
    for (const o of observations) {
      expect(backMatter[o.subjects[0]['subject-uuid']].rlinks).toEqual([{ href: report.system.templateFile, hashes: [{ algorithm: 'SHA-256', value: report.system.templateSha256 }] }]);
    }
    // Each observation names, as inventory items, the resources its rules looked at.
    const items = Object.fromEntries(oscal.results[0]['local-definitions']['inventory-items'].map((i: any) => [i.uuid, i]));
    const at = (q: string) => observations.find((o: any) => o.title.startsWith(`${q}: `));
    const named = at('4.2.1').subjects.slice(1).map((s: any) => [s.type, items[s['subject-uuid']].props.find((p: any) => p.name === 'construct-path').value]);
    const evaluated = [...new Set(report.requirements.find((r) => r.requirement === '4.2.1')!.evaluations.map((e) => e.resource))];
    expect(named).toEqual(evaluated.map((resource) => ['inventory-item', resource]));
    const hashOf = (file: string) => createHash('sha256').update(fs.readFileSync(path.join(app.outdir, file))).digest('hex');
    const linked = oscal['back-matter'].resources.filter((r: any) => r.rlinks).map((r: any) => [r.rlinks[0].href, r.rlinks[0].hashes[0].value]);
    const beside = ['cyclonedx.json', 'pci-dss-4.0.1.resolved-configuration.json', 'network.svg', 'network.dot', 'data-flow.svg', 'data-flow.dot', 'pci-dss-4.0.1.json', 'pci-dss-4.0.1.md',
      'pci-dss-4.0.1.oscal-component-definition.json'].map((f) => `${stack.stackName}.${f}`);
    expect(linked).toEqual([stack.templateFile, ...beside].map((f) => [f, hashOf(f)]));
    // The same system keeps its document id when its template changes; the version names the template.
    const other = oscalAssessmentResults({ ...report, system: { ...report.system, templateSha256: 'f'.repeat(64) } }) as any;
    expect(other['assessment-results'].uuid).toBe(oscal.uuid);
    expect(oscal.metadata.version).toBe(`${report.system.versions.framework}+template.${report.system.templateSha256.slice(0, 12)}`);
  });
});

test('the report names the resolved configuration by its hash, and the source revision as stated', () => {
  const { app, stack } = productionBuildServer(RuntimeType.FARGATE, Ec2Storage.EFS);
  const report: EvidenceReport = JSON.parse(fs.readFileSync(path.join(app.outdir, `${stack.stackName}.pci-dss-4.0.1.json`), 'utf-8'));
  const factory = stack.node.findAll().find((c): c is ApplicationFactory => c instanceof ApplicationFactory)!;
  expect(report.system.resolvedContextSha256).toBe(createHash('sha256').update(canonicalJson(factory.context)).digest('hex'));
  // The same configuration in another key order hashes the same; another value does not.
  const reordered = Object.fromEntries(Object.entries(factory.context).reverse());
  expect(canonicalJson(reordered)).toBe(canonicalJson(factory.context));
  expect(canonicalJson({ ...factory.context, alarmEmail: 'other@example.com' })).not.toBe(canonicalJson(factory.context));
  // The configuration as hashed is written beside the report: anyone recomputes the hash from the file.
  const written = fs.readFileSync(path.join(app.outdir, report.system.resolvedContextFile!));
  expect(createHash('sha256').update(written).digest('hex')).toBe(report.system.resolvedContextSha256);
  expect(JSON.parse(written.toString('utf-8')).alarmEmail).toBe(factory.context.alarmEmail);
  // FW_SOURCE_REVISION, else this repository's commit (test/compliance/source-revision.test.ts).
  expect(report.system.sourceRevision).toBe(sourceRevision() ?? 'not stated');
});

test('the report references a CycloneDX bill of materials with its hash: Jenkins core, every pinned plugin, the images as deployed', () => {
  const { app, stack } = productionBuildServer(RuntimeType.FARGATE, Ec2Storage.EFS);
  const report: EvidenceReport = JSON.parse(fs.readFileSync(path.join(app.outdir, `${stack.stackName}.pci-dss-4.0.1.json`), 'utf-8'));
  const file = path.join(app.outdir, report.billOfMaterials!.file);
  expect(report.billOfMaterials!.sha256).toBe(createHash('sha256').update(fs.readFileSync(file)).digest('hex'));
  const bom = JSON.parse(fs.readFileSync(file, 'utf-8'));
  expect([bom.bomFormat, bom.specVersion, bom.metadata.component.name]).toEqual(['CycloneDX', '1.6', stack.stackName]);
  expect(bom.components.filter((c: any) => !c.purl)).toEqual([]);
  expect(bom.vulnerabilities.find((v: any) => v.id === 'SECURITY-3972').affects).toEqual([{
    ref: `jenkins-core@${JENKINS_CORE.version}`,
    versions: [{ version: JENKINS_CORE.version, status: 'affected' }],
  }]);
  const listed = bom.components.map((c: any) => `${c.name}@${c.version}`);
  for (const pin of [JENKINS_CORE, ...JENKINS_PLUGINS, ...JENKINS_PLUGIN_CLOSURE]) expect(listed).toContain(`${pin.id}@${pin.version}`);
  expect(bom.components.find((c: any) => c.name === 'jenkins-core').purl).toBe(`pkg:maven/org.jenkins-ci.main/jenkins-war@${JENKINS_CORE.version}?type=war`);
  // The controller's and the agents' images, as the tasks run them (the test digests stand in for real ones).
  expect(bom.components.filter((c: any) => c.type === 'container').map((c: any) => c.name).sort()).toEqual(['jenkins/inbound-agent', 'jenkins/jenkins']);
  expect(report.billOfMaterials!.components).toBe(bom.components.length);
  // A placeholder digest is named as one.
  const zeros = billOfMaterials(report.system, [{ name: 'x', version: `1@sha256:${'0'.repeat(64)}`, type: SoftwareComponentType.CONTAINER }]);
  expect(zeros.reference.placeholderDigests).toEqual([`x:1@sha256:${'0'.repeat(64)}`]);
});

test('a deviation is never coverage: a requirement whose only evidence is an acknowledged failure is not-addressed, and listed', () => {
  const stack = new Stack(new App(), 'Deviation', { env: REGION_ENV });
  const logs = new CfnLogGroup(stack, 'Logs', { retentionInDays: 30 });
  acknowledge(logs, 'LogGroupRetentionOneYear', 'A negative control: thirty days, acknowledged, must earn nothing toward 10.5.1.');
  const system = {
    stack: 'Deviation',
    account: 'resolved at deploy',
    region: 'eu-west-1',
    templateFile: 'Deviation.template.json',
    templateSha256: '0'.repeat(64),
    versions: { framework: '0.0.0', cdkNag: '0', awsCdkLib: '0' },
    generatedAt: '2026-01-01T00:00:00.000Z',
    sourceRevision: 'not stated',
  };
  const report = evidenceReport(stack, [], system);
  const r = report.requirements.find((x) => x.requirement === '10.5.1')!;
  expect(r.evaluations.map((e) => e.result)).toEqual(['acknowledged']);
  expect(r.coverage).toBe('not-addressed');
  expect(report.deviations).toContainEqual({ requirement: '10.5.1', rule: 'PCI.DSS.401-LogGroupRetentionOneYear', resource: 'Deviation/Logs', reason: expect.stringMatching(/^A negative control/) });
  expect(unearnedCoverage(report)).toEqual([]);
  // The same report with that coverage raised to what the old rule gave an acknowledged full check: named.
  expect(unearnedCoverage({ ...report, requirements: report.requirements.map((x) => (x === r ? { ...x, coverage: 'partial' as Coverage } : x)) }))
    .toEqual(['10.5.1: coverage partial, but its evidence earns at most not-addressed (tools/aws/pci-dss-4/grades.tsv, procedures.tsv)']);
  expect(renderMarkdown(report)).toMatch(/^## Deviations: acknowledged failures, which earn nothing$/m);
});

/**
 * Coverage follows from the testing procedures shown, not from the best grade. 8.2.8 has one procedure, which examines
 * configuration alone; 1.3.1 has a documentation one and a configuration one. The pairs are altered in a copy of the
 * table's entries, through a rule whose check a resource of the stack passes.
 */
describe('coverage derived from testing procedures (negative controls)', () => {
  const { app, stack } = productionBuildServer(RuntimeType.FARGATE, Ec2Storage.EFS);
  const report: EvidenceReport = JSON.parse(fs.readFileSync(path.join(app.outdir, `${stack.stackName}.pci-dss-4.0.1.json`), 'utf-8'));
  const requirement = (q: string) => report.requirements.find((r) => r.requirement === q)!;
  const rederived = (q: string, change: (e: Evaluation) => Evaluation, controls = requirement(q).controls) =>
    procedureCoverage(q, requirement(q).evaluations.map(change), controls, requirement(q).afterDeploy, false);

  test('a requirement reaches configuration-shown only when every procedure that examines configuration is shown in full', () => {
    // 1.3.1: ComputeNoPublicIngress shows 1.3.1.b in part; graded full it would show all a template can.
    expect(requirement('1.3.1').coverage).toBe('partial');
    const full = (e: Evaluation) => (e.rule === 'PCI.DSS.401-ComputeNoPublicIngress' ? { ...e, grade: 'full' as const } : e);
    expect(rederived('1.3.1', full)).toEqual(expect.objectContaining({
      coverage: 'configuration-shown', coverageBy: expect.stringMatching(/^the template shows 1\.3\.1\.b shown by PCI\.DSS\.401-ComputeNoPublicIngress; left to the assessor: 1\.3\.1\.a \(documentation\)$/),
    }));
    // Full toward a procedure of another requirement shows nothing of this one: partial stays.
    const elsewhere = (e: Evaluation) => (e.rule === 'PCI.DSS.401-ComputeNoPublicIngress' ? { ...e, grade: 'full' as const, procedures: ['1.4.1.b'] } : e);
    expect(rederived('1.3.1', elsewhere).coverage).toBe('supporting');
    // One resource failing, even acknowledged, and the rule earns nothing.
    const first = requirement('1.3.1').evaluations.find((e) => e.rule === 'PCI.DSS.401-ComputeNoPublicIngress');
    const oneFails = (e: Evaluation) => (e === first ? { ...full(e), result: 'acknowledged' as const } : full(e));
    expect(rederived('1.3.1', oneFails).coverage).toBe('supporting');
  });

  test('a control never reaches the top, whatever grade it declares; supporting evidence alone is supporting', () => {
    const control = { source: 'Wiki', requirements: ['8.2.8'], statement: 'Sessions end.', configuredIn: 'here', grade: ControlGrade.FULL };
    expect(procedureCoverage('8.2.8', [], [control], [], false).coverage).toBe('partial');
    expect(procedureCoverage('8.2.8', [], [{ ...control, grade: undefined }], [], false).coverage).toBe('supporting');
    expect(procedureCoverage('8.2.8', [], [], ['some-config-rule'], true).coverage).toBe('after-deploy');
    expect(procedureCoverage('8.2.8', [], [], ['some-config-rule'], false).coverage).toBe('not-addressed');
  });

  test('a control obeys the procedure rule: at most supporting where no procedure examines configuration, or an advisory undermines it', () => {
    const control = { source: 'JenkinsSpec', requirements: ['8.2.1'], statement: 'Unique ids.', configuredIn: 'here', grade: ControlGrade.PARTIAL };
    // 8.2.1's procedures are an interview and records (procedures.tsv); 8.3.1's documentation and observation.
    for (const q of ['8.2.1', '8.3.1']) {
      const { coverage, coverageBy } = procedureCoverage(q, [], [control], [], false);
      expect([q, coverage, coverageBy]).toEqual([q, 'supporting', expect.stringContaining(`declared partial, supporting: no testing procedure of ${q} examines configuration`)]);
    }
    // 7.3.1 examines configuration: the control counts as declared, unless a deployed advisory undermines it.
    expect(procedureCoverage('7.3.1', [], [control], [], false).coverage).toBe('partial');
    const undermined = procedureCoverage('7.3.1', [], [control], [], false, ['SECURITY-3986', 'SECURITY-3929']);
    expect([undermined.coverage, undermined.coverageBy]).toEqual(['supporting', expect.stringContaining('undermined while SECURITY-3986, SECURITY-3929 are deployed')]);
  });

  test('every requirement lists its testing procedures, and what is left names the assessor\'s part', () => {
    for (const r of report.requirements) expect([r.requirement, r.procedures.length > 0]).toEqual([r.requirement, true]);
    expect(requirement('4.2.1').procedures.find((p) => p.id === '4.2.1.b')).toEqual(expect.objectContaining({ shown: 'in part', by: expect.arrayContaining(['PCI.DSS.401-ListenerTls12']) }));
    expect(requirement('4.2.1').coverageBy).toMatch(/; left to the assessor: 4\.2\.1\.a \(documentation, interview\), 4\.2\.1\.b \(the rest of it\), 4\.2\.1\.c \(records\), 4\.2\.1\.d \(configuration\)$/);
    const markdown = fs.readFileSync(path.join(app.outdir, `${stack.stackName}.pci-dss-4.0.1.md`), 'utf-8');
    expect(markdown).toMatch(/^Testing procedures: 10\.5\.1\.a \(documentation\): for the assessor; 10\.5\.1\.b \(configuration, records, interview\): in part by PCI\.DSS\.401-LogGroupRetentionOneYear; /m);
  });
});

describe('the build server\'s declared controls', () => {
  const { json } = productionBuildServer(RuntimeType.FARGATE, Ec2Storage.EFS);
  const { casc } = deliveredOnFargate(json);
  const controls = new JenkinsSpec().complianceControls();
  const CASC = 'jenkins.yaml (configuration as code, rendered by jenkins-configuration.ts): ';

  test('each names settings that exist in the jenkins.yaml the server receives, and declares a grade where it is more than supporting', () => {
    const paths = controls.filter((c) => c.configuredIn.startsWith(CASC)).flatMap((c) => c.configuredIn.slice(CASC.length).split(', '));
    expect(paths.length).toBeGreaterThan(4);
    for (const setting of paths) {
      const value = setting.split('.').reduce<any>((node, key) => node?.[key], casc);
      expect([setting, value !== undefined]).toEqual([setting, true]);
    }
    expect(complianceControlProblems(controls, 'JenkinsSpec.complianceControls()')).toEqual([]);
    expect(controls.some((c) => c.grade === ControlGrade.FULL)).toBe(false);
  });

  test('the MFA control says what the tokens really do, and claims no more than supporting for 8.4.2; 7.2.3 and 6.2.4 are not claimed', () => {
    const mfa = controls.find((c) => c.requirements.includes('8.4.2'))!;
    expect(casc.jenkins.securityRealm.oic.allowTokenAccessWithoutOicSession).toBe(false);
    expect(mfa.statement).toMatch(/API tokens are honoured only while their user's sign-in at the provider is/);
    expect(mfa.grade).toBe(ControlGrade.SUPPORTING);
    expect(controls.flatMap((c) => c.requirements)).not.toEqual(expect.arrayContaining(['7.2.3']));
    expect(controls.flatMap((c) => c.requirements)).not.toEqual(expect.arrayContaining(['6.2.4']));
  });

  test('a control\'s grade is checked like the rest of it', () => {
    const bad = [{ requirements: ['8.2.8'], statement: 'Sessions end.', configuredIn: 'here', grade: 'met' }];
    expect(complianceControlProblems(bad, 'Wiki.complianceControls()')).toEqual([
      'Wiki.complianceControls()[0].grade "met"; allowed: full, partial, supporting (ControlGrade), or leave it out for supporting.',
    ]);
  });
});

test('the OSCAL document\'s identifiers are version-5 UUIDs, unique, and the same for the same report (reproducible builds)', () => {
  const { app, stack } = productionBuildServer(RuntimeType.FARGATE, Ec2Storage.EFS);
  const report: EvidenceReport = JSON.parse(fs.readFileSync(path.join(app.outdir, `${stack.stackName}.pci-dss-4.0.1.json`), 'utf-8'));
  const text = JSON.stringify(oscalAssessmentResults(report));
  const uuids = [...text.matchAll(/"uuid":"([^"]+)"/g)].map((m) => m[1]);
  // The document, the result, the tool, each resource a rule looked at, each observation and each risk, the plan and
  // the template in the back matter.
  const evaluated = new Set(report.requirements.flatMap((r) => r.evaluations.map((e) => e.resource)));
  expect(uuids.length).toBe(report.requirements.length + report.knownVulnerabilities.length + evaluated.size + 5);
  expect(uuids.filter((u) => !/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u))).toEqual([]);
  expect(new Set(uuids).size).toBe(uuids.length);
  expect(JSON.stringify(oscalAssessmentResults(report))).toBe(text);
  expect(JSON.stringify(oscalAssessmentResults({ ...report, system: { ...report.system, templateSha256: 'other' } }))).not.toContain(uuids[1]);
});

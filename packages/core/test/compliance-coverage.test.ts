import * as fs from 'node:fs';
import * as path from 'node:path';
import { CfnResource } from 'aws-cdk-lib';
import { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { NagRuleCompliance, rules } from 'cdk-nag';
import { Ec2Storage, JenkinsSpec, RuntimeType, SecurityProfile } from '../src';
import { OIDC, propsFor, resources, synth, type Synthesised } from './support/synth';
import { type EvidenceReport, REPORT_NOTICE, type RequirementEvidence } from '../src/compliance/evidence-report';
import { complianceFindings } from '../src/profiles/compliance';

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
    // The function that closes the default security group is a CfnFunction, which the Lambda rules examine.
    const functions = cfnResources.filter((r): r is CfnFunction => r instanceof CfnFunction);
    expect(functions).toHaveLength(resources(json, 'AWS::Lambda::Function').length);
    expect(functions.map((f) => rules.lambda.LambdaInsideVPC(f))).toEqual([NagRuleCompliance.NON_COMPLIANT]);
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
    expect(lock).toEqual([expect.objectContaining({ result: 'acknowledged', reason: expect.stringMatching(/versioned.*\(PCI DSS v4\.0\.1 10\.3\.4\)$/) })]);
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

import { CfnResource } from 'aws-cdk-lib';
import { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { NagRuleCompliance, rules } from 'cdk-nag';
import { Ec2Storage, JenkinsSpec, RuntimeType, SecurityProfile } from '../src';
import { OIDC, propsFor, resources, synth } from './support/synth';
import { complianceFindings } from '../src/profiles/compliance';

/**
 * The packs apply a rule to a resource by its L1 class (cdk-nag's rules test `node instanceof CfnFunction` and the
 * like), so a raw CfnResource of a type they have rules for is invisible to them. The whole stack is checked only if
 * no such resource exists: custom resources themselves (Custom::*) have no rules.
 */
describe.each([
  [RuntimeType.FARGATE, Ec2Storage.EFS], [RuntimeType.EC2, Ec2Storage.EFS], [RuntimeType.EC2, Ec2Storage.EBS],
])('the PRODUCTION build server on %s (%s)', (runtime, ec2Storage) => {
  const { stack, json } = synth(runtime, {
    ...propsFor(SecurityProfile.PRODUCTION), ec2Storage, authMode: 'application-oidc', oidc: OIDC, alarmEmail: 'ops@example.com',
  }, new JenkinsSpec());
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

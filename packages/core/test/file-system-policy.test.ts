import { RuntimeType, SecurityProfile } from '../src';
import { applicationTask, only, propsFor, refTarget, RUNTIMES_AND_PROFILES, synth } from './support/synth';

/** The EFS file system policy on both runtimes and every profile: TLS only, no root, the application's role only, through an access point. */

describe.each(RUNTIMES_AND_PROFILES)('%s %s', (runtime, profile) => {
  const { json } = synth(runtime, propsFor(profile));
  const statements: any[] = only(json, 'AWS::EFS::FileSystem').Properties.FileSystemPolicy.Statement;
  const bySid = (sid: string) => statements.find((s) => s.Sid === sid);
  const role = runtime === RuntimeType.FARGATE
    ? refTarget(applicationTask(json).Properties.TaskRoleArn)
    : refTarget(only(json, 'AWS::IAM::InstanceProfile').Properties.Roles[0]);
  const client = ['elasticfilesystem:ClientMount', 'elasticfilesystem:ClientWrite'];

  test('denies every client without TLS, and root access to everyone', () => {
    expect(bySid('DenyWithoutTls')).toMatchObject({ Effect: 'Deny', Principal: { AWS: '*' }, Condition: { Bool: { 'aws:SecureTransport': 'false' } } });
    expect(bySid('DenyWithoutTls').Action).toEqual([...client, 'elasticfilesystem:ClientRootAccess']);
    expect(bySid('DenyRootAccess')).toMatchObject({ Effect: 'Deny', Principal: { AWS: '*' }, Action: 'elasticfilesystem:ClientRootAccess' });
  });

  test('denies mounting and writing other than through an access point, or by another principal than the application\'s role', () => {
    expect(bySid('DenyOtherThanAnAccessPoint')).toMatchObject({
      Effect: 'Deny', Action: client, Condition: { Null: { 'elasticfilesystem:AccessPointArn': 'true' } },
    });
    expect(bySid('DenyOtherThanTheApplication')).toMatchObject({
      Effect: 'Deny', Action: client, Condition: { ArnNotEquals: { 'aws:PrincipalArn': { 'Fn::GetAtt': [role, 'Arn'] } } },
    });
    expect(bySid('AllowTheApplication')).toMatchObject({
      Effect: 'Allow',
      Principal: { AWS: { 'Fn::GetAtt': [role, 'Arn'] } },
      Action: client,
      Condition: { Null: { 'elasticfilesystem:AccessPointArn': 'false' } },
    });
    // Nothing else is allowed, to anyone: no anonymous access.
    expect(statements.filter((s) => s.Effect === 'Allow')).toHaveLength(1);
  });
});

test.each([SecurityProfile.STAGING, SecurityProfile.PRODUCTION])('%s: the flow-log role may be assumed only for this account\'s flow logs', (profile) => {
  const { json } = synth(RuntimeType.FARGATE, propsFor(profile));
  const flowLog = only(json, 'AWS::EC2::FlowLog').Properties;
  const role = json.Resources[flowLog.DeliverLogsPermissionArn['Fn::GetAtt'][0]];
  const [trust] = role.Properties.AssumeRolePolicyDocument.Statement;
  expect(trust.Principal).toEqual({ Service: 'vpc-flow-logs.amazonaws.com' });
  expect(trust.Condition.StringEquals).toEqual({ 'aws:SourceAccount': { Ref: 'AWS::AccountId' } });
  expect(JSON.stringify(trust.Condition.ArnLike['aws:SourceArn'])).toContain(':ec2:eu-west-1:');
  expect(JSON.stringify(trust.Condition.ArnLike['aws:SourceArn'])).toContain(':vpc-flow-log/*');
});

import { JenkinsSpec, RuntimeType, SecurityProfile } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { OIDC, propsFor, refTarget, resources, RUNTIMES_AND_PROFILES, securityGroupId, synth } from './support/synth';

const ACCOUNT_ONLY = { 'aws:PrincipalAccount': { Ref: 'AWS::AccountId' } };
const serviceOf = (endpoint: any) => {
  const name = endpoint.Properties.ServiceName;
  return (typeof name === 'string' ? name : name['Fn::Join'][1].at(-1)).split('.').at(-1);
};

describe.each(RUNTIMES_AND_PROFILES)('VPC endpoints of the build server on %s in %s', (runtime, profile) => {
  const { json, factory } = synth(runtime, { ...propsFor(profile), authMode: 'application-oidc', oidc: OIDC, domain: 'example.com', alarmEmail: 'ops@example.com' }, new JenkinsSpec());
  const endpoints = Object.fromEntries(resources(json, 'AWS::EC2::VPCEndpoint').map(([, e]) => [serviceOf(e), e]));

  if (profile === SecurityProfile.DEV) {
    test('none in DEV', () => {
      expect(endpoints).toEqual({});
      expect(factory.s3Endpoint).toBeUndefined();
    });
    return;
  }

  test('CloudWatch Logs, Secrets Manager and ECS in the compute subnets with private DNS, S3 as a gateway on their route tables', () => {
    expect(Object.keys(endpoints).sort()).toEqual(['ecs', 'logs', 's3', 'secretsmanager']);
    const endpointGroup = securityGroupId(json, 'VPC interface endpoints');
    for (const service of ['ecs', 'logs', 'secretsmanager']) {
      const { Properties: p } = endpoints[service];
      expect(p.VpcEndpointType).toBe('Interface');
      expect(p.PrivateDnsEnabled).toBe(true);
      expect(p.SecurityGroupIds.map(refTarget)).toEqual([endpointGroup]);
      for (const subnet of p.SubnetIds) expect(refTarget(subnet)).toMatch(/Compute/);
    }
    expect(endpoints.s3.Properties.VpcEndpointType).toBe('Gateway');
    for (const table of endpoints.s3.Properties.RouteTableIds) expect(refTarget(table)).toMatch(/Compute/);
    expect(factory.s3Endpoint).toBeDefined();
  });

  test('the endpoints\' group admits HTTPS from the controller and the agents only, and sends nothing', () => {
    const endpointGroup = securityGroupId(json, 'VPC interface endpoints')!;
    const admitted = resources(json, 'AWS::EC2::SecurityGroupIngress').filter(([, r]) => refTarget(r.Properties.GroupId) === endpointGroup)
      .map(([, r]) => [refTarget(r.Properties.SourceSecurityGroupId), r.Properties.FromPort, r.Properties.ToPort]);
    expect(admitted.sort()).toEqual([[securityGroupId(json, 'Application'), 443, 443], [securityGroupId(json, 'Ephemeral workers'), 443, 443]].sort());
    expect(json.Resources[endpointGroup].Properties.SecurityGroupIngress ?? []).toEqual([]);
    expect(json.Resources[endpointGroup].Properties.SecurityGroupEgress).toEqual([expect.objectContaining({ CidrIp: '255.255.255.255/32' })]);
  });

  test('each endpoint\'s policy allows only this account\'s principals, and only the calls the stack makes on its own resources', () => {
    const statements = (service: string) => endpoints[service].Properties.PolicyDocument.Statement;
    const [logGroupId] = resources(json, 'AWS::Logs::LogGroup').find(([, g]) => g.Properties.LogGroupName === `/aws/WikiStack/${runtime}/${profile}`)!;
    expect(statements('logs')).toEqual([{
      Effect: 'Allow',
      Principal: { AWS: '*' },
      Condition: { StringEquals: ACCOUNT_ONLY },
      Action: ['logs:CreateLogStream', 'logs:PutLogEvents', 'logs:DescribeLogStreams'],
      Resource: { 'Fn::GetAtt': [logGroupId, 'Arn'] },
    }]);
    expect(statements('secretsmanager')).toEqual([{
      Effect: 'Allow',
      Principal: { AWS: '*' },
      Condition: { StringEquals: ACCOUNT_ONLY },
      Action: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'],
      Resource: OIDC.clientSecretArn,
    }]);
    // The ECS endpoint allows exactly the ECS statements of the controller's launch policy.
    const launch = resources(json, 'AWS::IAM::Policy').find(([id]) => id.includes('WorkersLaunchPolicy'))![1].Properties.PolicyDocument.Statement
      .filter((st: any) => String(st.Action).startsWith('ecs:'));
    const ecs = statements('ecs');
    expect(ecs.map((st: any) => [st.Action, st.Resource])).toEqual(launch.map((st: any) => [st.Action, st.Resource]));
    for (const [i, st] of ecs.entries()) {
      expect(st.Principal).toEqual({ AWS: '*' });
      expect(st.Condition).toEqual({ ...launch[i].Condition, StringEquals: { ...ACCOUNT_ONLY, ...launch[i].Condition?.StringEquals } });
    }
    const s3 = statements('s3');
    expect(s3[0]).toEqual({
      Effect: 'Allow',
      Principal: { AWS: '*' },
      Action: 's3:*',
      Resource: '*',
      Condition: { StringEquals: { ...ACCOUNT_ONLY, 's3:ResourceAccount': { Ref: 'AWS::AccountId' } } },
    });
    // EC2 installs its packages at boot from Amazon Linux 2023's repository bucket, which AWS owns; ECR serves image
    // layers from its own (ECR user guide, "Amazon ECR interface VPC endpoints": prod-<region>-starport-layer-bucket).
    const awsBucket = (name: string) => ({
      Effect: 'Allow',
      Principal: { AWS: '*' },
      Action: 's3:GetObject',
      Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:s3:::${name}/*`]] },
    });
    expect(s3.slice(1)).toEqual([
      ...runtime === RuntimeType.EC2 ? [awsBucket('al2023-repos-eu-west-1-de612dc2')] : [],
      awsBucket('prod-eu-west-1-starport-layer-bucket'),
    ]);
  });
});

test('no Secrets Manager endpoint without secrets, no ECS endpoint without workers', () => {
  const { json } = synth(RuntimeType.FARGATE, propsFor(SecurityProfile.STAGING), new WikiSpec());
  expect(resources(json, 'AWS::EC2::VPCEndpoint').map(([, e]) => serviceOf(e)).sort()).toEqual(['logs', 's3']);
});

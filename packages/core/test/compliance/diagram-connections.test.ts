import { deploymentGraph } from '../../src/compliance/diagrams/deployment-graph';
import { stamped } from '../../src/compliance/diagrams/diagram-files';
import { dataFlowDot, networkDot } from '../../src/compliance/diagrams/dot';
import { renderSvg } from '../../src/compliance/diagrams/render-svg';
import { PciDssScope } from '../../src/contract/pci-dss-scope';

// The review's R4 defects (pci-review-6.md §3) and the connections an assessor asks for (R3), on hand-written
// templates: a platform with a public and an internal load balancer, a shared file system and interface endpoints; a
// CDE application and a CONNECTED one on it. The main job's diagrams are checked in test/examples/diagrams.test.js.

const getAtt = (id: string) => ({ 'Fn::GetAtt': [id, 'GroupId'] });
const ingress = (group: string, from: object, port: number) => ({
  Type: 'AWS::EC2::SecurityGroupIngress', Properties: { GroupId: getAtt(group), ...from, IpProtocol: 'tcp', FromPort: port, ToPort: port },
});
const PLATFORM = {
  Resources: {
    PublicGroup: { Type: 'AWS::EC2::SecurityGroup', Properties: { GroupDescription: 'Public load balancer' } },
    FromInternet443: ingress('PublicGroup', { CidrIp: '0.0.0.0/0' }, 443),
    FromInternet80: ingress('PublicGroup', { CidrIp: '0.0.0.0/0' }, 80),
    Public: { Type: 'AWS::ElasticLoadBalancingV2::LoadBalancer', Properties: { Scheme: 'internet-facing', SecurityGroups: [getAtt('PublicGroup')] } },
    Https: { Type: 'AWS::ElasticLoadBalancingV2::Listener', Properties: { LoadBalancerArn: { Ref: 'Public' }, Port: 443, Protocol: 'HTTPS', DefaultActions: [] } },
    Http: { Type: 'AWS::ElasticLoadBalancingV2::Listener', Properties: { LoadBalancerArn: { Ref: 'Public' }, Port: 80, Protocol: 'HTTP', DefaultActions: [{ Type: 'redirect' }] } },
    InternalGroup: { Type: 'AWS::EC2::SecurityGroup', Properties: { GroupDescription: 'Internal load balancer' } },
    FromPrivate: ingress('InternalGroup', { CidrIp: '10.0.8.0/22' }, 443),
    Internal: { Type: 'AWS::ElasticLoadBalancingV2::LoadBalancer', Properties: { Scheme: 'internal', SecurityGroups: [getAtt('InternalGroup')] } },
    InternalHttps: { Type: 'AWS::ElasticLoadBalancingV2::Listener', Properties: { LoadBalancerArn: { Ref: 'Internal' }, Port: 443, Protocol: 'HTTPS', DefaultActions: [] } },
    FsGroup: { Type: 'AWS::EC2::SecurityGroup', Properties: { GroupDescription: 'File system' } },
    Fs: { Type: 'AWS::EFS::FileSystem', Properties: { Encrypted: true } },
    Mount: { Type: 'AWS::EFS::MountTarget', Properties: { FileSystemId: { Ref: 'Fs' }, SecurityGroups: [getAtt('FsGroup')] } },
    EndpointGroup: { Type: 'AWS::EC2::SecurityGroup', Properties: { GroupDescription: 'Endpoints' } },
    Logs: { Type: 'AWS::EC2::VPCEndpoint', Properties: { ServiceName: 'com.amazonaws.eu-west-1.logs', SecurityGroupIds: [getAtt('EndpointGroup')] } },
    Cache: { Type: 'AWS::ECR::PullThroughCacheRule', Properties: { EcrRepositoryPrefix: 'fw-hub', UpstreamRegistryUrl: 'registry-1.docker.io' } },
    Topic: { Type: 'AWS::SNS::Topic', Properties: {} },
    Mail: { Type: 'AWS::SNS::Subscription', Properties: { Protocol: 'email', Endpoint: 'security@example.com', TopicArn: { Ref: 'Topic' } } },
    Dns: { Type: 'AWS::Route53::RecordSet', Properties: { Name: 'shop.example.com.', Type: 'A', AliasTarget: { DNSName: { 'Fn::GetAtt': ['Public', 'DNSName'] } } } },
  },
};
/** An application's resources: its group, reached from both load balancers, reaching the file system, the endpoints and the internet. */
const APPLICATION = {
  AppGroup: { Type: 'AWS::EC2::SecurityGroup', Properties: { GroupDescription: 'Application tasks' } },
  FromPublic: ingress('AppGroup', { SourceSecurityGroupId: getAtt('PublicGroup') }, 8080),
  FromInternal: ingress('AppGroup', { SourceSecurityGroupId: getAtt('InternalGroup') }, 8080),
  ToFs: ingress('FsGroup', { SourceSecurityGroupId: getAtt('AppGroup') }, 2049),
  ToLogs: ingress('EndpointGroup', { SourceSecurityGroupId: getAtt('AppGroup') }, 443),
  Out: {
    Type: 'AWS::EC2::SecurityGroupEgress',
    Properties: { GroupId: getAtt('AppGroup'), CidrIp: '0.0.0.0/0', IpProtocol: 'tcp', FromPort: 443, ToPort: 443, Description: 'HTTPS: package repositories, identity provider' },
  },
  Service: { Type: 'AWS::ECS::Service', Properties: { EnableExecuteCommand: true, NetworkConfiguration: { AwsvpcConfiguration: { SecurityGroups: [getAtt('AppGroup')] } } } },
  Targets: { Type: 'AWS::ElasticLoadBalancingV2::TargetGroup', Properties: { Protocol: 'HTTP', Port: 8080 } },
};
const graph = deploymentGraph([{
  stack: 'shop',
  template: { Resources: { ...PLATFORM.Resources, ...APPLICATION } },
  scope: PciDssScope.CDE,
  templateSha256: 'a'.repeat(64),
  issuer: 'https://login.example.com',
}]);
const node = (title: string) => graph.nodes.find((n) => n.title === title)!;
const flow = (from: string, to: string) => graph.flows.find((f) => f.from === node(from).id && f.to === node(to).id)!;
const [network, dataFlow] = [networkDot(graph, 'shop'), dataFlowDot(graph, 'shop')];
const dashed = (dot: string, from: string, to: string) => new RegExp(`^  ${node(from).id} -> ${node(to).id} \\[.*style="dashed"`, 'm').test(dot);

test('R4(a): a flow is dashed by what the template shows of it, not by a word in its label', () => {
  expect(flow('shop', 'VPC interface endpoints')).toMatchObject({ encryption: 'TLS (AWS service endpoint)', encrypted: true });
  expect(dashed(dataFlow, 'shop', 'VPC interface endpoints')).toBe(false);
  expect(flow('Load balancer (internet-facing)', 'shop')).toMatchObject({ encryption: 'plain HTTP inside the VPC', encrypted: false });
  expect(dashed(dataFlow, 'Load balancer (internet-facing)', 'shop')).toBe(true);
});

test('R4(b): whoever reaches a load balancer in front of a CDE application may carry account data, the private subnets too', () => {
  expect(flow('Addresses 10.0.8.0/22', 'Load balancer (internal)')).toMatchObject({ cardData: true, encryption: 'TLS ends at the load balancer' });
  expect(flow('Internet (clients)', 'Load balancer (internet-facing)'))
    .toMatchObject({ cardData: true, encrypted: true, encryption: 'TLS ends at the load balancer (tcp 80 only redirects to HTTPS)' });
});

test('R4(d, e): tcp 443 to any address shows no TLS, and the way out says what the rule names, not what its description hopes', () => {
  expect(flow('shop', 'Internet')).toMatchObject({ ports: ['tcp 443'], encrypted: false });
  expect(flow('shop', 'Internet').encryption).toBeUndefined();
  expect(node('Internet').details).toEqual(['any address: 0.0.0.0/0']);
});

test('R3: both diagrams draw the identity provider, the administrators\' shell, DNS, the image registry path and the alarm recipients', () => {
  const app = node('shop').id;
  const lb = node('Load balancer (internet-facing)').id;
  for (const dot of [network, dataFlow]) {
    expect(dot).toContain(`${app} -> idp0 [class="structure", style=dashed, color="#1967d2", fontcolor="#1967d2", label="the application signs users in (OIDC back channel)"];`);
    expect(dot).toContain('internet -> idp0 [class="structure", style=dashed, color="#1967d2", fontcolor="#1967d2", label="browsers sign in (redirect)"];');
    expect(dot).toContain(`administrators -> ${app} [class="structure", style=dashed, color="#1967d2", fontcolor="#1967d2", label="shell: ECS Exec (Session Manager)"];`);
    expect(dot).toContain(`dns0 -> ${lb} [class="structure", style=dashed, color="#1967d2", fontcolor="#1967d2", label="alias"];`);
    expect(dot).toContain(`${app} -> registry0 [class="structure", style=dashed, color="#1967d2", fontcolor="#1967d2", label="pulls its images"];`);
    expect(dot).toMatch(/upstream0 \[label="Upstream registry\\nregistry-1\.docker\.io"/);
    expect(dot).toContain('alarms -> recipient0 [class="structure", style=dashed, color="#1967d2", fontcolor="#1967d2", label="notifies"];');
    expect(dot).toContain('recipient0 [label="Alarm recipient\\nemail security@example.com"');
  }
  // Without ECS Exec, no shell line: administrators reach the application's own interface only.
  const service = { ...APPLICATION.Service, Properties: { ...APPLICATION.Service.Properties, EnableExecuteCommand: false } };
  const closed = { ...APPLICATION, Service: service };
  const noShell = deploymentGraph([{ stack: 'shop', template: { Resources: { ...PLATFORM.Resources, ...closed } } }]);
  expect(noShell.network.adminAccess).toEqual([{ application: app, path: undefined }]);
  expect(networkDot(noShell, 'shop')).toContain(`administrators -> ${lb} [class="structure", style=dashed, color="#1967d2", fontcolor="#1967d2", label="the application's interface, signed in as users"];`);
});

test('R4(c): a file system applications of two stacks reach is flagged with both, drawn with the shared border', () => {
  const parameter = (name: string) => ({ Type: 'AWS::SSM::Parameter::Value<String>', Default: name });
  const published = { Type: 'AWS::SSM::Parameter', Properties: { Name: '/fw/p/fs', Value: getAtt('FsGroup') } };
  const platform = { Resources: { ...PLATFORM.Resources, FsParameter: published } };
  const onPlatform = (scope: PciDssScope) => ({
    template: {
      Parameters: { FsGroupId: parameter('/fw/p/fs') },
      Resources: {
        AppGroup: APPLICATION.AppGroup,
        Service: APPLICATION.Service,
        ToFs: { ...APPLICATION.ToFs, Properties: { ...APPLICATION.ToFs.Properties, GroupId: { Ref: 'FsGroupId' } } },
      },
    },
    scope,
  });
  const shared = deploymentGraph([{ stack: 'p', template: platform }, { stack: 'shop', ...onPlatform(PciDssScope.CDE) }, { stack: 'ci', ...onPlatform(PciDssScope.CONNECTED) }]);
  const fs = shared.nodes.find((n) => n.kind === 'file-system')!;
  expect(fs).toMatchObject({ sharedBy: ['ci', 'shop'] });
  expect(fs.details).toContain('shared by ci, shop');
  expect(networkDot(shared, 'p')).toMatch(new RegExp(`^\\s+${fs.id} \\[.*color="#e37400", penwidth=3`, 'm'));
});

test('each SVG is stamped under the drawing with its provenance, and the drawing itself does not move', () => {
  const [svg] = renderSvg([network]);
  const lines = ['Drawn 2026-12-06T00:00:00.000Z from source revision abc, and the templates:', `shop: SHA-256 ${'a'.repeat(64)}`];
  const out = stamped(svg, lines);
  expect(out).toContain('<g id="stamp" class="stamp">');
  expect(out).toContain(`>shop: SHA-256 ${'a'.repeat(64)}</text>`);
  expect(out.replace(/<svg width[^>]*>/, '').replace(/<g id="stamp"[^]*?<\/g>\n/, '')).toBe(svg.replace(/<svg width[^>]*>/, ''));
  expect(() => stamped('<svg>', lines)).toThrow(/without the size and view box/);
});

test('an EC2 application whose instance role holds the SSM agent\'s channel actions has Session Manager as its shell path; without them, none', () => {
  const policy = (actions: string[]) => ({
    Type: 'AWS::IAM::Policy',
    Properties: { Roles: [{ Ref: 'Role' }], PolicyDocument: { Statement: [{ Effect: 'Allow', Action: actions, Resource: '*' }] } },
  });
  const ec2 = (actions: string[]) => deploymentGraph([{
    stack: 'wiki',
    template: {
      Resources: {
        Group: { Type: 'AWS::EC2::SecurityGroup', Properties: { GroupDescription: 'Instances' } },
        Role: { Type: 'AWS::IAM::Role', Properties: {} },
        Policy: policy(actions),
        Profile: { Type: 'AWS::IAM::InstanceProfile', Properties: { Roles: [{ Ref: 'Role' }] } },
        Launch: { Type: 'AWS::EC2::LaunchTemplate', Properties: { LaunchTemplateData: { SecurityGroupIds: [getAtt('Group')] } } },
      },
    },
  }]);
  expect(ec2(['ssm:UpdateInstanceInformation', 'ssmmessages:CreateControlChannel']).network.adminAccess)
    .toEqual([{ application: 'wiki_Group', path: 'Session Manager (the SSM agent calls out; no inbound port)' }]);
  expect(ec2(['logs:PutLogEvents']).network.adminAccess).toEqual([{ application: 'wiki_Group', path: undefined }]);
});

test('the logs and backups AWS delivers on the services\' side are drawn from what configures them, from the node they leave', () => {
  const withLogs = {
    ...PLATFORM.Resources,
    Public: { ...PLATFORM.Resources.Public, Properties: { ...PLATFORM.Resources.Public.Properties, LoadBalancerAttributes: [{ Key: 'access_logs.s3.enabled', Value: 'true' }] } },
    Fs: { ...PLATFORM.Resources.Fs, Properties: { Encrypted: true, BackupPolicy: { Status: 'ENABLED' } } },
    FlowLog: { Type: 'AWS::EC2::FlowLog', Properties: { LogDestinationType: 'cloud-watch-logs', ResourceType: 'VPC' } },
    WafLogging: { Type: 'AWS::WAFv2::LoggingConfiguration', Properties: { LogDestinationConfigs: ['arn:aws:logs:eu-west-1:111111111111:log-group:aws-waf-logs-x'] } },
  };
  const drawn = deploymentGraph([{ stack: 'shop', template: { Resources: { ...withLogs, ...APPLICATION } } }]);
  const lb = drawn.nodes.find((n) => n.title === 'Load balancer (internet-facing)')!.id;
  const fs = drawn.nodes.find((n) => n.kind === 'file-system')!.id;
  expect(drawn.network.serviceDeliveries).toEqual([
    { what: 'load balancer access logs to S3', from: lb }, { what: 'web ACL logs to CloudWatch Logs' },
    { what: 'VPC flow logs to CloudWatch Logs' }, { what: 'EFS automatic backups to AWS Backup', from: fs },
  ]);
  const dot = networkDot(drawn, 'shop');
  expect(dot).toContain(`${lb} -> deliveries [class="structure", style=dashed, color="#1967d2", fontcolor="#1967d2", label="load balancer access logs"];`);
  expect(dot).toContain(`${fs} -> deliveries [class="structure", style=dashed, color="#1967d2", fontcolor="#1967d2", label="EFS automatic backups"];`);
  expect(deploymentGraph([{ stack: 'shop', template: { Resources: { ...PLATFORM.Resources, ...APPLICATION } } }]).network.serviceDeliveries).toEqual([]);
});

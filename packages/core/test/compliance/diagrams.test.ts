import { deploymentGraph } from '../../src/compliance/diagrams/deployment-graph';
import { drawnWith } from '../../src/compliance/diagrams/diagram-files';
import { dataFlowDot, networkDot } from '../../src/compliance/diagrams/dot';
import { renderSvg } from '../../src/compliance/diagrams/render-svg';
import { PciDssScope } from '../../src/contract/pci-dss-scope';

// The diagrams' reading of templates, on two small hand-written ones: a platform that publishes its load balancer's
// group as an SSM parameter, and a CDE application that reads it and reaches its database. The synthesised
// templates' diagrams are checked against their rules and in Chromium by test/examples (diagrams, quality-gate).

const getAtt = (id: string) => ({ 'Fn::GetAtt': [id, 'GroupId'] });
const PLATFORM = {
  Resources: {
    Vpc: { Type: 'AWS::EC2::VPC', Properties: { CidrBlock: '10.0.0.0/16' } },
    Public: { Type: 'AWS::EC2::Subnet', Properties: { CidrBlock: '10.0.0.0/24', AvailabilityZone: 'a' } },
    PublicTable: { Type: 'AWS::EC2::RouteTable', Properties: {} },
    PublicAssociation: { Type: 'AWS::EC2::SubnetRouteTableAssociation', Properties: { SubnetId: { Ref: 'Public' }, RouteTableId: { Ref: 'PublicTable' } } },
    PublicRoute: { Type: 'AWS::EC2::Route', Properties: { RouteTableId: { Ref: 'PublicTable' }, DestinationCidrBlock: '0.0.0.0/0', GatewayId: { Ref: 'Igw' } } },
    Igw: { Type: 'AWS::EC2::InternetGateway', Properties: {} },
    S3: { Type: 'AWS::EC2::VPCEndpoint', Properties: { VpcEndpointType: 'Gateway', ServiceName: { 'Fn::Join': ['', ['com.amazonaws.', { Ref: 'AWS::Region' }, '.s3']] } } },
    LbGroup: {
      Type: 'AWS::EC2::SecurityGroup',
      Properties: { GroupDescription: 'Public load balancer', SecurityGroupIngress: [{ CidrIp: '0.0.0.0/0', IpProtocol: 'tcp', FromPort: 443, ToPort: 443 }] },
    },
    Lb: { Type: 'AWS::ElasticLoadBalancingV2::LoadBalancer', Properties: { Scheme: 'internet-facing', SecurityGroups: [getAtt('LbGroup')], Subnets: [{ Ref: 'Public' }] } },
    Https: {
      Type: 'AWS::ElasticLoadBalancingV2::Listener',
      Properties: { LoadBalancerArn: { Ref: 'Lb' }, Port: 443, Protocol: 'HTTPS', DefaultActions: [{ Type: 'authenticate-oidc', AuthenticateOidcConfig: { Issuer: 'https://login.example.com' } }] },
    },
    LbGroupParameter: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/fw/p/load-balancer-security-group-id', Value: getAtt('LbGroup') } },
  },
};
const SHOP = {
  Parameters: { LbGroupId: { Type: 'AWS::SSM::Parameter::Value<String>', Default: '/fw/p/load-balancer-security-group-id' } },
  Resources: {
    AppGroup: { Type: 'AWS::EC2::SecurityGroup', Properties: { GroupDescription: 'Application tasks' } },
    FromLb: { Type: 'AWS::EC2::SecurityGroupIngress', Properties: { GroupId: getAtt('AppGroup'), SourceSecurityGroupId: { Ref: 'LbGroupId' }, IpProtocol: 'tcp', FromPort: 8443, ToPort: 8443 } },
    Volume: { Type: 'AWS::EC2::Volume', Properties: { Size: 50, Encrypted: true } },
    Service: { Type: 'AWS::ECS::Service', Properties: { NetworkConfiguration: { AwsvpcConfiguration: { SecurityGroups: [getAtt('AppGroup')] } } } },
    Targets: { Type: 'AWS::ElasticLoadBalancingV2::TargetGroup', Properties: { Protocol: 'HTTPS', Port: 8443 } },
    Rule: { Type: 'AWS::ElasticLoadBalancingV2::ListenerRule', Properties: { Conditions: [{ Field: 'host-header', HostHeaderConfig: { Values: ['shop.example.com'] } }] } },
    DbGroup: { Type: 'AWS::EC2::SecurityGroup', Properties: { GroupDescription: 'Database' } },
    ToDb: { Type: 'AWS::EC2::SecurityGroupIngress', Properties: { GroupId: getAtt('DbGroup'), SourceSecurityGroupId: getAtt('AppGroup'), IpProtocol: 'tcp', FromPort: 5432, ToPort: 5432 } },
    Parameters: { Type: 'AWS::RDS::DBClusterParameterGroup', Properties: { Parameters: { 'rds.force_ssl': '1' } } },
    CacheGroup: { Type: 'AWS::EC2::SecurityGroup', Properties: { GroupDescription: 'Cache' } },
    ToCache: { Type: 'AWS::EC2::SecurityGroupIngress', Properties: { GroupId: getAtt('CacheGroup'), SourceSecurityGroupId: getAtt('AppGroup'), IpProtocol: 'tcp', FromPort: 6379, ToPort: 6379 } },
    Cache: { Type: 'AWS::ElastiCache::ReplicationGroup', Properties: { Engine: 'valkey', AtRestEncryptionEnabled: true, SecurityGroupIds: [getAtt('CacheGroup')] } },
    Db: { Type: 'AWS::RDS::DBCluster', Properties: { Engine: 'aurora-postgresql', StorageEncrypted: true, VpcSecurityGroupIds: [getAtt('DbGroup')], DBClusterParameterGroupName: { Ref: 'Parameters' } } },
  },
};
const assembly = [{ stack: 'p', template: PLATFORM }, { stack: 'shop', template: SHOP, scope: PciDssScope.CDE }, { stack: 'other', template: { Resources: {} } }];

test('an application is drawn with the platform whose SSM parameters it reads, and the platform with it; an unrelated stack with neither', () => {
  expect(drawnWith('shop', assembly).map((s) => s.stack)).toEqual(['shop', 'p']);
  expect(drawnWith('p', assembly).map((s) => s.stack)).toEqual(['p', 'shop']);
  expect(drawnWith('other', assembly).map((s) => s.stack)).toEqual(['other']);
});

describe('the graph of a CDE application on a platform', () => {
  const graph = deploymentGraph(drawnWith('p', assembly));
  const node = (title: string) => graph.nodes.find((n) => n.title === title || n.details.includes(title))!;
  const flow = (from: string, to: string) => graph.flows.find((f) => f.from === node(from).id && f.to === node(to).id)!;

  test('a rule that names the platform\'s group through an SSM parameter connects the platform\'s load balancer to the application', () => {
    expect(flow('Load balancer (internet-facing)', 'shop')).toMatchObject({ ports: ['tcp 8443'], rules: ['shop/FromLb'], encryption: 'TLS to the application' });
    expect(node('shop')).toMatchObject({ kind: 'application', scope: PciDssScope.CDE, details: ['shop.example.com', 'ECS Fargate service', 'EBS data volume, 50 GiB, encrypted at rest'] });
  });

  test('the flows of a CDE application, and the internet\'s to the load balancer that reaches it, may carry account data', () => {
    expect(flow('Internet (clients)', 'Load balancer (internet-facing)')).toMatchObject({ cardData: true, encryption: 'TLS ends at the load balancer' });
    expect(flow('shop', 'Database (aurora-postgresql)')).toMatchObject({ cardData: true, ports: ['tcp 5432'], encryption: 'TLS (the database refuses plain connections)' });
    expect(graph.flows.every((f) => f.cardData)).toBe(true);
  });

  test('a cache (ElastiCache) is drawn by its engine, and the application\'s flow to it may carry account data', () => {
    expect(flow('shop', 'Cache (valkey)')).toMatchObject({ ports: ['tcp 6379'], cardData: true });
    expect(node('Cache (valkey)').details).toEqual(['stack shop', 'encrypted at rest']);
  });

  test('a node sits in its subnets\' tier, by their default route', () => {
    expect(node('Load balancer (internet-facing)')).toMatchObject({ tier: 'public', zones: 1 });
    expect(graph.network).toMatchObject({ vpcCidrs: ['10.0.0.0/16'], internetGateway: true, tiers: { public: { cidrs: ['10.0.0.0/24'], zones: 1 } } });
    expect(graph.network.gatewayEndpoints).toEqual(['s3']);
  });

  test('the identity provider a load balancer signs users in with is drawn beside it in the network diagram', () => {
    const lb = node('Load balancer (internet-facing)').id;
    expect(graph.network.identityProviders).toEqual([{ issuer: 'https://login.example.com', loadBalancer: lb }]);
    expect(networkDot(graph, 'p')).toContain(`${lb} -> idp0 [class="structure", style=dashed, color="#1967d2", fontcolor="#1967d2", label="the load balancer signs users in (OIDC)"];`);
  });

  test('Graphviz draws both, deterministically; a card-data flow is red and the legend names every scope', () => {
    const dots = [networkDot(graph, 'p'), dataFlowDot(graph, 'p')];
    const [network, dataFlow] = renderSvg(dots);
    expect(renderSvg(dots)).toEqual([network, dataFlow]);
    expect(dataFlow).toMatch(/<g id="flow_shop_AppGroup__shop_DbGroup" class="edge flow">[^]*?stroke="#c5221f"/);
    for (const svg of [network, dataFlow]) {
      expect(svg).toContain('CDE: stores, processes or transmits account data');
      expect(svg).toContain('Out of scope: segmented from the CDE');
      expect(svg).toContain('shop.example.com');
    }
  });
});

test('text Graphviz cannot read is an error that names Graphviz', () => {
  expect(() => renderSvg(['digraph { a -> }'])).toThrow(/^Graphviz \(@viz-js\/viz\) could not draw the diagrams: /);
});

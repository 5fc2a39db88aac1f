import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { ApplicationFactory, Platform, RuntimeType, SecurityProfile } from '../src';
import { SonarSpec } from './fixtures/sonar-spec';
import { WikiSpec } from './fixtures/wiki-spec';
import { PLATFORM_PROPS } from './support/platform';
import { IMAGE_DIGESTS, pinnedImage, propsFor, REGION_ENV, resources, synth, testDefaults } from './support/synth';
import { CONTEXT_KEYS } from '../src/context/context-keys';
import type { ExistingVpc } from '../src/context/existing-vpc';

// A VPC the network team gives, by ids: nothing is looked up (no context holds a lookup's answer here, and synth
// needs none), nothing of the VPC is created, and what the profile needs is added to it.
const GIVEN = CONTEXT_KEYS.find((k) => k.name === 'existingVpc')!.example as ExistingVpc;
const { vpcCidr: _, ...PLATFORM_WITHOUT_CIDR } = PLATFORM_PROPS;
const ids = (subnets: ExistingVpc['computeSubnets']) => subnets.map((s) => s.subnetId).sort();
const VPC_TYPES = ['AWS::EC2::VPC', 'AWS::EC2::Subnet', 'AWS::EC2::InternetGateway', 'AWS::EC2::NatGateway', 'AWS::EC2::RouteTable', 'AWS::EC2::Route'];

describe.each([SecurityProfile.DEV, SecurityProfile.STAGING, SecurityProfile.PRODUCTION])('a platform on an existing VPC in %s', (securityProfile) => {
  const app = new App();
  const platform = new Platform(new Stack(app, 'Platform', { env: REGION_ENV }), 'Platform', { ...PLATFORM_WITHOUT_CIDR, securityProfile, existingVpc: GIVEN });
  const spec = new SonarSpec();
  new ApplicationFactory(new Stack(app, 'Wiki', { env: REGION_ENV }), 'App', RuntimeType.FARGATE, spec,
    { platform, imageDigests: IMAGE_DIGESTS, subdomain: 'wiki', ...testDefaults(spec) });
  const assembly = app.synth();
  const platformTemplate = assembly.getStackByName('Platform').template;

  test('synthesises with no lookup, creating none of the VPC\'s own parts', () => {
    expect(assembly.manifest.missing ?? []).toEqual([]);
    for (const stack of assembly.stacks) {
      const created = Object.values<any>(stack.template.Resources).map((r) => r.Type).filter((t) => VPC_TYPES.includes(t));
      expect([stack.stackName, created]).toEqual([stack.stackName, []]);
    }
  });

  test('publishes the given VPC and subnets; the load balancer, the mount targets and the database use the given tiers', () => {
    const parameter = (name: string) => Object.values<any>(platformTemplate.Resources)
      .find((r) => r.Type === 'AWS::SSM::Parameter' && String(r.Properties.Name).endsWith(`/${name}`))?.Properties.Value;
    expect(parameter('vpc-id')).toBe(GIVEN.vpcId);
    expect([parameter('data-subnet-1'), parameter('data-subnet-2')].sort()).toEqual(ids(GIVEN.dataSubnets!));
    const [[, alb]] = resources(platformTemplate, 'AWS::ElasticLoadBalancingV2::LoadBalancer').filter(([, l]) => l.Properties.Scheme !== 'internal');
    expect([...alb.Properties.Subnets].sort()).toEqual(ids(GIVEN.loadBalancerSubnets));
    const mountTargets = resources(platformTemplate, 'AWS::EFS::MountTarget').map(([, m]) => m.Properties.SubnetId).sort();
    expect(mountTargets).toEqual(ids(GIVEN.computeSubnets));
  });

  test('adds what the profile requires: the flow log on the given VPC where the profile keeps one; no endpoint (the network team\'s serve)', () => {
    const flowLogs = resources(platformTemplate, 'AWS::EC2::FlowLog').map(([, f]) => f.Properties.ResourceId);
    expect(flowLogs).toEqual(securityProfile === SecurityProfile.DEV ? [] : [GIVEN.vpcId]);
    for (const stack of assembly.stacks) expect([stack.stackName, resources(stack.template, 'AWS::EC2::VPCEndpoint')]).toEqual([stack.stackName, []]);
  });
});

describe('existingVpc.endpoints', () => {
  const CREATE = { ...GIVEN, endpoints: 'create' };
  const platformIn = (app: App, name: string, existingVpc: ExistingVpc) =>
    new Platform(new Stack(app, name, { env: REGION_ENV }), 'Platform', { ...PLATFORM_WITHOUT_CIDR, securityProfile: SecurityProfile.PRODUCTION, existingVpc });

  test('"create": the platform creates its three (Logs, Secrets Manager, S3) in the given VPC\'s compute subnets and route tables', () => {
    const app = new App();
    const platform = platformIn(app, 'Platform', CREATE);
    const spec = new SonarSpec();
    new ApplicationFactory(new Stack(app, 'Sonar', { env: REGION_ENV }), 'App', RuntimeType.FARGATE, spec,
      { platform, imageDigests: IMAGE_DIGESTS, subdomain: 'sonar', ...testDefaults(spec) });
    const assembly = app.synth();
    const endpoints = resources(assembly.getStackByName('Platform').template, 'AWS::EC2::VPCEndpoint').map(([, e]) => e.Properties);
    expect(endpoints.map((e) => JSON.stringify(e.ServiceName).match(/\.(logs|secretsmanager|s3)/)?.[1]).sort()).toEqual(['logs', 's3', 'secretsmanager']);
    for (const e of endpoints) {
      expect(e.VpcId).toBe(GIVEN.vpcId);
      if (e.VpcEndpointType === 'Interface') expect([...e.SubnetIds].sort()).toEqual(ids(GIVEN.computeSubnets));
      else expect([...e.RouteTableIds].sort()).toEqual(GIVEN.computeSubnets.map((c) => c.routeTableId).sort());
    }
    expect(resources(assembly.getStackByName('Sonar').template, 'AWS::EC2::VPCEndpoint')).toEqual([]);
  });

  test('two stacks of one app that would both create them in one given VPC are refused, naming both', () => {
    const beside = (existingVpc: ExistingVpc) => () => {
      const app = new App();
      platformIn(app, 'Platform', CREATE);
      synth(RuntimeType.FARGATE, { ...propsFor(SecurityProfile.PRODUCTION), existingVpc }, new WikiSpec(), {}, app);
    };
    expect(beside(CREATE)).toThrow(/WikiStack\/App\/Endpoints and Platform\/Platform\/Endpoints would both create the framework's VPC endpoints in vpc-0a1b2c3d4e5f60718/);
    // The negative control: "existing" beside it is fine.
    expect(beside(GIVEN)).not.toThrow();
  });

  test('route tables are asked for only where a route is added: the compute subnets\' with "create"', () => {
    const strip = (subnets: ExistingVpc['computeSubnets']) => subnets.map(({ routeTableId: _r, ...rest }) => rest);
    const bare = {
      ...GIVEN,
      loadBalancerSubnets: strip(GIVEN.loadBalancerSubnets),
      computeSubnets: strip(GIVEN.computeSubnets),
      dataSubnets: strip(GIVEN.dataSubnets!),
    };
    expect(() => synth(RuntimeType.FARGATE, { existingVpc: bare as ExistingVpc })).not.toThrow();
    expect(() => synth(RuntimeType.FARGATE, { existingVpc: { ...bare, endpoints: 'create' } as ExistingVpc }))
      .toThrow(/computeSubnets\[0\]\.routeTableId as rtb- and 8 or 17 hex digits: with endpoints "create" the S3 gateway endpoint routes there/);
    expect(() => synth(RuntimeType.FARGATE, { existingVpc: { ...GIVEN, endpoints: 'shared' } as ExistingVpc })).toThrow(/endpoints as "existing" or "create" \(given "shared"\)/);
  });
});

test('a platform with database applications on both runtimes on a given VPC: no routeTableId warning; no launch template asks for a public IP', () => {
  const app = new App();
  const platform = new Platform(new Stack(app, 'Platform', { env: REGION_ENV }), 'Platform', { ...PLATFORM_WITHOUT_CIDR, existingVpc: GIVEN });
  const other = new (class extends SonarSpec {
    public applicationId() { return 'sonar-ec2'; }
    public efsDataPath() { return '/sonar-ec2'; }
  })();
  const stacks = [['Sonar', RuntimeType.FARGATE, new SonarSpec()], ['SonarEc2', RuntimeType.EC2, other]] as const;
  for (const [name, runtime, spec] of stacks) {
    new ApplicationFactory(new Stack(app, name, { env: REGION_ENV }), 'App', runtime, spec,
      {
        platform,
        imageDigests: IMAGE_DIGESTS,
        subdomain: name.toLowerCase(),
        ...testDefaults(spec),
        ...pinnedImage(runtime, { securityProfile: PLATFORM_PROPS.securityProfile }),
      });
  }
  const standalone = synth(RuntimeType.EC2, { existingVpc: GIVEN }, new SonarSpec());
  const all = [...['Platform', 'Sonar', 'SonarEc2'].map((n) => app.node.findChild(n) as Stack), standalone.stack];
  for (const stack of all) {
    expect([stack.stackName, Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('routeTableId'))]).toEqual([stack.stackName, []]);
  }
  for (const json of [app.synth().getStackByName('SonarEc2').template, standalone.json]) {
    const [[, template]] = resources(json, 'AWS::EC2::LaunchTemplate');
    expect(template.Properties.LaunchTemplateData.NetworkInterfaces)
      .toEqual([expect.objectContaining({ AssociatePublicIpAddress: false, DeviceIndex: 0 })]);
  }
});

test('a standalone application on an existing VPC synthesises with no lookup, in the given compute subnets', () => {
  const { json } = synth(RuntimeType.FARGATE, { existingVpc: GIVEN });
  expect(resources(json, 'AWS::EC2::VPC')).toEqual([]);
  const [[, service]] = resources(json, 'AWS::ECS::Service');
  expect([...service.Properties.NetworkConfiguration.AwsvpcConfiguration.Subnets].sort()).toEqual(ids(GIVEN.computeSubnets));
});

describe('refused, naming the key, what was given and what is allowed', () => {
  const refused = (existingVpc: unknown) => () => synth(RuntimeType.FARGATE, { existingVpc: existingVpc as ExistingVpc });

  test('a subnet in a zone the VPC does not list, and a zone left without a subnet', () => {
    const moved = { ...GIVEN, computeSubnets: [GIVEN.computeSubnets[0], { ...GIVEN.computeSubnets[1], availabilityZone: 'eu-west-1c' }] };
    expect(refused(moved)).toThrow(/existingVpc .* is not allowed; expected computeSubnets\[1\]\.availabilityZone as one of availabilityZones, eu-west-1a or eu-west-1b \(given "eu-west-1c"\); computeSubnets with one subnet in eu-west-1b \(given 0\)/);
  });

  test('a subnet outside the VPC\'s range, an id that is none, a field that does not exist', () => {
    const wrong = { ...GIVEN, vpcId: 'vpc-1', extra: true, loadBalancerSubnets: [{ ...GIVEN.loadBalancerSubnets[0], cidr: '10.9.0.0/24' }, GIVEN.loadBalancerSubnets[1]] };
    expect(refused(wrong)).toThrow(/no field extra .*; vpcId as vpc- and 8 or 17 hex digits \(given "vpc-1"\); loadBalancerSubnets\[0\]\.cidr as an IPv4 range inside the VPC's 10\.1\.0\.0\/16 \(given "10\.9\.0\.0\/24"\)/);
  });

  test('vpcCidr that differs, zones of another region, a platform without data subnets, a database with none', () => {
    expect(() => synth(RuntimeType.FARGATE, { existingVpc: GIVEN, vpcCidr: '10.2.0.0/16' }))
      .toThrow(/vpcCidr "10\.2\.0\.0\/16" differs from existingVpc\.cidr "10\.1\.0\.0\/16": the VPC you are given has its range already\. Leave vpcCidr out\./);
    const elsewhere = { ...GIVEN, availabilityZones: ['us-east-1a', 'us-east-1b'] };
    const zones = (s: ExistingVpc['computeSubnets']) => s.map((x, i) => ({ ...x, availabilityZone: elsewhere.availabilityZones[i] }));
    const moved = {
      loadBalancerSubnets: zones(GIVEN.loadBalancerSubnets), computeSubnets: zones(GIVEN.computeSubnets), dataSubnets: zones(GIVEN.dataSubnets!),
    };
    expect(refused({ ...elsewhere, ...moved }))
      .toThrow(/existingVpc\.availabilityZones \["us-east-1a","us-east-1b"\] are not all in the region eu-west-1/);
    const { dataSubnets: __, ...noData } = GIVEN;
    expect(() => new Platform(new Stack(new App(), 'P', { env: REGION_ENV }), 'Platform', { ...PLATFORM_WITHOUT_CIDR, existingVpc: noData }))
      .toThrow(/existingVpc needs dataSubnets on a platform/);
    expect(() => synth(RuntimeType.FARGATE, { existingVpc: noData }, new SonarSpec()))
      .toThrow(/existingVpc has no dataSubnets, and the plugin asks for a database/);
  });
});

describe('existingVpc.privateRouteFrom: who else in the given VPC reaches an application by its private name', () => {
  const onPlatform = (existingVpc: ExistingVpc) => {
    const app = new App();
    const platform = new Platform(new Stack(app, 'Platform', { env: REGION_ENV }), 'Platform', { ...PLATFORM_WITHOUT_CIDR, existingVpc });
    const spec = new SonarSpec();
    const stack = new Stack(app, 'Sonar', { env: REGION_ENV });
    new ApplicationFactory(stack, 'App', RuntimeType.FARGATE, spec, { platform, imageDigests: IMAGE_DIGESTS, subdomain: 'sonar', ...testDefaults(spec) });
    const assembly = app.synth();
    return { stack, platform: assembly.getStackByName('Platform').template, application: assembly.getStackByName('Sonar').template };
  };
  /** The ranges the internal load balancer's group admits HTTPS from. */
  const admitted = (template: any) => {
    const group = resources(template, 'AWS::EC2::SecurityGroup').find(([, g]) => g.Properties.GroupDescription.startsWith('Private load balancer'));
    return group ? group[1].Properties.SecurityGroupIngress.map((r: any) => r.CidrIp).sort() : undefined;
  };
  const compute = GIVEN.computeSubnets.map((s) => s.cidr);

  test('by default the whole VPC: its range besides the compute subnets, and the private zone in the VPC', () => {
    const { platform, application } = onPlatform(GIVEN);
    expect(admitted(platform)).toEqual([...compute, GIVEN.cidr].sort());
    // The VPC's id, as the platform publishes it (vpc-id: the given one, test above).
    expect(resources(application, 'AWS::Route53::HostedZone').map(([, z]) => JSON.stringify(z.Properties.VPCs[0].VPCId))).toEqual([expect.stringMatching(/fwPlatformvpcid/)]);
  });

  test('the ranges it names (inside the VPC\'s), and [] for no private names at all, said on the application', () => {
    expect(admitted(onPlatform({ ...GIVEN, privateRouteFrom: ['10.1.200.0/24'] }).platform)).toEqual([...compute, '10.1.200.0/24'].sort());
    const off = onPlatform({ ...GIVEN, privateRouteFrom: [] });
    expect(admitted(off.platform)).toBeUndefined();
    expect(resources(off.application, 'AWS::Route53::HostedZone')).toEqual([]);
    Annotations.fromStack(off.stack).hasWarning('*', Match.stringLikeRegexp('Sonar gets no private route: its platform\'s existingVpc.privateRouteFrom is \\[\\]'));
    expect(() => onPlatform({ ...GIVEN, privateRouteFrom: ['0.0.0.0/0'] }))
      .toThrow(/privateRouteFrom as a list of at most 10 IPv4 ranges inside the VPC's 10\.1\.0\.0\/16, each once \(\[\] for no private routes\) \(given \["0\.0\.0\.0\/0"\]\)/);
  });
});

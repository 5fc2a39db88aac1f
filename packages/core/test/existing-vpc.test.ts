import { App, Stack } from 'aws-cdk-lib';
import { ApplicationFactory, Platform, RuntimeType, SecurityProfile } from '../src';
import { SonarSpec } from './fixtures/sonar-spec';
import { PLATFORM_PROPS } from './support/platform';
import { IMAGE_DIGESTS, REGION_ENV, resources, synth, testDefaults } from './support/synth';
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

  test('adds what the profile requires: the flow log on the given VPC where the profile keeps one, endpoints in the compute subnets', () => {
    const flowLogs = resources(platformTemplate, 'AWS::EC2::FlowLog').map(([, f]) => f.Properties.ResourceId);
    expect(flowLogs).toEqual(securityProfile === SecurityProfile.DEV ? [] : [GIVEN.vpcId]);
    for (const [, endpoint] of resources(platformTemplate, 'AWS::EC2::VPCEndpoint')) {
      expect(endpoint.Properties.VpcId).toBe(GIVEN.vpcId);
      if (endpoint.Properties.VpcEndpointType === 'Interface') expect([...endpoint.Properties.SubnetIds].sort()).toEqual(ids(GIVEN.computeSubnets));
      else expect([...endpoint.Properties.RouteTableIds]).toEqual(expect.arrayContaining(GIVEN.computeSubnets.map((s) => s.routeTableId)));
    }
  });
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

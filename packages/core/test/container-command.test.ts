import { ContainerImageSpec, RuntimeType } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { only, resources, synth, userData } from './support/synth';

// An image that needs arguments and answers its health check on a management port (contract 1.1: containerCommand(),
// healthCheckPort()), from containerImage's values; the EC2 boot's merge with the image is run in ec2-image.test.ts.

const KEYCLOAK = {
  applicationId: 'keycloak',
  image: 'keycloak/keycloak:26.4.2',
  port: 8080,
  user: '1000:0',
  dataPath: '/opt/keycloak/data',
  healthCheckPath: '/health/ready',
  healthCheckPort: 9000,
  entryPoint: ['/opt/keycloak/bin/kc.sh'],
  command: ['start', '--optimized'],
};

describe.each([RuntimeType.FARGATE, RuntimeType.EC2])('an identity provider\'s image on %s', (runtime) => {
  const { json } = synth(runtime, {}, new ContainerImageSpec(KEYCLOAK));

  test('the target group checks the management port, on the path given', () => {
    expect(only(json, 'AWS::ElasticLoadBalancingV2::TargetGroup').Properties).toMatchObject({ Port: 8080, HealthCheckPort: '9000', HealthCheckPath: '/health/ready' });
  });

  test('the load balancer may reach the application on that port, and the application admits it', () => {
    const [[lbGroup]] = resources(json, 'AWS::EC2::SecurityGroup').filter(([, g]) => /load balancer/i.test(g.Properties.GroupDescription));
    const ingress = resources(json, 'AWS::EC2::SecurityGroupIngress').map(([, r]) => r.Properties)
      .filter((r) => r.FromPort === 9000 && r.SourceSecurityGroupId?.['Fn::GetAtt']?.[0] === lbGroup);
    expect(ingress).toHaveLength(1);
    const egress = resources(json, 'AWS::EC2::SecurityGroupEgress').map(([, r]) => r.Properties)
      .filter((r) => r.FromPort === 9000 && r.GroupId?.['Fn::GetAtt']?.[0] === lbGroup);
    expect(egress).toHaveLength(1);
  });

  test('the command reaches what runs the image', () => {
    if (runtime === RuntimeType.FARGATE) {
      const container = only(json, 'AWS::ECS::TaskDefinition').Properties.ContainerDefinitions.find((c: any) => c.Name === 'Application');
      expect(container).toMatchObject({ EntryPoint: KEYCLOAK.entryPoint, Command: KEYCLOAK.command });
      expect(container.PortMappings.map((p: any) => p.ContainerPort)).toEqual([8080, 9000]);
    } else {
      expect(userData(json)).toContain('\'{"entryPoint":["/opt/keycloak/bin/kc.sh"],"command":["start","--optimized"]}\'');
    }
  });
});

test('without them, the image\'s own command and the traffic port: nothing changes for an image that needs neither', () => {
  const { json } = synth(RuntimeType.FARGATE, {}, new WikiSpec());
  expect(only(json, 'AWS::ElasticLoadBalancingV2::TargetGroup').Properties.HealthCheckPort).toBeUndefined();
  const container = only(json, 'AWS::ECS::TaskDefinition').Properties.ContainerDefinitions.find((c: any) => c.Name === 'Application');
  expect([container.EntryPoint, container.Command]).toEqual([undefined, undefined]);
});

test('a plugin built against contract 1.0 that implements the interface itself lacks both members: the defaults hold', () => {
  const spec = new WikiSpec();
  const older = new Proxy(spec, { get: (t, k) => (k === 'containerCommand' || k === 'healthCheckPort' ? undefined : (t as any)[k]) });
  const { json } = synth(RuntimeType.FARGATE, {}, older);
  expect(only(json, 'AWS::ElasticLoadBalancingV2::TargetGroup').Properties.HealthCheckPort).toBeUndefined();
});

test('values that cannot run are refused, every problem at once, naming the member and what is allowed', () => {
  class Broken extends WikiSpec {
    public healthCheckPort() { return 70000; }
    public containerCommand() { return { entryPoint: [''], command: [] as string[] }; }
  }
  expect(() => synth(RuntimeType.FARGATE, {}, new Broken())).toThrow([
    'Plugin Broken declares invalid values:',
    '  - Broken.healthCheckPort() returned 70000; allowed: a port from 1 to 65535, or nothing for the application port.',
    '  - Broken.containerCommand().entryPoint [""]; allowed: a list of 1 to 64 arguments, each text without NUL of at most 4096 characters, the first not empty.',
    '  - Broken.containerCommand().command []; allowed: a list of 1 to 64 arguments, each text without NUL of at most 4096 characters.',
  ].join('\n'));
});

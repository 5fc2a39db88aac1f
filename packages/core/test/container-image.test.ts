import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ContainerImageSpec, DeploymentApp, RuntimeType } from '../src';
import { synth, userData } from './support/synth';

// An off-the-shelf image by configuration (`containerImage`): the plugin the deployment app makes from its values.
const IMAGE = { image: 'grafana/grafana-oss:11.5.2', port: 3000, user: '472:472', dataPath: '/var/lib/grafana', healthCheckPath: '/api/health' };
const deploy = (containerImage: unknown, context: Record<string, unknown> = {}) => () =>
  DeploymentApp.addTo(new App({
    context: { stackName: 'grafana', applicationId: 'grafana', runtimeType: 'FARGATE', securityProfile: 'DEV', sslEnabled: false, region: 'eu-west-1', containerImage, ...context },
  }));

test('from cdk.json alone, standalone: the image, port, user and data path as given', () => {
  const stack = deploy(IMAGE)();
  const task = Template.fromStack(stack).findResources('AWS::ECS::TaskDefinition');
  const container = Object.values<any>(task)[0].Properties.ContainerDefinitions.find((c: any) => c.Name === 'Application');
  expect([container.Image, container.User, container.PortMappings[0].ContainerPort, container.MountPoints[0].ContainerPath])
    .toEqual(['grafana/grafana-oss:11.5.2', '472:472', 3000, '/var/lib/grafana']);
});

test('a value left out, a field misspelt or of the wrong kind is refused, naming the field and what is allowed', () => {
  const { port: _, ...noPort } = IMAGE;
  expect(deploy({ ...noPort, prot: 3000, user: 'grafana' })).toThrow([
    'Invalid containerImage (applicationId grafana) (3 problems):',
    '  - containerImage.prot: no such field; did you mean port? Known: image, port, user, dataPath, healthCheckPath, healthCheckPort, entryPoint, command, ' +
    'startupSeconds, environment, database, requestBodyLimits, authModes, egress, defaultCredentials.',
    '  - containerImage.port is required; expected the port it listens on, 1 to 65535.',
    '  - containerImage.user "grafana" is not allowed; expected its user as "uid:gid", for example "200:200".',
  ].join('\n'));
  expect(deploy('grafana/grafana-oss')).toThrow(/containerImage \(applicationId grafana\) "grafana\/grafana-oss" is not allowed; expected an object with image, port/);
});

test('an applicationId an installed plugin has is refused', () => {
  expect(deploy(IMAGE, { applicationId: 'jenkins', stackName: 'ci' })).toThrow(/containerImage describes applicationId 'jenkins', which an installed plugin has too/);
});

test('on EC2 the framework runs the image itself (runImage; ec2-image.test.ts): no Docker line of the plugin\'s', () => {
  const script = userData(synth(RuntimeType.EC2, {}, new ContainerImageSpec({ applicationId: 'grafana', ...IMAGE })).json);
  expect(script).toContain("fw_image_root 'grafana/grafana-oss:11.5.2' '/var/lib/fw/images/grafana' ''");
  expect(script.split('\n').filter((l) => /^docker /.test(l))).toEqual([]);
});

test('the framework\'s checks of any plugin apply, naming the image: a data path, a request-body allowance', () => {
  expect(deploy({ ...IMAGE, dataPath: 'var/lib' })).toThrow(/containerImage\.dataPath "var\/lib" is not allowed; expected the absolute path/);
  // A request-body allowance the WAF cannot take: refused by the same check a plugin in code meets, naming the image.
  expect(deploy({ ...IMAGE, requestBodyLimits: [{ pathPrefix: 'api', maxBytes: 10 }] }))
    .toThrow(/containerImage \(applicationId grafana\)\.requestBodyLimits\(\)/);
});

test('PRODUCTION on EC2 refuses a secret in containerImage.environment, naming the variable and the field, never the value', () => {
  const withSecret = { ...IMAGE, environment: { GF_SECURITY_ADMIN_PASSWORD: 'hunter2', GF_LOG_LEVEL: 'info' } };
  const production = { securityProfile: 'PRODUCTION', runtimeType: 'EC2', sslEnabled: true, domain: 'example.com', hostedZoneId: 'Z123', pciDssScope: 'CONNECTED', alarmEmail: 'ops@example.com', ec2ImageId: 'ami-0123456789abcdef0' };
  let refusal = '';
  try {
    deploy(withSecret, production)();
  } catch (e) {
    refusal = (e as Error).message;
  }
  expect(refusal).toMatch(/GF_SECURITY_ADMIN_PASSWORD \(containerImage\.environment\): the name says it holds a secret/);
  expect(refusal).not.toContain('hunter2');
});

test('entryPoint and command are checked as ContainerCommand checks them, naming the field and the limits', () => {
  expect(deploy({ ...IMAGE, entryPoint: [''], command: [] })).toThrow([
    'Invalid containerImage (applicationId grafana) (2 problems):',
    '  - containerImage.entryPoint [""] is not allowed; expected a list of 1 to 64 arguments (text without NUL, at most 4096 characters each) replacing the image\'s ENTRYPOINT, the first not empty, for example ["/opt/keycloak/bin/kc.sh"].',
    '  - containerImage.command [] is not allowed; expected a list of 1 to 64 arguments (text without NUL, at most 4096 characters each) replacing the image\'s CMD, for example ["start", "--optimized"].',
  ].join('\n'));
});

import * as fs from 'fs';
import * as path from 'path';
import { App, Aws, Stack } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { ApplicationFactory, DeploymentContextReader, Platform, RuntimeType, SecurityProfile } from '../src';
import { readPlatformConfiguration } from '../src/context/platform-configuration';
import { UserError } from '../src/errors';
import { WikiSpec } from './fixtures/wiki-spec';
import { propsFor, REGION_ENV, testDefaults } from './support/synth';

/**
 * Every user value is data (injection review 6, F0): a CloudFormation dynamic reference (`{{resolve:...}}`), which
 * CloudFormation resolves at deploy with the deploying role's rights, or a CDK token marker, which synth reads as a
 * reference, is refused wherever a user sets it, naming the key path and never the value. The nine fields the review
 * planted one in, a nested plugin setting, names as well as values, the factory's and the platform's props in code.
 */
const REFERENCE = '{{resolve:secretsmanager:prod-db:SecretString:password}}';
const TOKEN = '${Token[AWS.AccountId.7]}';
const OFF_THE_SHELF = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'examples', 'off-the-shelf', 'cdk.json'), 'utf-8')).context;
const NEXUS = OFF_THE_SHELF.applications[0];

/** The off-the-shelf example's platform configuration with one value of its first application replaced. */
function withApplication(change: (entry: any) => void) {
  const entry = JSON.parse(JSON.stringify(NEXUS));
  change(entry);
  return () => readPlatformConfiguration({ ...OFF_THE_SHELF, applications: [entry] });
}

const PLANTED: Array<[string, (entry: any, value: string) => void]> = [
  ['applications[0].containerImage.environment.DB_HOST_INFO', (e, v) => { e.containerImage.environment.DB_HOST_INFO = v; }],
  ['applications[0].containerImage.healthCheckPath', (e, v) => { e.containerImage.healthCheckPath = `/${v}`; }],
  ['applications[0].containerImage.egress[0].description', (e, v) => {
    e.containerImage.egress = [{ description: v, protocol: 'tcp', port: 443, cidr: '10.0.0.0/8' }];
  }],
  ['applications[0].containerImage.requestBodyLimits[0].pathPrefix', (e, v) => { e.containerImage.requestBodyLimits[0].pathPrefix = `/${v}`; }],
  ['applications[0].containerImage.database.environment.urlFormat', (e, v) => {
    e.containerImage.database = { engine: 'postgres', environment: { urlFormat: `jdbc:postgresql://{host}:{port}/{database}?p=${v}` } };
  }],
  ['oidcClientId', (e, v) => { e.oidcClientId = v; }],
  ['oidcScopes', (e, v) => { e.oidcScopes = `openid ${v}`; }],
  ['oidcAuthorizationEndpoint', (e, v) => { e.oidcAuthorizationEndpoint = `https://login.example.com/authorize/${v}`; }],
  ['pluginSettings.nested.deeper', (e, v) => { e.pluginSettings = { nested: { deeper: v } }; }],
  ['applications[0].containerImage.environment (a name in it)', (e, v) => { e.containerImage.environment[v] = 'x'; }],
];

describe.each([['a CloudFormation dynamic reference', REFERENCE, '"{{"'], ['a CDK token marker', TOKEN, '"${Token["']])('%s', (_what, value, shown) => {
  test.each(PLANTED)('in %s is refused at synth, naming the key path and not the value', (where, plant) => {
    const read = withApplication((entry) => plant(entry, value));
    expect(read).toThrow(UserError);
    expect(read).toThrow(new RegExp(`${where.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} holds ${shown.replace(/[${[]/g, '\\$&')}`));
    expect(read).not.toThrow(value.slice(2, 12));
  });
});

test.each([REFERENCE, TOKEN])('%s in the platform\'s alarmEmail is refused, naming platform.alarmEmail', (value) => {
  const read = () => readPlatformConfiguration({ ...OFF_THE_SHELF, platform: { ...OFF_THE_SHELF.platform, alarmEmail: `${value}@attacker.example` } });
  expect(read).toThrow(/platform\.alarmEmail holds "(\{\{|\$\{Token\[)"/);
  expect(read).not.toThrow(value.slice(2, 12));
});

test('negative control: the example as it is reads, and braces that are no reference pass', () => {
  expect(() => readPlatformConfiguration(OFF_THE_SHELF)).not.toThrow();
  expect(withApplication((e) => { e.containerImage.environment.TEMPLATE = '{host}:{port} ${HOME} {x}}'; })).not.toThrow();
});

describe('a standalone deployment (cdk.json, -c)', () => {
  const VALID = { stackName: 'wiki', applicationId: 'wiki', runtimeType: 'FARGATE', securityProfile: 'DEV', sslEnabled: 'false' };
  test('every key, containerImage and pluginSettings included, and every problem at once', () => {
    const read = () => DeploymentContextReader.fromValues({
      ...VALID,
      alarmEmail: `${REFERENCE}@example.com`,
      instanceType: TOKEN,
      containerImage: { image: 'nginx:1.27', environment: { A: REFERENCE } },
      pluginSettings: { x: [TOKEN] },
    });
    expect(read).toThrow(/^Invalid deployment context \(4 problems\):/);
    for (const where of ['containerImage.environment.A holds "{{"', 'alarmEmail holds "{{"', 'instanceType holds "\\$\\{Token\\["', 'pluginSettings.x\\[0\\] holds "\\$\\{Token\\["']) {
      expect(read).toThrow(new RegExp(where));
    }
  });
  test('a secret ARN as a token marker in the context is refused too: only code gives deploy-time values', () => {
    expect(() => DeploymentContextReader.fromValues({ ...VALID, secrets: { DB: TOKEN } })).toThrow(/secrets\.DB holds "\$\{Token\["/);
  });
});

describe('props given in code', () => {
  const factory = (props: object) => {
    const stack = new Stack(new App(), 'Wiki', { env: REGION_ENV });
    const spec = new WikiSpec();
    return () => new ApplicationFactory(stack, 'App', RuntimeType.FARGATE, spec, { ...propsFor(SecurityProfile.DEV), ...testDefaults(spec), ...props });
  };
  test('a reference or a token in a prop is refused, naming it', () => {
    expect(factory({ alarmEmail: `${REFERENCE}@example.com` })).toThrow(/alarmEmail holds "\{\{"/);
    expect(factory({ alarmEmail: `${TOKEN}@example.com` })).toThrow(/alarmEmail holds "\$\{Token\["/);
  });
  test('negative control: a secret of the same app by its ARN, a deploy-time value where the key takes one', () => {
    const stack = new Stack(new App(), 'Wiki', { env: REGION_ENV });
    const secret = new secretsmanager.Secret(stack, 'Api');
    const spec = new WikiSpec();
    expect(() => new ApplicationFactory(stack, 'App', RuntimeType.FARGATE, spec, {
      ...propsFor(SecurityProfile.DEV), ...testDefaults(spec), secrets: { API_KEY: secret.secretArn },
    })).not.toThrow();
  });
  test('a platform\'s props', () => {
    const stack = new Stack(new App(), 'Platform', { env: REGION_ENV });
    expect(() => new Platform(stack, 'Platform', { domain: 'example.com', alarmEmail: `${REFERENCE}@example.com` }))
      .toThrow(/alarmEmail holds "\{\{"/);
  });
});


describe('what a plugin in code returns reaches the template as it is', () => {
  const stack = () => new Stack(new App(), 'Wiki', { env: REGION_ENV });
  test('a reference in its environment or an egress description is refused; a token (the region) is its own business', () => {
    class Leaky extends WikiSpec {
      public containerEnvironmentVariables() { return { GREETING: REFERENCE, REGION: Aws.REGION }; }
      public egressRules() { return [{ description: REFERENCE, protocol: 'tcp', port: 443, cidr: '203.0.113.10/32' }]; }
    }
    const spec = new Leaky();
    expect(() => new ApplicationFactory(stack(), 'App', RuntimeType.FARGATE, spec, { ...propsFor(SecurityProfile.DEV), ...testDefaults(spec) }))
      .toThrow(/Leaky\.egressRules\(\)\[0\]\.description holds "\{\{"/);
    class Env extends WikiSpec {
      public containerEnvironmentVariables() { return { GREETING: REFERENCE, REGION: Aws.REGION }; }
    }
    const env = new Env();
    const build = () => new ApplicationFactory(stack(), 'App', RuntimeType.FARGATE, env, { ...propsFor(SecurityProfile.DEV), ...testDefaults(env) });
    expect(build).toThrow(/Env\.containerEnvironmentVariables\(\)\.GREETING holds "\{\{"/);
    expect(build).not.toThrow(/REGION/);
  });
});

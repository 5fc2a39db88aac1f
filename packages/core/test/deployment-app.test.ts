import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { ApplicationFactory, DeploymentApp } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { fakeInstall, pluginClassSource } from './support/fake-install';
import { requireInCi } from './support/shellcheck';
import { CONTEXT_KEYS, PLATFORM_KEYS } from '../src/context/context-keys';
import { APPLICATION_PROPS } from '../src/deployment-app';

const PROJECT = fakeInstall([{
  name: '@acme/wiki-plugin',
  source: pluginClassSource('WikiSpec', 'wiki'),
  manifest: '@acme/wiki-plugin.WikiSpec\n',
}]);
const CONTEXT = { stackName: 'wiki-dev', applicationId: 'wiki', runtimeType: 'FARGATE', securityProfile: 'DEV', sslEnabled: 'false' };

describe('DeploymentApp.addTo', () => {
  test.each(['FARGATE', 'EC2'])('context keys -> the plugin from the registry -> one stack on %s', (runtimeType) => {
    const app = new App({ context: { ...CONTEXT, runtimeType } });
    const stack = DeploymentApp.addTo(app, { searchFrom: PROJECT });
    expect(stack.stackName).toBe('wiki-dev');
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::Logs::LogGroup', { LogGroupName: `/aws/wiki-dev/${runtimeType}/DEV` });
    template.resourceCountIs(runtimeType === 'FARGATE' ? 'AWS::ECS::Service' : 'AWS::AutoScaling::AutoScalingGroup', 1);
  });

  test('the region key places the stack', () => {
    const app = new App({ context: { ...CONTEXT, region: 'eu-central-1' } });
    expect(DeploymentApp.addTo(app, { searchFrom: PROJECT }).region).toBe('eu-central-1');
  });

  test('an applicationId no plugin has names those available', () => {
    const app = new App({ context: { ...CONTEXT, applicationId: 'jira' } });
    expect(() => DeploymentApp.addTo(app, { searchFrom: PROJECT })).toThrow(/No installed plugin has applicationId 'jira'. Available: jenkins \(@fw\/core\), wiki \(@acme\/wiki-plugin\)\./);
  });
});

describe('DeploymentApp.addTo with plugins the host language found', () => {
  class NotesSpec extends WikiSpec {
    public applicationId() { return 'notes'; }
  }

  test('a handed-in plugin is deployed beside the registered ones', () => {
    const app = new App({ context: { ...CONTEXT, stackName: 'notes-dev', applicationId: 'notes' } });
    const stack = DeploymentApp.addTo(app, { searchFrom: PROJECT, plugins: [new NotesSpec()] });
    Template.fromStack(stack).hasResourceProperties('AWS::Logs::LogGroup', { LogGroupName: '/aws/notes-dev/FARGATE/DEV' });
  });

  test('an applicationId both a manifest and a handed-in plugin declare is refused, naming both', () => {
    const app = new App({ context: CONTEXT });
    expect(() => DeploymentApp.addTo(app, { searchFrom: PROJECT, plugins: [new NotesSpec(), new WikiSpec()] })).toThrow(
      `applicationId 'wiki' is declared twice: by @acme/wiki-plugin.WikiSpec in package @acme/wiki-plugin (${PROJECT}/node_modules/@acme/wiki-plugin/` +
      'META-INF/services/dev.fwframework.core.IApplicationSpec:1) and by WikiSpec handed to the deployment app (plugins[1]). ' +
      'Hand in only plugins no installed package registers.');
  });

  test('addToWithPlugins takes exactly the plugins given, so a configured built-in plugin does not clash', () => {
    class ConfiguredWiki extends WikiSpec {}
    const stack = DeploymentApp.addToWithPlugins(new App({ context: CONTEXT }), [new ConfiguredWiki()]);
    expect(stack.stackName).toBe('wiki-dev');
  });
});

describe('the CDK CLI\'s default region (CDK_DEFAULT_REGION) when the region key is absent', () => {
  const saved = process.env.CDK_DEFAULT_REGION;
  beforeEach(() => { process.env.CDK_DEFAULT_REGION = 'us-east-1'; });
  afterAll(() => { process.env.CDK_DEFAULT_REGION = saved; });

  test('DEV takes it, and a warning names it', () => {
    const stack = DeploymentApp.addToWithPlugins(new App({ context: CONTEXT }), [new WikiSpec()]);
    expect(stack.region).toBe('us-east-1');
    Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp('^No region key: deployed to us-east-1, the CDK CLI\'s default region \\(CDK_DEFAULT_REGION'));
  });

  test.each(['STAGING', 'PRODUCTION'])('%s refuses it: the region key is required, set on purpose', (securityProfile) => {
    expect(() => DeploymentApp.addToWithPlugins(new App({ context: { ...CONTEXT, securityProfile } }), [new WikiSpec()]))
      .toThrow(`securityProfile ${securityProfile} needs the stack's region (for example eu-west-1), set on purpose`);
    expect(() => DeploymentApp.addToWithPlugins(new App({ context: { ...CONTEXT, securityProfile } }), [new WikiSpec()]))
      .toThrow('the CDK CLI\'s default region (CDK_DEFAULT_REGION, from the AWS configuration) is not taken for this profile.');
  });
});

describe('fw-deploy, as the CDK CLI runs it', () => {
  const bin = path.resolve(__dirname, '..', 'bin', 'fw-deploy');
  const built = requireInCi(fs.existsSync(path.resolve(__dirname, '..', 'lib', 'main.js')), 'the compiled lib/ (compile runs before test)');

  function run(context: Record<string, unknown>) {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-deploy-'));
    return {
      outdir,
      ...spawnSync(process.execPath, [bin], {
        cwd: PROJECT,
        encoding: 'utf-8',
        env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify(context), CDK_OUTDIR: outdir, CDK_DEFAULT_REGION: '' },
      }),
    };
  }

  (built ? test : test.skip)('writes the template', () => {
    const result = run(CONTEXT);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(fs.existsSync(path.join(result.outdir, 'wiki-dev.template.json'))).toBe(true);
  });

  (built ? test : test.skip)('a context error is a short message naming the key, not a stack trace', () => {
    const result = run({ ...CONTEXT, runtimeType: 'LAMBDA', sslEnabld: 'true' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^fw-deploy: Invalid deployment context \(2 problems\):$/m);
    expect(result.stderr).toContain('runtimeType "LAMBDA" is not allowed; expected one of FARGATE, EC2.');
    expect(result.stderr).toContain("did you mean 'sslEnabled'?");
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });
});

describe('a platform configuration (platform, applications)', () => {
  const EXAMPLE = path.resolve(__dirname, '..', '..', '..', 'examples', 'platform');
  const built = requireInCi(fs.existsSync(path.resolve(__dirname, '..', 'lib', 'main.js')), 'the compiled lib/ (compile runs before test)');

  (built ? test : test.skip)('examples/platform: npx cdk synth makes the platform\'s stack and one stack an application', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-platform-example-'));
    const result = spawnSync('npx', ['cdk', 'synth', '-q', '-o', outdir], {
      cwd: EXAMPLE, encoding: 'utf-8', env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true' },
    });
    expect(result.status).toBe(0);
    expect(`${result.stdout}\n${result.stderr}`).toMatch(/^Supply a stack id \(fw-platform, fw-build-server, fw-wiki\) to display its template\.$/m);
    const manifest = JSON.parse(fs.readFileSync(path.join(outdir, 'manifest.json'), 'utf-8'));
    // `cdk deploy fw-wiki` deploys the platform and the build server first (the wiki admits the build server).
    expect(manifest.artifacts['fw-wiki'].dependencies).toEqual(expect.arrayContaining(['fw-platform', 'fw-build-server']));
    expect(manifest.artifacts['fw-build-server'].dependencies).toEqual(expect.arrayContaining(['fw-platform']));
    // cfn-lint over its templates (W3005 as in cfn-lint.test.ts), where installed (always in CI).
    if (spawnSync('cfn-lint', ['--version']).status === 0 || process.env.CI) {
      const files = ['fw-platform', 'fw-build-server', 'fw-wiki'].map((stack) => path.join(outdir, `${stack}.template.json`));
      const lint = spawnSync('cfn-lint', ['--format', 'parseable', '--ignore-checks', 'W3005', '--', ...files], { encoding: 'utf-8' });
      expect(lint.stdout + lint.stderr).toBe('');
    }
  }, 180_000);

  const PLATFORM = { stackName: 'platform', region: 'eu-west-1', domain: 'example.com' };
  const WIKI = { stackName: 'wiki', applicationId: 'wiki', runtimeType: 'FARGATE', subdomain: 'wiki' };

  test('a platform and its applications, in stacks named as configured; addTo returns the platform\'s', () => {
    const app = new App({ context: { platform: PLATFORM, applications: [WIKI, { ...WIKI, stackName: 'notes', applicationId: 'notes', subdomain: 'notes' }] } });
    class NotesSpec extends WikiSpec {
      public applicationId() { return 'notes'; }
      public efsDataPath() { return '/notes'; }
    }
    const platform = DeploymentApp.addTo(app, { searchFrom: PROJECT, plugins: [new NotesSpec()] });
    expect(platform.stackName).toBe('platform');
    const stacks = app.synth().stacks;
    expect(stacks.map((s) => s.stackName).sort()).toEqual(['notes', 'platform', 'wiki']);
    expect(stacks.map((s) => s.environment.region)).toEqual(['eu-west-1', 'eu-west-1', 'eu-west-1']);
    const rule = Template.fromJSON(stacks.find((s) => s.stackName === 'notes')!.template).findResources('AWS::ElasticLoadBalancingV2::ListenerRule');
    expect(JSON.stringify(rule)).toContain('"notes.example.com"');
  });

  test('every problem at once: a key at the top level, an unknown key, a key of the other place, a bad value', () => {
    const app = new App({
      context: {
        securityProfile: 'DEV',
        platform: { ...PLATFORM, vpcCdir: '10.1.0.0/16', pciDssScope: 'CDE' },
        applications: [{ ...WIKI, securityProfile: 'PRODUCTION' }, { ...WIKI, stackName: 'docs', runtimeType: 'LAMBDA' }],
      },
    });
    expect(() => DeploymentApp.addTo(app, { searchFrom: PROJECT })).toThrow([
      'Invalid platform configuration (5 problems):',
      '  - securityProfile at the top level: in a platform configuration each setting belongs to the "platform" object or to an entry of "applications".',
      '  - platform: pciDssScope is a key of each application, not of the platform; set it on the entries of "applications" that need it.',
      `  - platform: unknown key 'vpcCdir'; did you mean 'vpcCidr'? Known keys: stackName, region, ${PLATFORM_KEYS.join(', ')}.`,
      '  - applications[0] (wiki): securityProfile belongs to the platform; set it in "platform".',
      '  - applications[1] (docs): runtimeType "LAMBDA" is not allowed; expected one of FARGATE, EC2.',
    ].join('\n'));
  });

  test('every key an application decides reaches its factory (the stack\'s own three aside), the OIDC keys as oidc', () => {
    const own = ['stackName', 'applicationId', 'runtimeType'];
    const decided = CONTEXT_KEYS.filter((k) => k.onPlatform?.decides !== 'platform' && !own.includes(k.name))
      .map((k) => (/^oidc[A-Z]/.test(k.name) ? 'oidc' : k.name));
    expect([...new Set(decided)].sort()).toEqual([...APPLICATION_PROPS].sort());
    // Two of them through a configuration, as cdk.json gives them.
    const secretKeyArns = ['arn:aws:kms:eu-west-1:123456789012:key/12345678-1234-1234-1234-123456789012'];
    const app = new App({ context: { platform: PLATFORM, applications: [{ ...WIKI, rateLimit: 10000, secretKeyArns }] } });
    DeploymentApp.addTo(app, { searchFrom: PROJECT });
    const factory = app.node.findAll().find((c): c is ApplicationFactory => c instanceof ApplicationFactory)!;
    expect([factory.context.rateLimit, factory.context.secretKeyArns]).toEqual([10000, secretKeyArns]);
  });

  test('applications that are not a list of objects', () => {
    const app = new App({ context: { platform: PLATFORM, applications: 'wiki' } });
    expect(() => DeploymentApp.addTo(app, { searchFrom: PROJECT })).toThrow('applications "wiki" is not allowed; expected a list of objects');
  });
});

describe('a user error in a CDK app of the user\'s own (test/fixtures/own-cdk-app.js, UserErrors.exitOnUserError)', () => {
  const built = requireInCi(fs.existsSync(path.resolve(__dirname, '..', 'lib', 'index.js')), 'the compiled lib/ (compile runs before test)');
  const run = (env: Record<string, string>) => spawnSync(process.execPath, [path.join(__dirname, 'fixtures', 'own-cdk-app.js')], {
    encoding: 'utf-8', env: { ...process.env, ...env },
  });
  const MESSAGE = 'fw: JenkinsSpec (applicationId jenkins) cannot be deployed with authMode "none"; allowed: "application-oidc".';

  (built ? test : test.skip)('is its message, the construct it is about and a one-line hint, exit status 1, no stack trace', () => {
    const result = run({ FW_DEBUG: '' });
    expect(result.status).toBe(1);
    expect(result.stderr.split('\n').filter((l) => l.startsWith('fw: '))).toEqual([
      MESSAGE, 'fw: in BuildServer/App', 'fw: (a mistake in the settings, not a fault: set FW_DEBUG=1 for the stack trace)',
    ]);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  (built ? test : test.skip)('with FW_DEBUG=1, the error is rethrown with its stack trace', () => {
    const result = run({ FW_DEBUG: '1' });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/^UserError: JenkinsSpec \(applicationId jenkins\) cannot be deployed/m);
    expect(result.stderr).toMatch(/^\s+at new ApplicationFactory/m);
  });
});

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { DeploymentApp } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { fakeInstall, pluginClassSource } from './support/fake-install';
import { requireInCi } from './support/shellcheck';

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

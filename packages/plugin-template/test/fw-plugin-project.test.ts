import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Testing } from 'projen';
import { FwPluginProject, FwPluginProjectOptions } from '../src';
import { VERSIONS } from '../src/versions';

const MANIFEST = 'META-INF/services/dev.fwframework.core.IApplicationSpec';

/** A project in its own temporary directory (projen would otherwise synthesise into the working directory). */
function synth(options: Partial<FwPluginProjectOptions> = {}): Record<string, any> {
  const project = new FwPluginProject({
    name: 'gitlab-plugin',
    author: 'Test Author',
    authorAddress: 'author@example.com',
    repositoryUrl: 'https://github.com/example/gitlab-plugin.git',
    defaultReleaseBranch: 'main',
    outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'fw-plugin-template-')),
    ...options,
  });
  return Testing.synth(project);
}

describe('the scaffold', () => {
  const files = synth();

  test('a spec stub that extends the framework\'s base class with every required member', () => {
    const spec: string = files['src/gitlab-spec.ts'];
    expect(spec).toContain("import { ApplicationSpec, Ec2Context, IUserDataBuilder, PosixUser } from '@fw/core';");
    // The framework's conventions: its log group and its data-volume mount (EFS or EBS, rule 6 inside).
    expect(spec).toContain('builder.installCloudWatchAgent(context.logGroupName, this.ec2LogPaths());');
    expect(spec).toContain('builder.mountDataVolume(context, this.ebsDeviceName(), this.ec2DataPath(), uid, gid);');
    expect(spec).toContain('export class GitlabSpec extends ApplicationSpec {');
    for (const member of ['applicationId', 'defaultContainerImage', 'applicationPort', 'containerDataPath', 'efsDataPath',
      'volumeName', 'containerUser', 'efsPermissions', 'ebsDeviceName', 'ec2DataPath', 'ec2LogPaths', 'configureUserData']) {
      expect(spec).toMatch(new RegExp(`/\\*\\*[^*]+\\*/\\n  public ${member}\\(`));
    }
    expect(spec).toContain("public applicationId(): string { return 'gitlab'; }");
    expect(files['src/index.ts']).toBe("export * from './gitlab-spec';\n");
  });

  test('the spec\'s three kinds of test', () => {
    const tests: string = files['test/gitlab-spec.test.ts'];
    expect(tests.match(/^ {2}test\(/gm)).toHaveLength(3);
    expect(tests).toContain("test('(a) metadata accessors return the declared values'");
    expect(tests).toContain("test('(b) with an fqdn, sslEnabled true and auth mode none, the public address is https://<fqdn>'");
    expect(tests).toContain("test('(c) for each runtime, a fresh stack with the factory synthesises'");
    expect(tests).toContain('for (const runtime of [RuntimeType.FARGATE, RuntimeType.EC2])');
  });

  test('a README for this plugin: its id, its class, what to fill in, the commands, registration, releases, deployment', () => {
    const readme: string = files['README.md'];
    expect(readme.startsWith('# gitlab-plugin\n')).toBe(true);
    expect(readme).not.toContain('replace this');
    for (const text of ['`gitlab`', '`src/gitlab-spec.ts` holds `GitlabSpec`', '`npx projen test`', '`npx projen build`',
      'npx cdk synth -c runtimeType=EC2', '`gitlab-plugin.GitlabSpec`', '`dev.fwframework.plugins.gitlabplugin.GitlabSpec`',
      'NPM_TOKEN', 'MAVEN_GPG_PRIVATE_KEY', 'TWINE_PASSWORD', 'GO_GITHUB_TOKEN', 'NUGET_API_KEY', '"app": "npx fw-deploy"',
      '"applicationId": "gitlab"', '`fw-gitlab-plugin`', '`github.com/fw-framework/gitlab-plugin-go`']) {
      expect(readme).toContain(text);
    }
  });

  test('a preview of its own deployment: cdk.json (DEV, no TLS, its applicationId) and the CDK command line', () => {
    expect(files['cdk.json']).toEqual({
      app: 'npx fw-deploy',
      context: { stackName: 'gitlab-preview', applicationId: 'gitlab', runtimeType: 'FARGATE', securityProfile: 'DEV', sslEnabled: 'false' },
    });
    expect(files['package.json'].devDependencies).toHaveProperty('aws-cdk', '2.1148.1');
    expect(files['.gitignore']).toContain('/cdk.out/');
  });

  test('the registration manifests: jsii names for npm, Java names for the JAR', () => {
    expect(files[MANIFEST].split('\n').filter((l: string) => l && !l.startsWith('#'))).toEqual(['gitlab-plugin.GitlabSpec']);
    expect(files[`.jar-resources/${MANIFEST}`].split('\n').filter((l: string) => l && !l.startsWith('#')))
      .toEqual(['dev.fwframework.plugins.gitlabplugin.GitlabSpec']);
  });

  test('the framework, aws-cdk-lib and constructs are peer dependencies (provided)', () => {
    const pkg = files['package.json'];
    // The framework at this template's own version: one release publishes both.
    const ownVersion = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf-8')).version;
    expect(pkg.peerDependencies).toMatchObject({ '@fw/core': `^${ownVersion}`, 'aws-cdk-lib': '^2.263.0', 'constructs': '^10.8.1' });
    expect(pkg.dependencies ?? {}).not.toHaveProperty('@fw/core');
  });

  test('its CDK floors and tool versions come from the one source the framework\'s own build uses', () => {
    const pkg = files['package.json'];
    expect(pkg.peerDependencies).toMatchObject({ 'aws-cdk-lib': `^${VERSIONS.awsCdkLib}`, 'constructs': `^${VERSIONS.constructs}` });
    expect(pkg.devDependencies).toMatchObject({ 'jsii': VERSIONS.jsii, 'typescript': VERSIONS.typescript, 'aws-cdk': VERSIONS.awsCdkCli });
    // The repository's root (built by .projenrc.ts, which imports the same constants).
    const repository = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf-8'));
    expect(repository.devDependencies).toMatchObject({ 'aws-cdk-lib': VERSIONS.awsCdkLib, 'aws-cdk': VERSIONS.awsCdkCli, 'projen': VERSIONS.projen });
  });

  test('jsii targets for Java, Python, Go and .NET, named from the plugin\'s name', () => {
    expect(files['package.json'].jsii.targets).toEqual({
      java: { package: 'dev.fwframework.plugins.gitlabplugin', maven: { groupId: 'dev.fwframework.plugins', artifactId: 'gitlab-plugin' } },
      python: { distName: 'fw-gitlab-plugin', module: 'fw_gitlab_plugin' },
      go: { moduleName: 'github.com/fw-framework/gitlab-plugin-go', packageName: 'gitlabplugin' },
      dotnet: { namespace: 'FwFramework.Plugins.Gitlab', packageId: 'FwFramework.Plugins.Gitlab' },
    });
  });

  test('the Java package step puts the manifest into the JAR; build packages every language, .NET where its SDK exists', () => {
    const tasks = files['.projen/tasks.json'].tasks;
    expect(tasks['package:java'].steps.map((s: any) => s.exec).join('\n'))
      .toContain(`jar uf {} -C .jar-resources ${MANIFEST}`);
    expect(tasks['package-all'].steps).toEqual([
      { spawn: 'package:js' }, { spawn: 'package:java' }, { spawn: 'package:python' }, { spawn: 'package:go' },
      { spawn: 'package:dotnet', condition: 'command -v dotnet' },
    ]);
    expect(tasks.package.steps).toEqual([{ spawn: 'package-all' }]);
    expect(tasks['package:go'].steps).toEqual([{ exec: 'jsii-pacmak -v --target go --code-only' }]);
  });
});

describe('options', () => {
  test('--application-id names the application and the class', () => {
    const files = synth({ applicationId: 'gitea' });
    expect(files['src/gitea-spec.ts']).toContain("public applicationId(): string { return 'gitea'; }");
    expect(files[MANIFEST]).toContain('gitlab-plugin.GiteaSpec');
  });

  test('a second spec class in the declaration updates both manifests', () => {
    const files = synth({ specClasses: ['GitlabSpec', 'GitlabRunnerSpec'] });
    expect(files[MANIFEST]).toContain('gitlab-plugin.GitlabSpec\ngitlab-plugin.GitlabRunnerSpec');
    expect(files[`.jar-resources/${MANIFEST}`]).toContain('dev.fwframework.plugins.gitlabplugin.GitlabSpec\ndev.fwframework.plugins.gitlabplugin.GitlabRunnerSpec');
  });

  test('a scoped package name keeps its scope in the jsii names and drops it elsewhere', () => {
    const files = synth({ name: '@acme/gitlab-plugin' });
    expect(files[MANIFEST]).toContain('@acme/gitlab-plugin.GitlabSpec');
    expect(files['package.json'].jsii.targets.python.distName).toBe('fw-gitlab-plugin');
  });
});

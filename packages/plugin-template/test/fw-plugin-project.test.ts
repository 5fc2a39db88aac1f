import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Testing } from 'projen';
import { FwPluginProject, FwPluginProjectOptions } from '../src';
import { productionContext, productionContextLiteral } from '../src/production-example';
import { SCAFFOLD_TEST_KINDS, SCAFFOLD_TEST_TITLES } from '../src/sample-code';
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
    expect(spec).toContain("import { ApplicationSpec, Ec2Context, IUserDataBuilder, PosixUser, ServiceHardening } from '@fw/core';");
    // On EC2 the sample runs as the framework's account for the application, in systemd's sandbox.
    expect(spec).toContain('...ServiceHardening.systemdLines(context.serviceUser, [this.ec2DataPath(), logDir]),');
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

  test('the spec\'s three kinds of test, and PRODUCTION\'s compliance check on each runtime', () => {
    const tests: string = files['test/gitlab-spec.test.ts'];
    expect(tests.match(/^ {2}test(\.each\(.*\))?\(/gm)).toHaveLength(4);
    for (const kind of [SCAFFOLD_TEST_KINDS.a, SCAFFOLD_TEST_KINDS.b, SCAFFOLD_TEST_KINDS.c]) expect(tests).toContain(`test('${kind}'`);
    expect(tests).toContain('for (const runtime of [RuntimeType.FARGATE, RuntimeType.EC2])');
    expect(tests).toContain(`test.each([RuntimeType.FARGATE, RuntimeType.EC2])('${SCAFFOLD_TEST_KINDS.d}'`);
  });

  test('a README for this plugin: its id, its class, what to fill in, the commands, registration, releases, deployment', () => {
    const readme: string = files['README.md'];
    expect(readme.startsWith('# gitlab-plugin\n')).toBe(true);
    expect(readme).not.toContain('replace this');
    for (const text of ['`gitlab`', '`src/gitlab-spec.ts` holds `GitlabSpec`', '`npx projen test`', '`npx projen build`',
      'npx cdk synth -c runtimeType=EC2', '`gitlab-plugin.GitlabSpec`', '`io.github.example.gitlabplugin.GitlabSpec`',
      'NPM_TOKEN', 'MAVEN_GPG_PRIVATE_KEY', 'TWINE_PASSWORD', 'GO_GITHUB_TOKEN', 'NUGET_API_KEY', '"app": "npx fw-deploy"',
      '"applicationId": "gitlab"', '`fw-gitlab-plugin`', '`github.com/example/gitlab-plugin-go`',
      'of scope `provided` in the Maven POM', '`dev.fwframework:core`, `software.amazon.awscdk:aws-cdk-lib`, `software.constructs:constructs`']) {
      expect(readme).toContain(text);
    }
  });

  test('the README\'s PRODUCTION example is the context the fourth test kind synthesises, with all PRODUCTION needs', () => {
    const block = /```json\n([\s\S]*?)\n```/.exec(files['README.md'])![1];
    const example = JSON.parse(block);
    expect(example).toEqual({ app: 'npx fw-deploy', context: productionContext('gitlab') });
    for (const key of ['alarmEmail', 'pciDssScope', 'dockerHubCredentialArn', 'imageDigests']) expect(example.context).toHaveProperty(key);
    expect(example.context.imageDigests).toEqual({ 'nginx:1.27.3': `sha256:${'0'.repeat(64)}` });
    expect(files['src/gitlab-spec.ts']).toContain("public defaultContainerImage(): string { return 'nginx:1.27.3'; }");
    // The test file carries the same keys and values, as a literal its lint takes.
    const tests: string = files['test/gitlab-spec.test.ts'];
    expect(tests).toContain(`const production = ${productionContextLiteral('gitlab').replace(/\n/g, '\n  ')};`);
    expect(tests).toContain("    dockerHubCredentialArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ecr-pullthroughcache/docker-hub-AbCdEf',");
    expect(tests).toContain(`    imageDigests: { 'nginx:1.27.3': 'sha256:${'0'.repeat(64)}' },`);
    expect(tests).toContain('DeploymentApp.addToWithPlugins(app, [new GitlabSpec()]);');
  });

  test('a preview of its own deployment: cdk.json (DEV, no TLS, its applicationId) and the CDK command line', () => {
    expect(files['cdk.json']).toEqual({
      app: 'npx fw-deploy',
      context: { stackName: 'gitlab-preview', applicationId: 'gitlab', runtimeType: 'FARGATE', securityProfile: 'DEV', sslEnabled: 'false' },
    });
    expect(files['package.json'].devDependencies).toHaveProperty('aws-cdk', VERSIONS.awsCdkCli);
    expect(files['.gitignore']).toContain('/cdk.out/');
  });

  test('the registration manifests: jsii names for npm, Java names for the JAR', () => {
    expect(files[MANIFEST].split('\n').filter((l: string) => l && !l.startsWith('#'))).toEqual(['gitlab-plugin.GitlabSpec']);
    expect(files[`.jar-resources/${MANIFEST}`].split('\n').filter((l: string) => l && !l.startsWith('#')))
      .toEqual(['io.github.example.gitlabplugin.GitlabSpec']);
  });

  test('the framework, aws-cdk-lib and constructs are peer dependencies (provided)', () => {
    const pkg = files['package.json'];
    // The framework from this template's own version (one release publishes both) to the next major: a later minor
    // (0.x ones too) is let in, and discovery checks its plugin contract.
    const ownVersion = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf-8')).version;
    const nextMajor = Number(ownVersion.split('.')[0]) + 1;
    expect(pkg.peerDependencies).toMatchObject({ '@fw/core': `>=${ownVersion} <${nextMajor}.0.0`, 'aws-cdk-lib': '^2.263.0', 'constructs': '^10.8.1' });
    expect(pkg.dependencies ?? {}).not.toHaveProperty('@fw/core');
  });

  test('its CDK floors and tool versions come from the one source the framework\'s own build uses', () => {
    const pkg = files['package.json'];
    expect(pkg.peerDependencies).toMatchObject({ 'aws-cdk-lib': `^${VERSIONS.awsCdkLib}`, 'constructs': `^${VERSIONS.constructs}` });
    expect(pkg.devDependencies).toMatchObject({ 'jsii': VERSIONS.jsii, 'typescript': VERSIONS.typescript, 'aws-cdk': VERSIONS.awsCdkCli });
    // Built and tested on the CDK the framework is tested with, not on the peer floor.
    expect(pkg.devDependencies).toMatchObject({ 'aws-cdk-lib': VERSIONS.awsCdkLibTested, 'constructs': VERSIONS.constructs });
    expect(pkg.devDependencies['@fw/core']).toBe(pkg.peerDependencies['@fw/core']);
    // The repository's root (built by .projenrc.ts, which imports the same constants).
    const repository = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf-8'));
    expect(repository.devDependencies).toMatchObject({ 'aws-cdk-lib': VERSIONS.awsCdkLibTested, 'aws-cdk': VERSIONS.awsCdkCli, 'projen': VERSIONS.projen });
  });

  test('jsii targets for Java, Python, Go and .NET, named from the plugin\'s name', () => {
    expect(files['package.json'].jsii.targets).toEqual({
      java: { package: 'io.github.example.gitlabplugin', maven: { groupId: 'io.github.example', artifactId: 'gitlab-plugin' } },
      python: { distName: 'fw-gitlab-plugin', module: 'fw_gitlab_plugin' },
      go: { moduleName: 'github.com/example/gitlab-plugin-go', packageName: 'gitlabplugin' },
      dotnet: { namespace: 'Example.FwPlugins.Gitlab', packageId: 'Example.FwPlugins.Gitlab' },
    });
  });

  test('the Java package step puts the manifest into the JAR, then finishes the Maven artifact with this package\'s command', () => {
    const steps = files['.projen/tasks.json'].tasks['package:java'].steps;
    expect(steps[0].execArgs).toEqual(['jsii-pacmak', '-v', '--target', 'java']);
    expect(steps.slice(1)).toEqual([
      { exec: `find dist/java -name '*.jar' ! -name '*-sources.jar' ! -name '*-javadoc.jar' -exec jar uf {} -C .jar-resources ${MANIFEST} -C .jar-resources META-INF/fw/plugin.json ';'` },
      { exec: 'fw-finish-maven-artifact' },
    ]);
    // The command is a bin of this package, which `projen new --from` makes a devDependency of the plugin: on the task's PATH.
    const ownPackage = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf-8'));
    const bin = path.join(__dirname, '..', ownPackage.bin['fw-finish-maven-artifact']);
    expect(fs.readFileSync(bin, 'utf-8')).toContain("require('../lib/maven/finish-artifact').main();");
    expect(() => fs.accessSync(bin, fs.constants.X_OK)).not.toThrow();
    expect(fs.existsSync(path.join(__dirname, '..', 'src', 'maven', 'finish-artifact.ts'))).toBe(true);
  });

  test('the first release is 1.0.0, not 0.0.0: the release task bumps to a major version of at least 1', () => {
    expect(files['.projen/tasks.json'].tasks.release.env).toMatchObject({ MIN_MAJOR: '1' });
    expect(files['README.md']).toContain('`npx projen release` | the same at the release version');
  });

  test('build packages every language, .NET where its SDK exists, and says in one line when it skips .NET', () => {
    const tasks = files['.projen/tasks.json'].tasks;
    expect(tasks['package-all'].steps).toEqual([
      { spawn: 'package:js' }, { spawn: 'package:java' }, { spawn: 'package:python' }, { spawn: 'package:go' },
      { spawn: 'package:dotnet', condition: 'which dotnet > /dev/null' },
      { say: 'package:dotnet skipped: the .NET SDK (dotnet) is not on the PATH; the NuGet package is built where it is', condition: '! which dotnet > /dev/null' },
    ]);
    expect(tasks.package.steps).toEqual([{ spawn: 'package-all' }]);
    expect(tasks['package:go'].steps).toEqual([{ exec: 'jsii-pacmak -v --target go --code-only' }]);
  });

  test('the scaffold declares the maintained Node lines (VERSIONS.nodeMin) and silences no end-of-life banner', () => {
    expect(files['package.json'].engines).toEqual({ node: `>= ${VERSIONS.nodeMin}` });
    expect(files['.projen/tasks.json'].env ?? {}).not.toHaveProperty('JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION');
  });

  test('lint: projen\'s eslint over the sources, the tests and .projenrc.ts, run by the test task', () => {
    const tasks = files['.projen/tasks.json'].tasks;
    expect(tasks.test.steps).toContainEqual({ spawn: 'eslint' });
    expect(tasks.eslint.steps[0].execArgs).toEqual(expect.arrayContaining(['eslint', 'src', 'test', '.projenrc.ts']));
    // Warm runs skip unchanged files (by content, so a fresh checkout's timestamps do not matter).
    expect(tasks.eslint.steps[0].execArgs.join(' ')).toContain('--cache --cache-strategy content --cache-location node_modules/.cache/eslint/');
    expect(files['.eslintrc.json'].extends).toEqual(expect.arrayContaining(['plugin:import/typescript']));
    expect(files['package.json'].devDependencies).toHaveProperty('eslint');
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
    expect(files[`.jar-resources/${MANIFEST}`]).toContain('io.github.example.gitlabplugin.GitlabSpec\nio.github.example.gitlabplugin.GitlabRunnerSpec');
  });

  test('a scoped package name keeps its scope in the jsii names and drops it elsewhere', () => {
    const files = synth({ name: '@acme/gitlab-plugin' });
    expect(files[MANIFEST]).toContain('@acme/gitlab-plugin.GitlabSpec');
    expect(files['package.json'].jsii.targets.python.distName).toBe('fw-gitlab-plugin');
  });
});

/**
 * The scaffold's own test file, run by jest in a child process (as `npx projen test` runs it in a plugin) against the
 * generated spec and against a stub that breaks a compliance rule: a secret in the container's environment, which
 * PRODUCTION refuses on both runtimes (packages/core/src/factory/factory-plan.ts). Needs @fw/core built.
 */
describe('the fourth test kind, run', () => {
  const files = synth();
  const spec: string = files['src/gitlab-spec.ts'];
  const violating = spec.replace('return { PUBLIC_URL: url };', "return { PUBLIC_URL: url, DB_PASSWORD: 'hunter2' };");
  // Below this package, so the plugin's imports resolve as in a plugin repository: @fw/core, aws-cdk-lib, ts-jest.
  fs.mkdirSync(path.join(__dirname, '..', '.tmp'), { recursive: true });
  const dir = fs.mkdtempSync(path.join(__dirname, '..', '.tmp', 'fourth-kind-'));
  for (const [plugin, source] of [['generated', spec], ['violating', violating]]) {
    fs.mkdirSync(path.join(dir, plugin, 'src'), { recursive: true });
    fs.mkdirSync(path.join(dir, plugin, 'test'), { recursive: true });
    fs.writeFileSync(path.join(dir, plugin, 'src', 'gitlab-spec.ts'), source);
    fs.writeFileSync(path.join(dir, plugin, 'src', 'index.ts'), files['src/index.ts']);
    fs.writeFileSync(path.join(dir, plugin, 'test', 'gitlab-spec.test.ts'), files['test/gitlab-spec.test.ts']);
  }
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { module: 'commonjs', target: 'es2022', esModuleInterop: true, skipLibCheck: true, outDir: 'lib' },
    include: ['*/src/**/*.ts', '*/test/**/*.ts'],
  }));
  const config = {
    rootDir: dir,
    testMatch: ['<rootDir>/*/test/*.test.ts'],
    transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', diagnostics: false }] },
  };
  const output = path.join(dir, 'results.json');
  const run = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), '--config', JSON.stringify(config), '--json', '--outputFile', output, '--coverage=false'], {
    // Without the CDK's CloudFormation validation (a WASM engine run at every synth; it reports, it never fails one):
    // what this checks is the compliance packs, and core's cfn-lint.test.ts runs that validation on purpose.
    cwd: dir, encoding: 'utf-8', env: { ...process.env, CDK_VALIDATION: 'false' },
  });
  const results: Array<{ name: string; assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }> =
    fs.existsSync(output) ? JSON.parse(fs.readFileSync(output, 'utf-8')).testResults : [];
  const outcomes = (plugin: string) => Object.fromEntries((results.find((r) => r.name.includes(`/${plugin}/`))?.assertionResults ?? [])
    .map((a) => [a.title, a.status === 'passed' ? 'passed' : a.failureMessages.join('\n')]));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('jest ran both plugins\' tests; the stub is the generated spec with a secret in its environment', () => {
    expect(violating).toBe(spec.replace('PUBLIC_URL: url }', "PUBLIC_URL: url, DB_PASSWORD: 'hunter2' }"));
    expect(violating).not.toBe(spec);
    expect(results.map((r) => path.basename(path.dirname(path.dirname(r.name)))).sort()).toEqual(['generated', 'violating']);
    expect(run.status).toBe(1);
  });

  test('the generated spec passes all four kinds: the titles SCAFFOLD_TEST_TITLES lists, no more', () => {
    expect(outcomes('generated')).toEqual(Object.fromEntries(SCAFFOLD_TEST_TITLES.map((title) => [title, 'passed'])));
    expect(SCAFFOLD_TEST_TITLES).toHaveLength(5);
  });

  test('the stub fails the fourth on both runtimes, naming the variable; (a) to (c) pass', () => {
    const outcome = outcomes('violating');
    const fourth = ['FARGATE', 'EC2'].map((runtime) => SCAFFOLD_TEST_KINDS.d.replace('%s', runtime));
    for (const title of fourth) {
      expect(outcome[title]).toMatch(/PRODUCTION refuses a secret in a container's environment: DB_PASSWORD \(GitlabSpec\.containerEnvironmentVariables\(\)\)/);
    }
    expect(Object.entries(outcome).filter(([, o]) => o !== 'passed').map(([title]) => title)).toEqual(fourth);
  });
});

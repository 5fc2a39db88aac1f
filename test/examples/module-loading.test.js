// What a deployment loads: `fw-deploy` in a fresh process, as `cdk synth` starts it, for a plugin of its own. Without
// the compliance packs (DEV) it loads neither cdk-nag nor yaml (the build server's configuration renderer, and the
// Score reader's with @cfworker/json-schema, loaded only for a scoreWorkload), which were
// most of its modules (docs/benchmarks.md); in PRODUCTION, which runs the packs, it loads cdk-nag, so the check sees it.
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');

const core = path.join(__dirname, '..', '..', 'packages', 'core');

/** A project with one plugin installed (by its registration manifest), as a plugin author's project has it. */
function project() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-modules-'));
  const dir = path.join(root, 'node_modules', 'demo-plugin');
  fs.mkdirSync(path.join(dir, 'META-INF', 'services'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'demo-plugin', version: '1.0.0', main: 'index.js' }));
  fs.writeFileSync(path.join(dir, 'META-INF', 'services', 'dev.fwframework.core.IApplicationSpec'), 'demo-plugin.DemoSpec\n');
  fs.writeFileSync(path.join(dir, 'index.js'), `const { ApplicationSpec } = require(${JSON.stringify(path.join(core, 'lib'))});
class DemoSpec extends ApplicationSpec {
  applicationId() { return 'demo'; } defaultContainerImage() { return 'ghcr.io/example/demo:1.0.0'; } applicationPort() { return 8080; }
  containerDataPath() { return '/data'; } efsDataPath() { return '/demo'; } volumeName() { return 'data'; }
  containerUser() { return '1000:1000'; } efsPermissions() { return '750'; } ebsDeviceName() { return '/dev/xvdf'; }
  ec2DataPath() { return '/srv/demo'; } ec2LogPaths() { return ['/var/log/demo.log']; }
  containerEnvironmentVariables() { return { DEMO_PORT: '8080' }; }
  configureUserData(builder) { builder.addCommands('true'); }
}
exports.DemoSpec = DemoSpec;
`);
  // Writes the modules the process loaded when it exits.
  fs.writeFileSync(path.join(root, 'loaded.js'), `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(path.join(root, 'loaded.json'))}, JSON.stringify(Object.keys(require.cache))));\n`);
  return root;
}

function loadedBy(context) {
  const root = project();
  try {
    const run = spawnSync(process.execPath, ['-r', path.join(root, 'loaded.js'), path.join(core, 'bin', 'fw-deploy')], {
      cwd: root, encoding: 'utf-8',
      // The project is no git repository: PRODUCTION's report takes its source revision from FW_SOURCE_REVISION.
      env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify(context), CDK_OUTDIR: path.join(root, 'cdk.out'), CDK_VALIDATION: 'false', FW_SOURCE_REVISION: 'module-loading-test' },
    });
    assert.strictEqual(run.status, 0, run.stderr);
    return JSON.parse(fs.readFileSync(path.join(root, 'loaded.json'), 'utf-8'));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const BASE = { stackName: 'demo', applicationId: 'demo', runtimeType: 'FARGATE', region: 'eu-west-1' };
const from = (modules, name) => modules.filter((m) => m.includes(`${path.sep}node_modules${path.sep}${name}${path.sep}`));

test('DEV loads neither cdk-nag nor yaml (nor the Score reader\'s schema validator)', () => {
  const modules = loadedBy({ ...BASE, securityProfile: 'DEV', sslEnabled: 'false' });
  assert.deepStrictEqual([from(modules, 'cdk-nag').length, from(modules, 'yaml').length, from(modules, path.join('@cfworker', 'json-schema')).length], [0, 0, 0]);
  assert.ok(modules.length > 100, 'the process loaded the framework and the CDK');
});

// The parts the framework loads on demand (packages/core/src/on-demand.ts, the lazy index scripts/lazy-index.js, and
// the build server's parts, which discovery does not load to read its applicationId: build-server/jenkins-spec.ts).
const ON_DEMAND = ['runtimes/ec2.js', 'userdata/bash-user-data-builder.js', 'platform/platform.js', 'platform/attached-platform.js',
  'infrastructure/database.js', 'infrastructure/rotation-restart.js', 'platform/private-routes.js', 'infrastructure/workers.js', 'compliance/pci-conformance-pack.js',
  'build-server/controller-files.js', 'build-server/jenkins-configuration.js', 'build-server/jenkins-user-data.js', 'compliance/pci-dss-401/mapping.js'];
const framework = (modules) => modules.filter((m) => m.startsWith(path.join(core, 'lib') + path.sep)).map((m) => path.relative(path.join(core, 'lib'), m));

test('a standalone DEV deployment on Fargate loads none of the parts it does not build; on EC2 it loads the EC2 runtime', () => {
  const fargate = framework(loadedBy({ ...BASE, securityProfile: 'DEV', sslEnabled: 'false' }));
  assert.deepStrictEqual(ON_DEMAND.filter((m) => fargate.includes(m)), []);
  const ec2 = framework(loadedBy({ ...BASE, runtimeType: 'EC2', securityProfile: 'DEV', sslEnabled: 'false' }));
  assert.deepStrictEqual(ON_DEMAND.filter((m) => ec2.includes(m)), ['runtimes/ec2.js', 'userdata/bash-user-data-builder.js']);
});

test('PRODUCTION, which runs the packs, loads cdk-nag', () => {
  const modules = loadedBy({
    ...BASE, securityProfile: 'PRODUCTION', sslEnabled: 'true', domain: 'example.com', subdomain: 'demo',
    hostedZoneId: 'Z0123456789ABCDEFGHIJ', imageDigests: { 'ghcr.io/example/demo:1.0.0': `sha256:${'0'.repeat(64)}` }, pciDssScope: 'OUT_OF_SCOPE', alarmEmail: 'ops@example.com',
  });
  assert.ok(from(modules, 'cdk-nag').length > 100);
});

// examples/wiki-with-database: a plugin configured from cdk.json alone. `npx cdk synth` there must deploy the
// plugin's own setting (pluginSettings), the size it declares (defaultSize()) and the secret the secrets key names.
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');

const example = path.join(__dirname, '..', '..', 'examples', 'wiki-with-database');
const cdkJson = JSON.parse(fs.readFileSync(path.join(example, 'cdk.json'), 'utf-8')).context;

function synth(runtimeType) {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-wiki-with-database-'));
  const run = spawnSync('npx', ['cdk', 'synth', '-q', '-o', outdir, '-c', `runtimeType=${runtimeType}`], {
    // The CDK's CloudFormation validation is the main job's to check (build-server-report.test.js); here it would only
    // double each synth's time.
    cwd: example, encoding: 'utf-8', env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true', CDK_VALIDATION: 'false' },
  });
  assert.strictEqual(run.status, 0, run.stderr);
  lint(path.join(outdir, 'wiki.template.json'));
  return Object.values(JSON.parse(fs.readFileSync(path.join(outdir, 'wiki.template.json'), 'utf-8')).Resources);
}

/** cfn-lint over a template of the examples, where installed (always in CI): W3005 as in packages/core/test/cfn-lint.test.ts. */
function lint(...files) {
  if (spawnSync('cfn-lint', ['--version']).status !== 0 && !process.env.CI) return;
  const run = spawnSync('cfn-lint', ['--format', 'parseable', '--ignore-checks', 'W3005', '--', ...files], { encoding: 'utf-8' });
  assert.strictEqual(run.stdout + run.stderr, '');
}

test('FARGATE: the setting in the container\'s environment, the declared size, the secret\'s JSON key', () => {
  const task = synth('FARGATE').find((r) => r.Type === 'AWS::ECS::TaskDefinition'
    && r.Properties.ContainerDefinitions.some((c) => c.Name === 'Application')).Properties;
  assert.deepStrictEqual([task.Cpu, task.Memory], ['2048', '4096']);
  const container = task.ContainerDefinitions.find((c) => c.Name === 'Application');
  assert.deepStrictEqual(container.Environment.find((e) => e.Name === 'WIKI_DATABASE_URL'),
    { Name: 'WIKI_DATABASE_URL', Value: cdkJson.pluginSettings.databaseUrl });
  assert.deepStrictEqual(container.Secrets, [{ Name: 'WIKI_DATABASE_PASSWORD', ValueFrom: cdkJson.secrets.WIKI_DATABASE_PASSWORD }]);
});

test('EC2: the declared instance type, the setting in the configuration, the secret read at boot', () => {
  const launchTemplate = synth('EC2').find((r) => r.Type === 'AWS::EC2::LaunchTemplate').Properties.LaunchTemplateData;
  assert.strictEqual(launchTemplate.InstanceType, 'm7i.large');
  const userData = JSON.stringify(launchTemplate.UserData);
  assert.ok(userData.includes(`database=${cdkJson.pluginSettings.databaseUrl}`));
  // The password, one key of the database's secret, read at boot by fw_env_secret (its last argument the JSON key).
  assert.match(userData, /fw_env_secret '[^']+' '\w+' '[^']*' '[^']+' 'password'/);
});

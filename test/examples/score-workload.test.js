// examples/score-workload: Keycloak described by a Score workload file (score.yaml), with no plugin code. `npx cdk synth`
// there validates the file against Score's schema, maps it, and runs PRODUCTION's packs; the task must run what the
// file says: its command and arguments, its database's connection with the password a secret, its readiness probe.
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { parse } = require('yaml');
const { resources, rolloutProblems, synthExample, templatesIn } = require('./example-synth');

const { example, cdkJson, outdir, run, template } = synthExample('score-workload');
const workload = parse(fs.readFileSync(path.join(example, cdkJson.scoreWorkload), 'utf-8'));

test('synthesises in PRODUCTION, its packs passing, with no code of its own', () => {
  assert.strictEqual(run.status, 0, run.stderr);
  assert.deepStrictEqual(fs.readdirSync(example).filter((f) => /\.(js|ts|py|java)$/.test(f)), []);
  assert.ok(fs.existsSync(path.join(outdir, `${cdkJson.stackName}.pci-dss-4.0.1.json`)));
});

test('the task runs what the file says: command, args, readiness on the management port, the database\'s password a secret', () => {
  const [[, task]] = resources(template(cdkJson.stackName), 'AWS::ECS::TaskDefinition').filter(([, t]) =>
    t.Properties.ContainerDefinitions.some((c) => c.Name === 'Application'));
  const container = task.Properties.ContainerDefinitions.find((c) => c.Name === 'Application');
  const described = Object.values(workload.containers)[0];
  assert.deepStrictEqual([container.EntryPoint, container.Command], [described.command, described.args]);
  assert.ok(container.Secrets.some((s) => s.Name === 'KC_DB_PASSWORD'));
  assert.ok(!container.Environment.some((e) => e.Name === 'KC_DB_PASSWORD'));
  const [[, targets]] = resources(template(cdkJson.stackName), 'AWS::ElasticLoadBalancingV2::TargetGroup');
  assert.deepStrictEqual([targets.Properties.HealthCheckPath, targets.Properties.HealthCheckPort],
    [described.readinessProbe.httpGet.path, String(described.readinessProbe.httpGet.port)]);
});

test('cfn-lint: no error and no warning in its template', { skip: spawnSync('cfn-lint', ['--version']).status !== 0 && !process.env.CI }, () => {
  // W3005 and W3691 as in packages/core/test/platform-lifecycle.test.ts, where each is explained.
  const lint = spawnSync('cfn-lint', ['--format', 'parseable', '--ignore-checks', 'W3005', 'W3691', '--',
    path.join(outdir, `${cdkJson.stackName}.template.json`)], { encoding: 'utf-8' });
  assert.strictEqual(lint.stdout + lint.stderr, '');
  assert.strictEqual(lint.status, 0);
});

test('PRODUCTION: every ECS service rolls back on its health alarms, and runs one task at a time', () => {
  assert.deepStrictEqual(rolloutProblems(templatesIn(outdir), true), []);
});

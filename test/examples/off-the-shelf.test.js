// examples/off-the-shelf: an artifact repository (Sonatype Nexus) and Grafana on one PRODUCTION platform, described in
// cdk.json alone (`containerImage`), with no plugin code. `npx cdk synth` there runs PRODUCTION's four packs; each image
// must run as a plugin written in code would: through the platform's ECR cache by digest, as its user, its data on the
// platform's file system, its health check, its token paths past the sign-in.
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { resources, synthExample } = require('./example-synth');

const { example, cdkJson, outdir, run, template } = synthExample('off-the-shelf');

test('synthesises in PRODUCTION, its packs passing, with no code of its own', () => {
  assert.strictEqual(run.status, 0, run.stderr);
  assert.deepStrictEqual(fs.readdirSync(example).filter((f) => /\.(js|ts|py|java)$/.test(f)), []);
  for (const stack of ['ots-nexus', 'ots-grafana']) assert.ok(fs.existsSync(path.join(outdir, `${stack}.pci-dss-4.0.1.json`)), stack);
});

test('each image runs as described: by digest through the platform\'s ECR cache, its user, port, data path, health check, environment', () => {
  for (const entry of cdkJson.applications) {
    const described = entry.containerImage;
    const [[, task]] = resources(template(entry.stackName), 'AWS::ECS::TaskDefinition');
    const container = task.Properties.ContainerDefinitions.find((c) => c.Name === 'Application');
    const image = JSON.stringify(container.Image);
    assert.match(image, new RegExp(`/fw-hub-[0-9a-f]+/${described.image.replace(/[.]/g, '\\.')}@${entry.imageDigests[described.image]}`), entry.stackName);
    assert.deepStrictEqual([container.User, container.PortMappings[0].ContainerPort, container.MountPoints[0].ContainerPath],
      [described.user, described.port, described.dataPath]);
    for (const [name, value] of Object.entries(described.environment)) {
      assert.deepStrictEqual(container.Environment.find((e) => e.Name === name)?.Value, value, name);
    }
    const [[, targets]] = resources(template(entry.stackName), 'AWS::ElasticLoadBalancingV2::TargetGroup');
    assert.strictEqual(targets.Properties.HealthCheckPath, described.healthCheckPath);
  }
});

test('the repository\'s token paths skip the sign-in; its uploads are allowed past the WAF\'s 8 KB; Grafana has neither', () => {
  const rules = resources(template('ots-nexus'), 'AWS::ElasticLoadBalancingV2::ListenerRule').map(([, r]) => r.Properties);
  const tokens = rules.find((r) => r.Actions.length === 1 && r.Actions[0].Type === 'forward');
  assert.deepStrictEqual(tokens.Conditions.find((c) => c.Field === 'path-pattern').PathPatternConfig.Values, cdkJson.applications[0].tokenPaths);
  assert.match(JSON.stringify(template('ots-platform')), /\/repository\//);
  const grafanaRules = resources(template('ots-grafana'), 'AWS::ElasticLoadBalancingV2::ListenerRule');
  assert.strictEqual(grafanaRules.length, 1);
});

test('cfn-lint: no error and no warning in any of its templates', { skip: spawnSync('cfn-lint', ['--version']).status !== 0 && !process.env.CI }, () => {
  const files = ['ots-platform', 'ots-nexus', 'ots-grafana'].map((stack) => path.join(outdir, `${stack}.template.json`));
  // W3005 and W3691 as in packages/core/test/platform-lifecycle.test.ts, where each is explained.
  const lint = spawnSync('cfn-lint', ['--format', 'parseable', '--ignore-checks', 'W3005', 'W3691', '--', ...files], { encoding: 'utf-8' });
  assert.strictEqual(lint.stdout + lint.stderr, '');
  assert.strictEqual(lint.status, 0);
});

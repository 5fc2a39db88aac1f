// examples/off-the-shelf: an artifact repository (Sonatype Nexus) and Grafana on one PRODUCTION platform, described in
// cdk.json alone (`containerImage`), with no plugin code. `npx cdk synth` there runs PRODUCTION's four packs; each image
// must run as a plugin written in code would: through the platform's ECR cache by digest, as its user, its data where
// it keeps it (Grafana on the platform's file system on Fargate, Nexus on an EBS volume on EC2), its health check, its
// token paths past the sign-in.
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { resources, rolloutProblems, synthExample, templatesIn } = require('./example-synth');

const { example, cdkJson, outdir, run, template } = synthExample('off-the-shelf');

test('synthesises in PRODUCTION, its packs passing, with no code of its own', () => {
  assert.strictEqual(run.status, 0, run.stderr);
  assert.deepStrictEqual(fs.readdirSync(example).filter((f) => /\.(js|ts|py|java)$/.test(f)), []);
  for (const stack of ['ots-nexus', 'ots-grafana']) assert.ok(fs.existsSync(path.join(outdir, `${stack}.pci-dss-4.0.1.json`)), stack);
});

/** What the Nexus instance's user data runs, with CloudFormation references shown as JSON (as packages/core's tests do). */
function userData(stack) {
  const [[, launch]] = resources(template(stack), 'AWS::EC2::LaunchTemplate');
  const value = launch.Properties.LaunchTemplateData.UserData['Fn::Base64'];
  return typeof value === 'string' ? value : value['Fn::Join'][1].map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join('');
}

test('Grafana on Fargate runs as described: by digest through the platform\'s ECR cache, its user, port, data path, health check, environment', () => {
  const entry = cdkJson.applications.find((e) => e.runtimeType === 'FARGATE');
  const described = entry.containerImage;
  const [[, task]] = resources(template(entry.stackName), 'AWS::ECS::TaskDefinition');
  const container = task.Properties.ContainerDefinitions.find((c) => c.Name === 'Application');
  assert.match(JSON.stringify(container.Image), new RegExp(`/fw-hub-[0-9a-f]+/${described.image.replace(/[.]/g, '\\.')}@${entry.imageDigests[described.image]}`));
  assert.deepStrictEqual([container.User, container.PortMappings[0].ContainerPort, container.MountPoints[0].ContainerPath],
    [described.user, described.port, described.dataPath]);
  for (const [name, value] of Object.entries(described.environment)) {
    assert.deepStrictEqual(container.Environment.find((e) => e.Name === name)?.Value, value, name);
  }
  const [[, targets]] = resources(template(entry.stackName), 'AWS::ElasticLoadBalancingV2::TargetGroup');
  assert.strictEqual(targets.Properties.HealthCheckPath, described.healthCheckPath);
});

test('Nexus on EC2 with EBS: its image by digest through the cache, unpacked and run by systemd in the sandbox, its data on the volume', () => {
  const entry = cdkJson.applications.find((e) => e.runtimeType === 'EC2');
  const described = entry.containerImage;
  const script = userData(entry.stackName);
  assert.match(script, new RegExp(`fw_image_root '[^']*/fw-hub-[0-9a-f]+/${described.image.replace(/[.]/g, '\\.')}@${entry.imageDigests[described.image]}' '/var/lib/fw/images/nexus'`));
  assert.match(script, /fw_mount_ebs '\/dev\/xvdf' '\/srv\/nexus' '200' '200'/);
  for (const [name, value] of Object.entries(described.environment)) assert.ok(script.includes(`fw_env_line '/etc/fw/nexus/image.env' '${name}' '${value}'`), name);
  assert.doesNotMatch(script, /^docker /m);
  // The unit (packages/core/test/ec2-image.test.ts reads it with systemd 252) travels in the file archive.
  assert.match(script, /fw_require_active 'nexus\.service' \d+/);
  const [[, volume]] = resources(template(entry.stackName), 'AWS::EC2::Volume');
  assert.strictEqual(volume.Properties.Size, entry.dataVolumeGiB);
  const [[, targets]] = resources(template(entry.stackName), 'AWS::ElasticLoadBalancingV2::TargetGroup');
  assert.deepStrictEqual([targets.Properties.TargetType, targets.Properties.HealthCheckPath], ['instance', described.healthCheckPath]);
});

test('the repository\'s token paths skip the sign-in; its uploads are allowed past the WAF\'s 8 KB; Grafana has neither', () => {
  const rules = resources(template('ots-nexus'), 'AWS::ElasticLoadBalancingV2::ListenerRule').map(([, r]) => r.Properties);
  const tokens = rules.find((r) => r.Actions.length === 1 && r.Actions[0].Type === 'forward');
  assert.deepStrictEqual(tokens.Conditions.find((c) => c.Field === 'path-pattern').PathPatternConfig.Values, cdkJson.applications[0].tokenPaths);
  // What the clients use (Maven, npm, Docker: /repository/...), not Nexus's REST API, whose administration is there.
  assert.deepStrictEqual(cdkJson.applications[0].tokenPaths, ['/repository/*']);
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

test('PRODUCTION: every ECS service rolls back on its health alarms, and runs one task at a time', () => {
  assert.deepStrictEqual(rolloutProblems(templatesIn(outdir), true), []);
});

// The main job's two templates (examples/build-server, PRODUCTION from its cdk.json: FARGATE in cdk.out, EC2 in
// cdk.out/ec2), as `npx cdk synth` wrote them before this test: cfn-lint reports no error and no warning.
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { test } = require('node:test');

const example = path.join(__dirname, '..', '..', 'examples', 'build-server');

test('cfn-lint: nothing in the main job\'s FARGATE and EC2 templates', { skip: spawnSync('cfn-lint', ['--version']).status !== 0 && !process.env.CI }, () => {
  const files = [path.join(example, 'cdk.out', 'build-server.template.json'), path.join(example, 'cdk.out', 'ec2', 'build-server.template.json')];
  // W3005: the CDK's AwsCustomResource declares DependsOn on a role it also reaches with GetAtt (packages/core/test/cfn-lint.test.ts).
  const run = spawnSync('cfn-lint', ['--format', 'parseable', '--ignore-checks', 'W3005', '--', ...files], { encoding: 'utf-8' });
  assert.strictEqual(run.stdout + run.stderr, '');
  assert.strictEqual(run.status, 0);
});

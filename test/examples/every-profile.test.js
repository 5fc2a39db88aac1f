// Every example that deploys by configuration, in every profile and on both runtimes where it chooses one, as the
// deployment app synthesises it (`npx fw-deploy`, which `cdk synth` runs, with the example's cdk.json and one profile
// changed; the CDK's CloudFormation validation off: the main job runs it), then cfn-lint over every template, a
// database's among them (quality-gate's SonarQube). What the examples' own tests already synthesise is not repeated:
// the main job (build-server, PRODUCTION), quality-gate (PRODUCTION), off-the-shelf (PRODUCTION), score-workload
// (PRODUCTION on Fargate; packages/core/test/score-workload.test.ts synthesises its file on EC2 too), wiki-with-database
// (DEV) and examples/platform (PRODUCTION, packages/core/test/deployment-app.test.ts). The Java and Python examples
// are linted in their stages.
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');
const { rolloutProblems, templatesIn } = require('./example-synth');

const examples = path.join(__dirname, '..', '..', 'examples');
const PROFILES = ['DEV', 'STAGING', 'PRODUCTION'];
/**
 * What STAGING and PRODUCTION require of an application that the DEV examples leave out (TLS, a domain, the cache, the
 * EC2 image).
 */
const TLS = {
  sslEnabled: 'true', domain: 'example.com', hostedZoneId: 'Z0123456789ABCDEFGHIJ', alarmEmail: 'security@example.com',
  dockerHubCredentialArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ecr-pullthroughcache/docker-hub-AbCdEf',
  ec2ImageId: 'ami-0123456789abcdef0',
};
const DIGEST = `sha256:${'1'.repeat(64)}`;

/** Each example's context in `profile` on `runtime`, or undefined where its own test synthesises that one already. */
const VARIANTS = {
  'build-server': (context, profile, runtime) => profile === 'PRODUCTION' ? undefined : { ...context, securityProfile: profile, runtimeType: runtime },
  'wiki-with-database': (context, profile, runtime) => profile === 'DEV' ? undefined : {
    ...context, ...TLS, subdomain: 'wiki', securityProfile: profile, runtimeType: runtime,
    imageDigests: { 'ghcr.io/example/wiki:1.4.2': DIGEST }, ...profile === 'PRODUCTION' ? { pciDssScope: 'OUT_OF_SCOPE', alarmEmail: 'ops@example.com' } : {},
  },
  'platform': (context, profile, runtime) => profile === 'PRODUCTION' || runtime === 'EC2' ? undefined
    : { ...context, platform: { ...context.platform, securityProfile: profile } },
  'quality-gate': (context, profile, runtime) => profile === 'PRODUCTION' || runtime === 'EC2' ? undefined
    : { ...context, platform: { ...context.platform, securityProfile: profile } },
  // Its images run on Fargate only (no container path on EC2 yet); PRODUCTION is its own test's.
  'off-the-shelf': (context, profile, runtime) => profile === 'PRODUCTION' || runtime === 'EC2' ? undefined
    : { ...context, platform: { ...context.platform, securityProfile: profile } },
  'score-workload': (context, profile, runtime) => profile === 'PRODUCTION' && runtime === 'FARGATE' ? undefined
    : { ...context, securityProfile: profile, runtimeType: runtime },
};

const synthesised = [];
for (const [example, variant] of Object.entries(VARIANTS)) {
  const context = JSON.parse(fs.readFileSync(path.join(examples, example, 'cdk.json'), 'utf-8')).context;
  for (const profile of PROFILES) {
    for (const runtime of ['FARGATE', 'EC2']) {
      const changed = variant(context, profile, runtime);
      if (!changed) continue;
      const name = `${example} ${profile}${changed.runtimeType ? ` ${runtime}` : ''}`;
      test(`${name}: synthesises`, () => {
        const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-every-profile-'));
        const run = spawnSync('npx', ['fw-deploy'], {
          cwd: path.join(examples, example), encoding: 'utf-8',
          env: { ...process.env, CDK_OUTDIR: outdir, CDK_CONTEXT_JSON: JSON.stringify(changed), CDK_VALIDATION: 'false' },
        });
        assert.strictEqual(run.status, 0, run.stderr);
        const templates = fs.readdirSync(outdir).filter((f) => f.endsWith('.template.json')).map((f) => path.join(outdir, f));
        assert.ok(templates.length > 0, `${name}: no template`);
        synthesised.push(...templates);
        assert.deepStrictEqual(rolloutProblems(templates, profile !== 'DEV'), []);
      });
    }
  }
}

test('the main job\'s PRODUCTION services roll back on their alarms, one task at a time', () => {
  const dirs = ['cdk.out', 'cdk.out/ec2'].map((d) => path.join(examples, 'build-server', d)).filter((d) => fs.existsSync(d));
  assert.ok(dirs.length > 0, 'the main job has not synthesised (its stage runs cdk synth before these tests)');
  const templates = dirs.flatMap(templatesIn);
  assert.ok(templates.some((f) => fs.readFileSync(f, 'utf-8').includes('"AWS::ECS::Service"')), 'no ECS service in the main job');
  assert.deepStrictEqual(rolloutProblems(templates, true), []);
});

test('every application stack has at least three of the framework\'s alarms on its health, each with an action', () => {
  // The variants above, and the main job's own PRODUCTION synths (its stage runs cdk synth before these tests).
  const mainJob = ['cdk.out', 'cdk.out/ec2'].map((d) => path.join(examples, 'build-server', d)).filter((d) => fs.existsSync(d))
    .flatMap((d) => fs.readdirSync(d).filter((f) => f.endsWith('.template.json')).map((f) => path.join(d, f)));
  const applications = [...synthesised, ...mainJob].map((file) => [file, JSON.parse(fs.readFileSync(file, 'utf-8')).Resources])
    .filter(([, resources]) => Object.values(resources).some((r) => r.Type === 'AWS::ElasticLoadBalancingV2::TargetGroup'));
  assert.ok(applications.length >= 10, `only ${applications.length} application stacks`);
  for (const [file, resources] of applications) {
    const health = Object.values(resources).filter((r) => r.Type === 'AWS::CloudWatch::Alarm' && /-fw-[a-z0-9-]+$/.test(r.Properties.AlarmName));
    assert.ok(health.length >= 3, `${path.basename(file)}: ${health.length} of the framework's alarms`);
    for (const alarm of health) assert.ok(alarm.Properties.AlarmActions?.length > 0, `${path.basename(file)}: ${alarm.Properties.AlarmName} has no action`);
  }
});

test('cfn-lint: no error and no warning in any of them', { skip: spawnSync('cfn-lint', ['--version']).status !== 0 && !process.env.CI }, () => {
  assert.ok(synthesised.length >= 14, `only ${synthesised.length} templates`);
  // W3005 and W3691 as in packages/core/test/platform-lifecycle.test.ts, where each is explained.
  const run = spawnSync('cfn-lint', ['--format', 'parseable', '--ignore-checks', 'W3005', 'W3691', '--', ...synthesised], { encoding: 'utf-8' });
  assert.strictEqual(run.stdout + run.stderr, '');
  assert.strictEqual(run.status, 0);
});

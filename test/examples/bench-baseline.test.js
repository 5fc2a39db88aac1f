// The whole-process synth benchmark's same-shape baseline (bench/hand-written-stack.ts) creates exactly the resource
// types and counts that fw-deploy's DEV FARGATE template has for the bench plugin, so that its ratio is the framework's
// own work (docs/benchmarks.md). bench/process-synth.ts refuses to report on a mismatch too; this fails CI first.
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');

const ROOT = path.join(__dirname, '..', '..');
// The bench's TypeScript, transpiled where it lies (bench-plugin.ts finds the framework from its own directory).
const ts = require(require.resolve('typescript', { paths: [ROOT] }));
require.extensions['.ts'] = (module, file) => module._compile(ts.transpileModule(fs.readFileSync(file, 'utf-8'),
  { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText, file);
const { installPlugin } = require(path.join(ROOT, 'bench', 'bench-plugin'));
const { HandWrittenStack } = require(path.join(ROOT, 'bench', 'hand-written-stack'));
const { BENCH_CONTEXT, resourceShape } = require(path.join(ROOT, 'bench', 'shape'));
const { App } = require(require.resolve('aws-cdk-lib', { paths: [ROOT] }));

// The shapes are compared, not the CDK's own CloudFormation checks (cfn-lint.test.ts and main-job-lint run those).
process.env.CDK_VALIDATION = 'false';

function fwDeployTemplate() {
  const project = installPlugin('fw-bench-shape-');
  try {
    const outdir = path.join(project, 'cdk.out');
    const run = spawnSync(process.execPath, [path.join(ROOT, 'packages', 'core', 'bin', 'fw-deploy')], {
      cwd: project, encoding: 'utf-8',
      env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify(BENCH_CONTEXT), CDK_OUTDIR: outdir, CDK_VALIDATION: 'false' },
    });
    assert.strictEqual(run.status, 0, run.stderr);
    return JSON.parse(fs.readFileSync(path.join(outdir, 'bench.template.json'), 'utf-8'));
  } finally {
    fs.rmSync(project, { recursive: true, force: true });
  }
}

function handWrittenTemplate() {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-hand-'));
  try {
    const app = new App({ outdir });
    new HandWrittenStack(app, 'bench', { runtime: 'FARGATE', userData: '', env: { region: 'eu-west-1' } });
    return app.synth().getStackByName('bench').template;
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

test('the same-shape baseline has fw-deploy\'s resource types and counts (DEV, FARGATE)', () => {
  const fw = resourceShape(fwDeployTemplate());
  const template = handWrittenTemplate();
  assert.deepStrictEqual(resourceShape(template), fw);
  assert.ok(Object.values(fw).reduce((a, b) => a + b, 0) > 30, 'a whole deployment was compared');
  // Negative control: one resource fewer is a different shape.
  const Resources = { ...template.Resources };
  const [dropped] = Object.keys(Resources).filter((id) => Resources[id].Type === 'AWS::EC2::SecurityGroupIngress');
  delete Resources[dropped];
  assert.notDeepStrictEqual(resourceShape({ Resources }), fw);
});

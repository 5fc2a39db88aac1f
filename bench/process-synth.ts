/**
 * Whole-process synth: `fw-deploy` as `cdk synth` starts it (a fresh Node process, DEV, FARGATE, a plugin of its own)
 * against fresh processes that synthesise two hand-written stacks, compiled to JavaScript first so that no side pays
 * for TypeScript:
 *
 * - the same shape (`hand-written-stack.ts`): the same resource types and counts as fw-deploy's template, checked here
 *   and by test/examples/bench-baseline.test.js, so the ratio is the framework's own work (target at most 1.10);
 * - the plain stack (`plain-stack.ts`): aws-ecs-patterns' load-balanced Fargate service with a file system, what a CDK
 *   user writes first (target at most 1.35).
 *
 * Runs alternate, so machine noise hits every side alike; twice: with the CDK's CloudFormation validation off
 * (`CDK_VALIDATION=false`, where the targets apply) and on, as `cdk synth` runs by default. Run: `npx projen bench`.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { installPlugin } from './bench-plugin';
import { BENCH_CONTEXT, resourceShape } from './shape';

const PAIRS = 9;
const TARGETS = { sameShape: 1.10, plain: 1.35 };
const CORE = path.resolve(__dirname, '..', 'packages', 'core');

/** A script in `dir` that synthesises `bench/<file>.ts`'s stack as a CDK app (the module compiled beside it). */
function baselineScript(dir: string, file: string, construct: string, props: string): string {
  const source = fs.readFileSync(path.join(__dirname, `${file}.ts`), 'utf-8');
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  fs.writeFileSync(path.join(dir, `${file}.js`), js);
  const script = path.join(dir, `${file}-app.js`);
  fs.writeFileSync(script, `const { App } = require('aws-cdk-lib');
const { ${construct} } = require('./${file}');
const app = new App();
new ${construct}(app, 'bench', ${props});
app.synth();
`);
  return script;
}

/** Milliseconds of one fresh process, as the CDK CLI starts an app (context and output directory in its environment). */
function run(args: string[], cwd: string, outdir: string, validation: boolean): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, {
    cwd,
    env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify(BENCH_CONTEXT), CDK_OUTDIR: outdir, CDK_VALIDATION: validation ? 'true' : 'false' },
    encoding: 'utf-8',
  });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const template = (outdir: string) => JSON.parse(fs.readFileSync(path.join(outdir, 'bench.template.json'), 'utf-8'));

const project = installPlugin('fw-bench-process-');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-process-out-'));
try {
  // The baselines resolve the same aws-cdk-lib and constructs as the framework does.
  const modules = path.dirname(path.dirname(require.resolve('aws-cdk-lib/package.json', { paths: [CORE] })));
  fs.symlinkSync(modules, path.join(work, 'node_modules'));
  const sides = {
    fw: { args: [path.join(CORE, 'bin', 'fw-deploy')], cwd: project },
    sameShape: { args: [baselineScript(work, 'hand-written-stack', 'HandWrittenStack', "{ runtime: 'FARGATE', userData: '', env: { region: 'eu-west-1' } }")], cwd: work },
    plain: { args: [baselineScript(work, 'plain-stack', 'PlainStack', "{ env: { region: 'eu-west-1' } }")], cwd: work },
  };
  const out = (side: string) => path.join(work, `out-${side}`);
  for (const [side, { args, cwd }] of Object.entries(sides)) run(args, cwd, out(side), false);
  const [fwShape, sameShape] = [resourceShape(template(out('fw'))), resourceShape(template(out('sameShape')))];
  if (JSON.stringify(fwShape) !== JSON.stringify(sameShape)) {
    throw new Error(`the same-shape baseline no longer has fw-deploy's resources: fw-deploy ${JSON.stringify(fwShape)}, hand-written ${JSON.stringify(sameShape)}`);
  }
  const count = (shape: Record<string, number>) => Object.values(shape).reduce((a, b) => a + b, 0);
  console.log(`whole-process synth (DEV, FARGATE), median of ${PAIRS} alternating runs after one warm-up round; fw-deploy ` +
    `${count(fwShape)} resources, same shape ${count(sameShape)}, plain ${count(resourceShape(template(out('plain'))))}:`);
  for (const validation of [false, true]) {
    const times: Record<string, number[]> = { fw: [], sameShape: [], plain: [] };
    for (let i = 0; i <= PAIRS; i++) {
      for (const [side, { args, cwd }] of Object.entries(sides)) {
        const ms = run(args, cwd, out(side), validation);
        if (i > 0) times[side].push(ms);
      }
    }
    const fw = median(times.fw);
    const ratios = (['sameShape', 'plain'] as const).map((side) => {
      const ratio = fw / median(times[side]);
      const target = validation ? '' : ` (target <= ${TARGETS[side].toFixed(2)}) ${ratio <= TARGETS[side] ? 'MET' : 'MISSED'}`;
      return `${side === 'plain' ? 'plain' : 'same shape'} ${median(times[side]).toFixed(0)} ms, ratio ${ratio.toFixed(2)}${target}`;
    });
    console.log(`  validation ${validation ? 'on ' : 'off'}: fw-deploy ${fw.toFixed(0)} ms; ${ratios.join('; ')}`);
  }
} finally {
  fs.rmSync(project, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
}

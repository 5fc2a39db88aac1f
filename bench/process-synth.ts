/**
 * Whole-process synth: `fw-deploy` as `cdk synth` starts it (a fresh Node process, DEV, FARGATE) against a fresh process
 * that synthesises the hand-written stack of the same shape (`hand-written-stack.ts`, compiled to JavaScript first so
 * that neither side pays for TypeScript). Pairs alternate, so machine noise hits both alike; twice: with the CDK's
 * CloudFormation validation off (`CDK_VALIDATION=false`: what is left is the framework's own work and loading), the
 * target being at most 1.4, and with it on, as `cdk synth` runs by default. Run: `npx projen bench`.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { installPlugin } from './bench-plugin';

const PAIRS = 9;
const TARGET = 1.4;
const CORE = path.resolve(__dirname, '..', 'packages', 'core');
const CONTEXT = { stackName: 'bench', applicationId: 'app', runtimeType: 'FARGATE', securityProfile: 'DEV', sslEnabled: 'false', region: 'eu-west-1' };

/** The hand-written stack as a JavaScript module in `dir`, and a script that synthesises it. */
function handWrittenScript(dir: string): string {
  const source = fs.readFileSync(path.join(__dirname, 'hand-written-stack.ts'), 'utf-8');
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  fs.writeFileSync(path.join(dir, 'hand-written-stack.js'), js);
  const script = path.join(dir, 'hand-written.js');
  fs.writeFileSync(script, `const { App } = require('aws-cdk-lib');
const { HandWrittenStack } = require('./hand-written-stack');
const app = new App();
new HandWrittenStack(app, 'bench', { runtime: 'FARGATE', userData: '', env: { region: 'eu-west-1' } });
app.synth();
`);
  return script;
}

/** Milliseconds of one fresh process, as the CDK CLI starts an app (context and output directory in its environment). */
function run(args: string[], cwd: string, outdir: string, validation: boolean): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, {
    cwd,
    env: {
      ...process.env,
      CDK_CONTEXT_JSON: JSON.stringify(CONTEXT),
      CDK_OUTDIR: outdir,
      CDK_VALIDATION: validation ? 'true' : 'false',
    },
    encoding: 'utf-8',
  });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const project = installPlugin('fw-bench-process-');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-process-out-'));
try {
  // The hand-written script resolves the same aws-cdk-lib and constructs as the framework does.
  const handWritten = handWrittenScript(work);
  const modules = path.dirname(path.dirname(require.resolve('aws-cdk-lib/package.json', { paths: [CORE] })));
  fs.symlinkSync(modules, path.join(work, 'node_modules'));
  const fwDeploy = path.join(CORE, 'bin', 'fw-deploy');
  console.log(`whole-process synth (DEV, FARGATE), median of ${PAIRS} alternating pairs after one warm-up pair:`);
  for (const validation of [false, true]) {
    const framework: number[] = [];
    const baseline: number[] = [];
    for (let i = 0; i <= PAIRS; i++) {
      const f = run([fwDeploy], project, path.join(work, 'fw'), validation);
      const h = run([handWritten], work, path.join(work, 'hand'), validation);
      if (i > 0) {
        framework.push(f);
        baseline.push(h);
      }
    }
    const ratio = median(framework) / median(baseline);
    const target = validation ? '' : ` (target <= ${TARGET}) ${ratio <= TARGET ? 'MET' : 'MISSED'}`;
    console.log(`  validation ${validation ? 'on ' : 'off'}: fw-deploy ${median(framework).toFixed(0)} ms, hand-written ${median(baseline).toFixed(0)} ms, ` +
      `ratio ${ratio.toFixed(2)}${target}`);
  }
} finally {
  fs.rmSync(project, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
}

/**
 * Synth time of the deployment app against a hand-written CDK stack of the same shape, per runtime, in one process
 * (target: ratio at most 1.10). Samples alternate between the two so that machine noise hits both alike; the first
 * rounds warm the module cache and the JIT and are not counted. Run: `npx projen bench`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { installPlugin } from './bench-plugin';
import { HandWrittenStack } from './hand-written-stack';

const core = require(path.resolve(__dirname, '..', 'packages', 'core', 'lib'));
const WARMUP = 3;
const SAMPLES = 25;

function time(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const project = installPlugin('fw-bench-synth-');
const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-out-'));
try {
  console.log(`synth time, median of ${SAMPLES} alternating samples after ${WARMUP} warm-up rounds:`);
  for (const runtime of ['FARGATE', 'EC2'] as const) {
    // The user data the framework renders, so the baseline instance carries the same script.
    const probe = new App({ outdir, context: { stackName: 'bench', applicationId: 'app', runtimeType: runtime, securityProfile: 'DEV', sslEnabled: 'false' } });
    const probeStack = core.DeploymentApp.addTo(probe, { searchFrom: project });
    const rendered: string = probeStack.node.findAll().find((c: any) => c.userDataScript)?.userDataScript ?? '';
    // The probe's CDK tokens belong to its own app; the baseline gets literal ids in their place.
    const userData = rendered.replace(/\$\{Token\[[^\]]+\]\}/g, 'fs-0123456789abcdef0');

    const framework: number[] = [];
    const handWritten: number[] = [];
    for (let i = 0; i < WARMUP + SAMPLES; i++) {
      const f = time(() => {
        const app = new App({ outdir, context: { stackName: 'bench', applicationId: 'app', runtimeType: runtime, securityProfile: 'DEV', sslEnabled: 'false' } });
        core.DeploymentApp.addTo(app, { searchFrom: project });
        app.synth();
      });
      const h = time(() => {
        const app = new App({ outdir });
        new HandWrittenStack(app, 'bench', { runtime, userData });
        app.synth();
      });
      if (i >= WARMUP) {
        framework.push(f);
        handWritten.push(h);
      }
    }
    const ratio = median(framework) / median(handWritten);
    console.log(`  ${runtime.padEnd(7)}: deployment app ${median(framework).toFixed(0)} ms, hand-written ${median(handWritten).toFixed(0)} ms, ` +
      `ratio ${ratio.toFixed(2)} (target <= 1.10) ${ratio <= 1.1 ? 'MET' : 'MISSED'}`);
  }
} finally {
  fs.rmSync(project, { recursive: true, force: true });
  fs.rmSync(outdir, { recursive: true, force: true });
}

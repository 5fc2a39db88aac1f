/** bench/java-plugin.sh: the same plugin in TypeScript, timed the same way as SynthBench.java. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { ApplicationFactory, RuntimeType } from '../packages/core/lib';
import { WikiSpec } from '../packages/core/test/fixtures/wiki-spec';

const [warmup, samples] = process.argv.slice(2).map(Number);
const times: number[] = [];
for (let i = 0; i < warmup + samples; i++) {
  const start = process.hrtime.bigint();
  for (const runtime of [RuntimeType.FARGATE, RuntimeType.EC2]) {
    const app = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'bench-')) });
    new ApplicationFactory(new Stack(app, 'Wiki'), 'App', runtime, new WikiSpec() as any);
    app.synth();
  }
  if (i >= warmup) times.push(Number(process.hrtime.bigint() - start) / 1e6);
}
times.sort((a, b) => a - b);
console.log(times[Math.floor(times.length / 2)].toFixed(1));

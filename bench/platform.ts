/**
 * What a platform saves: the resources the 2nd and the 10th PRODUCTION application add, by type, on one platform and
 * standalone; and the synth of 10 applications, each a whole fresh process (module loading included), on a platform
 * against 10 standalone stacks, alternating, median of 3 after one warm-up round each. Run: `npx projen bench:platform`.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const { build, countByType } = require('./platform-app');
const SCRIPT = path.join(__dirname, 'platform-app.js');
const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-platform-'));

type Counts = Record<string, number>;
const counts = (mode: string, n: number): Counts => countByType(build(mode, n, outdir));
const total = (c: Counts) => Object.values(c).reduce((a, b) => a + b, 0);

/** What the n-th application adds, by type: counts with n applications minus counts with n - 1. */
function added(mode: string, n: number): Counts {
  const [before, after] = [counts(mode, n - 1), counts(mode, n)];
  const types = new Set([...Object.keys(before), ...Object.keys(after)]);
  return Object.fromEntries([...types].map((t) => [t, (after[t] ?? 0) - (before[t] ?? 0)]).filter(([, d]) => d !== 0));
}

const WATCHED = ['AWS::EC2::VPC', 'AWS::EC2::NatGateway', 'AWS::EC2::EIP', 'AWS::ElasticLoadBalancingV2::LoadBalancer',
  'AWS::WAFv2::WebACL', 'AWS::S3::Bucket', 'AWS::EFS::FileSystem', 'AWS::KMS::Key', 'AWS::SNS::Topic', 'AWS::ECS::Cluster',
  'AWS::EC2::VPCEndpoint', 'AWS::ServiceDiscovery::PrivateDnsNamespace'];

try {
  for (const n of [2, 10]) {
    const [standalone, shared] = [added('standalone', n), added('platform', n)];
    console.log(`application ${n} (${n % 2 === 1 ? 'FARGATE' : 'EC2'}) adds: standalone ${total(standalone)} resources, on a platform ${total(shared)}`);
    for (const type of WATCHED) console.log(`  ${type}: standalone ${standalone[type] ?? 0}, on a platform ${shared[type] ?? 0}`);
  }
  const ten = { standalone: counts('standalone', 10), platform: counts('platform', 10) };
  console.log(`10 applications: standalone ${total(ten.standalone)} resources, on a platform ${total(ten.platform)} (platform stack included)`);

  const times: Record<string, number[]> = { standalone: [], platform: [] };
  for (let round = 0; round < 4; round++) {
    for (const mode of ['standalone', 'platform']) {
      const start = process.hrtime.bigint();
      const run = spawnSync(process.execPath, [SCRIPT, mode, '10', fs.mkdtempSync(path.join(outdir, mode))], { encoding: 'utf-8' });
      if (run.status !== 0) throw new Error(`${mode}: ${run.stderr}`);
      if (round > 0) times[mode].push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  const [s, p] = [median(times.standalone), median(times.platform)];
  console.log(`synth of 10 PRODUCTION applications, whole process, median of 3: standalone ${(s / 1000).toFixed(1)} s, ` +
    `on a platform ${(p / 1000).toFixed(1)} s, ratio ${(p / s).toFixed(2)}`);
} finally {
  fs.rmSync(outdir, { recursive: true, force: true });
}

/**
 * Plugin discovery over 1,000 installed packages (target: at most 100 ms, cold, once per process).
 *
 * Each sample is a fresh Node process, because discovery runs once per process: the child times
 * `PluginRegistry.discover()` and, as the baseline in the same process and tree, the bare file-system walk that any
 * discovery must do (list node_modules, test each package for a manifest). Run: `npx projen bench`.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
// The test suite's plugin with every contract member: one list to extend when the contract grows.
import { pluginClassSource } from '../packages/core/test/support/fake-install';

const PACKAGES = 1000;
const PLUGINS = 10;
const SAMPLES = 7;
const CORE = path.resolve(__dirname, '..', 'packages', 'core', 'lib');

function makeTree(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-discovery-'));
  for (let i = 0; i < PACKAGES; i++) {
    const name = i % 4 === 0 ? `@scope${i % 40}/pkg-${i}` : `pkg-${i}`;
    const dir = path.join(root, 'node_modules', ...name.split('/'));
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', main: 'index.js' }));
    const isPlugin = i % (PACKAGES / PLUGINS) === 1;
    fs.writeFileSync(path.join(dir, 'index.js'), isPlugin ? pluginClassSource(`Spec${i}`, `app-${i}`) : 'module.exports = {};\n');
    if (isPlugin) {
      fs.mkdirSync(path.join(dir, 'META-INF', 'services'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'META-INF', 'services', 'dev.fwframework.core.IApplicationSpec'), `# plugin\n${name}.Spec${i}\n`);
    }
  }
  return root;
}

/** Runs in the child: one cold discovery and one baseline walk, in milliseconds. */
const CHILD = `
const { PluginRegistry } = require(${JSON.stringify(CORE)});
const { nodeModulesDirs, installedPackages } = require(${JSON.stringify(path.join(CORE, 'registry', 'node-modules.js'))});
const fs = require('fs'); const path = require('path');
const root = process.argv[1];
let t = process.hrtime.bigint();
const found = nodeModulesDirs(root).flatMap(installedPackages)
  .filter((d) => fs.existsSync(path.join(d, 'META-INF/services/dev.fwframework.core.IApplicationSpec'))).length;
const walk = Number(process.hrtime.bigint() - t) / 1e6;
t = process.hrtime.bigint();
const ids = PluginRegistry.discover({ searchFrom: root }).applicationIds().length;
const discover = Number(process.hrtime.bigint() - t) / 1e6;
console.log(JSON.stringify({ walk, discover, found, ids }));
`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const tree = makeTree();
try {
  const samples = Array.from({ length: SAMPLES }, () => {
    const run = spawnSync(process.execPath, ['-e', CHILD, tree], { encoding: 'utf-8' });
    if (run.status !== 0) throw new Error(run.stderr);
    return JSON.parse(run.stdout) as { walk: number; discover: number; found: number; ids: number };
  });
  // Discovery also finds @fw/core's own built-in plugin (the build server).
  if (samples.some((s) => s.found !== PLUGINS || s.ids !== PLUGINS + 1)) {
    throw new Error(`expected ${PLUGINS} plugins, got ${JSON.stringify(samples[0])}`);
  }
  const discover = median(samples.map((s) => s.discover));
  const walk = median(samples.map((s) => s.walk));
  console.log(`discovery over ${PACKAGES} installed packages (${PLUGINS} plugins), median of ${SAMPLES} cold processes:`);
  console.log(`  PluginRegistry.discover(): ${discover.toFixed(1)} ms (target <= 100 ms) ${discover <= 100 ? 'MET' : 'MISSED'}`);
  console.log(`  baseline bare walk:        ${walk.toFixed(1)} ms; ratio discover/walk = ${(discover / walk).toFixed(2)}`);
} finally {
  fs.rmSync(tree, { recursive: true, force: true });
}

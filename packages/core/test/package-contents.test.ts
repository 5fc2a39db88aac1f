import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

/**
 * What `npm pack` puts in @fw/core's tarball is what the package means to ship, and nothing of one machine is in the
 * repository (issue 62: a profiling scratch file naming one machine's paths shipped in the tarball).
 */
const CORE = path.join(__dirname, '..');
const ROOT = path.join(CORE, '..', '..');

/** Each file the package ships, by pattern, with why it is there. */
const SHIPPED: Array<[RegExp, string]> = [
  [/^(package\.json|README\.md|LICENSE|API\.md|API\.java\.md|API\.python\.md|\.jsii)$/, 'the package itself, its API reference and jsii assembly'],
  [/^lib\/.+\.(js|d\.ts|js\.map)$/, 'the compiled code, its declarations and source maps'],
  [/^bin\/fw-deploy$/, 'the deployment command'],
  [/^META-INF\/services\/dev\.fwframework\.core\.IApplicationSpec$/, 'the built-in plugin, as Java\'s ServiceLoader finds it'],
  [/^aws\/pci-dss-4\/pci-dss-4\.0\.json$/, 'the PCI DSS mapping the evidence report reads'],
  [/^aws\/(cloudformation\/resource-schemas|lifecycle\/service-rules)\.json$/, 'what fw-deploy check-change reads: the schemas and the services\' rules'],
  [/^score\/(score-v1b1\.json|LICENSE|README\.md)$/, 'Score\'s schema a scoreWorkload file is checked against, its licence and provenance'],
  [/^jenkins\/(init|jobs)\/[\w-]+\.groovy$/, 'the build server\'s init script and seeded jobs'],
  [/^jenkins\/pipeline-library\/(vars|src\/dev\/fwframework\/pci)\/\w+\.groovy$/, 'the pipeline library'],
  [/^jenkins\/(card-data-patterns|plugin-closure|plugin-installer-run)\.json$/, 'the build server\'s data and the records its pins rest on'],
  [/^jenkins\/advisories\/(announced|exposure|warnings)\.json$/, 'the advisory data knownVulnerabilities() reads'],
];

/**
 * Besides: the dependencies package.json bundles (node_modules/<name>/...), and dist/, the packaging's own output,
 * present only once this checkout's packages were built (the release's npm tarball is packed before it exists).
 */
const BUNDLED: string[] = JSON.parse(fs.readFileSync(path.join(CORE, 'package.json'), 'utf-8')).bundledDependencies ?? [];
const packagingOutput = (f: string) => f.startsWith('dist/') || BUNDLED.some((name) => f.startsWith(`node_modules/${name}/`));

/** The files of `npm pack --dry-run`, as npm lists them. */
function packed(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: CORE, encoding: 'utf-8', stdio: ['ignore', 'pipe', 'ignore'] });
  return JSON.parse(out)[0].files.map((f: { path: string }) => f.path);
}

const unintended = (files: string[]) => files.filter((f) => !packagingOutput(f) && !SHIPPED.some(([pattern]) => pattern.test(f)));

test('npm pack lists only the files the package means to ship', () => {
  const files = packed();
  expect(files).toContain('lib/index.js');
  expect(unintended(files)).toEqual([]);
  // Negative control: a scratch script at the package's root would be named.
  expect(unintended([...files, '_phases3.js'])).toEqual(['_phases3.js']);
});

/**
 * An absolute path of one machine: a checkout's location (under /work), a home directory (root's, or one under Users), or a script
 * that requires a file by absolute path. Documentation may show scratch directories (/tmp/x) in its commands.
 */
const MACHINE_PATH = /(\/work\/|\/root\/|\/Users\/|require\(['"]\/)/;

test('no tracked file names a path of one machine', () => {
  // git grep exits 1 when nothing matches.
  const grep = spawnSync('git', ['grep', '-nIE', MACHINE_PATH.source], { cwd: ROOT, encoding: 'utf-8' });
  expect(grep.status).toBe(1);
  expect(grep.stdout.split('\n').filter(Boolean)).toEqual([]);
});

test('negative control: the pattern finds what the scratch file held', () => {
  const checkout = ['', 'work', 'main'].join('/');
  expect(MACHINE_PATH.test(`const { DeploymentApp } = require('${checkout}/packages/core/lib/deployment-app');`)).toBe(true);
  expect(MACHINE_PATH.test('remoteFSRoot: \'/home/jenkins/agent\'')).toBe(false);
});

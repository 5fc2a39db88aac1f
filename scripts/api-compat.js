#!/usr/bin/env node
// A release's API check: jsii-diff between the previous release's assembly and this one's. A breaking change to the
// public API (a member removed, a type changed, an optional made required) fails the release unless its major goes
// up; the plugin contract rides on the package major (docs/writing-a-plugin.md, "Upgrading"), and plugins accept
// every later release of their major. Unmarked APIs count as stable (jsii-diff's default).
//
//   node scripts/api-compat.js                                  the release task's step: @fw/core against the last release
//   node scripts/api-compat.js <previous assembly> <this assembly>
//
// Without arguments the previous assembly is built from the last release's tag (`git describe --tags`, v*) in a
// worktree with this checkout's installed packages; with no tag yet (before the first release) there is nothing to
// compare. Each assembly given is a package directory, a .jsii file, or (the previous one) npm:@fw/core@<version>.
//
// The versions are the assemblies' own. Exits 0 when compatible or when the major went up; 1 otherwise, after
// jsii-diff's report, which names each breaking change.
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const CORE = 'packages/core';

/** The last release's tag before `version` (the one being released, which the bump may have tagged), or undefined. */
function lastReleaseTag(version) {
  const run = spawnSync('git', ['describe', '--tags', '--abbrev=0', '--match', 'v*', '--exclude', `v${version}`], { cwd: root, encoding: 'utf-8' });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

/** @fw/core's assembly at `tag`, compiled by jsii in a worktree of it, in `work`; returns the package directory. */
function buildAssemblyAt(tag, work) {
  const tree = path.join(work, 'previous');
  execFileSync('git', ['worktree', 'add', '-q', tree, tag], { cwd: root, stdio: 'inherit' });
  for (const dir of ['node_modules', `${CORE}/node_modules`]) fs.symlinkSync(path.join(root, dir), path.join(tree, dir));
  const jsii = spawnSync('npx', ['jsii', '--silence-warnings=reserved-word'], { cwd: path.join(tree, CORE), encoding: 'utf-8' });
  if (jsii.status !== 0) throw new Error(`api-compat: ${tag}'s assembly did not build:\n${jsii.stdout}${jsii.stderr}`);
  return path.join(tree, CORE);
}

function versionOf(assembly) {
  if (assembly.startsWith('npm:')) return assembly.slice(assembly.lastIndexOf('@') + 1);
  const file = fs.statSync(assembly).isDirectory() ? path.join(assembly, '.jsii') : assembly;
  return JSON.parse(fs.readFileSync(file, 'utf-8')).version;
}

function main(args) {
  if (args.length === 0) {
    const tag = lastReleaseTag(versionOf(path.join(root, CORE)));
    if (!tag) {
      console.log('api-compat: no release tag (v*) yet: no previous public API to compare with');
      return 0;
    }
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-api-compat-'));
    try {
      return compare(buildAssemblyAt(tag, work), path.join(root, CORE));
    } finally {
      spawnSync('git', ['worktree', 'remove', '--force', path.join(work, 'previous')], { cwd: root });
      fs.rmSync(work, { recursive: true, force: true });
    }
  }
  if (args.length !== 2) {
    console.error('usage: node scripts/api-compat.js [<previous assembly> <this assembly>]');
    return 2;
  }
  return compare(args[0], args[1]);
}

/** The .jsii file of an assembly given as a directory or a file; undefined for npm:. */
function jsiiFile(assembly) {
  if (assembly.startsWith('npm:')) return undefined;
  return fs.statSync(assembly).isDirectory() ? path.join(assembly, '.jsii') : assembly;
}

/** The plugin contract version recorded beside an assembly (package.json's fw.pluginContract), when there is one. */
function contractOf(assembly) {
  const file = jsiiFile(assembly);
  const pkg = file && path.join(path.dirname(file), 'package.json');
  return pkg && fs.existsSync(pkg) ? JSON.parse(fs.readFileSync(pkg, 'utf-8')).fw?.pluginContract : undefined;
}

const CONTRACT = '@fw/core.IApplicationSpec';
/**
 * The plugin contract's minor rule, which jsii-diff does not see (it takes a method added to an interface as
 * compatible): members added to IApplicationSpec need a newer contract version than the previous release's. Returns
 * the problem, or undefined.
 */
function contractProblem(previous, current, previousContract, currentContract) {
  const members = (assembly) => (assembly.types[CONTRACT]?.methods ?? []).map((m) => m.name);
  const added = members(current).filter((m) => !members(previous).includes(m));
  if (added.length === 0) return undefined;
  console.log(`api-compat: the plugin contract gains ${added.join(', ')} (a minor change of the contract)`);
  if (previousContract !== undefined && previousContract === currentContract) {
    return `api-compat: ${added.join(', ')} added to IApplicationSpec, but the plugin contract stays ${currentContract}: bump ` +
      'PLUGIN_CONTRACT_VERSION\'s minor and date each new member with it (APPLICATION_SPEC_MEMBERS_SINCE)';
  }
  return undefined;
}

function compare(previous, current) {
  const [before, after] = [versionOf(previous), versionOf(current)];
  const [previousFile, currentFile] = [jsiiFile(previous), jsiiFile(current)];
  const contract = previousFile && currentFile && contractProblem(JSON.parse(fs.readFileSync(previousFile, 'utf-8')),
    JSON.parse(fs.readFileSync(currentFile, 'utf-8')), contractOf(previous), contractOf(current));
  if (contract) {
    console.error(contract);
    return 1;
  }
  const diff = spawnSync('npx', ['jsii-diff', '--keys', '--error-on', 'prod', previous, current], { encoding: 'utf-8' });
  process.stdout.write(diff.stdout);
  process.stderr.write(diff.stderr);
  if (diff.error) throw diff.error;
  // jsii-diff exits 1 for breaking changes and for a failure of its own; only the first is a verdict.
  if (/^Error/m.test(diff.stderr)) {
    console.error('api-compat: jsii-diff could not compare the assemblies (above)');
    return 2;
  }
  if (diff.status === 0) {
    console.log(`api-compat: ${after} keeps the public API of ${before}`);
    return 0;
  }
  const major = (v) => Number(v.split('.')[0]);
  if (major(after) > major(before)) {
    console.log(`api-compat: breaking changes from ${before} to ${after}, a new major: allowed`);
    return 0;
  }
  console.error(`api-compat: breaking changes to the public API from ${before} to ${after} (above), without a major bump. ` +
    'Restore what was removed or changed, or release a new major (a BREAKING CHANGE commit bumps a 0.x version by a minor ' +
    'only: set minMajorVersion in .projenrc.ts for 1.0.0).');
  return 1;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
module.exports = { contractProblem };

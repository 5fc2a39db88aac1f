#!/usr/bin/env node
// A release's API check: jsii-diff between the previous release's assembly and this one's. A breaking change to the
// public API (a member removed, a type changed, an optional made required) fails the release unless its major goes
// up; the plugin contract rides on the package major (docs/writing-a-plugin.md, "Upgrading"), and plugins accept
// every later release of their major. Unmarked APIs count as stable (jsii-diff's default).
//
//   node scripts/api-compat.js <previous assembly> <this assembly>
//
// Each assembly is a package directory, a .jsii file, or (the previous one) npm:@fw/core@<version>.
//
// The versions are the assemblies' own. Exits 0 when compatible or when the major went up; 1 otherwise, after
// jsii-diff's report, which names each breaking change.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

function versionOf(assembly) {
  if (assembly.startsWith('npm:')) return assembly.slice(assembly.lastIndexOf('@') + 1);
  const file = fs.statSync(assembly).isDirectory() ? path.join(assembly, '.jsii') : assembly;
  return JSON.parse(fs.readFileSync(file, 'utf-8')).version;
}

function main([previous, current]) {
  if (!previous || !current) {
    console.error('usage: node scripts/api-compat.js <previous assembly> <this assembly\'s directory>');
    return 2;
  }
  const [before, after] = [versionOf(previous), versionOf(current)];
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

process.exitCode = main(process.argv.slice(2));

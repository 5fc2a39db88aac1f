#!/usr/bin/env node
// The first step of an upgrade (docs/build-server.md, "Upgrading the pins"): what jenkinsci/bom tests together for an
// LTS line, against what versions.ts pins.
//
//   node tools/jenkins-upgrade/bom-pins.js BOM_GIT_DIR LINE [TAG] [--write]
//
// BOM_GIT_DIR is a clone or bare mirror of https://github.com/jenkinsci/bom; LINE an LTS line such as 2.568.x (the
// directory bom-<LINE> must exist at TAG); TAG defaults to the newest tag. It prints one row a pinned plugin
// (JENKINS_PLUGINS, then JENKINS_PLUGIN_CLOSURE); with --write it sets each one's version in
// packages/core/src/build-server/versions.ts to the bom's, and tools/jenkins-closure/derive.js then checks what the new
// releases require. A plugin the bom does not manage keeps its pin (the row says so). Core's version is not in the bom: set JENKINS_CORE to the line's newest release by hand.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const args = process.argv.slice(2);
const write = args.includes('--write');
const [gitDir, line, tagArg] = args.filter((a) => a !== '--write');
if (!gitDir || !line) {
  console.error('usage: node tools/jenkins-upgrade/bom-pins.js BOM_GIT_DIR LINE [TAG] [--write]');
  process.exit(2);
}
const git = (...a) => execFileSync('git', ['-C', gitDir, ...a], { encoding: 'utf-8', maxBuffer: 64 * 1024 * 1024 });
const tag = tagArg ?? git('tag', '--sort=-creatordate').split('\n')[0];

/** artifactId -> version of one bom pom, its own properties resolved. */
function managed(pomPath) {
  const pom = git('show', `${tag}:${pomPath}`);
  const properties = Object.fromEntries([...(pom.split('<dependencyManagement>')[0].matchAll(/<([\w.-]+)>([^<]+)<\/\1>/g))].map((m) => [m[1], m[2]]));
  const versions = {};
  for (const m of pom.matchAll(/<dependency>\s*<groupId>[^<]+<\/groupId>\s*<artifactId>([^<]+)<\/artifactId>\s*<version>([^<]+)<\/version>/g)) {
    versions[m[1]] = m[2].replace(/^\$\{(.+)\}$/, (_, name) => properties[name] ?? m[2]);
  }
  return versions;
}
// The line's pom imports bom-weekly and overrides some of it.
const bom = { ...managed('bom-weekly/pom.xml'), ...managed(`bom-${line}/pom.xml`) };

const root = path.resolve(__dirname, '..', '..');
const versionsFile = path.join(root, 'packages', 'core', 'src', 'build-server', 'versions.ts');
let source = fs.readFileSync(versionsFile, 'utf-8');
const pins = [...source.matchAll(/plugin\('([\w-]+)', '([^']+)'/g)].map((m) => ({ id: m[1], version: m[2] }));

console.log(`jenkinsci/bom ${tag}, bom-${line}`);
for (const { id, version } of pins) {
  const wanted = bom[id];
  console.log(`${id.padEnd(24)} pinned ${version.padEnd(28)} bom ${wanted ?? '(not managed: keep the pin, check its releases)'}`);
  if (write && wanted && wanted !== version) source = source.replace(`plugin('${id}', '${version}'`, `plugin('${id}', '${wanted}'`);
}
if (write) {
  fs.writeFileSync(versionsFile, source);
  console.log(`wrote ${path.relative(root, versionsFile)}: now fetch each tag and run tools/casc-schema/generate.sh`);
}

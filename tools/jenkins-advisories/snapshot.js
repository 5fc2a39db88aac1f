#!/usr/bin/env node
// Refreshes packages/core/jenkins/advisories/warnings.json, the Jenkins project's security warnings for core and the
// pinned plugins, from jenkins-infra/update-center2's resources/warnings.json (the data Jenkins' own update site
// serves to running controllers).
//
//   node tools/jenkins-advisories/snapshot.js UPDATE_CENTER2_GIT_DIR [COMMIT]
//
// UPDATE_CENTER2_GIT_DIR is a clone or bare mirror of https://github.com/jenkins-infra/update-center2 (fetch it first:
// `git clone --bare https://github.com/jenkins-infra/update-center2`); COMMIT defaults to its HEAD. The snapshot keeps
// the warnings of `core` and of every pinned plugin (advisoryCoverage() of versions.ts), and
// names them in `covers`: advisories.test.ts refuses a pin that the snapshot does not cover.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const [gitDir, commitArg = 'HEAD'] = process.argv.slice(2);
if (!gitDir) {
  console.error('usage: node tools/jenkins-advisories/snapshot.js UPDATE_CENTER2_GIT_DIR [COMMIT]');
  process.exit(2);
}
const root = path.resolve(__dirname, '..', '..');
const git = (...args) => execFileSync('git', ['-C', gitDir, ...args], { encoding: 'utf-8', maxBuffer: 64 * 1024 * 1024 });
const commit = git('rev-parse', '--verify', `${commitArg}^{commit}`).trim();
const committed = git('show', '-s', '--format=%cI', commit).trim();
const all = JSON.parse(git('show', `${commit}:resources/warnings.json`));

// The pinned ids, read from versions.ts with the repository's ts-node (npm ci at the root first).
const ids = JSON.parse(execFileSync(path.join(root, 'node_modules', '.bin', 'ts-node'), ['--skip-project', '--transpile-only',
  '-O', '{"module":"commonjs","ignoreDeprecations":"6.0"}', '-e',
  'const v = require("./packages/core/src/build-server/versions"); console.log(JSON.stringify(v.advisoryCoverage()))'],
{ cwd: root, encoding: 'utf-8' }));

const covers = ['core', ...ids];
const warnings = all.filter((w) => covers.includes(w.name))
  .map(({ id, type, name, message, url, versions }) => ({ id, type, name, message, url, versions }));
const out = path.join(root, 'packages', 'core', 'jenkins', 'advisories', 'warnings.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify({
  source: { repository: 'https://github.com/jenkins-infra/update-center2', path: 'resources/warnings.json', commit, committed },
  covers,
  warnings,
}, null, 2) + '\n');
console.log(`${out}: ${warnings.length} warnings for ${covers.length} components, update-center2 ${commit} (${committed})`);

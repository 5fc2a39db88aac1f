#!/usr/bin/env node
// Writes the two update-center files the Jenkins plugin installation manager resolves from (update-center.json and
// plugin-versions.json), for the plugins of a plugins.txt, from packages/core/jenkins/plugin-closure.json: each plugin's
// required and optional dependencies and its Jenkins baseline as its pom.xml declares them at the pinned tag. The
// format is the one the tool reads (plugin-installation-manager-tool 2.15.0, PluginManager.java
// getPluginDependencyJsonArray 886-911: `requiredCore`, `sha256`, `dependencies[]` of `{name, version, optional}`).
// No checksum is known or needed (nothing is downloaded): `sha256` is empty. A plugin whose pom could not be read
// (`unread`) gets no dependencies and requiredCore 1.0, and run-installer.sh records which those are.
// Only plugins are listed, as on the real site (jenkins-infra/update-center2@10ae424 ArtifactoryRepositoryImpl.java 57,
// 180: `.hpi`/`.jpi` artifacts alone): a line whose derived packaging is not hpi/jpi, or that a plugin bundles (the
// closure's `libraries`), is left out, so the tool fails on it as it would against updates.jenkins.io.
//
//   node tools/jenkins-closure/update-center.js PLUGINS_TXT OUT_DIR
//
// A line of PLUGINS_TXT whose version differs from the derived pin (a negative control) gets the pin's metadata.
'use strict';
const fs = require('fs');
const path = require('path');

const [pluginsTxt, out] = process.argv.slice(2);
const closure = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'packages', 'core', 'jenkins', 'plugin-closure.json'), 'utf-8'));
const lines = fs.readFileSync(pluginsTxt, 'utf-8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));

const latest = {};
const versions = {};
for (const line of lines) {
  const [name, version] = line.split(':');
  const derived = closure.plugins[name];
  if (closure.libraries?.[name] || (derived && !['hpi', 'jpi'].includes(derived.packaging))) {
    console.error(`${name}: not a plugin (plugin-closure.json), so not listed`);
    continue;
  }
  if (!derived) throw new Error(`${name}: not in plugin-closure.json; run tools/jenkins-closure/derive.js`);
  const dependencies = [
    ...Object.entries(derived.requires).map(([n, v]) => ({ name: n, version: v, optional: false })),
    ...Object.entries(derived.optional ?? {}).map(([n, v]) => ({ name: n, version: v, optional: true })),
  ];
  const entry = { name, version, requiredCore: derived.jenkinsVersion ?? '1.0', dependencies, url: `file:///nowhere/${name}.hpi`, sha256: '' };
  latest[name] = entry;
  versions[name] = { [version]: entry };
}
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, 'update-center.json'), JSON.stringify({ plugins: latest, warnings: [] }));
fs.writeFileSync(path.join(out, 'plugin-versions.json'), JSON.stringify({ plugins: versions }));

import * as fs from 'fs';
import * as path from 'path';
import { JENKINS_CORE, JENKINS_PLUGIN_CLOSURE, JENKINS_PLUGINS, PLUGINS_NOT_READ, pluginsTxt } from '../../src/build-server/versions';
import { compareVersions } from '../support/jenkins-versions';

/**
 * Every plugin the controller ends up with is pinned: the configured plugins (JENKINS_PLUGINS) and everything they
 * require, directly or not (JENKINS_PLUGIN_CLOSURE), at versions that satisfy every requirer. The requirements are
 * derived data: packages/core/jenkins/plugin-closure.json, each pinned plugin's required plugins and their lowest
 * versions as its own pom.xml declares them at its release tag (commit recorded per plugin), written by
 * tools/jenkins-closure/derive.js (docs/build-server.md, "Upgrading the pins").
 */
const CLOSURE = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'jenkins', 'plugin-closure.json'), 'utf-8'));
const PINNED = [...JENKINS_PLUGINS, ...JENKINS_PLUGIN_CLOSURE];

interface Derived { readonly version: string; readonly requires: Record<string, string>; readonly jenkinsVersion?: string; readonly unread?: string }

/** What is wrong with a set of pins against the derived requirements: a required plugin missing or pinned too low. */
function problems(pins: ReadonlyArray<{ id: string; version: string }>, derived: Record<string, Derived> = CLOSURE.plugins): string[] {
  const pinned = new Map(pins.map((p) => [p.id, p.version]));
  const found: string[] = [];
  for (const [id, { requires, jenkinsVersion }] of Object.entries(derived)) {
    if (!pinned.has(id)) continue;
    for (const [dep, min] of Object.entries(requires)) {
      const version = pinned.get(dep);
      if (version === undefined) found.push(`${id} requires ${dep} ${min}, which is not pinned`);
      else if (compareVersions(version, min) < 0) found.push(`${id} requires ${dep} ${min}, pinned at ${version}`);
    }
    if (jenkinsVersion && compareVersions(jenkinsVersion, JENKINS_CORE.version) > 0) found.push(`${id} needs Jenkins ${jenkinsVersion}`);
  }
  return found;
}

test('the derivation is of the pins: one entry per pinned plugin at its version, each with the commit it was read at', () => {
  expect(CLOSURE.core).toBe(JENKINS_CORE.version);
  expect(Object.keys(CLOSURE.plugins).sort()).toEqual(PINNED.map((p) => p.id).sort());
  for (const pin of PINNED) {
    const derived = CLOSURE.plugins[pin.id];
    expect([pin.id, derived.version]).toEqual([pin.id, pin.version]);
    if (!derived.unread) expect([pin.id, derived.commit]).toEqual([pin.id, expect.stringMatching(/^[0-9a-f]{40}$/)]);
  }
  expect(new Set(PINNED.map((p) => p.id)).size).toBe(PINNED.length);
  // Nothing required is left to the plugin tool's choice.
  expect(CLOSURE.required).toEqual({});
});

test('every plugin a pinned plugin requires is pinned, at or above the version it declares; none needs a newer core', () => {
  expect(problems(PINNED)).toEqual([]);
  // The closure is what the controller runs: workflow-cps, scm-api, pipeline-build-step and workflow-multibranch among it.
  for (const id of ['workflow-cps', 'scm-api', 'pipeline-build-step', 'workflow-multibranch', 'structs']) expect(pluginsTxt()).toMatch(new RegExp(`^${id}:`, 'm'));
});

test('the releases whose requirements could not be read are exactly PLUGINS_NOT_READ', () => {
  expect(Object.entries(CLOSURE.plugins).filter(([, d]: [string, any]) => d.unread).map(([id]) => id).sort()).toEqual([...PLUGINS_NOT_READ].sort());
});

test('the check can fail: a required plugin left out, or pinned below what a requirer declares', () => {
  expect(problems(PINNED.filter((p) => p.id !== 'workflow-api'))).toEqual(expect.arrayContaining([expect.stringMatching(/^workflow-cps requires workflow-api \S+, which is not pinned$/)]));
  const low = PINNED.map((p) => (p.id === 'structs' ? { ...p, version: '1.0' } : p));
  expect(problems(low)).toEqual(expect.arrayContaining([expect.stringMatching(/requires structs \S+, pinned at 1\.0$/)]));
  expect(problems(PINNED, { x: { version: '1', requires: {}, jenkinsVersion: '2.999' } }).length).toBe(0);
  expect(problems([{ id: 'x', version: '1' }], { x: { version: '1', requires: {}, jenkinsVersion: '2.999' } })).toEqual(['x needs Jenkins 2.999']);
});

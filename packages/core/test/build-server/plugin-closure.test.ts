import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { JENKINS_CORE, JENKINS_PLUGIN_CLOSURE, JENKINS_PLUGINS, PLUGIN_MANAGER_VERSION, PLUGINS_NOT_READ, pluginsTxt } from '../../src/build-server/versions';
import { compareVersions } from '../support/jenkins-versions';

/**
 * Every plugin the controller ends up with is pinned: the configured plugins (JENKINS_PLUGINS) and everything they
 * require, directly or not (JENKINS_PLUGIN_CLOSURE), at versions that satisfy every requirer, optional dependencies
 * included. The requirements are derived data: packages/core/jenkins/plugin-closure.json, each pinned plugin's
 * required and optional plugins and their lowest versions as its own pom.xml declares them at its release tag (commit
 * recorded per plugin), written by tools/jenkins-closure/derive.js (docs/build-server.md, "Upgrading the pins").
 * The installer's own verdict on the same data is packages/core/jenkins/plugin-installer-run.json, written by
 * tools/jenkins-closure/run-installer.sh, which builds and runs the plugin installation manager itself.
 */
const JENKINS_DIR = path.join(__dirname, '..', '..', 'jenkins');
const CLOSURE_FILE = path.join(JENKINS_DIR, 'plugin-closure.json');
const CLOSURE = JSON.parse(fs.readFileSync(CLOSURE_FILE, 'utf-8'));
const INSTALLER_RUN = JSON.parse(fs.readFileSync(path.join(JENKINS_DIR, 'plugin-installer-run.json'), 'utf-8'));
const PINNED = [...JENKINS_PLUGINS, ...JENKINS_PLUGIN_CLOSURE];

interface Derived {
  readonly version: string;
  readonly packaging?: string;
  readonly requires: Record<string, string>;
  readonly optional?: Record<string, string>;
  readonly jenkinsVersion?: string;
  readonly unread?: string;
}

/**
 * What the plugin installation manager and core refuse in a set of pins, by their rules:
 * - every dependency of a plugin, optional or not, that is pinned below what the plugin declares stops the whole install
 *   (plugin-installation-manager-tool 2.15.0 PluginManager.java 1137-1149, in the tool's own words; abort 232-241);
 *   and core would not load the plugin either (jenkins-2.568.2 PluginWrapper.java 996-1019: an installed optional
 *   dependency older than declared);
 * - a required dependency that is not pinned is left to the tool's choice, which these pins never allow;
 * - a plugin whose baseline is newer than the core (PluginManager.java checkVersionCompatibility 568-590);
 * - a line that is not a plugin: the update site lists only `.hpi`/`.jpi` artifacts (jenkins-infra/update-center2@10ae424
 *   ArtifactoryRepositoryImpl.java 57, 180), and the tool stops the install on a plugin it cannot resolve
 *   (PluginManager.java 954-957, 236-241): a jar a plugin bundles (its pom's hpi.bundledArtifacts), or any packaging
 *   but hpi/jpi.
 */
function problems(pins: ReadonlyArray<{ id: string; version: string }>, derived: Record<string, Derived> = CLOSURE.plugins,
  libraries: Record<string, { bundledBy?: string; packaging?: string }> = CLOSURE.libraries): string[] {
  const pinned = new Map(pins.map((p) => [p.id, p.version]));
  const found: string[] = [];
  for (const { id, version } of pins) {
    const library = libraries[id];
    const packaging = derived[id]?.packaging;
    if (library) found.push(`${id}:${version} is not a plugin: ${library.bundledBy ? `${library.bundledBy} bundles it (hpi.bundledArtifacts)` : `a ${library.packaging}`}`);
    else if (packaging && !['hpi', 'jpi'].includes(packaging)) found.push(`${id}:${version} is not a plugin: its packaging is ${packaging}`);
  }
  for (const [id, { version: own, requires, optional = {}, jenkinsVersion }] of Object.entries(derived)) {
    if (!pinned.has(id)) continue;
    for (const [dep, min] of Object.entries({ ...optional, ...requires })) {
      const version = pinned.get(dep);
      if (version === undefined) {
        if (requires[dep]) found.push(`${id} requires ${dep} ${min}, which is not pinned`);
      } else if (compareVersions(version, min) < 0) {
        found.push(`Plugin ${id}:${own} depends on ${dep}:${min}, but there is an older version defined on the top level - ${dep}:${version}`);
      }
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
    // A plugin by its own pom's packaging, read at the pinned tag or (unread) the newest readable one.
    expect([pin.id, derived.packaging]).toEqual([pin.id, expect.stringMatching(/^(hpi|jpi)$/)]);
    expect([pin.id, derived.packagingReadAt]).toEqual([pin.id, expect.objectContaining({ tag: expect.any(String), commit: expect.stringMatching(/^[0-9a-f]{40}$/) })]);
    if (!derived.unread) expect([pin.id, derived.packagingReadAt.tag]).toEqual([pin.id, derived.tag]);
    expect([pin.id, typeof derived.optional]).toEqual([pin.id, 'object']);
  }
  expect(new Set(PINNED.map((p) => p.id)).size).toBe(PINNED.length);
  // Nothing required is left to the plugin tool's choice.
  expect(CLOSURE.required).toEqual({});
});

test('every plugin a pinned plugin requires or can use is pinned at or above the version it declares; none needs a newer core', () => {
  expect(problems(PINNED)).toEqual([]);
  // Optional dependencies are read: pipeline-groovy-lib's on workflow-multibranch among them.
  expect(CLOSURE.plugins['pipeline-groovy-lib'].optional['workflow-multibranch']).toBe('821.vc3b_4ea_780798');
  for (const id of ['workflow-cps', 'scm-api', 'workflow-multibranch', 'structs']) expect(pluginsTxt()).toMatch(new RegExp(`^${id}:`, 'm'));
});

test('nothing is installed that nothing uses: no ldap (the realm is OIDC), no workflow-aggregator and what only it brought', () => {
  for (const id of ['ldap', 'workflow-aggregator', 'pipeline-build-step', 'pipeline-milestone-step']) {
    expect([id, pluginsTxt()]).not.toEqual([id, expect.stringMatching(new RegExp(`^${id}:`, 'm'))]);
  }
});

test('the releases whose requirements could not be read are exactly PLUGINS_NOT_READ', () => {
  expect(Object.entries(CLOSURE.plugins).filter(([, d]: [string, any]) => d.unread).map(([id]) => id).sort()).toEqual([...PLUGINS_NOT_READ].sort());
});

test('a jar is never a line of plugins.txt: lib-durable-task, which durable-task bundles, pinned as a plugin is named', () => {
  expect(pluginsTxt()).not.toMatch(/^lib-durable-task:/m);
  expect(CLOSURE.plugins['durable-task'].bundles).toEqual({ 'lib-durable-task': expect.any(String) });
  const jar = { id: 'lib-durable-task', version: CLOSURE.libraries['lib-durable-task'].version };
  expect(problems([...PINNED, jar])).toEqual([`lib-durable-task:${jar.version} is not a plugin: durable-task bundles it (hpi.bundledArtifacts)`]);
  expect(problems([{ id: 'x', version: '1' }], { x: { version: '1', requires: {}, packaging: 'jar' } }, {})).toEqual(['x:1 is not a plugin: its packaging is jar']);
});

test('the check can fail: a required plugin left out, pinned below what a requirer declares, or an optional one too old', () => {
  expect(problems(PINNED.filter((p) => p.id !== 'workflow-api'))).toEqual(expect.arrayContaining([expect.stringMatching(/^workflow-cps requires workflow-api \S+, which is not pinned$/)]));
  const low = PINNED.map((p) => (p.id === 'structs' ? { ...p, version: '1.0' } : p));
  expect(problems(low)).toEqual(expect.arrayContaining([expect.stringMatching(/depends on structs:\S+, but there is an older version defined on the top level - structs:1\.0$/)]));
  // The pin this project had before issue 46: the install stopped on it, naming both plugins and versions.
  const multibranch795 = PINNED.map((p) => (p.id === 'workflow-multibranch' ? { ...p, version: '795.ve0cb_1f45ca_9a_' } : p));
  expect(problems(multibranch795)).toEqual(['Plugin pipeline-groovy-lib:798.v5cc688825312 depends on workflow-multibranch:821.vc3b_4ea_780798, ' +
    'but there is an older version defined on the top level - workflow-multibranch:795.ve0cb_1f45ca_9a_']);
  // An optional dependency that is not installed is no problem: core and the tool skip it.
  expect(problems(PINNED.filter((p) => !['workflow-multibranch', 'pipeline-model-definition'].includes(p.id)))
    .filter((p) => p.includes('workflow-multibranch'))).toEqual([]);
  expect(problems(PINNED, { x: { version: '1', requires: {}, jenkinsVersion: '2.999' } }).length).toBe(0);
  expect(problems([{ id: 'x', version: '1' }], { x: { version: '1', requires: {}, jenkinsVersion: '2.999' } })).toEqual(['x needs Jenkins 2.999']);
});

describe('the plugin installation manager itself, run over the pins (tools/jenkins-closure/run-installer.sh)', () => {
  const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

  test('was run on today\'s plugins.txt and plugin-closure.json, with the release the image carries', () => {
    const stale = 'stale: rerun `bash tools/jenkins-closure/run-installer.sh` after derive.js, and commit plugin-installer-run.json';
    expect([stale, INSTALLER_RUN.inputs.pluginsTxtSha256]).toEqual([stale, sha256(pluginsTxt())]);
    expect([stale, INSTALLER_RUN.inputs.pluginClosureSha256]).toEqual([stale, sha256(fs.readFileSync(CLOSURE_FILE))]);
    expect(INSTALLER_RUN.installer.tag).toBe(PLUGIN_MANAGER_VERSION);
    expect(INSTALLER_RUN.installer.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(INSTALLER_RUN.jenkinsVersion).toBe(JENKINS_CORE.version);
    expect(INSTALLER_RUN.dependenciesUnknown.sort()).toEqual([...PLUGINS_NOT_READ].sort());
  });

  test('resolved every pin without a prerequisite error', () => {
    expect(INSTALLER_RUN.run.output).toContain('Done');
    expect(INSTALLER_RUN.run.output.join('\n')).not.toMatch(/prerequisite not met|depends on/);
    expect(INSTALLER_RUN.run.exitCode).toBe(0);
  });

  test('negative control: workflow-multibranch at 795 stopped the install, as this port of its rule says', () => {
    const [control] = INSTALLER_RUN.negativeControls;
    expect(control.exitCode).toBe(1);
    const multibranch795 = PINNED.map((p) => (p.id === 'workflow-multibranch' ? { ...p, version: '795.ve0cb_1f45ca_9a_' } : p));
    expect(control.output).toEqual(expect.arrayContaining(problems(multibranch795)));
  });

  test('negative control: a jar pinned as a plugin stopped the install, naming it, as it would on the real site', () => {
    const jar = INSTALLER_RUN.negativeControls[1];
    expect(jar.change).toBe(`lib-durable-task:${CLOSURE.libraries['lib-durable-task'].version} added`);
    expect(jar.exitCode).toBe(1);
    expect(jar.output).toContain(`Plugin lib-durable-task:${CLOSURE.libraries['lib-durable-task'].version} has unresolvable dependencies: Unable to resolve dependencies for lib-durable-task`);
  });

  test('says what it is: a consistency check of the closure by the real resolver, not an install', () => {
    expect(INSTALLER_RUN.about).toMatch(/^A consistency check of the derived closure by the real resolver, not an install/);
  });
});

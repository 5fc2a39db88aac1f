#!/usr/bin/env node
// Derives packages/core/jenkins/plugin-closure.json: for every plugin the build server installs (the pins of
// versions.ts, JENKINS_PLUGINS and JENKINS_PLUGIN_CLOSURE), the plugins it requires and the lowest version of each,
// read from its own pom.xml at its release tag, as Maven and the hpi plugin resolve them into the manifest's
// Plugin-Dependencies: compile and runtime scope, the optional ones (`;resolution:=optional`) apart; versions from the
// pom, its properties, or the jenkinsci/bom it imports (read at that bom's tag). Optional dependencies matter: the
// plugin tool checks them against the pins and stops the whole install on a conflict (plugin-installation-manager-tool
// 2.15.0 PluginManager.java 1137-1149), and core refuses a plugin whose installed optional dependency is older than
// declared (jenkins-2.568.2 PluginWrapper.java 996-1019). advisories.test.ts, plugin-closure.test.ts and
// tools/jenkins-closure/run-installer.sh read the file.
//
// Only plugins are entries: the update site lists `.hpi`/`.jpi` artifacts alone (jenkins-infra/update-center2@10ae424
// ArtifactoryRepositoryImpl.java 57, 180), so every entry records its `packaging` and the release it was read at
// (`packagingReadAt`: the pinned tag, or the newest readable one where the mirror lacks it). A dependency a plugin
// bundles (its `hpi.bundledArtifacts`, as durable-task bundles lib-durable-task) or whose packaging is a jar is a
// library, never an entry; a dependency whose packaging cannot be read at any tag stops the derivation.
//
//   node tools/jenkins-closure/derive.js MIRRORS_DIR [--suggest] [--bom LINE [--bom-tag TAG]]
//
// MIRRORS_DIR holds bare mirrors as MIRRORS_DIR/jenkinsci+<repo>/repo or MIRRORS_DIR/<repo>.git (make one with
// `git clone --bare https://github.com/jenkinsci/<repo> MIRRORS_DIR/<repo>.git`); a repository found in none of them
// is cloned (bare) from GitHub into a temporary directory. With --suggest it also prints, for each plugin
// required but not pinned, the version to pin in JENKINS_PLUGIN_CLOSURE: the lowest every requirer accepts (what
// `jenkins-plugin-cli --latest false` installs), or with --bom the version jenkinsci/bom's line (bom-LINE, at TAG or
// its newest tag) tests, where that release needs no newer pinned plugin or core. Pin them and run it again.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const args = process.argv.slice(2);
const suggest = args.includes('--suggest');
const option = (name) => { const i = args.indexOf(name); return i === -1 ? undefined : args[i + 1]; };
const bomLine = option('--bom');
const bomTag = option('--bom-tag');
const mirrors = args.find((a, i) => !a.startsWith('--') && !['--bom', '--bom-tag'].includes(args[i - 1]));
if (!mirrors || !fs.existsSync(mirrors)) {
  console.error(`usage: node tools/jenkins-closure/derive.js MIRRORS_DIR [--suggest] [--bom LINE [--bom-tag TAG]]
MIRRORS_DIR ${mirrors ? `(${mirrors}) does not exist` : 'is required'}: a directory of bare mirrors of the plugins' repositories,
made with \`git clone --bare https://github.com/jenkinsci/<repo> MIRRORS_DIR/<repo>.git\` (what it lacks is cloned from GitHub).`);
  process.exit(2);
}
const root = path.resolve(__dirname, '..', '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-closure-'));

const { core, pins } = JSON.parse(execFileSync(path.join(root, 'node_modules', '.bin', 'ts-node'), ['--skip-project', '--transpile-only',
  '-O', '{"module":"commonjs","ignoreDeprecations":"6.0"}', '-e',
  'const v = require("./packages/core/src/build-server/versions"); console.log(JSON.stringify({ core: v.JENKINS_CORE.version, pins: [...v.JENKINS_PLUGINS, ...v.JENKINS_PLUGIN_CLOSURE] }))'],
{ cwd: root, encoding: 'utf-8' }));

const git = (dir, ...a) => execFileSync('git', ['-C', dir, ...a], { encoding: 'utf-8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
function gitDir(repository) {
  const [owner, name] = repository.split('/');
  for (const d of [`${mirrors}/${owner}+${name}/repo`, `${mirrors}/${name}.git`, `${mirrors}/${name}`, `${tmp}/${name}.git`]) {
    if (fs.existsSync(d)) return d;
  }
  const d = `${tmp}/${name}.git`;
  try {
    execFileSync('git', ['clone', '-q', '--bare', `https://github.com/${repository}`, d], { stdio: 'ignore' });
  } catch {
    missing.add(repository);
    throw new Missing(repository);
  }
  return d;
}
class Missing extends Error {}
const missing = new Set();
const show = (dir, rev, file) => git(dir, 'show', `${rev}:${file}`);

/** The text of the first element named `name` directly under the XML fragment, or undefined. */
const element = (xml, name) => (new RegExp(`<${name}>\\s*([^<]*?)\\s*</${name}>`).exec(xml) ?? [])[1];
const strip = (xml) => xml.replace(/<!--[\s\S]*?-->/g, '');
function section(xml, name) {
  const m = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml);
  return m ? m[1] : '';
}
const dependencies = (xml) => [...xml.matchAll(/<dependency>([\s\S]*?)<\/dependency>/g)].map((m) => m[1]);

/** A pom's properties (over its parents'), its own coordinates among them, with `${...}` resolved. */
function properties(pom, parents = []) {
  const read = (xml) => Object.fromEntries([...section(xml, 'properties').matchAll(/<([\w.-]+)>([^<]*)<\/\1>/g)].map((m) => [m[1], m[2].trim()]));
  const props = Object.assign({}, ...parents.map(read), read(pom));
  const head = pom.replace(/<parent>[\s\S]*?<\/parent>/, '').split(/<(?:dependencies|dependencyManagement|build|properties)>/)[0];
  props['project.groupId'] = element(head, 'groupId') ?? element(section(pom, 'parent'), 'groupId');
  props['project.artifactId'] = element(head, 'artifactId');
  props['project.version'] = element(head, 'version');
  const resolve = (v) => v?.replace(/\$\{([^}]+)\}/g, (all, k) => props[k] ?? all);
  for (let i = 0; i < 5; i++) for (const k of Object.keys(props)) props[k] = resolve(props[k]);
  return { props, resolve };
}

const BOM_REPOSITORY = 'jenkinsci/bom';
/** artifactId -> version a jenkinsci/bom artifact manages at a tag, following its imports of sibling boms. */
function bomManaged(artifactId, tag, seen = new Set()) {
  if (seen.has(artifactId)) return {};
  seen.add(artifactId);
  const dir = gitDir(BOM_REPOSITORY);
  const pom = strip(show(dir, tag, `${artifactId}/pom.xml`));
  const { resolve } = properties(pom);
  let managed = {};
  for (const d of dependencies(section(pom, 'dependencyManagement'))) {
    const id = element(d, 'artifactId');
    if (element(d, 'scope') === 'import') {
      if (element(d, 'groupId')?.includes('bom') || resolve(element(d, 'groupId')) === 'io.jenkins.tools.bom') {
        managed = { ...bomManaged(resolve(id), tag, seen), ...managed };
      }
    } else if (!element(d, 'classifier')) {
      managed[resolve(id)] = resolve(element(d, 'version'));
    }
  }
  return managed;
}

/** Jenkins' order of plugin versions: numeric components as numbers; an incremental's `v<commit>` ends them. */
function compare(a, b) {
  const numbers = (v) => { const p = v.split(/[.-]/); const end = p.findIndex((x) => !/^\d+$/.test(x)); return p.slice(0, end === -1 ? p.length : end).map(Number); };
  const x = numbers(a); const y = numbers(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** Repositories whose name is not `<artifactId>-plugin`. */
const REPOSITORY_OF = {
  'sonar': 'jenkinsci/sonarqube-plugin',
  'job-dsl-core': 'jenkinsci/job-dsl-plugin',
  'analysis-pom': 'jenkinsci/analysis-pom-plugin',
  'mina-sshd-api-common': 'jenkinsci/mina-sshd-api-plugin',
  'mina-sshd-api-core': 'jenkinsci/mina-sshd-api-plugin',
  'lib-durable-task': 'jenkinsci/lib-durable-task',
  'pipeline-model-api': 'jenkinsci/pipeline-model-definition-plugin',
  'pipeline-model-extensions': 'jenkinsci/pipeline-model-definition-plugin',
  'pipeline-stage-tags-metadata': 'jenkinsci/pipeline-model-definition-plugin',
  'pipeline-model-definition': 'jenkinsci/pipeline-model-definition-plugin',
  'pipeline-rest-api': 'jenkinsci/pipeline-stage-view-plugin',
  'pipeline-stage-view': 'jenkinsci/pipeline-stage-view-plugin',
};
const repositoryOf = (id) => REPOSITORY_OF[id] ?? (id.startsWith('aws-java-sdk') ? 'jenkinsci/aws-java-sdk-plugin' : `jenkinsci/${id}-plugin`);

/** The pom of a plugin release: the tag, its commit, and the module's pom.xml (multi-module repositories). */
function release(id, version, repository) {
  const dir = gitDir(repository);
  const name = repository.split('/')[1].replace(/-plugin$/, '');
  for (const tag of [version, `${id}-${version}`, `${name}-${version}`]) {
    let commit;
    try { commit = git(dir, 'rev-parse', '--verify', '-q', `${tag}^{commit}`).trim(); } catch { continue; }
    const poms = git(dir, 'ls-tree', '-r', '--name-only', commit).split('\n').filter((f) => /(^|\/)pom\.xml$/.test(f) && f.split('/').length <= 2);
    for (const file of poms) {
      const pom = strip(show(dir, commit, file));
      if (properties(pom).props['project.artifactId'] !== id) continue;
      // A module's parent in the same repository (Maven's default relativePath) lends it properties and managed versions.
      const root = file.includes('/') ? strip(show(dir, commit, 'pom.xml')) : '';
      const parentId = element(section(pom, 'parent'), 'artifactId');
      const local = root && properties(root).props['project.artifactId'] === parentId ? root : '';
      return { tag, commit, file, pom, parents: [...remoteParents(local || pom), ...local ? [local] : []] };
    }
  }
  throw new Unread(`no tag ${version} or ${id}-${version} with its pom.xml in ${repository} (the mirror's newest commit is ${git(dir, 'log', '-1', '--format=%cs', '--all').trim()})`);
}
/** A release whose pom no mirror holds: its requirements are not known here. */
class Unread extends Error {}

/**
 * The ancestors of a pom in other jenkinsci repositories (analysis-pom for the warnings-ng family), outermost first;
 * Jenkins' own parents (org.jenkins-ci.plugins:plugin, org.jenkins-ci:jenkins) manage no plugin versions and end it.
 */
function remoteParents(pom, depth = 0) {
  const parent = section(pom, 'parent');
  const id = element(parent, 'artifactId');
  if (!id || id === 'plugin' || id === 'jenkins' || depth > 3) return [];
  const { tag, commit, file } = releaseOf(id, element(parent, 'version'), repositoryOf(id));
  const text = strip(show(gitDir(repositoryOf(id)), commit, file));
  void tag;
  return [...remoteParents(text, depth + 1), text];
}
function releaseOf(id, version, repository) {
  const dir = gitDir(repository);
  for (const tag of [version, `${id}-${version}`, `v${version}`]) {
    try { return { tag, commit: git(dir, 'rev-parse', '--verify', '-q', `${tag}^{commit}`).trim(), file: 'pom.xml' }; } catch { /* next form */ }
  }
  throw new Error(`parent ${id} ${version}: no tag in ${repository}`);
}

const PLUGIN_GROUP = /^(org\.jenkins-ci\.plugins(\.[\w-]+)*|io\.jenkins\.plugins(\.[\w-]+)*|io\.jenkins|org\.jenkinsci\.plugins)$/;

/** What one release requires: plugin id -> lowest version. */
function requirements(id, version, repository) {
  const { tag, commit, file, pom, parents } = release(id, version, repository);
  const { props, resolve } = properties(pom, parents);
  // A release replaces the CI-friendly ${revision}/${changelist} with the released version (sibling modules use it).
  props['project.version'] = version;
  const packaging = element(pom.split('<dependencies>')[0].replace(/<parent>[\s\S]*?<\/parent>/, ''), 'packaging');
  let managed = {};
  for (const d of [...parents, pom].flatMap((xml) => dependencies(section(xml, 'dependencyManagement')))) {
    const a = resolve(element(d, 'artifactId'));
    if (element(d, 'scope') === 'import' && resolve(element(d, 'groupId')) === 'io.jenkins.tools.bom') managed = { ...managed, ...bomManaged(a, resolve(element(d, 'version'))) };
    else if (!element(d, 'classifier')) managed[a] = resolve(element(d, 'version'));
  }
  // Jars the plugin carries inside its .hpi (maven-hpi-plugin's hpi.bundledArtifacts): not in its Plugin-Dependencies.
  const bundled = (props['hpi.bundledArtifacts'] ?? '').split(',').map((a) => a.trim()).filter(Boolean);
  const bundles = {};
  const requires = {};
  const optional = {};
  const own = pom.replace(/<dependencyManagement>[\s\S]*?<\/dependencyManagement>/, '').replace(/<build>[\s\S]*<\/build>/, '').replace(/<profiles>[\s\S]*<\/profiles>/, '');
  for (const d of dependencies(section(own, 'dependencies'))) {
    const group = resolve(element(d, 'groupId'));
    const artifact = resolve(element(d, 'artifactId'));
    const scope = element(d, 'scope') ?? 'compile';
    if (!['compile', 'runtime'].includes(scope) || element(d, 'classifier') || !PLUGIN_GROUP.test(group ?? '')) continue;
    const wanted = resolve(element(d, 'version')) ?? managed[artifact];
    if (!wanted || wanted.includes('${')) throw new Error(`${id} ${version}: no version for ${group}:${artifact} (${file} at ${tag})`);
    (bundled.includes(artifact) ? bundles : element(d, 'optional') === 'true' ? optional : requires)[artifact] = wanted;
  }
  return {
    version, repository, tag, commit, pom: file, groupId: props['project.groupId'], packaging: packaging ?? 'jar', packagingReadAt: { tag, commit },
    jenkinsVersion: props['jenkins.version'], ...Object.keys(bundles).length ? { bundles } : {}, requires, optional,
  };
}

const isPlugin = (r) => ['hpi', 'jpi'].includes(r.packaging);

/**
 * A release whose pom no mirror holds: its requirements stay unknown, its packaging is read at the newest tag whose pom
 * names the artifact (a jar stays a jar from release to release); none readable is an error, never a guess.
 */
function unreadRelease(id, version, repository, why) {
  const dir = gitDir(repository);
  for (const tag of git(dir, 'tag', '--sort=-creatordate').split('\n').filter(Boolean).slice(0, 30)) {
    const name = repository.split('/')[1].replace(/-plugin$/, '');
    const bare = [`${id}-`, `${name}-`].reduce((t, prefix) => (t.startsWith(prefix) ? t.slice(prefix.length) : t), tag);
    try {
      const r = requirements(id, bare, repository);
      return { version, repository, unread: why, groupId: r.groupId, packaging: r.packaging, packagingReadAt: { tag: r.tag, commit: r.commit, newestReadable: true }, requires: {}, optional: {} };
    } catch (e) {
      if (!(e instanceof Unread)) throw e;
    }
  }
  throw new Error(`${id} ${version}: its packaging cannot be read at any tag of ${repository} (${why}); a plugin or a library cannot be told apart, so nothing is derived`);
}

// Every pinned plugin, then what they require, until nothing new is required.
const plugins = {};
for (const p of pins) {
  try {
    plugins[p.id] = requirements(p.id, p.version, p.repository);
  } catch (e) {
    if (!(e instanceof Unread)) throw e;
    plugins[p.id] = unreadRelease(p.id, p.version, p.repository, e.message);
  }
}
// A pinned jar is a line the update site cannot serve: the plugin tool stops the whole install on it.
const pinnedJars = Object.entries(plugins).filter(([, r]) => !isPlugin(r));
/** Required artifacts that are jars (job-dsl-core): id -> how that was read. */
const libraries = new Map();

/**
 * The plugins required and not pinned, each at the highest of what its requirers declare and its `floor` (a version a
 * bom line tests). A floor whose release needs a newer pinned plugin, a newer core, or cannot be read is a conflict.
 */
function closure(floor) {
  const wanted = {};
  const unpinned = {};
  for (let round = 0; round < 50; round++) {
    let changed = false;
    for (const r of Object.values({ ...plugins, ...unpinned })) {
      for (const [dep, min] of Object.entries(r.requires)) {
        if (plugins[dep] || libraries.has(dep)) continue;
        const want = floor[dep] && compare(floor[dep], min) > 0 ? floor[dep] : min;
        if (!wanted[dep] || compare(want, wanted[dep]) > 0) { wanted[dep] = want; changed = true; }
      }
    }
    for (const [dep, version] of Object.entries(wanted)) {
      if (missing.has(repositoryOf(dep)) || (unpinned[dep] && unpinned[dep].version === version)) continue;
      try {
        const r = requirements(dep, version, repositoryOf(dep));
        // A jar of a plugin's repository (job-dsl-core): bundled in the plugin, not a plugin of its own.
        if (!isPlugin(r)) { libraries.set(dep, { version, packaging: r.packaging, packagingReadAt: r.packagingReadAt }); continue; }
        if (version === floor[dep]) {
          const tooNew = Object.entries(r.requires).find(([d, min]) => plugins[d] && compare(min, plugins[d].version) > 0);
          if (tooNew) return { conflict: dep, why: `needs ${tooNew[0]} ${tooNew[1]}, pinned at ${plugins[tooNew[0]].version}` };
          if (r.jenkinsVersion && compare(r.jenkinsVersion, core) > 0) return { conflict: dep, why: `needs Jenkins ${r.jenkinsVersion}` };
        }
        unpinned[dep] = r;
      } catch (e) {
        if (e instanceof Unread) {
          if (version === floor[dep]) return { conflict: dep, why: e.message };
          const r = unreadRelease(dep, version, repositoryOf(dep), e.message);
          if (!isPlugin(r)) { libraries.set(dep, { version, packaging: r.packaging, packagingReadAt: r.packagingReadAt }); continue; }
          unpinned[dep] = r;
        } else if (!(e instanceof Missing)) throw e;
      }
      changed = true;
    }
    if (!changed) break;
  }
  return { unpinned };
}

let floor = {};
if (bomLine) {
  const tag = bomTag ?? git(gitDir(BOM_REPOSITORY), 'tag', '--sort=-creatordate').split('\n')[0];
  floor = bomManaged(`bom-${bomLine}`, tag);
  console.log(`preferring jenkinsci/bom ${tag} bom-${bomLine} where its release fits the pins and core ${core}`);
}
let result = closure(floor);
while (result.conflict) {
  console.log(`  ${result.conflict} ${floor[result.conflict]} (bom) ${result.why}: the lowest version its requirers accept instead`);
  delete floor[result.conflict];
  result = closure(floor);
}
const { unpinned } = result;
if (missing.size) {
  console.error(`no mirror and no clone of: ${[...missing].join(' ')}; the closure below is incomplete`);
  process.exitCode = 3;
}
const out = path.join(root, 'packages', 'core', 'jenkins', 'plugin-closure.json');
const byId = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
const all = { ...plugins, ...unpinned };
for (const r of Object.values(all)) for (const lib of libraries.keys()) { delete r.requires[lib]; delete r.optional?.[lib]; }
// What is not a plugin and must never be a line of plugins.txt: the jars required, and those a plugin bundles.
const notPlugins = Object.fromEntries(libraries);
for (const [id, r] of Object.entries(all)) {
  for (const [lib, version] of Object.entries(r.bundles ?? {})) notPlugins[lib] = { version, bundledBy: id };
}
fs.writeFileSync(out, JSON.stringify({
  about: 'Each installed plugin at its pinned release: its Maven group (`groupId`, of its package URL), its packaging (hpi or jpi: a plugin the update site serves) and the release it was read at (`packagingReadAt`; `newestReadable` where the pinned tag is not in the mirror), the plugins it requires and the lowest version of each (`requires`), and those it can use when installed (`optional`), from its pom.xml at the tag (tools/jenkins-closure/derive.js); jars it bundles (`bundles`) are not dependencies. `required`: plugins required and not pinned. `libraries`: jars required or bundled, never a plugin.',
  core,
  plugins: byId(plugins),
  required: byId(unpinned),
  libraries: byId(notPlugins),
}, null, 2) + '\n');
console.log(`${path.relative(root, out)}: ${Object.keys(plugins).length} pinned plugins`);
if (Object.keys(unpinned).length) {
  console.log(`required and not pinned (${Object.keys(unpinned).length}):`);
  for (const [id, r] of Object.entries(byId(unpinned))) {
    console.log(suggest ? `  plugin('${id}', '${r.version}', '${r.repository.split('/')[1]}'),${r.unread ? ' // not read' : ''}` : `  ${id}:${r.version}${r.unread ? ` (not read: ${r.unread})` : ''}`);
  }
}
for (const [id, r] of pinnedJars) {
  console.error(`${id} ${r.version} is not a plugin: its packaging is ${r.packaging} (read at ${r.packagingReadAt.tag}). The update site serves only .hpi/.jpi, so the plugin tool would stop the install on it; remove it from versions.ts`);
  process.exitCode = 1;
}
fs.rmSync(tmp, { recursive: true, force: true });

// The documents a user reads (README.md, the examples' READMEs, and docs/ but for the repository's own: the ones
// docs/README.md lists under "The repository") name the framework's public API, never one of its source files: a file
// moves or splits at the next refactoring, and a user cannot rely on it. A plugin's own files (`src/index.ts`, its spec)
// are the user's, and may be named. Run: node --test test/docs/*.test.js
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');

const root = path.resolve(__dirname, '..', '..');

/** A framework source file: `packages/<package>/src/...ts`, or `src/<folder>/...ts`. */
const SOURCE_FILE = /(?:packages\/[a-z-]+\/)src\/[\w./-]+\.ts\b|(?<![\w/])src\/[a-z-]+\/[\w./-]+\.ts\b/g;

/** The documents docs/README.md lists under "The repository": for the framework's maintainers. */
function maintainerDocs() {
  const index = fs.readFileSync(path.join(root, 'docs', 'README.md'), 'utf-8');
  const section = index.slice(index.indexOf('The repository:')).split('\n## ')[0];
  return [...section.matchAll(/\]\(([\w-]+\.md)\)/g)].map((m) => `docs/${m[1]}`);
}

function publicDocs() {
  const maintainers = maintainerDocs();
  const docs = fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  const examples = fs.readdirSync(path.join(root, 'examples')).map((e) => `examples/${e}/README.md`)
    .filter((f) => fs.existsSync(path.join(root, f)));
  return ['README.md', ...examples, ...docs.filter((f) => !maintainers.includes(f))];
}

/** Each `file:line: path` where a document names a framework source file. */
function sourceFilesNamed(files) {
  return files.flatMap((file) => fs.readFileSync(path.join(root, file), 'utf-8').split('\n')
    .flatMap((line, i) => [...line.matchAll(SOURCE_FILE)].map((m) => `${file}:${i + 1}: ${m[0]}`)));
}

test('the repository\'s own documents are found in docs/README.md, and only those', () => {
  assert.deepStrictEqual(maintainerDocs().sort(), ['docs/benchmarks.md', 'docs/development.md', 'docs/extending.md', 'docs/releasing.md']);
});

test('no public document names a framework source file', () => {
  assert.deepStrictEqual(sourceFilesNamed(publicDocs()), []);
});

// The API references are generated from the public doc comments: they name no source file at all (a `.ts` name).
const TS_FILE = /\b[\w-]+\.ts\b/g;
test('no API reference names a source file', () => {
  const named = ['API.md', 'API.java.md', 'API.python.md'].flatMap((file) => fs.readFileSync(path.join(root, 'packages', 'core', file), 'utf-8')
    .split('\n').flatMap((line, i) => [...line.matchAll(TS_FILE)].map((m) => `packages/core/${file}:${i + 1}: ${m[0]}`)));
  assert.deepStrictEqual(named, []);
  assert.deepStrictEqual([...'(see `plugin-contract-version.ts` for the rule)'.matchAll(TS_FILE)].map((m) => m[0]), ['plugin-contract-version.ts']);
});

test('the check can fail: a framework source file is found, a plugin\'s own is not', () => {
  const line = 'See `packages/core/src/infrastructure/network.ts`, `src/runtimes/ec2.ts` and the plugin\'s `src/index.ts`.';
  assert.deepStrictEqual([...line.matchAll(SOURCE_FILE)].map((m) => m[0]), ['packages/core/src/infrastructure/network.ts', 'src/runtimes/ec2.ts']);
});

// "spec" means a plugin's class (`WikiSpec`, `JenkinsSpec`: docs/README.md, "Words") and nothing else. The requirements
// the framework was built to are not something a reader can open: a public document, or an API description (the
// packages' sources, which the API references are generated from), states what they ask instead of citing them.
const OUTSIDE_SPEC = /\b(?:the spec's|spec rules?\b|the spec (?:asks|says|speaks|names|passes))/gi;

function packageSources(dir = path.join(root, 'packages')) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'lib' || e.name === 'dist' || e.name === 'test' ? [] : packageSources(full);
    return full.includes(`${path.sep}src${path.sep}`) && e.name.endsWith('.ts') ? [path.relative(root, full)] : [];
  });
}

function outsideSpecCited(files) {
  return files.flatMap((file) => fs.readFileSync(path.join(root, file), 'utf-8').split('\n')
    .flatMap((line, i) => [...line.matchAll(OUTSIDE_SPEC)].map((m) => `${file}:${i + 1}: ${m[0]}`)));
}

test('no public document and no API description cites an outside "spec"', () => {
  const files = [...publicDocs(), ...packageSources()];
  assert.ok(files.some((f) => f.endsWith('contract/application-spec.ts')), 'the packages\' sources are read');
  assert.deepStrictEqual(outsideSpecCited(files), []);
});

test('the check can fail: "the spec\'s" and "spec rule" are found, a plugin\'s spec class is not', () => {
  const line = 'In the spec\'s rule-5 order (spec rule 5.3); the spec stub extends ApplicationSpec, as WikiSpec does.';
  assert.deepStrictEqual([...line.matchAll(OUTSIDE_SPEC)].map((m) => m[0]), ['the spec\'s', 'spec rule']);
});

// The Node a document says it was tested on is the one the test command runs on: the major of `NODE_VERSION`, which
// scripts/setup.sh pins (one fact, one place).
const TESTED_ON_NODE = /tested on Node (\d+)/g;
test('every "tested on Node N" names the major scripts/setup.sh pins', () => {
  const pinned = fs.readFileSync(path.join(root, 'scripts', 'setup.sh'), 'utf-8').match(/^NODE_VERSION=(\d+)\./m)[1];
  const docs = ['README.md', ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const stale = docs.flatMap((file) => [...fs.readFileSync(path.join(root, file), 'utf-8').matchAll(TESTED_ON_NODE)]
    .filter((m) => m[1] !== pinned).map((m) => `${file}: ${m[0]}`));
  assert.deepStrictEqual(stale, []);
  assert.deepStrictEqual([...'tested on Node 20 only'.matchAll(TESTED_ON_NODE)].map((m) => m[1]), ['20']);
});

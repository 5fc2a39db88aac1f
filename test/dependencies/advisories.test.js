// No package we install is inside the affected range of an advisory recorded in advisories.json (dated, with where its
// ranges were read, and what it does not cover). The npm trees are read from the lock files, the packages bundled
// inside another one's tarball (aws-cdk-lib's, projen's) included, since npm lists them there (`inBundle`). A bundler's
// single file (the CDK command line's) lists nothing and is not seen. Run: node --test test/dependencies/*.test.js
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');

const root = path.resolve(__dirname, '..', '..');
const RECORD = JSON.parse(fs.readFileSync(path.join(__dirname, 'advisories.json'), 'utf-8'));
/** Every npm tree the set-up installs: the workspaces', and the end-to-end test's local registry. */
const LOCK_FILES = ['package-lock.json', 'test/e2e/verdaccio/package-lock.json'];

/** `a` before `b`: numeric release parts; a pre-release sorts before its release. */
function compare(a, b) {
  const parse = (v) => {
    const [release, pre] = v.split('+')[0].split('-');
    return { parts: release.split('.').map(Number), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < Math.max(x.parts.length, y.parts.length); i++) {
    const d = (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (x.pre === y.pre) return 0;
  return x.pre === undefined ? 1 : y.pre === undefined ? -1 : (x.pre < y.pre ? -1 : 1);
}

/** Each installed package of a lock file: where, name, version. */
function lockPackages(file) {
  const lock = JSON.parse(fs.readFileSync(path.join(root, file), 'utf-8'));
  return Object.entries(lock.packages)
    .filter(([where, entry]) => where.includes('node_modules/') && entry.version && !entry.link)
    .map(([where, entry]) => ({ where: `${file}: ${where}`, name: where.slice(where.lastIndexOf('node_modules/') + 13), version: entry.version }));
}

/** Every installed package inside a recorded advisory's range: `where name@version: id (fixed in ...)`. */
function findings(installed, advisories) {
  const out = [];
  for (const pkg of installed) {
    for (const advisory of advisories.filter((a) => a.ecosystem === 'npm' && a.package === pkg.name)) {
      const range = advisory.affected.find(([introduced, fixed]) => compare(pkg.version, introduced) >= 0 && compare(pkg.version, fixed) < 0);
      if (range) out.push(`${pkg.where} ${pkg.name}@${pkg.version}: ${advisory.id} (${advisory.summary}; fixed in ${range[1]})`);
    }
  }
  return out;
}

test('the record is dated and its ranges are well formed', () => {
  assert.match(RECORD.read, /^\d{4}-\d{2}-\d{2}$/);
  assert.ok(RECORD.advisories.length > 0);
  for (const a of RECORD.advisories) {
    assert.match(a.id, /^GHSA(-[23456789cfghjmpqrvwx]{4}){3}$/, `${a.id}: not a GitHub advisory id`);
    for (const [introduced, fixed] of a.affected) assert.ok(compare(introduced, fixed) < 0, `${a.id}: ${introduced} is not before ${fixed}`);
  }
});

test('no installed npm package, bundled ones included, is inside a recorded advisory\'s range', () => {
  const installed = LOCK_FILES.flatMap(lockPackages);
  assert.ok(installed.some((p) => p.where.endsWith('node_modules/aws-cdk-lib/node_modules/brace-expansion')),
    'the lock lists aws-cdk-lib\'s bundled brace-expansion, so bundled packages are read');
  assert.deepStrictEqual(findings(installed, RECORD.advisories), [],
    'move the package (or its parent) to a fixed release, or hold it with an `overrides` entry');
});

test('negative control: aws-cdk-lib 2.263.0, the peer floor, bundles brace-expansion 5.0.7, inside two records', () => {
  const floor = [{ where: 'aws-cdk-lib@2.263.0: node_modules/brace-expansion', name: 'brace-expansion', version: '5.0.7' }];
  assert.deepStrictEqual(findings(floor, RECORD.advisories).map((f) => f.split(': ')[2].split(' ')[0]),
    ['GHSA-rgw5-rvv9-x895', 'GHSA-mh99-v99m-4gvg']);
  // A fixed release of each line is outside every range; the release before it is inside.
  for (const a of RECORD.advisories) {
    for (const [, fixed] of a.affected) {
      assert.deepStrictEqual(findings([{ where: 'x', name: a.package, version: fixed }], [a]), [], `${a.id} at ${fixed}`);
    }
  }
  assert.strictEqual(compare('5.0.9-rc.1', '5.0.9'), -1);
});

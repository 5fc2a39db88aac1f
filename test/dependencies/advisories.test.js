// No package we install is inside the affected range of an advisory recorded in advisories.json (GitHub's records,
// dated, each with where its ranges were read) or pypi-advisories.json (PyPI's own records, derived from the PyPA
// advisory database at a commit by tools/pypi-advisories/derive.js). The trees read: npm's lock files, the packages
// bundled inside another one's tarball (aws-cdk-lib's, projen's) included, since npm lists them there (`inBundle`); the
// lock file of each Python environment (test/dependencies/python/, written by scripts/lock-python.js, installed by
// `pip install -r`); the Maven trees (maven-trees.txt, checked against what Maven resolves by the stages that build each
// pom). A bundler's single file (the CDK command line's) lists nothing and is not seen.
// Run: node --test test/dependencies/*.test.js
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');

const root = path.resolve(__dirname, '..', '..');
const json = (file) => JSON.parse(fs.readFileSync(path.join(__dirname, file), 'utf-8'));
const RECORDS = [json('advisories.json'), json('pypi-advisories.json')];
const ADVISORIES = RECORDS.flatMap((r) => r.advisories);
/** Every npm tree the set-up installs: the workspaces', and the end-to-end test's local registry. */
const LOCK_FILES = ['package-lock.json', 'test/e2e/verdaccio/package-lock.json'];
const PYTHON_LOCKS = path.join(__dirname, 'python');

/**
 * `a` before `b`, for npm's, PyPI's and Maven's versions as our trees hold them: the numeric release first; then a
 * pre-release (`-rc.1`, `rc1`, `b1`, `.dev1`) before its release and a post-release (`.post1`) after it.
 */
function compare(a, b) {
  const parse = (v) => {
    const [, release, rest] = /^(\d+(?:\.\d+)*)(.*)$/.exec(v.split('+')[0]);
    const rank = rest === '' ? 0 : /^\.?post/.test(rest) ? 1 : -1;
    return { parts: release.split('.').map(Number), rank, rest };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < Math.max(x.parts.length, y.parts.length); i++) {
    const d = (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (x.rank !== y.rank) return Math.sign(x.rank - y.rank);
  return x.rest === y.rest ? 0 : (x.rest < y.rest ? -1 : 1);
}

/** Each installed package of an npm lock file: where, ecosystem, name, version. */
function npmPackages(file) {
  const lock = JSON.parse(fs.readFileSync(path.join(root, file), 'utf-8'));
  return Object.entries(lock.packages)
    .filter(([where, entry]) => where.includes('node_modules/') && entry.version && !entry.link)
    .map(([where, entry]) => ({ where: `${file}: ${where}`, ecosystem: 'npm', name: where.slice(where.lastIndexOf('node_modules/') + 13), version: entry.version }));
}

/** Each pin of each Python environment's lock file. */
function pythonPackages() {
  return fs.readdirSync(PYTHON_LOCKS).filter((f) => f.endsWith('.txt')).flatMap((file) =>
    fs.readFileSync(path.join(PYTHON_LOCKS, file), 'utf-8').split('\n').filter((line) => /^[^#].*==/.test(line)).map((line) => {
      const [name, version] = line.trim().split('==');
      return { where: `test/dependencies/python/${file}`, ecosystem: 'PyPI', name, version };
    }));
}

/** Each artifact of each recorded Maven tree. */
function mavenPackages() {
  return fs.readFileSync(path.join(__dirname, 'maven-trees.txt'), 'utf-8').split('\n').filter((l) => l && !l.startsWith('#')).map((line) => {
    const [pom, coordinates] = line.split(/\s+/);
    const [group, artifact, version] = coordinates.split(':');
    return { where: `${pom}/pom.xml`, ecosystem: 'Maven', name: `${group}:${artifact}`, version };
  });
}

/** Every installed package inside a recorded advisory's range: `where name@version: id (fixed in ...)`. */
function findings(installed, advisories) {
  const out = [];
  for (const pkg of installed) {
    for (const advisory of advisories.filter((a) => a.ecosystem === pkg.ecosystem && a.package === pkg.name)) {
      const range = advisory.affected.find(([introduced, fixed]) => compare(pkg.version, introduced) >= 0 && (fixed === null || compare(pkg.version, fixed) < 0));
      if (range) out.push(`${pkg.where} ${pkg.name}@${pkg.version}: ${advisory.id} (${advisory.summary}; fixed in ${range[1] ?? 'no release'})`);
    }
  }
  return out;
}

test('the records are dated, say where they were read, and their ranges are well formed', () => {
  for (const record of RECORDS) {
    assert.match(record.read, /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(record.source.length > 0 && record.advisories.length > 0);
  }
  for (const a of ADVISORIES) {
    assert.match(a.id, /^(GHSA(-[23456789cfghjmpqrvwx]{4}){3}|PYSEC-\d{4}-\d+|CVE-\d{4}-\d+)$/, `${a.id}: not an advisory id`);
    assert.ok(['npm', 'PyPI', 'Maven'].includes(a.ecosystem), `${a.id}: ecosystem ${a.ecosystem}`);
    assert.ok(a.affected.length > 0, `${a.id}: no affected range`);
    for (const [introduced, fixed] of a.affected) assert.ok(fixed === null || compare(introduced, fixed) < 0, `${a.id}: ${introduced} is not before ${fixed}`);
    if (a.id.startsWith('GHSA') || a.id.startsWith('CVE')) assert.match(a.seen, /^https:\/\//, `${a.id}: where its ranges were read`);
  }
});

test('no installed npm package, bundled ones included, is inside a recorded advisory\'s range', () => {
  const installed = LOCK_FILES.flatMap(npmPackages);
  assert.ok(installed.some((p) => p.where.endsWith('node_modules/aws-cdk-lib/node_modules/brace-expansion')),
    'the lock lists aws-cdk-lib\'s bundled brace-expansion, so bundled packages are read');
  assert.deepStrictEqual(findings(installed, ADVISORIES), [],
    'move the package (or its parent) to a fixed release, or hold it with an `overrides` entry');
});

test('no package of a Python environment\'s lock is inside a recorded advisory\'s range', () => {
  const installed = pythonPackages();
  for (const tool of ['cfn-lint', 'compliance-trestle', 'pytest', 'pip', 'setuptools', 'twine']) {
    assert.ok(installed.some((p) => p.name === tool), `the locks pin ${tool}`);
  }
  assert.deepStrictEqual(findings(installed, ADVISORIES), [],
    'raise the pin in the environment\'s `# requires:` line and run node scripts/lock-python.js');
});

test('no artifact of a recorded Maven tree is inside a recorded advisory\'s range', () => {
  const installed = mavenPackages();
  assert.ok(installed.some((p) => p.name === 'com.fasterxml.jackson.core:jackson-databind'), 'the trees hold jsii\'s Jackson');
  assert.deepStrictEqual(findings(installed, ADVISORIES), [], 'raise the version in the pom (or its dependencyManagement)');
});

test('negative controls: what the floors and the defaults would install is inside the records', () => {
  const at = (ecosystem, name, version) => [{ where: 'x', ecosystem, name, version }];
  const ids = (ecosystem, name, version) => findings(at(ecosystem, name, version), ADVISORIES).map((f) => f.split(': ')[1].split(' ')[0]);
  // aws-cdk-lib 2.263.0, the peer floor, bundles brace-expansion 5.0.7.
  assert.deepStrictEqual(ids('npm', 'brace-expansion', '5.0.7'), ['GHSA-rgw5-rvv9-x895', 'GHSA-mh99-v99m-4gvg']);
  // `python3 -m venv` on Python 3.11.7 seeds pip 23.2.1 and setuptools 65.5.0: each lock upgrades both.
  assert.ok(ids('PyPI', 'pip', '23.2.1').includes('PYSEC-2023-228'));
  assert.deepStrictEqual(ids('PyPI', 'setuptools', '65.5.0'), ['PYSEC-2022-43012']);
  // The Python example pinned pytest 8.3.4 until these records were read.
  assert.deepStrictEqual(ids('PyPI', 'pytest', '8.3.4'), ['GHSA-6w46-j5rx-g56g']);
  assert.deepStrictEqual(ids('Maven', 'com.fasterxml.jackson.core:jackson-databind', '2.21.4'), ['GHSA-5jmj-h7xm-6q6v']);
  // A fixed release of each line is outside every range.
  for (const a of ADVISORIES) {
    for (const [, fixed] of a.affected.filter(([, f]) => f !== null)) {
      assert.deepStrictEqual(findings(at(a.ecosystem, a.package, fixed), [a]), [], `${a.id} at ${fixed}`);
    }
  }
  assert.strictEqual(compare('5.0.9-rc.1', '5.0.9'), -1);
  assert.strictEqual(compare('2.9.0.post0', '2.9.0'), 1);
  assert.strictEqual(compare('5.2b1', '5.2'), -1);
  assert.strictEqual(compare('2.22', '2.22.1'), -1);
});

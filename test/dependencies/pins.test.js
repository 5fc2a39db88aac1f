// The CDK versions are declared once, in packages/plugin-template/src/versions.ts (`VERSIONS`); every file that pins
// them for a user or a build (the Maven poms, the Python example, the docs' install lines, the workspace) says the same.
// Run: node --test test/dependencies/*.test.js
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');

const root = path.resolve(__dirname, '..', '..');
const read = (file) => fs.readFileSync(path.join(root, file), 'utf-8');
const versions = read('packages/plugin-template/src/versions.ts');
const constant = (name) => new RegExp(`^ *${name}: '([^']+)'`, 'm').exec(versions)[1];

/** Each file and the patterns whose first group is a pinned version of the tested aws-cdk-lib or of the CLI. */
const PINS = {
  awsCdkLibJava: {
    'deploy/java/pom.xml': /<aws-cdk-lib\.version>([^<]+)</g,
    'examples/java-plugin/pom.xml': /<aws-cdk-lib\.version>([^<]+)</g,
    'docs/java.md': /<aws-cdk-lib\.version>([^<]+)</g,
  },
  awsCdkLibTested: {
    'docs/python.md': /"aws-cdk-lib==([^"]+)"/g,
    'test/dependencies/python/fw-core.txt': /^aws-cdk-lib==(.+)$/gm,
    'docs/deploying.md': /"aws-cdk-lib": "([^"]+)"/g,
    'package.json': /"aws-cdk-lib": "([^"]+)"/g,
  },
  awsCdkCli: {
    'docs/deploying.md': /"aws-cdk": "([^"]+)"/g,
    'package.json': /"aws-cdk": "([^"]+)"/g,
  },
};

for (const [name, files] of Object.entries(PINS)) {
  test(`every pin of VERSIONS.${name} is ${constant(name)}`, () => {
    const wrong = [];
    for (const [file, pattern] of Object.entries(files)) {
      const found = [...read(file).matchAll(pattern)].map((m) => m[1]);
      assert.ok(found.length > 0, `${file} no longer pins it as ${pattern}: update this test`);
      wrong.push(...found.filter((v) => v !== constant(name)).map((v) => `${file}: ${v}`));
    }
    assert.deepStrictEqual(wrong, [], `pinned otherwise than VERSIONS.${name} = ${constant(name)}`);
  });
}

test('the peer floor is at most the tested versions, and the tested one is what the lock installs', () => {
  const parts = (v) => v.split('.').map(Number);
  const floor = parts(constant('awsCdkLib'));
  for (const tested of [parts(constant('awsCdkLibTested')), parts(constant('awsCdkLibJava'))]) {
    assert.ok(floor[0] === tested[0] && (floor[1] < tested[1] || (floor[1] === tested[1] && floor[2] <= tested[2])));
  }
  const lock = JSON.parse(read('package-lock.json'));
  assert.strictEqual(lock.packages['node_modules/aws-cdk-lib'].version, constant('awsCdkLibTested'));
});

test('docs/python.md installs the pytest the Python example\'s lock pins', () => {
  const locked = /^pytest==(.+)$/m.exec(read('test/dependencies/python/fw-core.txt'))[1];
  const documented = [...read('docs/python.md').matchAll(/"pytest==([^"]+)"/g)].map((m) => m[1]);
  assert.ok(documented.length > 0, 'docs/python.md no longer pins pytest as "pytest==X": update this test');
  assert.deepStrictEqual(documented.filter((v) => v !== locked), [], `pinned otherwise than the lock's pytest ${locked}`);
});

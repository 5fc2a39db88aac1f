// The README shows some files whole: a fenced block whose info string names a file (```xml file=path) must be exactly
// that file, so the README cannot drift from the examples the test command builds and runs.
// Run: node --test test/docs/
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');

const root = path.resolve(__dirname, '..', '..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf-8');
const blocks = [...readme.matchAll(/^```\w* file=(\S+)\n([\s\S]*?)^```$/gm)].map(([, file, content]) => ({ file, content }));

test('the README shows the Java and Python starting points whole: POM, class, registration, tests, project', () => {
  assert.deepStrictEqual(blocks.map((b) => b.file), [
    'examples/java-plugin/pom.xml',
    'examples/java-plugin/src/main/java/com/example/wiki/WikiSpec.java',
    'examples/java-plugin/src/main/resources/META-INF/services/dev.fwframework.core.IApplicationSpec',
    'examples/java-plugin/src/test/java/com/example/wiki/WikiSpecTest.java',
    'examples/python-plugin/pyproject.toml',
    'examples/python-plugin/wiki_plugin/__init__.py',
    'examples/python-plugin/tests/test_wiki_spec.py',
  ]);
});

for (const { file, content } of blocks) {
  test(`README's block for ${file} is that file`, () => {
    assert.strictEqual(content, fs.readFileSync(path.join(root, file), 'utf-8'),
      `README.md's block differs from ${file}: copy the file into the block (or the block into the file)`);
  });
}

// The documentation shows some files whole: a fenced block whose info string names a file (```xml file=path) must be
// exactly that file, so README.md and docs/ cannot drift from the examples the test command builds and runs.
// Run: node --test test/docs/*.test.js
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { markdownFiles } = require('./links.test.js');

const root = path.resolve(__dirname, '..', '..');
const blocks = markdownFiles(root).flatMap((doc) => [...fs.readFileSync(path.join(root, doc), 'utf-8')
  .matchAll(/^```\w* file=(\S+)\n([\s\S]*?)^```$/gm)].map(([, file, content]) => ({ doc, file, content })));

test('the docs show the Java and Python starting points whole: POM, class, registration, tests, project', () => {
  assert.deepStrictEqual(blocks.map((b) => `${b.doc}: ${b.file}`), [
    'docs/java.md: examples/java-plugin/pom.xml',
    'docs/java.md: examples/java-plugin/src/main/java/com/example/wiki/WikiSpec.java',
    'docs/java.md: examples/java-plugin/src/main/resources/META-INF/services/dev.fwframework.core.IApplicationSpec',
    'docs/java.md: examples/java-plugin/src/test/java/com/example/wiki/WikiSpecTest.java',
    'docs/python.md: examples/python-plugin/pyproject.toml',
    'docs/python.md: examples/python-plugin/wiki_plugin/__init__.py',
    'docs/python.md: examples/python-plugin/tests/test_wiki_spec.py',
  ]);
});

for (const { doc, file, content } of blocks) {
  test(`${doc}'s block for ${file} is that file`, () => {
    assert.strictEqual(content, fs.readFileSync(path.join(root, file), 'utf-8'),
      `${doc}'s block differs from ${file}: copy the file into the block (or the block into the file)`);
  });
}

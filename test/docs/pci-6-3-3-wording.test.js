// PCI DSS v4.0.1's 6.3.3 puts only critical vulnerabilities (as the entity ranks them under 6.3.1) on the one-month
// clock; "critical and high-severity ... within a month" is v4.0's wording, which v4.0.1 replaced. No document, source
// file or report template here states the old rule (the reports are checked in test/examples/build-server-report.test.js).
// Run: node --test test/docs/*.test.js
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');

const root = path.resolve(__dirname, '..', '..');
/** v4.0's rule, in the forms it was written here: "critical and high-severity", "critical or high severity". */
const V40_RULE = /critical\s+(?:and|or)\s+high(?:[\s-]+severity)?/i;

function files(dir, ext) {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : files(rel, ext);
    return e.name.endsWith(ext) ? [rel] : [];
  });
}

const SCANNED = () => ['README.md', ...files('docs', '.md'), ...files('packages/core/src', '.ts'), ...files('packages/plugin-template/src', '.ts'),
  ...fs.readdirSync(path.join(root, 'examples')).map((e) => `examples/${e}/README.md`).filter((f) => fs.existsSync(path.join(root, f)))];

test('no document or source file states 6.3.3 as v4.0 did ("critical and high-severity")', () => {
  // The whole file, so that a sentence wrapped over two lines is read as one.
  const found = SCANNED().flatMap((file) => {
    const match = V40_RULE.exec(fs.readFileSync(path.join(root, file), 'utf-8'));
    return match ? [`${file}: ${match[0]}`] : [];
  });
  assert.deepStrictEqual(found, []);
});

test('negative control: the sentence the reports carried before is caught', () => {
  assert.ok(V40_RULE.test('6.3.3 asks for critical and high-severity fixes within a month of release'));
  assert.ok(V40_RULE.test('within a month for a critical or high severity (PCI DSS 6.3.3)'));
});

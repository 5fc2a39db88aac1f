#!/usr/bin/env node
// Makes a compiled jsii index load each module on first use of one of its exports, as aws-cdk-lib's index does:
// `require('@fw/core')` otherwise loads every module of the package (the build server, the platform, the EC2 runtime)
// before a plugin's deployment uses any (docs/benchmarks.md). The exports keep their names and getters; only the
// `require` moves into the getter. Fails, rather than leaving an eager index, when tsc's output has another shape.
// Usage: node lazy-index.js lib/index.js
const fs = require('node:fs');

const file = process.argv[2];
const before = fs.readFileSync(file, 'utf-8');
const modules = new Map();
let js = before.replace(/^var (\w+_\d+) = require\(("\.[^"]+")\);\n/gm, (_, name, specifier) => {
  modules.set(name, specifier);
  return '';
});
js = js.replace(/get: function \(\) \{ return (\w+_\d+)\.(\w+); \}/g, (whole, name, member) =>
  modules.has(name) ? `get: function () { return require(${modules.get(name)}).${member}; }` : whole);

const exportsOf = (text) => [...text.matchAll(/Object\.defineProperty\(exports, "(\w+)"/g)].map((m) => m[1]).sort().join();
const leftOver = [...modules.keys()].filter((name) => js.includes(name));
if (modules.size === 0 || leftOver.length > 0 || exportsOf(js) !== exportsOf(before) || /^var \w+ = require\("\./m.test(js)) {
  console.error(`lazy-index: ${file} is not in the shape tsc writes for "export { A } from './a'" (${leftOver.join(', ') || 'no module found'}); ` +
    'the index would stay eager: update scripts/lazy-index.js.');
  process.exit(1);
}
fs.writeFileSync(file, js);

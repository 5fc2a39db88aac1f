#!/usr/bin/env node
// Exit 0 when the first path is newer than every file below the others, 1 otherwise (or when it does not exist).
//   node scripts/up-to-date.js .jsii src package.json        (in a package: is its jsii output newer than its sources?)
// The test command compiles a package only when scripts/setup.sh has not just compiled the same sources.
const fs = require('node:fs');
const path = require('node:path');

const [target, ...sources] = process.argv.slice(2);
const newest = (p) => {
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(p).map((name) => newest(path.join(p, name))));
};
process.exit(fs.existsSync(target) && sources.every((s) => newest(s) < fs.statSync(target).mtimeMs) ? 0 : 1);

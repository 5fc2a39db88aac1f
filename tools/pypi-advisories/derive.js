#!/usr/bin/env node
// Derives test/dependencies/pypi-advisories.json from the Python Packaging Authority's advisory database
// (github.com/pypa/advisory-database, the PYSEC records in OSV format that PyPI and pip-audit serve): every record of a
// package some lock file in test/dependencies/python/ installs, with its affected ranges as the record states them.
// Usage: node tools/pypi-advisories/derive.js CLONE   (CLONE: `git clone --bare https://github.com/pypa/advisory-database CLONE`)
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');

const root = path.resolve(__dirname, '..', '..');
const clone = process.argv[2];
if (!clone || !fs.existsSync(clone)) {
  console.error(`usage: node tools/pypi-advisories/derive.js CLONE: a clone of the advisory database, made with \`git clone --bare ${
    'https://github.com/pypa/advisory-database'} CLONE\`; ${clone ? `${clone} does not exist` : 'none given'}`);
  process.exit(2);
}
const git = (...args) => execFileSync('git', ['--git-dir', fs.existsSync(path.join(clone, '.git')) ? path.join(clone, '.git') : clone, ...args],
  { maxBuffer: 1 << 28 }).toString();
/** PyPI's normalised name (PEP 503). */
const normalise = (name) => name.toLowerCase().replace(/[-_.]+/g, '-');

const lockDir = path.join(root, 'test', 'dependencies', 'python');
const installed = new Set(fs.readdirSync(lockDir).filter((f) => f.endsWith('.txt'))
  .flatMap((f) => fs.readFileSync(path.join(lockDir, f), 'utf-8').split('\n'))
  .filter((line) => /^[^#].*==/.test(line)).map((line) => normalise(line.split('==')[0])));

const [commit, date] = git('log', '-1', '--format=%H %cs', 'HEAD').trim().split(' ');
const advisories = [];
for (const file of git('ls-tree', '-r', '--name-only', 'HEAD', 'vulns/').split('\n')) {
  const dir = file.split('/')[1];
  if (!dir || !file.endsWith('.yaml') || !installed.has(normalise(dir))) continue;
  const record = YAML.parse(git('show', `HEAD:${file}`));
  for (const affected of record.affected ?? []) {
    const ranges = [];
    for (const range of (affected.ranges ?? []).filter((r) => r.type === 'ECOSYSTEM')) {
      let introduced;
      for (const event of range.events) {
        if (event.introduced !== undefined) introduced = event.introduced;
        if (event.fixed !== undefined && introduced !== undefined) { ranges.push([introduced, event.fixed]); introduced = undefined; }
      }
      if (introduced !== undefined) ranges.push([introduced, null]);
    }
    advisories.push({
      id: record.id, aliases: record.aliases ?? [], ecosystem: 'PyPI', package: normalise(affected.package.name),
      summary: (record.summary ?? record.details).split(/(?<=\.)\s/)[0].replace(/\s+/g, ' ').slice(0, 200),
      affected: ranges, versions: ranges.length === 0 ? affected.versions ?? [] : undefined,
    });
  }
}
advisories.sort((a, b) => a.package.localeCompare(b.package) || a.id.localeCompare(b.id));
const out = {
  read: date,
  source: `github.com/pypa/advisory-database at ${commit} (its newest commit, ${date}, in the snapshot read): every PYSEC record of a `
    + 'package a lock file in test/dependencies/python/ names, derived by tools/pypi-advisories/derive.js. Records published after '
    + 'that date are not here: the GitHub advisory database\'s own PyPI records (advisories.json) carry what was read since.',
  advisories,
};
// One record a line, as advisories.json is written, so a change reads as the records it adds.
const records = advisories.map((a) => `    ${JSON.stringify(a)}`).join(',\n');
fs.writeFileSync(path.join(root, 'test', 'dependencies', 'pypi-advisories.json'),
  `{\n  "read": ${JSON.stringify(out.read)},\n  "source": ${JSON.stringify(out.source)},\n  "advisories": [\n${records}\n  ]\n}\n`);
console.log(`pypi-advisories: ${advisories.length} records of ${installed.size} packages, from ${commit.slice(0, 7)} (${date})`);

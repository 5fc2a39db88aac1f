#!/usr/bin/env node
// Writes the lock file of each Python environment the set-up and the tests create (test/dependencies/python/*.txt):
// the exact tree pip resolves today for the environment's `# requires:` line, so every install of it gets the same
// packages and test/dependencies/advisories.test.js reads the tree that is installed. Needs PyPI.
// Run: node scripts/lock-python.js [name ...]   (no name: every lock file)
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const DIR = path.join(__dirname, '..', 'test', 'dependencies', 'python');
const REQUIRES = /^# requires: (.+)$/m;

function lock(file) {
  const before = fs.readFileSync(file, 'utf-8');
  const requires = REQUIRES.exec(before)?.[1].trim().split(/\s+/);
  if (!requires) throw new Error(`${file}: no "# requires:" line naming what the environment installs`);
  const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lock-python-')), 'report.json');
  execFileSync('python3', ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--dry-run', '--ignore-installed',
    '--report', report, ...requires], { stdio: ['ignore', 'ignore', 'inherit'] });
  const pins = JSON.parse(fs.readFileSync(report, 'utf-8')).install
    // Each name as PEP 503 normalises it, as tools/pypi-advisories/derive.js reads it.
    .map((i) => `${i.metadata.name.toLowerCase().replace(/[-_.]+/g, '-')}==${i.metadata.version}`)
    .sort();
  fs.rmSync(path.dirname(report), { recursive: true });
  const header = before.split('\n').filter((line) => line.startsWith('#') && !line.startsWith('# locked:'));
  const python = execFileSync('python3', ['-c', 'import platform; print(platform.python_version())']).toString().trim();
  header.push(`# locked: ${new Date().toISOString().slice(0, 10)} by node scripts/lock-python.js, Python ${python}`);
  fs.writeFileSync(file, `${header.join('\n')}\n${pins.join('\n')}\n`);
  console.log(`lock-python: ${path.basename(file)}: ${pins.length} packages`);
}

const names = process.argv.slice(2);
const files = names.length > 0 ? names.map((n) => path.join(DIR, `${n}.txt`)) : fs.readdirSync(DIR).filter((f) => f.endsWith('.txt')).map((f) => path.join(DIR, f));
for (const file of files) lock(file);

#!/usr/bin/env node
// The lockstep version of a release (see .projenrc.ts, release:build).
//   apply    write the root's bumped version into every package's package.json and into the deployment apps' POM and
//            pyproject.toml (the originals kept in .tmp/release-backup)
//   collect  gather each package's dist/<language> into the root's dist/<language>
//   apps     build the deployment apps into the root's dist/: dev.fwframework:deploy (JAR, POM, sources, Javadoc) into
//            dist/java, fw-deploy's wheel into dist/python
//   restore  put every file back, so the release leaves no change behind
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const root = path.resolve(__dirname, '..');
const packages = fs.readdirSync(path.join(root, 'packages')).map((name) => path.join(root, 'packages', name))
  .filter((dir) => fs.existsSync(path.join(dir, 'package.json')));
const backup = path.join(root, '.tmp', 'release-backup');
const LANGUAGES = ['js', 'java', 'python', 'go', 'dotnet'];

/** The deployment apps' version lines: each must change, or the release would publish the old version. */
const APP_FILES = [
  {
    file: 'deploy/java/pom.xml',
    patterns: [/(<artifactId>deploy<\/artifactId>\s*<version>)[^<]+(<\/version>)/, /(<fw\.core\.version>)[^<]+(<\/fw\.core\.version>)/],
  },
  { file: 'deploy/python/pyproject.toml', patterns: [/^(version = ")[^"]+(")$/m] },
];
/** Every file `apply` changes, relative to the root: kept in `backup` under its path, put back by `restore`. */
const VERSIONED_FILES = [
  ...packages.map((dir) => path.relative(root, path.join(dir, 'package.json'))),
  ...APP_FILES.map(({ file }) => file),
];
const backupOf = (file) => path.join(backup, file.replace(/\//g, '__'));

function version() {
  const { version: v } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf-8'));
  if (!v || v === '0.0.0') {
    throw new Error('release-version: the root package.json holds 0.0.0, so nothing was bumped: run `npx projen bump` first, ' +
      'and tag the last release if there is none yet (git tag v0.1.0 <commit>; see docs/releasing.md)');
  }
  return v;
}

function apply() {
  const v = version();
  const names = packages.map((dir) => JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf-8')).name);
  fs.mkdirSync(backup, { recursive: true });
  for (const file of VERSIONED_FILES) fs.copyFileSync(path.join(root, file), backupOf(file));
  for (const dir of packages) {
    const file = path.join(dir, 'package.json');
    const pkg = JSON.parse(fs.readFileSync(file, 'utf-8'));
    pkg.version = v;
    // A sibling's range follows: published packages must ask for this very release of each other.
    for (const field of ['dependencies', 'peerDependencies', 'devDependencies']) {
      for (const name of Object.keys(pkg[field] ?? {})) if (names.includes(name)) pkg[field][name] = `^${v}`;
    }
    fs.chmodSync(file, 0o644);
    fs.writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
  }
  for (const { file, patterns } of APP_FILES) {
    const full = path.join(root, file);
    let text = fs.readFileSync(full, 'utf-8');
    for (const pattern of patterns) {
      if (!pattern.test(text)) throw new Error(`release-version: ${file} has no line matching ${pattern}; the release cannot set its version`);
      text = text.replace(pattern, `$1${v}$2`);
    }
    fs.writeFileSync(full, text);
  }
  console.log(`release-version: ${packages.length} packages and ${APP_FILES.length} deployment app files at ${v}`);
}

function apps() {
  const dist = path.join(root, 'dist');
  const run = (command, args, cwd) => execFileSync(command, args, { cwd: path.join(root, cwd), stdio: 'inherit' });
  // Maven's cache may hold artifacts of this version from an earlier build on this machine, which it would take over
  // the ones just built: forgotten first (a release's runner starts with an empty cache).
  for (const artifact of ['core', 'deploy']) {
    fs.rmSync(path.join(os.homedir(), '.m2', 'repository', 'dev', 'fwframework', artifact, version()), { recursive: true, force: true });
  }
  // Tested already by the test command; the release adds the sources and Javadoc JARs (profile "release").
  run('mvn', ['-B', '-q', '-Prelease', 'deploy', '-DskipTests', `-DaltDeploymentRepository=release::file://${path.join(dist, 'java')}`], 'deploy/java');
  run('python3', ['-m', 'pip', 'wheel', '--quiet', '--disable-pip-version-check', '--no-deps', '--wheel-dir', path.join(dist, 'python'), '.'], 'deploy/python');
  console.log(`release-version: the deployment apps at ${version()} in dist/java and dist/python`);
}

function collect() {
  const dist = path.join(root, 'dist');
  for (const dir of packages) {
    for (const language of LANGUAGES) {
      const from = path.join(dir, 'dist', language);
      if (fs.existsSync(from)) fs.cpSync(from, path.join(dist, language), { recursive: true });
    }
  }
  console.log(`release-version: dist/ holds ${LANGUAGES.filter((l) => fs.existsSync(path.join(dist, l))).join(', ')}`);
}

function restore() {
  for (const file of VERSIONED_FILES) {
    if (fs.existsSync(backupOf(file))) fs.copyFileSync(backupOf(file), path.join(root, file));
  }
  fs.rmSync(backup, { recursive: true, force: true });
}

const commands = { apply, collect, apps, restore };
const command = commands[process.argv[2]];
if (!command) {
  console.error(`usage: release-version.js ${Object.keys(commands).join('|')}`);
  process.exit(2);
}
command();

#!/usr/bin/env node
// The Maven trees our builds resolve, recorded in test/dependencies/maven-trees.txt so that
// test/dependencies/advisories.test.js reads them (the framework's own artifacts, dev.fwframework, left out).
//   node scripts/maven-trees.js write POM_DIR LIST ...     record each pom's tree from `mvn dependency:list -DoutputFile=LIST`
//   node scripts/maven-trees.js check POM_DIR LIST         fail when what Maven resolved differs from the record
//   node scripts/maven-trees.js goal                       print the pinned goal and options that write a LIST
// The stages that build each pom run `check` (scripts/test-stages.js, test/release/maven-rehearsal.sh).
const fs = require('node:fs');
const path = require('node:path');

/** The Maven goal that lists a pom's tree (the plugin pinned, not Maven's default binding), with its options. */
const GOAL = 'org.apache.maven.plugins:maven-dependency-plugin:3.11.0:list -DincludeScope=test';
const RECORD = path.join(__dirname, '..', 'test', 'dependencies', 'maven-trees.txt');
const HEADER = '# The Maven trees the builds resolve: `pom directory  group:artifact:version:scope`, written by scripts/maven-trees.js.\n';

/** `group:artifact:version:scope` of each resolved artifact of a dependency:list output, ours left out. */
function resolved(list) {
  return [...new Set(fs.readFileSync(list, 'utf-8').split('\n')
    .map((line) => /^\s+([\w.-]+):([\w.-]+):[\w-]+(?::[\w.-]+)?:([\w.-]+):(\w+)/.exec(line))
    .filter((m) => m && m[1] !== 'dev.fwframework')
    .map(([, group, artifact, version, scope]) => `${group}:${artifact}:${version}:${scope}`))].sort();
}

/** The record: pom directory to its sorted artifacts. */
function read() {
  const trees = new Map();
  if (!fs.existsSync(RECORD)) return trees;
  for (const line of fs.readFileSync(RECORD, 'utf-8').split('\n').filter((l) => l && !l.startsWith('#'))) {
    const [pom, artifact] = line.split(/\s+/);
    trees.set(pom, [...(trees.get(pom) ?? []), artifact]);
  }
  return trees;
}

const [command, ...args] = process.argv.slice(2);
if (command === 'goal') {
  console.log(GOAL);
} else if (command === 'write' && args.length >= 2 && args.length % 2 === 0) {
  const trees = read();
  for (let i = 0; i < args.length; i += 2) trees.set(args[i], resolved(args[i + 1]));
  const lines = [...trees.keys()].sort().flatMap((pom) => trees.get(pom).map((a) => `${pom}  ${a}`));
  fs.writeFileSync(RECORD, `${HEADER}${lines.join('\n')}\n`);
} else if (command === 'check' && args.length === 2) {
  const [pom, list] = args;
  const want = read().get(pom) ?? [];
  const got = resolved(list);
  const added = got.filter((a) => !want.includes(a));
  const gone = want.filter((a) => !got.includes(a));
  if (added.length + gone.length > 0) {
    console.error(`maven-trees: ${pom} resolved a tree other than test/dependencies/maven-trees.txt records:\n`
      + `${added.map((a) => `  resolved, not recorded: ${a}`).concat(gone.map((a) => `  recorded, not resolved: ${a}`)).join('\n')}\n`
      + `Record it (and let test/dependencies/advisories.test.js read it) with: node scripts/maven-trees.js write ${pom} LIST`);
    process.exit(1);
  }
  console.log(`maven-trees: ${pom} resolved the ${got.length} artifacts recorded`);
} else {
  console.error('usage: node scripts/maven-trees.js write POM_DIR LIST [POM_DIR LIST ...] | check POM_DIR LIST | goal');
  process.exit(2);
}

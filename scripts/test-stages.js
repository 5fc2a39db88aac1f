#!/usr/bin/env node
// The test command (`npx projen test`): every stage below, each once the stages it needs have passed, one more at a
// time than the machine has cores (the stages wait on the network and on disk too), or FW_TEST_JOBS. Each output line
// is prefixed with its stage's name; the runners' own summaries (jest's "Tests: N passed", Maven's, node's) are printed
// as they come. At the end a table gives each stage's start, duration, CPU time and result, and the exit status is
// non-zero if any stage failed or did not run.
//
//   node scripts/test-stages.js               every stage
//   node scripts/test-stages.js e2e core:test  those stages and the stages they need
//   node scripts/test-stages.js --list        the stages, what each needs, and the command it runs
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

/** The oldest Node.js major version the packages support, `VERSIONS.nodeMin` (setup.sh installs a newer one). */
const NODE_MIN_MAJOR = Number(/nodeMin: '(\d+)\./.exec(fs.readFileSync(path.join(root, 'packages/plugin-template/src/versions.ts'), 'utf-8'))[1]);

/**
 * The stages. `after`: the stages whose output this one reads. `lock`: stages holding the same lock never run at the
 * same time; `m2-fwframework` is Maven's local repository entry for dev.fwframework at the packages' version, which
 * the end-to-end test and the Maven rehearsal delete (to prove where an artifact is resolved from) and the Java example
 * resolves. The release test builds the next version, so it needs no lock. `cdkValidation`: the stage's synths run
 * the CDK's CloudFormation validation (see stageEnv). `chain`: the stage is on the longest chain (core's package, the
 * end-to-end test, the Maven rehearsal and the Java example, longer than any other stage): it runs at normal priority,
 * every other stage at `nice` 10, so that the chain does not wait for a core while stages nothing waits for run.
 * Listed in the order they should start when several are ready: the chain first, with the short Groovy tests beside
 * the compile so that core's tests take the next free slot; the release test, long but needed by nothing, fills the
 * gaps after them.
 */
const STAGES = [
  // jsii (unless scripts/setup.sh has just compiled the same sources), and the bundled dependencies copied into
  // packages/core/node_modules now, before core:test reads them (core:package would otherwise copy them while the tests
  // run; at the same version it leaves them).
  {
    name: 'core:compile', cwd: 'packages/core', chain: true,
    run: '{ node ../../scripts/up-to-date.js .jsii src package.json || npx projen compile; } && node ../../scripts/bundle-deps.js',
  },
  // The template's npm tarball, which the end-to-end test installs (the package task's other languages are built by
  // local-release, which runs the whole task); the compile only when scripts/setup.sh has not just done it.
  {
    name: 'template:package', cwd: 'packages/plugin-template', chain: true,
    run: '{ node ../../scripts/up-to-date.js .jsii src package.json || npx projen compile; } && npx projen post-compile && rm -rf dist && node ../../scripts/bundle-deps.js && npx jsii-pacmak -v --no-npmignore --target js',
  },
  // The build server's pipeline library and seeded jobs, run by Groovy with the Jenkins steps stood in for; then the
  // tree Maven resolved for it against the one test/dependencies/advisories.test.js reads.
  {
    name: 'jenkins-groovy', cwd: 'packages/core/jenkins',
    run: 'mvn -B test $(node ../../../scripts/maven-trees.js goal) -DoutputFile="$TMPDIR/tree" '
      + '&& node ../../../scripts/maven-trees.js check packages/core/jenkins "$TMPDIR/tree"',
  },
  // The npm tarball with its Maven build, the Python wheel and the Go module: what the later stages install.
  { name: 'core:package', cwd: 'packages/core', run: 'npx projen package', after: ['core:compile'], chain: true },
  // The API references (core's jest reads them).
  { name: 'core:docs', cwd: 'packages/core', run: 'npx projen post-compile', after: ['core:compile'] },
  // jest and eslint, on every core.
  { name: 'core:test', cwd: 'packages/core', run: 'npx projen test', after: ['core:docs'] },
  // A plugin author's journey against a local registry.
  { name: 'e2e', run: 'bash test/e2e/plugin-template.sh', after: ['core:package', 'template:package'], lock: 'm2-fwframework', chain: true },
  // The Java deployment app and the framework's JAR deployed to a Maven repository of the test's own, then the Java
  // plugin example built against them; then used by configuration (cdk.json), which finds it with ServiceLoader.
  { name: 'maven-rehearsal', run: 'bash test/release/maven-rehearsal.sh', after: ['core:package'], lock: 'm2-fwframework', chain: true },
  {
    name: 'java-example', cwd: 'examples/java-plugin', after: ['maven-rehearsal'], lock: 'm2-fwframework', chain: true,
    run: 'npx cdk synth -q -c runtimeType=FARGATE && npx cdk synth -q -c runtimeType=EC2 -o cdk.out/ec2 '
      + '&& cfn-lint --format parseable --ignore-checks W3005 -- cdk.out/wiki-dev.template.json cdk.out/ec2/wiki-dev.template.json',
  },
  // A release made in a fresh clone of this repository, every artifact at the bumped version. It copies the installed
  // packages, among them the bundled dependencies core:compile copies into packages/core/node_modules. After
  // core:package, which fills the caches its packaging reads (Go's modules and build cache, pip's, jsii-pacmak's Maven
  // repository): on a fresh machine the two side by side each compiled the CDK's Go module and downloaded the same files.
  { name: 'local-release', run: 'bash test/release/local-release.sh', after: ['core:package'] },
  // The template's jest (the scaffold's test kinds, run against the framework core:compile built) and eslint.
  { name: 'template:test', cwd: 'packages/plugin-template', run: 'npx projen test', after: ['core:compile'] },
  // The same plugin in Python against the wheel core:package made (pytest), then by configuration.
  { name: 'python-example', run: 'bash examples/python-plugin/test.sh', after: ['core:package'] },
  // The main job, both runtimes, as a user runs it, the CDK's validation on (EC2's assembly in cdk.out/ec2); then the
  // PCI DSS evidence reports and the validation reports the two synths left.
  {
    name: 'main-job', cwd: 'examples/build-server', after: ['core:compile'], cdkValidation: true,
    run: 'npx cdk synth -q -c runtimeType=FARGATE && npx cdk synth -q -c runtimeType=EC2 -o cdk.out/ec2 && node --test ../../test/examples/*.test.js',
  },
  // The committed API references are what the compile stages just generated.
  { name: 'api-docs', run: 'npx projen check:api-docs', after: ['core:docs', 'template:package'] },
  // The release workflows, the documentation's links and the files it shows whole, the pins and their advisories.
  { name: 'docs-and-workflows', run: 'node --test test/release/*.test.js test/docs/*.test.js test/dependencies/*.test.js' },
];

function main(args) {
  if (args.includes('--list')) {
    for (const s of STAGES) console.log(`${s.name}${s.after ? ` (after ${s.after.join(', ')})` : ''}: ${s.cwd ? `cd ${s.cwd} && ` : ''}${s.run}`);
    return;
  }
  const unknown = args.filter((a) => !STAGES.some((s) => s.name === a));
  if (unknown.length > 0) {
    console.error(`test-stages: no stage ${unknown.map((u) => JSON.stringify(u)).join(', ')}; the stages: ${STAGES.map((s) => s.name).join(', ')}`);
    process.exit(2);
  }
  const major = Number(process.versions.node.split('.')[0]);
  if (major < NODE_MIN_MAJOR) {
    console.error(`test-stages: Node ${process.version} is older than the lines the tests run on (${NODE_MIN_MAJOR} and later). ` +
      'Run bash scripts/setup.sh, which installs the Node release it pins when the machine\'s is older.');
    process.exit(1);
  }
  const selected = args.length > 0 ? withNeeds(args) : STAGES;
  const jobs = Math.max(1, Number(process.env.FW_TEST_JOBS) || os.availableParallelism() + 1);
  console.log(`test-stages: Node ${process.version} (jest, jsii and the CDK run on it), ${selected.length} stages, at most ${jobs} at a time`);
  run(selected, jobs);
}

/** The named stages and every stage they need, in STAGES' order. */
function withNeeds(names) {
  const wanted = new Set();
  const add = (name) => {
    if (wanted.has(name)) return;
    wanted.add(name);
    for (const need of STAGES.find((s) => s.name === name).after ?? []) add(need);
  };
  names.forEach(add);
  return STAGES.filter((s) => wanted.has(s.name));
}

function run(stages, jobs) {
  const start = Date.now();
  const state = new Map(stages.map((s) => [s.name, { status: 'waiting' }]));
  const children = new Set();
  const locks = new Set();
  const names = new Set(stages.map((s) => s.name));

  const stop = (signal) => {
    for (const child of children) process.kill(-child.pid, 'SIGTERM');
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const schedule = () => {
    for (const stage of stages) {
      const s = state.get(stage.name);
      if (s.status !== 'waiting') continue;
      const needs = (stage.after ?? []).filter((n) => names.has(n)).map((n) => state.get(n).status);
      if (needs.some((n) => n === 'failed' || n === 'not run')) {
        s.status = 'not run';
        continue;
      }
      if (children.size >= jobs || needs.some((n) => n !== 'passed') || (stage.lock && locks.has(stage.lock))) continue;
      launch(stage, s);
    }
    if (children.size === 0 && [...state.values()].every((s) => s.status !== 'waiting')) finish();
  };

  const launch = (stage, s) => {
    s.status = 'running';
    s.start = Date.now();
    if (stage.lock) locks.add(stage.lock);
    console.log(`test-stages: start ${stage.name} at ${clock(s.start - start)}`);
    // The stage's temporary directory (its TMPDIR): removed when it passes, kept for a look when it fails.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `fw-stage-${stage.name.replace(/\W/g, '-')}-`));
    // `times` reports the CPU time of everything the stage ran, for the table (the cores are what the stages share).
    const timesFile = path.join(tmp, 'fw-stage-times');
    const script = `{\n${stage.run}\n}; status=$?; times > '${timesFile}'; exit $status`;
    // Stages off the chain yield the cores to it (see STAGES).
    const [command, ...args] = [...stage.chain ? [] : ['nice', '-n', '10'], 'bash', '-c', script];
    const child = spawn(command, args, { cwd: path.join(root, stage.cwd ?? '.'), env: stageEnv(stage, tmp), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    for (const stream of [child.stdout, child.stderr]) prefixLines(stream, `[${stage.name}] `);
    child.on('close', (code, signal) => {
      children.delete(child);
      if (stage.lock) locks.delete(stage.lock);
      s.took = Date.now() - s.start;
      s.cpu = cpuOf(timesFile);
      s.status = code === 0 ? 'passed' : 'failed';
      console.log(`test-stages: ${stage.name} ${s.status} in ${clock(s.took)}${code === 0 ? '' : ` (${signal ?? `exit status ${code}`}); its temporary files are in ${tmp}`}`);
      if (code === 0) fs.rmSync(tmp, { recursive: true, force: true });
      schedule();
    });
  };

  const finish = () => {
    const total = Date.now() - start;
    const width = Math.max(...stages.map((s) => s.name.length));
    console.log(`\ntest-stages: ${'stage'.padEnd(width)}  start   took    CPU     result`);
    for (const stage of stages) {
      const s = state.get(stage.name);
      const times = s.start === undefined ? '-       -       -     '
        : `${clock(s.start - start).padEnd(6)}  ${clock(s.took).padEnd(6)}  ${(s.cpu === undefined ? '-' : clock(s.cpu)).padEnd(6)}`;
      console.log(`test-stages: ${stage.name.padEnd(width)}  ${times}  ${s.status}`);
    }
    const cpu = stages.reduce((sum, stage) => sum + (state.get(stage.name).cpu ?? 0), 0);
    console.log(`test-stages: CPU time of all stages ${clock(cpu)} on ${os.availableParallelism()} cores`);
    const bad = stages.filter((stage) => state.get(stage.name).status !== 'passed');
    console.log(`test-stages: ${stages.length - bad.length} of ${stages.length} stages passed in ${clock(total)}` +
      (bad.length > 0 ? `; failed or not run: ${bad.map((b) => b.name).join(', ')}` : ''));
    process.exit(bad.length > 0 ? 1 : 0);
  };

  schedule();
}

/**
 * A stage's environment: the test command's, with the stage's own temporary directory `tmp` (`TMPDIR`, which mktemp,
 * Node's `os.tmpdir()` and so the CDK's `cdk.out*` of every synth read: the stages left about 1 GB in /tmp a run), and
 * the pinned cfn-lint first on the PATH (scripts/setup.sh links it in `.tools/bin`, beside no other program, so
 * `python3` stays the machine's), and two settings that change how fast the engines run, never what they do.
 * - `CDK_VALIDATION=false`: every CDK synth would otherwise load the CDK's CloudFormation validation (a WASM rule
 *   engine, about 4 s of CPU each time) and only print what it finds. It stays on where a test reads its findings:
 *   the main job (`cdkValidation`), and core's `cfn-lint.test.ts` and `platform.test.ts`, which call it themselves.
 * - `-XX:TieredStopAtLevel=1` for every JVM (Maven, javac, the Groovy tests, the Java examples): short-lived JVMs
 *   spend most of their CPU in the optimising JIT compiler, which these runs never repay (the Groovy tests: 39 s of
 *   CPU with it, 16 s without). Each JVM prints "Picked up JAVA_TOOL_OPTIONS" on its standard error.
 */
function stageEnv(stage, tmp) {
  const env = { ...process.env, TMPDIR: tmp, JAVA_TOOL_OPTIONS: `${process.env.JAVA_TOOL_OPTIONS ?? ''} -XX:TieredStopAtLevel=1`.trim() };
  env.PATH = `${path.join(root, '.tools', 'bin')}${path.delimiter}${env.PATH}`;
  if (stage.cdkValidation) delete env.CDK_VALIDATION;
  else env.CDK_VALIDATION = 'false';
  return env;
}

/** Copies a stream to stdout line by line, each line prefixed (so concurrent stages stay readable). */
function prefixLines(stream, prefix) {
  let rest = '';
  stream.setEncoding('utf-8');
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    for (const line of lines) process.stdout.write(`${prefix}${line}\n`);
  });
  stream.on('end', () => { if (rest) process.stdout.write(`${prefix}${rest}\n`); });
}

/** The user and system time of a stage's processes, from bash's `times` (its second line: the children's), in ms. */
function cpuOf(file) {
  try {
    const children = fs.readFileSync(file, 'utf-8').split('\n')[1];
    return children.split(' ').reduce((sum, t) => {
      const [, m, s] = /^(\d+)m([\d.]+)s$/.exec(t);
      return sum + (Number(m) * 60 + Number(s)) * 1000;
    }, 0);
  } catch {
    return undefined;
  }
}

function clock(ms) {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

main(process.argv.slice(2));

import { cdk, javascript, release, TaskShell, typescript } from 'projen';
import { PLUGIN_CONTRACT_RECORD, PLUGIN_CONTRACT_VERSION } from './packages/core/src/contract/plugin-contract-version';
import { PREFLIGHT_CLIENTS } from './packages/core/src/preflight/clients';
import { VERSIONS } from './packages/plugin-template/src/versions';

// One lockstep version for every package, so sibling ranges are real (`^x.y.z`) in published tarballs.
const VERSION = '0.1.0';
// The versions shared with the scaffold, from one source (the template ships them; see its src/versions.ts).
const CONSTRUCTS_VERSION = VERSIONS.constructs;
const AWS_CDK_LIB_MIN = VERSIONS.awsCdkLib;
const AWS_CDK_LIB_TESTED = VERSIONS.awsCdkLibTested;
const CDK_NAG_VERSION = '3.0.2';
const AWS_CDK_CLI_VERSION = VERSIONS.awsCdkCli;
const JSII_VERSION = VERSIONS.jsii;
const TYPESCRIPT_VERSION = VERSIONS.typescript;
const PROJEN_VERSION = VERSIONS.projen;
const NODE_MIN = VERSIONS.nodeMin;

/**
 * Names of the jsii targets, chosen once. Every package `<short>` becomes:
 * Maven `dev.fwframework:<short>`, Java package `dev.fwframework.<short>`, Python `fw-<short>` / `fw_<short>`,
 * Go module `github.com/fw-framework/fw-go/<short>`, .NET `FwFramework.<Short>`.
 */
const NAMES = {
  npmScope: '@fw',
  mavenGroupId: 'dev.fwframework',
  javaPackageRoot: 'dev.fwframework',
  pythonPrefix: 'fw',
  goModule: 'github.com/fw-framework/fw-go',
  dotNetRoot: 'FwFramework',
  repositoryUrl: 'https://github.com/fw-framework/fw.git',
  author: 'FW Framework Authors',
  authorAddress: 'fw-framework@users.noreply.github.com',
};

const root = new typescript.TypeScriptProject({
  name: 'fw-monorepo',
  defaultReleaseBranch: 'main',
  packageManager: javascript.NodePackageManager.NPM,
  minNodeVersion: NODE_MIN,
  typescriptVersion: TYPESCRIPT_VERSION,
  projenrcTs: true,
  projenVersion: PROJEN_VERSION,
  licensed: true,
  license: 'Apache-2.0',
  copyrightOwner: NAMES.author,
  // GitHub for the release workflow only (see "One release for the repository" below).
  github: true,
  githubOptions: { mergify: false, pullRequestLint: false },
  release: false,
  buildWorkflow: false,
  depsUpgrade: false,
  pullRequestTemplate: false,
  package: false,
  jest: false,
  eslint: false,
  sampleCode: false,
  disableTsconfig: true,
  // One copy of constructs and aws-cdk-lib in the tree (a second copy breaks instanceof checks across packages).
  // `fw-deploy preflight`'s AWS SDK clients, at their pins: the examples run it, as a deployment project does.
  devDeps: [`constructs@${CONSTRUCTS_VERSION}`, `aws-cdk-lib@${AWS_CDK_LIB_TESTED}`, `aws-cdk@${AWS_CDK_CLI_VERSION}`,
    ...Object.entries(PREFLIGHT_CLIENTS).map(([name, version]) => `${name}@${version}`)],
  // The examples' synth output.
  gitignore: ['/.tmp/', 'cdk.out/', '/.tools/'],
});
root.package.addField('private', true);
root.package.addField('workspaces', ['packages/*']);
// The Go build of @fw/core requires the Go module of every jsii dependency at its npm version: the Go module proxy
// serves cloud-assembly-schema-go v54.11.0 (which awscdk v2.270.0 requires) but refuses later v54 releases, so npm is
// held to that one.
root.package.addField('overrides', { '@aws-cdk/cloud-assembly-schema': '54.11.0' });

interface FwPackageOptions {
  /** Short name: `core` becomes `@fw/core`, `dev.fwframework.core`, `fw_core`, ... */
  readonly short: string;
  readonly description: string;
  readonly deps?: string[];
  readonly bundledDeps?: string[];
  readonly peerDeps?: string[];
  readonly devDeps?: string[];
  readonly bin?: Record<string, string>;
  /** Whether the package has a .NET target (it cannot when a jsii dependency has none). @default true */
  readonly dotnet?: boolean;
  /**
   * Languages built for real besides npm (the others get generated code only). A real Java build is shipped in the
   * npm package (see below). @default - none
   */
  readonly builtTargets?: string[];
  /**
   * Languages built for real only where their probe succeeds (scripts/optional-target.sh; a release requires them).
   * @default - .NET, where its SDK is
   */
  readonly optionalTargets?: OptionalTarget[];
}

interface OptionalTarget {
  readonly target: string;
  /** What the build needs, for the message when it is missing. */
  readonly needs: string;
  /** A command that succeeds where the build can run. */
  readonly probe: string;
}

const DOTNET_TARGET: OptionalTarget = { target: 'dotnet', needs: 'the .NET SDK', probe: 'command -v dotnet' };

function fwPackage(options: FwPackageOptions): cdk.JsiiProject {
  const { short } = options;
  const pascal = short.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase());
  const flat = short.replace(/-/g, '');
  const project = new cdk.JsiiProject({
    parent: root,
    outdir: `packages/${short}`,
    name: `${NAMES.npmScope}/${short}`,
    description: options.description,
    // Source maps beside the JavaScript rather than inside it: every process that loads the package (each synth)
    // would otherwise read and scan twice the bytes (docs/benchmarks.md); the .map files still carry the sources.
    tsconfig: { compilerOptions: { inlineSourceMap: false, inlineSources: true, sourceMap: true } },
    author: NAMES.author,
    authorAddress: NAMES.authorAddress,
    repositoryUrl: NAMES.repositoryUrl,
    defaultReleaseBranch: 'main',
    packageManager: javascript.NodePackageManager.NPM,
    minNodeVersion: NODE_MIN,
    jsiiVersion: JSII_VERSION,
    typescriptVersion: TYPESCRIPT_VERSION,
    projenVersion: PROJEN_VERSION,
    licensed: true,
    license: 'Apache-2.0',
    copyrightOwner: NAMES.author,
    github: false,
    release: false,
    depsUpgrade: false,
    pullRequestTemplate: false,
    // projen's rules; without --fix, so the test command fails on a violation instead of rewriting the file.
    eslint: true,
    eslintOptions: { dirs: ['src'], devdirs: ['test', 'bench'], commandOptions: { fix: false } },
    sampleCode: false,
    docgen: true,
    publishToMaven: {
      mavenGroupId: NAMES.mavenGroupId,
      mavenArtifactId: short,
      javaPackage: `${NAMES.javaPackageRoot}.${flat}`,
    },
    publishToPypi: {
      distName: `${NAMES.pythonPrefix}-${short}`,
      module: `${NAMES.pythonPrefix}_${short.replace(/-/g, '_')}`,
    },
    publishToGo: {
      moduleName: NAMES.goModule,
      packageName: `fw${flat}`,
    },
    publishToNuget: options.dotnet === false ? undefined : {
      dotNetNamespace: `${NAMES.dotNetRoot}.${pascal}`,
      packageId: `${NAMES.dotNetRoot}.${pascal}`,
    },
    deps: options.deps,
    bundledDeps: options.bundledDeps,
    peerDeps: options.peerDeps,
    // A peer's floor is not what the tests run on: the devDeps name the tested versions (one copy in the workspace).
    peerDependencyOptions: { pinnedDevDependency: false },
    devDeps: options.devDeps,
    bin: options.bin,
    jestOptions: {
      updateSnapshot: javascript.UpdateSnapshot.NEVER,
      passWithNoTests: false,
      jestConfig: {
        testPathIgnorePatterns: ['/node_modules/'],
        // No coverage in the test command: nothing reads it (no threshold), and V8's precise coverage slowed the
        // synth-heavy suites by about half (egress.test.ts: 24 s without, 37 s with). `npx jest --coverage` gives it.
        collectCoverage: false,
        // Every core (jest's default leaves one free): in the test command the other stages finish first, and the
        // core suite would otherwise end alone on one core.
        maxWorkers: '100%',
      },
    },
  });
  project.package.addVersion(VERSION);
  // ts-jest only transpiles (isolatedModules), so the tests' types are checked here, once, before jest runs them.
  project.testTask.prependExec('tsc --noEmit -p test/tsconfig.json --isolatedModules false');
  // One file's tests, type-checked as the test task does (jest alone transpiles: a misspelt enum member runs as undefined).
  project.addTask('test:file', {
    description: 'Type-check the tests, then run the test files given: npx projen test:file test/<file>',
    steps: [{ exec: 'tsc --noEmit -p test/tsconfig.json --isolatedModules false' }, { exec: 'jest --coverage=false', receiveArgs: true }],
  });

  // npm 11 installs at the workspace root from a workspace dir; run only when this package.json changed,
  // or every synth reinstalls. `npm ci` from a workspace dir would wipe the root node_modules: no-op.
  project.tasks.tryFind('install')?.reset('npm install', {
    condition: `node -e "const fs=require('fs');const l='${'../../node_modules/.package-lock.json'}';process.exit(!fs.existsSync(l)||fs.statSync('package.json').mtimeMs>fs.statSync(l).mtimeMs?0:1)"`,
  });
  project.tasks.tryFind('install:ci')?.reset();

  // jsii-docgen's CLI only looks below the package for dependency assemblies; ours are hoisted to the root.
  // Run on its own (`npx projen docgen`), it would document the last build: compiled first when the sources are newer.
  project.tasks.tryFind('docgen')?.reset('node ../../scripts/up-to-date.js .jsii src package.json || npx projen compile');
  project.tasks.tryFind('docgen')?.exec('node ../../scripts/docgen.js');

  // The npm tarball and `builtTargets` for real, `optionalTargets` where their probe passes, every other language as
  // generated code only. One pacmak run for the code-only targets is much faster than one each.
  // A fresh dist/ each time: pacmak's JAR embeds the npm tarball, which would otherwise carry the last build's dist/java
  // (the JAR grew by its own size on every local rebuild).
  project.packageTask.reset('rm -rf dist');
  project.packageTask.exec('node ../../scripts/bundle-deps.js');
  const built = options.builtTargets ?? [];
  const optional = options.optionalTargets ?? (options.dotnet === false ? [] : [DOTNET_TARGET]);
  const codeOnly = ['java', 'python', 'go', ...(options.dotnet === false ? [] : ['dotnet'])].filter((t) => !built.includes(t));
  if (built.length > 0) {
    // pacmak's Maven build otherwise starts from an empty local repository each time and downloads the CDK's JAR and
    // every plugin again (about 25 s here). This package depends on no locally built artifact, so a lasting one of its
    // own can answer nothing stale.
    const mavenCache = built.includes('java') ? ' --maven-local-repository "$HOME/.m2/jsii-pacmak-repository"' : '';
    project.packageTask.exec(`jsii-pacmak -v --no-npmignore ${built.map((t) => `--target ${t}`).join(' ')}${mavenCache}`);
  }
  if (built.includes('java')) {
    // The npm package carries its Maven build: jsii-pacmak uses a dependency's dist/java as a local Maven
    // repository, so a TypeScript plugin's JAR builds against this exact version without it being on Maven Central.
    project.npmignore?.removePatterns('dist');
    project.npmignore?.exclude('/dist/*');
    project.npmignore?.include('/dist/java/**');
  }
  // Where the probe succeeds (the release workflow's runner), for real; code only everywhere (the step below).
  for (const { target, needs, probe } of optional) {
    project.packageTask.exec(`bash ../../scripts/optional-target.sh ${target} '${needs}' ${probe}`);
  }
  // --no-npmignore: pacmak would otherwise add `dist` back to .npmignore.
  project.packageTask.exec('jsii-pacmak -v --no-npmignore --target js');
  project.packageTask.exec(`jsii-pacmak --no-npmignore --code-only ${codeOnly.map((t) => `--target ${t}`).join(' ')} --outdir .tmp/bindings`);
  project.gitignore.exclude('/.tmp/');
  project.npmignore?.exclude('/.tmp/', '/test/', '/bench/');
  return project;
}

const core = fwPackage({
  short: 'core',
  description: 'Deploy an application described by a plugin (IApplicationSpec) on ECS Fargate or EC2 with AWS CDK.',
  peerDeps: [`aws-cdk-lib@^${AWS_CDK_LIB_MIN}`, `constructs@^${CONSTRUCTS_VERSION}`],
  // aws-sdk-client-mock: the ecosystem's mock of the SDK clients, for preflight's tests.
  devDeps: [`aws-cdk-lib@${AWS_CDK_LIB_TESTED}`, `constructs@${CONSTRUCTS_VERSION}`, 'aws-sdk-client-mock@4.1.0'],
  bin: { 'fw-deploy': 'bin/fw-deploy' },
  builtTargets: ['java', 'python', 'go'],
  // Runtime dependencies of a jsii package are bundled into its tarball. cdk-nag is an implementation detail (the
  // PRODUCTION check), so it is bundled too: consumers need no peer for it, and the Java build needs no cdknag
  // artifact (Maven Central's metadata for it stops at 2.x, so pacmak's version range cannot resolve 3.x).
  // @viz-js/viz is Graphviz compiled to WebAssembly: it draws the network and data-flow diagrams at synth.
  // @cfworker/json-schema (no dependencies; ajv 8 would nest under the workspace beside eslint's ajv 6, where npm ci
  // skips a workspace's bundled dependencies) validates a Score workload file against Score's schema (draft 2020-12).
  bundledDeps: ['yaml@2.9.1', `cdk-nag@${CDK_NAG_VERSION}`, '@viz-js/viz@3.31.0', '@cfworker/json-schema@4.1.6'],
});
// The CDK's own CloudFormation validation (a WASM engine, loaded once per jest file) is most of a synth's time; the
// suites turn it off and cfn-lint.test.ts runs it on purpose, over every configuration, and fails on any finding.
core.jest!.addSetupFile('<rootDir>/test/support/jest-setup.ts');
// A plugin's require('@fw/core') loads only the modules whose exports it uses (scripts/lazy-index.js).
core.compileTask.exec('node ../../scripts/lazy-index.js lib/index.js');
// The build server's Jenkins code (pipeline library, seeded jobs) ships as source; its Maven test build does not.
core.gitignore.exclude('/jenkins/target/');
// The conformance schema and the derived AWS references are for the tests, not for deployments (their generators are
// in tools/, outside the package).
core.npmignore?.exclude('/jenkins/target/', '/jenkins/src/test/', '/jenkins/pom.xml', '/jenkins/casc-schema/', '/jenkins/examples/', '/aws/**');
// The derived PCI DSS mapping is read at synth (the pack's requirements, the report, the conformance pack).
core.npmignore?.include('/aws/pci-dss-4/pci-dss-4.0.json');
// What `fw-deploy check-change` reads: CloudFormation's schemas and the services' rules of the lifecycle checker.
core.npmignore?.include('/aws/cloudformation/resource-schemas.json', '/aws/lifecycle/service-rules.json');
// The plugin contract's version, where a plugin's build reads the one it is built against (the template writes it
// into the plugin's packages) and the built-in plugins' record.
const contractRecord = { [PLUGIN_CONTRACT_RECORD.key]: PLUGIN_CONTRACT_VERSION };
core.package.addField(PLUGIN_CONTRACT_RECORD.npmField, contractRecord);

const pluginTemplate = fwPackage({
  short: 'plugin-template',
  description: 'projen project type for fw plugins: npx projen new --from @fw/plugin-template',
  peerDeps: [`projen@^${PROJEN_VERSION}`, `constructs@^${CONSTRUCTS_VERSION}`],
  devDeps: [`projen@${PROJEN_VERSION}`, `constructs@${CONSTRUCTS_VERSION}`],
  dotnet: false, // projen, which it extends, has no .NET binding
  // A plugin's package:java and package:python run them after jsii-pacmak (src/maven/finish-artifact.ts,
  // src/python/finish-wheel.ts).
  bin: { 'fw-finish-maven-artifact': 'bin/fw-finish-maven-artifact', 'fw-finish-python-artifact': 'bin/fw-finish-python-artifact' },
  builtTargets: ['python'],
  // Java and Go build against projen's own bindings at this version, which Maven Central and the Go module proxy
  // serve, but this machine's registries do not: built where they resolve (the release workflow's runner).
  optionalTargets: [
    { target: 'java', needs: `the projen Java binding io.github.cdklabs:projen:${PROJEN_VERSION}`, probe: `mvn -q -B dependency:get -Dartifact=io.github.cdklabs:projen:${PROJEN_VERSION}` },
    { target: 'go', needs: `the projen Go module github.com/projen/projen-go/projen@v${PROJEN_VERSION}`, probe: `go mod download github.com/projen/projen-go/projen@v${PROJEN_VERSION}` },
  ],
});

// The template scaffolds against this contract where no @fw/core is installed yet (the first `projen new`).
pluginTemplate.package.addField(PLUGIN_CONTRACT_RECORD.npmField, contractRecord);

// The root builds and tests every package in dependency order, then the repository-wide checks.
root.tsconfigDev.addInclude('bench/**/*.ts');
root.addTask('bench', {
  description: 'Run the benchmarks in bench/ (ratios against a baseline in the same run)',
  steps: [
    { exec: 'ts-node --project tsconfig.dev.json bench/discovery.ts' },
    { exec: 'ts-node --project tsconfig.dev.json bench/synth.ts' },
    { exec: 'ts-node --project tsconfig.dev.json bench/process-synth.ts' },
  ],
});
root.addTask('bench:platform', {
  description: 'Resources and synth time of applications on one platform against the same applications standalone',
  exec: 'ts-node --project tsconfig.dev.json bench/platform.ts',
});
root.addTask('bench:template', {
  description: 'Scaffold + first test of a plugin against projen new jsii, through a local registry',
  exec: 'bash bench/plugin-template.sh',
});
root.addTask('bench:java', {
  description: 'Synth time of the Java plugin against the same plugin in TypeScript',
  exec: 'bash bench/java-plugin.sh',
});
root.compileTask.reset();
root.testTask.reset();
// Each package's build writes its API reference (docgen, post-compile: API.md for TypeScript, API.java.md,
// API.python.md); the committed files must be exactly those. CI runs on a fresh clone, so git compares what the build
// just wrote with HEAD. Runs alone too: `npx projen check:api-docs`.
const apiDocs = [core, pluginTemplate].flatMap((pkg) =>
  ['API.md', 'API.java.md', 'API.python.md'].map((doc) => `${pkg.outdir.slice(root.outdir.length + 1)}/${doc}`));
root.addTask('check:api-docs', {
  description: 'Fail when a package\'s committed API reference (API.md, API.java.md, API.python.md) differs from the one its build generated',
  shell: TaskShell.bash(), // a loop and conditions: more than projen's own shell parses
  exec: [
    'git rev-parse --verify -q HEAD > /dev/null || { echo "check:api-docs: needs a git checkout with a commit to compare API.md with" >&2; exit 1; }',
    'stale=""',
    `for doc in ${apiDocs.join(' ')}; do`,
    '  if ! git cat-file -e "HEAD:$doc" 2> /dev/null; then echo "$doc: generated by the build but not committed" >&2; stale="$stale $doc"',
    '  elif ! git diff --quiet HEAD -- "$doc"; then git --no-pager diff --stat HEAD -- "$doc" >&2; stale="$stale $doc"; fi',
    'done',
    'if [ -n "$stale" ]; then',
    '  echo "check:api-docs: the committed API reference is stale:$stale. It is generated from the code: run \'npx projen build\' (or \'npx projen compile && npx projen post-compile\') in the package, then commit$stale." >&2',
    '  exit 1',
    'fi',
    `echo "check:api-docs: ${apiDocs.join(', ')} match the code"`,
  ].join('\n'),
});
// The test command: every package built and tested, then the repository-wide checks, as stages that run side by side
// where the cores allow, each once the stages it needs have passed (the stages and their order: scripts/test-stages.js).
root.testTask.exec('node scripts/test-stages.js');
root.testTask.env('CDK_DISABLE_CLI_TELEMETRY', 'true');

// One release for the repository: every package shares the root's version, bumped from the conventional commits
// since the last tag (projen's bump, commit-and-tag-version), with a changelog. `release:build` writes that version
// into each package and the deployment apps (deploy/java, deploy/python), builds each one (compile, then every
// language's package), gathers the artifacts into the root's dist/ (js, java, python, go, dotnet), adds the deployment
// apps' JAR and wheel, and restores the files; publib publishes each directory.
const releaseBuild = root.addTask('release:build', {
  description: 'Build every package at the bumped version and gather the artifacts into dist/',
  steps: [
    { exec: 'node scripts/release-version.js apply' },
    ...[core, pluginTemplate].map((pkg) => ({ exec: 'npx projen compile && npx projen package', cwd: pkg.outdir.slice(root.outdir.length + 1) })),
    { exec: 'node scripts/release-version.js collect' },
    // The public API against the last release's: a breaking change needs a new major (docs/releasing.md).
    { exec: 'node scripts/api-compat.js' },
    { exec: 'node scripts/release-version.js apps' },
    { exec: 'node scripts/release-version.js restore' },
  ],
});
const PUBLIB_VERSION = '0.2.1061';
const repositoryRelease = new release.Release(root, {
  versionFile: 'package.json',
  // publib, which publishes to every registry, and the bump tool, pinned (projen's defaults float).
  jsiiReleaseVersion: PUBLIB_VERSION,
  bumpPackage: 'commit-and-tag-version@13.2.1',
  tasks: [releaseBuild],
  branch: 'main',
  // 0.x until the API is declared stable: a breaking change bumps the minor version.
  majorVersion: 0,
  artifactsDirectory: 'dist',
  workflowNodeVersion: '24.x',
  publishTasks: true,
  // The release job tests what it publishes first (the test command of the README).
  releaseWorkflowSetupSteps: [{ name: 'Test', run: 'bash scripts/setup.sh && npx projen test' }],
  // Every language of every package, or no release (scripts/optional-target.sh).
  releaseWorkflowEnv: { FW_RELEASE_ALL_TARGETS: '1' },
});
// Pre-releases from the `next` branch: 0.x.y-next.N, published under npm's `next` tag.
repositoryRelease.addBranch('next', { majorVersion: 0, prerelease: 'next', npmDistTag: 'next' });
// Provenance from the first release on: once given, dropping it would break installs that check it. npm: trusted
// publishing with provenance statements; PyPI: trusted publishing with attestations; Maven Central: signed (the GPG
// key below).
repositoryRelease.publisher.publishToNpm({ trustedPublishing: true, npmProvenance: true });
repositoryRelease.publisher.publishToMaven();
repositoryRelease.publisher.publishToPyPi({ trustedPublishing: true, attestations: true });
repositoryRelease.publisher.publishToGo();
repositoryRelease.publisher.publishToNuget();


root.synth();

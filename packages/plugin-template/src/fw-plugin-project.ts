import { cdk, javascript, JsonFile, SampleFile, TextFile } from 'projen';
import { pluginNames } from './names';
import { builtAgainst, CONTRACT_RECORD, frameworkRange, TEMPLATE_PACKAGE } from './plugin-contract';
import { authorNames } from './publishing-names';
import { WHEEL_RESOURCES } from './python/finish-wheel';
import { readmeSource } from './readme';
import { specSource, testSource } from './sample-code';
import { VERSIONS } from './versions';

/** The contract's Java name: the manifest's file name in the npm package and in the JAR. */
const CONTRACT = 'dev.fwframework.core.IApplicationSpec';
const MANIFEST = `META-INF/services/${CONTRACT}`;
/** Where the Java form of the manifest is kept until it is added to the JAR. */
const JAVA_RESOURCES = '.jar-resources';

/** The command (this package's `bin`) that finishes the Maven artifact after jsii-pacmak. */
const FINISH_MAVEN_ARTIFACT = 'fw-finish-maven-artifact';
/** The command (this package's `bin`) that adds the entry points and the contract record to the wheel. */
const FINISH_PYTHON_ARTIFACT = 'fw-finish-python-artifact';
/** Whether the .NET SDK is installed, in projen's task shell or a system one; and what the build says when it is not. */
const HAS_DOTNET = 'which dotnet > /dev/null';
const DOTNET_SKIPPED = 'package:dotnet skipped: the .NET SDK (dotnet) is not on the PATH; the NuGet package is built where it is';

/** The task that upgrades the framework within its major (docs/writing-a-plugin.md, "Upgrading"). */
const UPGRADE_FW = 'upgrade-fw';

/** Options of a framework plugin project. */
export interface FwPluginProjectOptions extends cdk.JsiiProjectOptions {
  /**
   * The application's id (the `applicationId` context key).
   * @default - the package name without its scope and a trailing "-plugin"
   * @featured
   */
  readonly applicationId?: string;
  /**
   * The plugin classes, exported from `src/index.ts`. This one declaration generates the registration manifests:
   * the npm one (jsii names) and the one inside the Java JAR (Java names).
   * @default - one class, `<ApplicationId>Spec`
   */
  readonly specClasses?: string[];
  /**
   * Version range of the framework (`@fw/core`), a peer dependency.
   * @default - from this template's own version to the next major (`>=0.1.0 <1.0.0`): the framework and the template
   *   are released in lockstep, and discovery checks the plugin contract
   */
  readonly frameworkVersion?: string;
}

/** This template's version, which is the framework's: one release publishes both. */
const TEMPLATE_VERSION: string = TEMPLATE_PACKAGE.version;

/**
 * A plugin for the fw deployment framework: a jsii library with a spec class, its registration manifests, the three test kinds and PRODUCTION's compliance check, and npm, Maven, PyPI, Go (and .NET) packages.
 *
 * @pjid fw-plugin
 */
export class FwPluginProject extends cdk.JsiiProject {
  /** The application id the scaffold uses. */
  public readonly applicationId: string;
  /** The plugin classes the manifests name. */
  public readonly specClasses: string[];

  /**
   * @param options the plugin project's settings: projen's `JsiiProjectOptions` and this template's own
   * (`applicationId`, `specClasses`, `frameworkVersion`)
   */
  constructor(options: FwPluginProjectOptions) {
    const names = pluginNames(options.name, options.applicationId);
    // The author's own names (from repositoryUrl) unless given; the framework's namespaces are refused either way.
    const { javaPackage, mavenGroupId, goModule, dotNet } = authorNames(options.repositoryUrl, {
      javaPackage: options.publishToMaven?.javaPackage,
      mavenGroupId: options.publishToMaven?.mavenGroupId,
      goModule: options.publishToGo?.moduleName,
      dotNet: options.publishToNuget?.dotNetNamespace,
    }, names.flat, names.pascal);
    const frameworkVersion = options.frameworkVersion ?? frameworkRange(TEMPLATE_VERSION);
    const specClasses = options.specClasses ?? [`${names.pascal}Spec`];
    const className = specClasses[0];
    const fileName = className.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
    super({
      readme: {
        contents: readmeSource({
          packageName: options.name,
          applicationId: names.applicationId,
          className,
          specFile: `src/${fileName}.ts`,
          testFile: `test/${fileName}.test.ts`,
          javaClass: `${javaPackage}.${className}`,
          pythonDist: `fw-${names.base}`,
          goModule,
        }),
      },
      packageManager: javascript.NodePackageManager.NPM,
      minNodeVersion: VERSIONS.nodeMin,
      jsiiVersion: VERSIONS.jsii,
      typescriptVersion: VERSIONS.typescript,
      projenrcTs: true,
      // projen's lint, as its own TypeScript project types have it; `npx projen test` runs it (and the generated code
      // passes it unchanged). Its type-aware rules load the CDK's types (about 9 s); a cache of the results per file
      // content keeps a warm run of unchanged files near 1.5 s.
      eslint: true,
      eslintOptions: {
        dirs: ['src'],
        devdirs: ['test', 'build-tools'],
        commandOptions: { extraArgs: ['--cache', '--cache-strategy', 'content', '--cache-location', 'node_modules/.cache/eslint/'] },
      },
      sampleCode: false,
      publishToMaven: { javaPackage, mavenGroupId, mavenArtifactId: names.base },
      publishToPypi: { distName: `fw-${names.base}`, module: `fw_${names.base.replace(/-/g, '_')}` },
      publishToGo: { moduleName: goModule, packageName: names.flat },
      publishToNuget: { dotNetNamespace: dotNet, packageId: dotNet },
      // The first release is 1.0.0 (the specification's reference plugin has a three-part version such as 1.0.0), not projen's
      // 0.0.0: `npx projen release` builds every package at the release version; `npx projen build` at 0.0.0.
      minMajorVersion: 1,
      ...options,
      // The framework, the CDK and constructs are provided by the deployment (npm's form of Maven's `provided`).
      peerDeps: [
        `@fw/core@${frameworkVersion}`, `aws-cdk-lib@^${VERSIONS.awsCdkLib}`, `constructs@^${VERSIONS.constructs}`,
        ...(options.peerDeps ?? []),
      ],
      // The plugin's own build and tests run on the CDK the framework is tested with, not on the peer floor (which
      // bundles a brace-expansion under an advisory, see versions.ts); projen would pin each peer's floor instead.
      peerDependencyOptions: { pinnedDevDependency: false, ...options.peerDependencyOptions },
      devDeps: [
        `@fw/core@${frameworkVersion}`, `aws-cdk-lib@${VERSIONS.awsCdkLibTested}`, `constructs@${VERSIONS.constructs}`,
        ...(options.devDeps ?? []),
      ],
      jestOptions: { ...options.jestOptions, jestConfig: { testPathIgnorePatterns: ['/node_modules/'], ...options.jestOptions?.jestConfig } },
    });
    this.applicationId = names.applicationId;
    this.specClasses = specClasses;

    new SampleFile(this, `src/${fileName}.ts`, { contents: specSource(className, this.applicationId) });
    new SampleFile(this, 'src/index.ts', { contents: `export * from './${fileName}';\n` });
    new SampleFile(this, `test/${fileName}.test.ts`, { contents: testSource(className, this.applicationId) });

    // A preview of the plugin's own deployment: `npx fw-deploy` finds the plugin through this repository's manifest.
    new SampleFile(this, 'cdk.json', {
      contents: `${JSON.stringify({
        app: 'npx fw-deploy',
        context: { stackName: `${this.applicationId}-preview`, applicationId: this.applicationId, runtimeType: 'FARGATE', securityProfile: 'DEV', sslEnabled: 'false' },
      }, undefined, 2)}\n`,
    });
    this.addDevDeps(`aws-cdk@${VERSIONS.awsCdkCli}`);
    this.gitignore.exclude('/cdk.out/');
    this.npmignore?.exclude('/cdk.out/', '/cdk.json');

    // The registration manifests, regenerated from `specClasses` at every synth.
    new TextFile(this, MANIFEST, {
      lines: ['# Generated by projen from specClasses in .projenrc.ts.', ...this.specClasses.map((c) => `${this.package.packageName}.${c}`)],
    });
    new TextFile(this, `${JAVA_RESOURCES}/${MANIFEST}`, {
      lines: ['# Generated by projen from specClasses in .projenrc.ts.', ...this.specClasses.map((c) => `${javaPackage}.${c}`)],
    });
    this.npmignore?.exclude(`/${JAVA_RESOURCES}/`, `/${WHEEL_RESOURCES}/`);

    // The plugin contract it is built against, in each language's form: package.json, beside the Java service file,
    // and the wheel's metadata with the entry points Python's deployment app reads.
    const contract = builtAgainst(this.outdir);
    this.package.addField(CONTRACT_RECORD.npmField, { [CONTRACT_RECORD.key]: contract });
    const record = { [CONTRACT_RECORD.key]: contract };
    new JsonFile(this, `${JAVA_RESOURCES}/${CONTRACT_RECORD.javaResource}`, { obj: record, marker: false });
    new JsonFile(this, `${WHEEL_RESOURCES}/${CONTRACT_RECORD.pythonMetadataFile}`, { obj: record, marker: false });
    const pythonModule = options.publishToPypi?.module ?? `fw_${names.base.replace(/-/g, '_')}`;
    new TextFile(this, `${WHEEL_RESOURCES}/entry_points.txt`, {
      lines: [`[${CONTRACT_RECORD.pythonEntryPointGroup}]`, ...this.specClasses.map((c) => `${c.toLowerCase()} = ${pythonModule}:${c}`)],
    });

    // Java's ServiceLoader finds the plugin through the manifest inside the JAR that jsii-pacmak builds. Then the POM
    // gets the `provided` scope (as the specification asks) for the framework and the CDK, and the checksums beside the changed JAR and POM
    // are rewritten (src/maven/finish-artifact.ts; the command is this package's, installed in the plugin).
    const javaTask = this.tasks.tryFind('package:java');
    javaTask?.exec(`find dist/java -name '*.jar' ! -name '*-sources.jar' ! -name '*-javadoc.jar' -exec jar uf {} -C ${JAVA_RESOURCES} ${MANIFEST} ` +
      `-C ${JAVA_RESOURCES} ${CONTRACT_RECORD.javaResource} ';'`);
    javaTask?.exec(FINISH_MAVEN_ARTIFACT);
    this.tasks.tryFind('package:python')?.exec(FINISH_PYTHON_ARTIFACT);

    // `build` packages npm, Maven and PyPI everywhere (in CI too); Go's package is its generated source, checked by
    // compiling only once the framework's Go module is published; .NET only where its SDK is installed.
    const packageAll = this.tasks.tryFind('package-all')!;
    packageAll.reset();
    for (const language of ['js', 'java', 'python']) packageAll.spawn(this.tasks.tryFind(`package:${language}`)!);
    this.tasks.tryFind('package:go')!.reset('jsii-pacmak -v --target go --code-only');
    packageAll.spawn(this.tasks.tryFind('package:go')!);
    // `which`, not `command -v`: projen's own task shell has `which` built in but no `command` (it printed
    // "dax: command: command not found"). Without the SDK, one line says .NET was skipped and why.
    packageAll.spawn(this.tasks.tryFind('package:dotnet')!, { condition: HAS_DOTNET });
    packageAll.say(DOTNET_SKIPPED, { condition: `! ${HAS_DOTNET}` });
    this.packageTask.reset();
    this.packageTask.spawn(packageAll);

    // `npx projen upgrade-fw`: the framework and this template to their newest releases of the same major (a major
    // may change the plugin contract's), the project files re-synthesised (the contract record with them), the tests.
    const versions = new javascript.UpgradeDependencies(this, {
      taskName: `${UPGRADE_FW}:versions`,
      include: ['@fw/core', '@fw/plugin-template'],
      target: 'minor',
      workflow: false,
    });
    const upgrade = this.addTask(UPGRADE_FW, { description: 'Upgrade @fw/core and @fw/plugin-template within their major, re-synthesise, test' });
    upgrade.spawn(versions.upgradeTask);
    upgrade.spawn(this.testTask);
  }
}

import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { IApplicationSpec } from '../contract/application-spec';
import { APPLICATION_SPEC_MEMBERS } from '../contract/application-spec-members';
import { PluginContract } from '../contract/plugin-contract';
import { PLUGIN_CONTRACT_RECORD } from '../contract/plugin-contract-version';
import { assertValidSpec } from '../contract/spec-validation';
import { UserError } from '../errors';
import { MANIFEST_PATH, parseManifest } from './manifest';
import { installedPackages, nodeModulesDirs } from './node-modules';

/** Where to look for plugins. */
export interface PluginRegistryOptions {
  /**
   * Directory from which installed packages are searched, as Node resolves them (its `node_modules` and every
   * ancestor's). The package in that directory itself counts too (a plugin's repository previewing its own
   * deployment). `@fw/core`'s own manifest is always read.
   * @default process.cwd()
   */
  readonly searchFrom?: string;
  /**
   * The framework's plugin contract each package is checked against (`PluginContract.admit`); only the end-to-end
   * test gives another (a framework one minor or one major newer).
   * @default PluginContract.VERSION
   */
  readonly frameworkContract?: string;
}

/** A plugin found in a registration manifest. */
export interface PluginRegistration {
  /** The plugin's `applicationId()`. */
  readonly applicationId: string;
  /** The jsii name of the class, as the manifest writes it. */
  readonly className: string;
  /** The npm package whose manifest names it. */
  readonly packageName: string;
  /** `<manifest file>:<line>`. */
  readonly source: string;
}

interface Loaded extends PluginRegistration {
  readonly spec: IApplicationSpec;
  /** Handed to the deployment app by the host language rather than found in a manifest. */
  readonly handedIn?: boolean;
}

/**
 * The plugins installed beside the deployment, found through their registration manifests.
 *
 * Discovery runs once per process for a given search directory; later calls return the same registry.
 */
export class PluginRegistry {
  /**
   * Finds every installed plugin. Fails, naming the manifest file and line, on a line that names no class, a class
   * that does not implement the contract, or two plugins with the same applicationId.
   */
  public static discover(options: PluginRegistryOptions = {}): PluginRegistry {
    const searchFrom = path.resolve(options.searchFrom ?? process.cwd());
    const key = `${searchFrom}\n${options.frameworkContract ?? ''}`;
    let registry = PluginRegistry.discovered.get(key);
    if (!registry) {
      registry = new PluginRegistry(discoverIn(searchFrom, options.frameworkContract));
      PluginRegistry.discovered.set(key, registry);
    }
    return registry;
  }

  // The one process-wide cache: discovery reads the file system and loads modules, which must happen once.
  private static readonly discovered = new Map<string, PluginRegistry>();

  private constructor(private readonly plugins: Loaded[]) {}

  /**
   * These plugins and the ones the host language found itself (Java's ServiceLoader, Python's entry points), which
   * it hands in. An applicationId declared twice, by a manifest and a handed-in plugin or by two handed-in ones, is
   * refused with both sources named.
   */
  public withPlugins(plugins: IApplicationSpec[]): PluginRegistry {
    const handedIn: Loaded[] = plugins.map((spec, i) => ({
      applicationId: spec.applicationId(),
      // Objects of another language reach JavaScript as proxies of class Object, which names nothing.
      className: spec.constructor?.name && spec.constructor.name !== 'Object' ? spec.constructor.name : '',
      packageName: '',
      source: `plugins[${i}]`,
      spec,
      handedIn: true,
    }));
    const merged = [...this.plugins, ...handedIn];
    const problems = duplicateProblems(merged);
    if (problems.length > 0) throw new UserError(`Plugin discovery failed:\n  - ${problems.join('\n  - ')}`);
    return new PluginRegistry(merged);
  }

  /** Every plugin found, in discovery order. */
  public registrations(): PluginRegistration[] {
    return this.plugins.map(({ spec: _spec, ...registration }) => registration);
  }

  /** The applicationIds of every plugin found, sorted. */
  public applicationIds(): string[] {
    return this.plugins.map((p) => p.applicationId).sort();
  }

  /**
   * The plugin with this applicationId, after checking its declared values. Fails listing the available ids.
   */
  public get(applicationId: string): IApplicationSpec {
    const found = this.plugins.find((p) => p.applicationId === applicationId);
    if (!found) {
      const available = this.plugins.map((p) => `${p.applicationId} (${p.handedIn ? 'handed in' : p.packageName})`);
      throw new UserError(`No installed plugin has applicationId '${applicationId}'. Available: ${available.join(', ')}.`);
    }
    assertValidSpec(found.spec, `${found.className || found.applicationId} (${found.source})`);
    return found.spec;
  }
}

/** A package directory with a manifest, its name and the plugin contract its package.json records. */
interface ManifestPackage {
  readonly dir: string;
  readonly name: string;
  readonly builtAgainst?: string;
}

/** @fw/core's own package directory: its manifest names the built-in plugins. */
const FRAMEWORK_DIR = path.resolve(__dirname, '..', '..');

function discoverIn(searchFrom: string, frameworkContract: string | undefined): Loaded[] {
  const problems: string[] = [];
  const plugins = packagesWithManifest(searchFrom).flatMap((found) => loadManifest(found, problems, frameworkContract));
  problems.push(...duplicateProblems(plugins));
  if (problems.length > 0) throw new UserError(`Plugin discovery failed:\n  - ${problems.join('\n  - ')}`);
  return plugins;
}

/**
 * Package directories that carry a manifest: @fw/core itself first, the project, then every installed package, each package name
 * once, the nearest copy as Node would resolve it (a second copy of @fw/core above a project that runs its own is
 * the same plugins again).
 */
function packagesWithManifest(searchFrom: string): ManifestPackage[] {
  const seen = new Set<string>();
  const result: ManifestPackage[] = [];
  // The project itself comes second: a plugin's own repository previews its deployment (`cdk synth` there) through
  // its own manifest, once compiled.
  const candidates = [FRAMEWORK_DIR, searchFrom,
    ...nodeModulesDirs(searchFrom).flatMap(installedPackages)];
  for (const dir of candidates) {
    if (!fs.existsSync(path.join(dir, MANIFEST_PATH))) continue;
    const { name, builtAgainst } = readPackageJson(dir);
    if (seen.has(name)) continue;
    seen.add(name);
    // Loaded through the path it was found at, not its real path: the jsii runtime (Java, Python, Go) links packages
    // into a node_modules of its own and resolves their dependencies from there.
    result.push({ dir, name, builtAgainst });
  }
  return result;
}

function loadManifest({ dir: packageDir, name: packageName, builtAgainst: recorded }: ManifestPackage, problems: string[],
  frameworkContract: string | undefined): Loaded[] {
  const manifest = path.join(packageDir, MANIFEST_PATH);
  const requireFrom = createRequire(path.join(packageDir, 'package.json'));
  // The framework's built-in plugins are its own contract's, whichever contract the check is given.
  const builtAgainst = packageDir === FRAMEWORK_DIR ? frameworkContract ?? recorded : recorded;
  const loaded: Loaded[] = [];
  for (const entry of parseManifest(fs.readFileSync(manifest, 'utf-8'))) {
    const source = `${manifest}:${entry.line}`;
    try {
      const spec = instantiate(entry.className, packageName, packageDir, requireFrom);
      // Refused here when incompatible; a missing record is warned where the plugin is deployed (the factory).
      PluginContract.admit(spec, `${entry.className} (package ${packageName})`, builtAgainst, frameworkContract);
      loaded.push({ applicationId: spec.applicationId(), className: entry.className, packageName, source, spec });
    } catch (e) {
      problems.push(`${source}: ${(e as Error).message}`);
    }
  }
  return loaded;
}

/**
 * Resolves `<package>.<Export>[.<Nested>...]` and constructs it without arguments, as Java's ServiceLoader does. A
 * manifest's own package is loaded from its directory: under the jsii runtime that Java, Python and Go use, a package
 * is unpacked where no node_modules names it, so loading `@fw/core` by name from itself would fail.
 */
function instantiate(className: string, ownPackage: string, ownDir: string, requireFrom: NodeRequire): IApplicationSpec {
  const packageName = className.startsWith(`${ownPackage}.`) ? ownPackage
    : /^(@[^/\s]+\/[^.\s]+|[^@.\s][^.\s]*)\./.exec(className)?.[1];
  if (!packageName) {
    throw new Error(`'${className}' names no class: expected <npm package>.<ExportedClass>, for example ${ownPackage}.MySpec.`);
  }
  const exportPath = className.slice(packageName.length + 1).split('.');
  let target: any;
  try {
    target = requireFrom(packageName === ownPackage ? ownDir : packageName);
  } catch (e) {
    throw new Error(`'${className}' names no class: package '${packageName}' cannot be loaded (${(e as Error).message.split('\n')[0]}).`);
  }
  for (const name of exportPath) {
    target = target?.[name];
  }
  if (typeof target !== 'function' || !/^class\b/.test(Function.prototype.toString.call(target))) {
    throw new Error(`'${className}' names no class: package '${packageName}' exports no class '${exportPath.join('.')}'.`);
  }
  let instance: any;
  try {
    instance = new target();
  } catch (e) {
    throw new Error(`${className} cannot be constructed without arguments: ${(e as Error).message}`);
  }
  const missing = APPLICATION_SPEC_MEMBERS.filter((m) => typeof instance[m] !== 'function');
  if (missing.length > 0) {
    throw new Error(`${className} does not implement IApplicationSpec: it lacks ${missing.map((m) => `${m}()`).join(', ')}. ` +
      'Extend ApplicationSpec from @fw/core.');
  }
  if (typeof instance.applicationId() !== 'string') {
    throw new Error(`${className}.applicationId() returned ${JSON.stringify(instance.applicationId())}, not text.`);
  }
  return instance as IApplicationSpec;
}

function duplicateProblems(plugins: Loaded[]): string[] {
  const problems: string[] = [];
  plugins.forEach((p, i) => {
    const first = plugins.findIndex((q) => q.applicationId === p.applicationId);
    if (first < i) {
      const q = plugins[first];
      problems.push(`applicationId '${p.applicationId}' is declared twice: ${origin(q)} and ${origin(p)}. ` +
        (p.handedIn ? 'Hand in only plugins no installed package registers.' : 'Uninstall one of them.'));
    }
  });
  return problems;
}

function origin(plugin: Loaded): string {
  return plugin.handedIn
    ? `by ${plugin.className || 'the plugin'} handed to the deployment app (${plugin.source})`
    : `by ${plugin.className} in package ${plugin.packageName} (${plugin.source})`;
}

/**
 * A package's name (its directory's when its package.json names none or cannot be read) and the plugin contract it
 * records (`fw.pluginContract`), from one read of its package.json.
 */
function readPackageJson(packageDir: string): { name: string; builtAgainst?: string } {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf-8'));
    return { name: pkg.name ?? path.basename(packageDir), builtAgainst: pkg[PLUGIN_CONTRACT_RECORD.npmField]?.[PLUGIN_CONTRACT_RECORD.key] };
  } catch {
    return { name: path.basename(packageDir) };
  }
}

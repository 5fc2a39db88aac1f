import type { IApplicationSpec } from './application-spec';
import { AUTH_MODES } from './auth-mode';
import { PLUGIN_CONTRACT_RECORD, PLUGIN_CONTRACT_VERSION } from './plugin-contract-version';
import { RuntimeType } from './runtime-type';
import { shownValue, UserError } from '../errors';

const VERSION_FORM = /^(\d{1,4})\.(\d{1,4})$/;

/** The contract version each plugin was admitted with, for the defaults that depend on it (`knownAt`). */
const admitted = new WeakMap<object, string>();
/** The warning of each plugin admitted without a record, raised where it is deployed (`contractWarningOf`). */
const warnings = new WeakMap<object, string>();

/**
 * The plugin contract's version, and the check every discovery runs (npm manifests here, Java's ServiceLoader and
 * Python's entry points in their deployment apps): a plugin built against a newer minor or another major is refused,
 * naming both versions and the fix. One built against an older minor of the same major loads; one with no record loads
 * with a warning. docs/writing-a-plugin.md, "Upgrading".
 */
export class PluginContract {
  /** This framework's plugin contract, `MAJOR.MINOR` (docs/writing-a-plugin.md, "Upgrading", gives the rule). */
  public static readonly VERSION: string = PLUGIN_CONTRACT_VERSION;

  /** Where a plugin's npm package records the version it was built against: `package.json`'s `fw.pluginContract`. */
  public static readonly NPM_FIELD: string = `${PLUGIN_CONTRACT_RECORD.npmField}.${PLUGIN_CONTRACT_RECORD.key}`;

  /** Where a plugin's JAR records it: this resource, `{"pluginContract": "MAJOR.MINOR"}`. */
  public static readonly JAVA_RESOURCE: string = PLUGIN_CONTRACT_RECORD.javaResource;

  /** Where a plugin's Python distribution records it: this file of its metadata (`.dist-info`), the same JSON. */
  public static readonly PYTHON_METADATA_FILE: string = PLUGIN_CONTRACT_RECORD.pythonMetadataFile;

  /**
   * Admits a discovered plugin: refuses it when it was built against a contract this framework cannot honour, and
   * remembers the version for the defaults that depend on it. Returns a warning to show when the plugin records no
   * version (it loads as if built against this framework's), otherwise undefined.
   *
   * @param spec the plugin, as discovery constructed it
   * @param source what names the plugin to a person: its class and its package, JAR or distribution
   * @param builtAgainst the recorded version (`MAJOR.MINOR`); undefined when the package records none
   * @param frameworkVersion the framework's contract to check against, `PluginContract.VERSION` when undefined; only
   *   the end-to-end test gives another (a framework one minor or one major newer)
   */
  public static admit(spec: IApplicationSpec, source: string, builtAgainst?: string, frameworkVersion?: string): string | undefined {
    const framework = frameworkVersion ?? PluginContract.VERSION;
    const warning = compatibilityProblem(source, builtAgainst, framework);
    admitted.set(spec, builtAgainst ?? framework);
    if (warning) warnings.set(spec, warning);
    return warning;
  }

  private constructor() {}
}

/**
 * The warning for a plugin with no record, or undefined when it is compatible; throws, naming both versions and the
 * fix, when it is not.
 */
function compatibilityProblem(source: string, builtAgainst: string | undefined, framework: string): string | undefined {
  const [frameworkMajor, frameworkMinor] = parse('the framework\'s contract version', framework);
  if (builtAgainst === undefined) {
    return `${source} records no plugin contract version (${PluginContract.NPM_FIELD} in package.json, ${PluginContract.JAVA_RESOURCE} ` +
      `in a JAR, ${PluginContract.PYTHON_METADATA_FILE} in a Python distribution): loaded as if built against ${framework}, this ` +
      'framework\'s. Build it with @fw/plugin-template, which records it.';
  }
  const [major, minor] = parse(`${source}: its recorded plugin contract version`, builtAgainst);
  const newer = !atMost([major, minor], [frameworkMajor, frameworkMinor]);
  if (major === frameworkMajor && !newer) return undefined;
  throw new UserError(`${source} was built against plugin contract ${builtAgainst}; this framework's is ${framework}. ` + (newer
    ? `It may use what this framework does not have: upgrade @fw/core to a release with plugin contract ${major}.${minor} or later ` +
      '(docs/writing-a-plugin.md, "Upgrading", lists them).'
    : 'A major apart, what it implements may mean something else here: rebuild the plugin with the template\'s upgrade-fw task ' +
      `(npx projen upgrade-fw), or deploy with an @fw/core release of plugin contract ${major}.x.`));
}

/** Whether version `a` is `b` or an earlier one (major first, then minor). */
function atMost([aMajor, aMinor]: [number, number], [bMajor, bMinor]: [number, number]): boolean {
  return aMajor < bMajor || (aMajor === bMajor && aMinor <= bMinor);
}

function parse(what: string, version: string): [number, number] {
  const match = typeof version === 'string' ? VERSION_FORM.exec(version) : null;
  if (!match) throw new UserError(`${what} is ${shownValue(version)}; expected MAJOR.MINOR, for example ${PLUGIN_CONTRACT_VERSION}.`);
  return [Number(match[1]), Number(match[2])];
}

/** The warning a plugin was admitted with (its package records no contract version), if any. */
export function contractWarningOf(spec: IApplicationSpec): string | undefined {
  return warnings.get(spec);
}

/**
 * The contract version each auth mode was added in, read from `AUTH_MODES`, the one place a mode is declared. A list
 * that can grow is given to a plugin only as far as its contract knew it: a mode added after the plugin's version is
 * not accepted for it, whatever its `supportedAuthModes()`.
 */
export function authModesSince(): Record<string, string> {
  return Object.fromEntries(Object.entries(AUTH_MODES).map(([mode, { since }]) => [mode, since]));
}

/** The contract version each runtime was added in: a plugin is deployed only on the runtimes its contract knew. */
export const RUNTIME_TYPES_SINCE: Record<string, string> = {
  [RuntimeType.FARGATE]: '1.0',
  [RuntimeType.EC2]: '1.0',
};

/**
 * The values of `values` (of a list that can grow, each dated in `since`) a plugin knew, by the contract version it was
 * admitted with. A plugin nobody admitted (made in code, compiled with this framework) knows this framework's.
 */
export function knownAt(spec: IApplicationSpec, values: string[], since: Record<string, string>): string[] {
  const known = parse('a plugin\'s contract version', admitted.get(spec) ?? PluginContract.VERSION);
  return values.filter((value) => since[value] !== undefined && atMost(parse(`the contract version of ${value}`, since[value]), known));
}

/**
 * The plugin contract's version, `MAJOR.MINOR`: the one place it is declared. `.projenrc.ts` copies it into
 * `@fw/core`'s package.json (`fw.pluginContract`), where the plugin template reads it, and `PluginContract.VERSION`
 * exports it. No imports: `.projenrc.ts` loads this file as it is.
 *
 * The rule (docs/writing-a-plugin.md, "Upgrading"): MAJOR for an incompatible change to what a plugin implements or
 * calls (a member removed, renamed or given another meaning, a new member without a default); MINOR for an addition a
 * plugin built before it keeps working without (a member with a default in `ApplicationSpec`, a builder operation, a
 * value of a list that can grow, which a plugin built against an older minor is then not given).
 */
export const PLUGIN_CONTRACT_VERSION = '1.1';

/** Where a plugin package records the contract version it was built against, in each language's form. */
export const PLUGIN_CONTRACT_RECORD = {
  /** npm: `package.json`'s `fw.pluginContract`. */
  npmField: 'fw',
  key: 'pluginContract',
  /** Java: a resource beside `META-INF/services/...` in the JAR, `{"pluginContract": "1.0"}`. */
  javaResource: 'META-INF/fw/plugin.json',
  /** Python: a file of the distribution's metadata (its `.dist-info` directory), the same JSON. */
  pythonMetadataFile: 'fw_plugin.json',
} as const;

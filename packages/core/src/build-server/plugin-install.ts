import { PLUGIN_TOOL_FLAGS } from './versions';

/**
 * The commands that leave the plugin directory holding exactly the pins, on both runtimes, at every start (a task's on
 * Fargate, an instance's boot on EC2): everything in it is removed, then the plugin tool installs `plugins.txt`.
 * The directory is on the persistent volume and the tool only adds or upgrades (plugin-installation-manager-tool
 * 2.15.0 PluginManager.java 275-300: an installed `.jpi` at or above the requested version is kept), so without the
 * removal a plugin dropped from the pins (ldap, workflow-aggregator) would still load, unseen by
 * `knownVulnerabilities()`, and one upgraded in the UI would stay upgraded. Removed by the script rather than by the
 * tool's `--clean-download-directory`, so that what is removed is visible in the user data and the init container.
 * Every start then downloads every plugin, as a first start did: `PLUGIN_DOWNLOAD_SECONDS` budgets it.
 *
 * @param tool the plugin tool's command line up to its options, for example `jenkins-plugin-cli`
 * @param pluginDir the plugin directory, quoted for the shell where needed
 * @param pluginFile the pinned `plugins.txt`, quoted for the shell where needed
 */
export function pinnedPluginCommands(tool: string, pluginDir: string, pluginFile: string): string[] {
  return [
    `find ${pluginDir} -mindepth 1 -delete`,
    `${tool} --plugin-download-directory ${pluginDir} --plugin-file ${pluginFile} ${PLUGIN_TOOL_FLAGS.join(' ')}`,
  ];
}

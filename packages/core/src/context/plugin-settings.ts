import type { IApplicationSpec } from '../contract/application-spec';
import { callPlugin } from '../contract/plugin-calls';
import type { PluginSetting } from '../contract/plugin-setting';
import { shownValue, UserError } from '../errors';
import { didYouMean } from './did-you-mean';

/** A setting's name: what a JSON key in `cdk.json` and `-c` both carry without quoting. */
const SETTING_NAME = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;

/**
 * The plugin a deployment runs: the plugin itself when it declares no `settings()`, otherwise what its
 * `withSettings()` returns for the `pluginSettings` given (each checked against the declaration, every problem at
 * once, as the context keys are) and the declared defaults.
 */
export function configuredSpec(plugin: string, spec: IApplicationSpec, given: Record<string, string> | undefined): IApplicationSpec {
  const declared = callPlugin(plugin, 'settings', () => spec.settings());
  const declarationProblems = declared.flatMap((s, i) => settingProblems(`${plugin}.settings()[${i}]`, s, declared));
  if (declarationProblems.length > 0) {
    throw new UserError(`${plugin}.settings() is not a valid declaration:\n  - ${declarationProblems.join('\n  - ')}`);
  }
  const values = given ?? {};
  if (declared.length === 0) {
    if (Object.keys(values).length === 0) return spec;
    throw new UserError(`pluginSettings gives ${Object.keys(values).join(', ')}, but ${plugin} (applicationId ` +
      `${spec.applicationId()}) takes no settings (its settings() declares none); remove pluginSettings.`);
  }

  const names = declared.map((s) => s.name);
  const problems: string[] = [];
  for (const name of Object.keys(values).filter((n) => !names.includes(n))) {
    const suggestion = didYouMean(name, names);
    problems.push(`unknown setting '${name}'${suggestion ? `; did you mean '${suggestion}'?` : ''} Settings of ${plugin}: ${names.join(', ')}.`);
  }
  const resolved: Record<string, string> = {};
  for (const setting of declared) {
    const value = values[setting.name] ?? setting.defaultValue;
    if ((value === undefined || value === '') && setting.optional === true) continue;
    if (value === undefined || value === '') {
      problems.push(`${setting.name} is required by ${plugin}: ${setting.description}`);
    } else if (setting.pattern !== undefined && !new RegExp(`^(?:${setting.pattern})$`).test(value)) {
      const shown = setting.sensitive ? `(hidden, ${value.length} characters)` : shownValue(value);
      problems.push(`${setting.name} ${shown} is not allowed; expected ${setting.allowed ?? `text matching ${setting.pattern}`}.`);
    } else {
      resolved[setting.name] = value;
    }
  }
  if (problems.length > 0) {
    throw new UserError(`Invalid pluginSettings for ${plugin} (${problems.length} problem${problems.length > 1 ? 's' : ''}):\n` +
      problems.map((p) => `  - ${p}`).join('\n'));
  }
  const configured = callPlugin(plugin, 'withSettings', () => spec.withSettings(resolved));
  if (configured?.applicationId?.() !== spec.applicationId()) {
    throw new UserError(`${plugin}.withSettings() returned a plugin whose applicationId is ` +
      `${shownValue(configured?.applicationId?.())}, not ${JSON.stringify(spec.applicationId())}: it must return the same plugin, configured.`);
  }
  return configured;
}

/** What is wrong with one declared setting, as the plugin's author must fix it. */
function settingProblems(where: string, setting: PluginSetting, all: PluginSetting[]): string[] {
  const problems: string[] = [];
  if (typeof setting.name !== 'string' || !SETTING_NAME.test(setting.name)) {
    problems.push(`${where}.name ${shownValue(setting.name)} is not allowed; expected a letter, then letters, digits and _, at most 63 characters.`);
  } else if (all.filter((s) => s.name === setting.name).length > 1) {
    problems.push(`${where}.name '${setting.name}' is declared more than once.`);
  }
  if (setting.pattern !== undefined) {
    let pattern: RegExp | undefined;
    try {
      pattern = new RegExp(`^(?:${setting.pattern})$`);
    } catch (e) {
      problems.push(`${where}.pattern ${shownValue(setting.pattern)} is not a regular expression: ${(e as Error).message}.`);
    }
    if (pattern && setting.defaultValue !== undefined && !pattern.test(setting.defaultValue)) {
      problems.push(`${where}.defaultValue ${setting.sensitive ? '(hidden)' : shownValue(setting.defaultValue)} does not match its own pattern.`);
    }
  }
  return problems;
}

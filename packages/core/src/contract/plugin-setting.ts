/**
 * One setting a plugin takes by configuration (`IApplicationSpec.settings()`): given in the `pluginSettings` context
 * key (or the factory's prop of that name), checked by the framework with the messages of its own keys, and handed to
 * `IApplicationSpec.withSettings()` as text.
 */
export interface PluginSetting {
  /** The setting's name in `pluginSettings`, for example `jdbcUrl`. */
  readonly name: string;
  /** What the setting is, for the error that says it is missing. */
  readonly description: string;
  /**
   * A regular expression (JavaScript syntax) the whole text must match.
   * @default - any text that is not empty
   */
  readonly pattern?: string;
  /**
   * What `pattern` allows, in words with an example, for the error that refuses a value.
   * @default - the pattern itself
   */
  readonly allowed?: string;
  /**
   * The value when the setting is not given. A setting without one is required.
   * @default - none: the setting is required
   */
  readonly defaultValue?: string;
  /**
   * Whether the setting may be left out (without a `defaultValue`): `withSettings()` then receives no entry for it.
   * @default false: a setting without `defaultValue` is required
   */
  readonly optional?: boolean;
  /**
   * Whether the value is a secret (never shown in an error). Prefer `secrets` for secrets: a setting's value is
   * written into the template.
   * @default false
   */
  readonly sensitive?: boolean;
}

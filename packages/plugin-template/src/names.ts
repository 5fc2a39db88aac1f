/** How one plugin name becomes every other name the project needs. */
export interface PluginNames {
  /** The npm name without its scope, for example `gitlab-plugin`. */
  readonly base: string;
  /** Letters and digits only, for Java and Go: `gitlabplugin`. */
  readonly flat: string;
  /** The default application id: the base without a trailing `-plugin`: `gitlab`. */
  readonly applicationId: string;
  /** `Gitlab` (for class names). */
  readonly pascal: string;
}

export function pluginNames(npmName: string, applicationId?: string): PluginNames {
  const base = npmName.replace(/^@[^/]+\//, '');
  const id = applicationId ?? (base.replace(/-plugin$/, '').replace(/[^a-z0-9-]/g, '') || 'app');
  return {
    base,
    flat: base.replace(/[^a-zA-Z0-9]/g, '').toLowerCase(),
    applicationId: id,
    pascal: pascalCase(id),
  };
}

/** Words of letters and digits, each capitalised and joined: `acme-corp` gives `AcmeCorp`. */
export function pascalCase(text: string): string {
  return text.split(/[^a-zA-Z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

/**
 * The registration manifest (spec procedure 1). The file name is the contract's Java fully qualified name in the
 * npm package and in the JAR alike; each line names one implementing class (jsii names in the npm package, Java
 * names in the JAR); `#` starts a comment.
 */
export const CONTRACT_JAVA_FQN = 'dev.fwframework.core.IApplicationSpec';

/** Where the manifest sits, relative to a package's root (npm) or the JAR's root (Java). */
export const MANIFEST_PATH = `META-INF/services/${CONTRACT_JAVA_FQN}`;

/** One class named by a manifest. */
export interface ManifestEntry {
  /** The name as written, for example `@acme/gitlab-plugin.GitlabSpec`. */
  readonly className: string;
  /** 1-based line number, for error messages. */
  readonly line: number;
}

/** The class names in a manifest's text, skipping blank lines and `#` comments (whole-line or trailing). */
export function parseManifest(text: string): ManifestEntry[] {
  return text.split(/\r?\n/)
    .map((raw, i) => ({ className: raw.replace(/#.*$/, '').trim(), line: i + 1 }))
    .filter((e) => e.className !== '');
}

/** What a software component is, as CycloneDX names its component types. */
export enum SoftwareComponentType {
  /** A program the application is, or runs (Jenkins core). */
  APPLICATION = 'application',
  /** A library or add-on it loads (a Jenkins plugin). */
  LIBRARY = 'library',
  /** A container image. */
  CONTAINER = 'container',
  /** An operating-system package. */
  OPERATING_SYSTEM = 'operating-system',
}

/**
 * A piece of software the application installs, pinned at a version: a row of the deployment's bill of materials
 * (CycloneDX, beside the PCI DSS evidence report), the inventory PCI DSS 6.3.2 asks for.
 */
export interface SoftwareComponent {
  /** Its name, for example `jenkins-core` or a Jenkins plugin's id. */
  readonly name: string;
  /** The version the application installs. */
  readonly version: string;
  /** What it is. */
  readonly type: SoftwareComponentType;
  /**
   * Its package URL (https://github.com/package-url/purl-spec), for example `pkg:maven/org.jenkins-ci.main/jenkins-war@2.568.2`.
   * @default - none
   */
  readonly purl?: string;
  /**
   * The SHA-256 of what is installed (64 hexadecimal digits), where the application pins it: the bill of materials'
   * hash of the component.
   * @default - none
   */
  readonly sha256?: string;
  /**
   * The names of the components it needs, each listed in the same `softwareComponents()`: the bill of materials'
   * dependency graph (for example a Jenkins plugin's required plugins and Jenkins core).
   * @default - none
   */
  readonly dependsOn?: string[];
}

/** A component's SHA-256: 64 lower-case hexadecimal digits. */
const SHA256 = /^[0-9a-f]{64}$/;

/** Every problem with a plugin's software components, each naming the entry, its value and what is allowed. */
export function softwareComponentProblems(list: unknown, where: string): string[] {
  if (!Array.isArray(list)) return [`${where} returned ${JSON.stringify(list)}; allowed: a list of SoftwareComponent.`];
  const types = Object.values(SoftwareComponentType) as string[];
  const seen = new Set<string>();
  return list.flatMap((c: SoftwareComponent, i) => {
    const problems: string[] = [];
    const at = `${where}[${i}]`;
    if (typeof c?.name !== 'string' || c.name.trim() === '') problems.push(`${at}.name ${JSON.stringify(c?.name)}; allowed: a non-empty name.`);
    if (typeof c?.version !== 'string' || c.version.trim() === '') problems.push(`${at}.version ${JSON.stringify(c?.version)}; allowed: the installed version.`);
    if (!types.includes(c?.type)) problems.push(`${at}.type ${JSON.stringify(c?.type)}; allowed: ${types.join(', ')} (SoftwareComponentType).`);
    if (c?.purl !== undefined && !/^pkg:[a-z][a-z0-9.+-]*\/\S+$/.test(c.purl)) {
      problems.push(`${at}.purl ${JSON.stringify(c.purl)}; allowed: a package URL, pkg:<type>/<name>@<version>.`);
    }
    if (c?.sha256 !== undefined && !SHA256.test(c.sha256)) problems.push(`${at}.sha256 ${JSON.stringify(c.sha256)}; allowed: 64 lower-case hexadecimal digits.`);
    const needs = c?.dependsOn;
    const names = new Set(list.map((other: SoftwareComponent) => other?.name));
    if (needs !== undefined && (!Array.isArray(needs) || !needs.every((n) => typeof n === 'string' && names.has(n) && n !== c.name))) {
      problems.push(`${at}.dependsOn ${JSON.stringify(needs)}; allowed: names of the other components listed.`);
    }
    const key = `${c?.name}@${c?.version}`;
    if (seen.has(key)) problems.push(`${at}: ${key} is listed twice; each component once.`);
    seen.add(key);
    return problems;
  });
}

/** The parts of a jsii assembly (`.jsii`) that name its dependencies' Maven artifacts. */
export interface AssemblyDependencies {
  readonly dependencyClosure?: Record<string, { readonly targets?: { readonly java?: { readonly maven?: MavenName } } }>;
}

/** A Maven artifact's name. */
export interface MavenName {
  readonly groupId: string;
  readonly artifactId: string;
}

/**
 * The Maven names of a jsii package's npm peer dependencies, `groupId:artifactId`. A peer dependency is npm's form of
 * Maven's `provided` (the consumer supplies it), and its Maven name is the one its own assembly declares, which jsii
 * copies into this package's assembly: so nothing here restates a name.
 */
export function peerMavenNames(peerDependencies: Record<string, string>, assembly: AssemblyDependencies): string[] {
  return Object.keys(peerDependencies).map((npmName) => {
    const maven = assembly.dependencyClosure?.[npmName]?.targets?.java?.maven;
    if (!maven) throw new Error(`the peer dependency ${npmName} has no Maven name in the jsii assembly (is it a jsii package with a Java target?)`);
    return `${maven.groupId}:${maven.artifactId}`;
  });
}

const DEPENDENCY = /<dependency>[\s\S]*?<\/dependency>/g;

/**
 * The POM with `<scope>provided</scope>` on each dependency named (`groupId:artifactId`) and every other dependency
 * unchanged. jsii-pacmak writes one element a line, `<version>` in each dependency: the scope goes on the line after.
 * Throws when a name is not among the POM's dependencies, so a change in pacmak's output cannot pass unnoticed.
 */
export function withProvidedScope(pom: string, names: readonly string[]): string {
  const found = new Set<string>();
  const result = pom.replace(DEPENDENCY, (dependency) => {
    const name = `${element(dependency, 'groupId')}:${element(dependency, 'artifactId')}`;
    if (!names.includes(name)) return dependency;
    found.add(name);
    const scoped = /<scope>/.test(dependency)
      ? dependency.replace(/<scope>[^<]*<\/scope>/, '<scope>provided</scope>')
      : dependency.replace(/^([ \t]*)<version>[^<]*<\/version>$/m, (line, indent: string) => `${line}\n${indent}<scope>provided</scope>`);
    if (!scoped.includes('<scope>provided</scope>')) throw new Error(`the POM's dependency ${name} has no <version> line to put the scope after`);
    return scoped;
  });
  const missing = names.filter((n) => !found.has(n));
  if (missing.length > 0) throw new Error(`the POM has no dependency ${missing.join(', ')}`);
  return result;
}

function element(xml: string, name: string): string | undefined {
  return new RegExp(`<${name}>\\s*([^<]*?)\\s*</${name}>`).exec(xml)?.[1];
}

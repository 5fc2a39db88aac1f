import * as fs from 'node:fs';
import * as path from 'node:path';
import { refreshChecksums } from './checksums';
import { AssemblyDependencies, MavenName, peerMavenNames, withProvidedScope } from './provided-scope';

/** What finishing changed. */
export interface FinishedArtifact {
  /** The POM, relative to the project. */
  readonly pom: string;
  /** The dependencies now `provided` (`groupId:artifactId`). */
  readonly provided: string[];
  /** The checksum files rewritten. */
  readonly checksums: string[];
}

/**
 * The last step of a plugin's `package:java` (`fw-finish-maven-artifact`), once jsii-pacmak has written the Maven
 * artifact (a repository layout in `<jsii outdir>/java`) and the registration manifest has been added to the JAR:
 * - the specification's procedure 2: the framework and the CDK are dependencies of scope `provided`. pacmak gives every
 *   dependency the default scope (compile), so the npm peer dependencies (the framework, aws-cdk-lib, constructs)
 *   become `provided` in the POM; the others (the jsii runtime) keep theirs.
 * - the checksums pacmak wrote beside the JAR and the POM describe them before these changes: each stale one is
 *   rewritten from its file's content, or Maven with strict checksums (`mvn -C`) refuses the artifact.
 */
export function finishMavenArtifact(projectDir: string): FinishedArtifact {
  const pkg = JSON.parse(fs.readFileSync(path.join(projectDir, 'package.json'), 'utf-8'));
  const assembly: AssemblyDependencies & { version: string; targets?: { java?: { maven?: MavenName } } } =
    JSON.parse(fs.readFileSync(path.join(projectDir, '.jsii'), 'utf-8'));
  const maven = assembly.targets?.java?.maven;
  if (!maven) throw new Error('the jsii assembly (.jsii) has no Java target');
  // pacmak's layout: <outdir>/java/<group path>/<artifactId>/<version>/<artifactId>-<version>.pom
  const dir = path.join(pkg.jsii?.outdir ?? 'dist', 'java', ...maven.groupId.split('.'), maven.artifactId, assembly.version);
  const pom = path.join(dir, `${maven.artifactId}-${assembly.version}.pom`);
  const provided = peerMavenNames(pkg.peerDependencies ?? {}, assembly);
  const pomPath = path.join(projectDir, pom);
  fs.writeFileSync(pomPath, withProvidedScope(fs.readFileSync(pomPath, 'utf-8'), provided));
  return { pom, provided, checksums: refreshChecksums(path.join(projectDir, dir)) };
}

/** The command line: finishes the artifact of the project in the working directory and says what it changed. */
export function main(): void {
  try {
    const done = finishMavenArtifact(process.cwd());
    console.log(`fw-finish-maven-artifact: ${done.pom}: ${done.provided.join(', ')} provided; ` +
      `checksums rewritten: ${done.checksums.join(', ') || 'none'}`);
  } catch (e) {
    console.error(`fw-finish-maven-artifact: ${(e as Error).message}`);
    process.exitCode = 1;
  }
}

/**
 * The versions the framework is built and tested with, in one place: the repository's `.projenrc.ts` builds every
 * package with them, and the scaffold gives a plugin the same floors and tool versions.
 */
export const VERSIONS = {
  /** aws-cdk-lib floor: cdk-nag 3 needs 2.257+, Go needs above 2.257, Maven Central's index here lists up to 2.263. */
  awsCdkLib: '2.263.0',
  constructs: '10.8.1',
  /** The CDK command line (`cdk synth`). */
  awsCdkCli: '2.1148.1',
  jsii: '~6.0.16',
  typescript: '~6.0.3',
  projen: '0.103.25',
  /**
   * The oldest Node.js the packages declare (`engines`): the maintained LTS lines, 22 and 24 (Node 20 reached end of
   * life on 2026-04-30). The test command runs on 24 (scripts/setup.sh installs it where the machine's Node is older).
   */
  nodeMin: '22.0.0',
} as const;

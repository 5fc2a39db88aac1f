/**
 * The versions the framework is built and tested with, in one place: the repository's `.projenrc.ts` builds every
 * package with them, and the scaffold gives a plugin the same floors and tool versions.
 */
export const VERSIONS = {
  /**
   * aws-cdk-lib floor of the peer ranges: cdk-nag 3 needs 2.257+, Go needs above 2.257, and Maven Central's index here
   * lists up to 2.263, so jsii-pacmak's Java range (`[floor,3.0.0)`) cannot start higher. A floor is not what anyone
   * installs (npm and Maven take the newest in range); what we build, test and pin is `awsCdkLibTested` (Java: `awsCdkLibJava`).
   */
  awsCdkLib: '2.263.0',
  /**
   * The aws-cdk-lib the repository, the deployment apps and a new plugin build and test with on npm, PyPI and Go:
   * 2.270.0, the newest the Go proxy serves with what its module requires (cloud-assembly-schema-go v54.11.0; it
   * refuses awscdk v2.271.0) on 2026-12-06, when npm has 2.278.0. It bundles brace-expansion 5.0.9, outside
   * CVE-2026-69152 (GHSA-rgw5-rvv9-x895), which the floor's 2.263.0 bundles 5.0.7 under (test/dependencies/).
   */
  awsCdkLibTested: '2.270.0',
  /**
   * The same for Java (the deployment app's and the Java example's poms): Maven Central here serves the jars of 2.263.0
   * and 2.271.0 but not those between (their poms only). 2.271.0 bundles brace-expansion 5.0.9 too.
   */
  awsCdkLibJava: '2.271.0',
  constructs: '10.8.1',
  /**
   * The CDK command line (`cdk synth`): 2.1149.0, npm's `latest` (2026-11-19). Not 3.0.0: npm has it, published on
   * 2026-03-21, eight months before 2.1149.0, and never tagged `latest`; the maintained line is 2.1xxx.
   */
  awsCdkCli: '2.1149.0',
  jsii: '~6.0.16',
  typescript: '~6.0.3',
  projen: '0.103.25',
  /**
   * The oldest Node.js the packages declare (`engines`): the maintained LTS lines, 22 and 24 (Node 20 reached end of
   * life on 2026-04-30). The test command runs on 24 (scripts/setup.sh installs it where the machine's Node is older).
   */
  nodeMin: '22.0.0',
} as const;

/**
 * Every version the build server depends on, pinned in one place. Plugin versions are those whose Jenkins baseline
 * the pinned LTS satisfies; update them together, from the plugins' own release tags.
 */

/** Jenkins LTS; the container image and the EC2 package are the same release. */
export const JENKINS_LTS = '2.568.2';

/** The official LTS image on JDK 21, pinned to the release. */
export const JENKINS_IMAGE = `jenkins/jenkins:${JENKINS_LTS}-lts-jdk21`;

/**
 * The build agents' image: the official inbound agent on the controller's Java (21), debian, at the docker-agent
 * release 3355.v388858a_47b_33-5, whose remoting is the line the controller bundles (jenkins-2.568.2 pom.xml line 90:
 * remoting 3355.3357.v931d3c992987). Tag as that release's docker-bake.hcl line 344 forms it:
 * `<REMOTING_VERSION>-<BUILD_NUMBER>-jdk<N>`.
 */
export const AGENT_IMAGE = 'jenkins/inbound-agent:3355.v388858a_47b_33-5-jdk21';

/** The Java runtime on EC2 (Amazon Linux 2023 package). */
export const EC2_JAVA_PACKAGE = 'java-21-amazon-corretto-headless';

/** The vendor repository of the EC2 package. */
export const JENKINS_RPM_REPO = 'https://pkg.jenkins.io/rpm-stable/jenkins.repo';
/**
 * The key the repository's packages are signed with: the key that signs the pinned release's war, `jenkins.io-2026.key`
 * (jenkinsci/docker@2.568.2 debian/Dockerfile line 52 verifies the war with it), at pkg.jenkins.io's address for its
 * keys (the name of the 2023 key's, whose release line it replaced). That the address serves it is not checkable here.
 */
export const JENKINS_RPM_KEY = 'https://pkg.jenkins.io/rpm-stable/jenkins.io-2026.key';

/**
 * Installs the plugins on EC2: the same tool and release as `jenkins-plugin-cli` in the pinned image
 * (jenkinsci/docker@2.568.2, debian/Dockerfile line 128: PLUGIN_CLI_VERSION=2.15.0).
 */
export const PLUGIN_MANAGER_VERSION = '2.15.0';
export const PLUGIN_MANAGER_URL =
  `https://github.com/jenkinsci/plugin-installation-manager-tool/releases/download/${PLUGIN_MANAGER_VERSION}/jenkins-plugin-manager-${PLUGIN_MANAGER_VERSION}.jar`;
/**
 * SHA-256 of that JAR, checked before it runs as root. Undefined: the release asset is published only on GitHub,
 * which the machines that build this package cannot reach, so no value could be read and checked here. Until it is
 * set, the user data checks the JAR against the `.sha256` file published beside it, as the official image does
 * (jenkinsci/docker@2.568.2, debian/Dockerfile lines 130-132): integrity of the download, not a pin. Set it from the
 * release's own `.sha256` file when you can reach it; the README says how.
 */
export const PLUGIN_MANAGER_SHA256: string | undefined = undefined;

/**
 * The plugin tool's flag that stops transitive plugins from floating to the newest release: dependencies are taken at
 * the versions the pinned plugins declare (plugin-installation-manager-tool@2.15.0, CliOptions.java lines 150-154:
 * `--latest` defaults to true).
 */
export const PLUGIN_TOOL_FLAGS = ['--latest', 'false'] as const;

/** The plugins installed before Jenkins starts, on both runtimes: the spec's six, then what the configuration needs. */
export const JENKINS_PLUGINS: ReadonlyArray<readonly [id: string, version: string]> = [
  ['matrix-auth', '3.2.8'],
  ['ldap', '807.v7d7de30930cf'],
  ['oic-auth', '4.715.vf202e4229f61'],
  ['credentials-binding', '728.v902a_273b_8947'],
  ['mask-passwords', '220.v95819055b_265'],
  ['audit-trail', '436.vc0d1e79fc5a_3'],
  ['configuration-as-code', '2117.vc05a_0b_e6b_f4e'],
  ['job-dsl', '3654.vdf58f53e2d15'],
  // The compliance jobs are pipelines, and the pipeline library is a global library fetched with git.
  ['workflow-aggregator', '608.v67378e9d3db_1'],
  ['git', '5.10.1'],
  // Pinned rather than left to whichever version a dependent declares, because the configuration sets their keys
  // (security.scriptApproval, unclassified.globalLibraries) and the conformance schema is read at these tags.
  ['script-security', '1402.1405.vc96e74964250'],
  ['pipeline-groovy-lib', '798.v5cc688825312'],
  // The quality gate of the pipeline library (`qualityGate()`) uses its step waitForQualityGate.
  ['sonar', '2.18.2'],
  // Starts each build's agent as an ECS Fargate task (jenkins.clouds); the newest release, whose baseline is 2.387.3.
  ['amazon-ecs', '1.49'],
  // The SonarQube server's token and webhook secret, as secret-text credentials configured as code (`credentials`,
  // `string`); the newest releases, whose baselines (2.541, 2.479) the LTS satisfies.
  ['credentials', '1502.v5c95e620ddfe'],
  ['plain-credentials', '199.v9f8e1f741799'],
];

/** plugins.txt, the format of jenkins-plugin-cli and the plugin manager: `id:version` a line. */
export function pluginsTxt(): string {
  return JENKINS_PLUGINS.map(([id, version]) => `${id}:${version}`).join('\n') + '\n';
}

/**
 * Every version the build server depends on, pinned in one place. Plugin versions are those whose Jenkins baseline
 * the pinned LTS satisfies; update them together, from the plugins' own release tags.
 */

/**
 * A pinned release and where its source is read: the pin the product installs and the input of the conformance
 * schema's generator (tools/casc-schema/generate.sh reads {@link CASC_SCHEMA_SOURCES} from this file), so that a
 * version is written once.
 */
export interface JenkinsPin {
  readonly id: string;
  readonly version: string;
  /** GitHub repository, `owner/name`. */
  readonly repository: string;
  /** The release's git tag: the version, after this prefix (the older plugins' tags start with their name). */
  readonly tagPrefix?: string;
  /** Code roots whose declarations the generator reads (a sibling `resources` is read too); none for an aggregator. */
  readonly codeRoots: readonly string[];
  /**
   * The release whose source the checks read (the conformance schema, the cited lines) where the pinned release's
   * source is not readable here; the reason is written beside the pin.
   * @default the pinned release
   */
  readonly sourceRead?: string;
}

/** The release whose source the checks read: {@link JenkinsPin.sourceRead}, else the pin. */
export function sourceVersion(pin: JenkinsPin): string {
  return pin.sourceRead ?? pin.version;
}

/** The git tag of the release whose source is read ({@link sourceVersion}). */
export function pinTag(pin: JenkinsPin): string {
  return `${pin.tagPrefix ?? ''}${sourceVersion(pin)}`;
}

/** Jenkins core at the LTS; the container image and the EC2 package are the same release. */
export const JENKINS_CORE: JenkinsPin = {
  id: 'jenkins-core', version: '2.568.2', repository: 'jenkinsci/jenkins', tagPrefix: 'jenkins-', codeRoots: ['core/src/main/java'],
};

/** Jenkins LTS, {@link JENKINS_CORE}'s version. */
export const JENKINS_LTS = JENKINS_CORE.version;

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

/**
 * What the controller needs on EC2 besides Jenkins, installed by name rather than left to weak dependencies:
 * - the font stack: Jenkins creates an AWT `Font` at start (jenkins-2.568.2 `hudson/util/ChartUtil.java` lines 267-273)
 *   and refuses to boot when that fails (`hudson/WebAppMain.java` lines 218-221, `AWTProblem`). On Amazon Linux 2023
 *   Corretto's headless package only *recommends* fontconfig, freetype and the DejaVu fonts (corretto-21
 *   `java-amazon-corretto.spec.template`, `%package headless`), so with `install_weak_deps=0` (a CIS benchmark item)
 *   nothing would install them; the official image installs them on purpose (jenkinsci/docker@2.568.2
 *   `debian/Dockerfile`: `libfontconfig1`, `libfreetype6`);
 * - git: the pipeline library and every "Pipeline script from SCM" are fetched with the git CLI on the controller
 *   (the official image installs `git`; the RPM requires only `procps`);
 * - logrotate, which rotates `jenkins.log`.
 */
export const EC2_CONTROLLER_PACKAGES = [EC2_JAVA_PACKAGE, 'fontconfig', 'freetype', 'dejavu-sans-fonts', 'git-core', 'logrotate'] as const;

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
 * release's own `.sha256` file when you can reach it; docs/build-server.md says how.
 */
export const PLUGIN_MANAGER_SHA256: string | undefined = undefined;

/**
 * The plugin tool's flag that stops transitive plugins from floating to the newest release: dependencies are taken at
 * the versions the pinned plugins declare (plugin-installation-manager-tool@2.15.0, CliOptions.java lines 150-154:
 * `--latest` defaults to true).
 */
export const PLUGIN_TOOL_FLAGS = ['--latest', 'false'] as const;

/**
 * The plugins installed before Jenkins starts, on both runtimes, each for a reason: nothing is installed that the
 * configuration, the jobs, the pipeline library or a Jenkinsfile does not use. The hardening specification's list names `ldap` too; it is
 * not installed (issue 46): the realm is OIDC, no plugin requires it, and it carried SECURITY-3654 and SECURITY-3678.
 * `workflow-aggregator` is replaced by the pipeline plugins it bundled that are used, which leaves out
 * `pipeline-build-step` (the `build` step, SECURITY-3870) and `pipeline-milestone-step`.
 */
export const JENKINS_PLUGINS: readonly JenkinsPin[] = [
  // Authorisation: the project matrix of jenkins.authorizationStrategy. 3.2.10 fixes SECURITY-3676 and is the release
  // the pinned core's war bundles as a detached plugin (jenkins-2.568.2 war/pom.xml lines 291-294), so core's own build
  // tests it with this core. Its source is not in any snapshot here (matrix-auth-plugin ends at 3.2.8, 2025-08-21): the
  // configuration-as-code keys are checked against 3.2.8's, the newest readable, a patch release of the same line.
  plugin('matrix-auth', '3.2.10', 'matrix-auth-plugin', { tagPrefix: 'matrix-auth-', sourceRead: '3.2.8' }),
  // Sign-in: the OIDC realm (jenkins.securityRealm.oic).
  plugin('oic-auth', '4.715.vf202e4229f61', 'oic-auth-plugin'),
  // withCredentials in the pipeline library and the example Jenkinsfile.
  plugin('credentials-binding', '728.v902a_273b_8947', 'credentials-binding-plugin'),
  // Masks the configured card-data patterns in build logs (unclassified.maskPasswordsConfig).
  plugin('mask-passwords', '220.v95819055b_265', 'mask-passwords-plugin'),
  // The audit trail to file and syslog (unclassified.audit-trail).
  plugin('audit-trail', '436.vc0d1e79fc5a_3', 'audit-trail-plugin'),
  // Reads jenkins.yaml.
  plugin('configuration-as-code', '2117.vc05a_0b_e6b_f4e', 'configuration-as-code-plugin', { codeRoots: ['plugin/src/main/java'] }),
  // Creates the compliance jobs from their seed (jobs:).
  plugin('job-dsl', '3654.vdf58f53e2d15', 'job-dsl-plugin', { codeRoots: ['job-dsl-plugin/src/main/java', 'job-dsl-plugin/src/main/groovy'] }),
  // Pipeline jobs (the compliance jobs are pipelines) and their Groovy engine; workflow-cps past SECURITY-3677
  // (4331.v9d06ed4658ff and earlier) at the newest release a mirror here holds (the bom's 4370 is not held).
  plugin('workflow-job', '1571.1580.v18e46842c125', 'workflow-job-plugin'),
  plugin('workflow-cps', '4350.vcc65d4958821', 'workflow-cps-plugin', { codeRoots: ['plugin/src/main/java'] }),
  // echo, error, readFile, timeout, unstable, withEnv: the library's and the jobs' basic steps.
  plugin('workflow-basic-steps', '1098.v808b_fd7f8cf4', 'workflow-basic-steps-plugin'),
  // node and sh: builds on the ECS agents.
  plugin('workflow-durable-task-step', '1479.v56e587f413a_7', 'workflow-durable-task-step-plugin'),
  // stage.
  plugin('pipeline-stage-step', '312.v8cd10304c27a_', 'pipeline-stage-step-plugin'),
  // checkout scm.
  plugin('workflow-scm-step', '466.va_d69e602552b_', 'workflow-scm-step-plugin'),
  // Multibranch pipelines from a repository's Jenkinsfile (the example Jenkinsfile reads BRANCH_NAME). 821 is the
  // lowest release pipeline-groovy-lib 798 accepts as its optional dependency (its pom.xml lines 136-140), which the
  // plugin tool and core enforce; still under SECURITY-3729 (PINS_UNDER_ADVISORY).
  plugin('workflow-multibranch', '821.vc3b_4ea_780798', 'workflow-multibranch-plugin'),
  // Declarative pipelines (`pipeline { ... }`), the form most Jenkinsfiles take.
  plugin('pipeline-model-definition', '2.2218.v56d0cda_37c72', 'pipeline-model-definition-plugin', { codeRoots: ['pipeline-model-definition/src/main/java'] }),
  // The pipeline library is a global library fetched with git; "Pipeline script from SCM" uses git too.
  plugin('git', '5.10.1', 'git-plugin', { tagPrefix: 'git-' }),
  // Pinned rather than left to whichever version a dependent declares, because the configuration sets their keys
  // (security.scriptApproval, unclassified.globalLibraries) and the conformance schema is read at these tags.
  plugin('script-security', '1402.1405.vc96e74964250', 'script-security-plugin'),
  plugin('pipeline-groovy-lib', '798.v5cc688825312', 'pipeline-groovy-lib-plugin'),
  // The quality gate of the pipeline library (`qualityGate()`) uses its step waitForQualityGate.
  plugin('sonar', '2.18.2', 'sonarqube-plugin', { tagPrefix: 'sonar-' }),
  // Starts each build's agent as an ECS Fargate task (jenkins.clouds); the newest release, whose baseline is 2.387.3.
  plugin('amazon-ecs', '1.49', 'amazon-ecs-plugin', { tagPrefix: 'amazon-ecs-' }),
  // The SonarQube server's token and webhook secret, as secret-text credentials configured as code (`credentials`,
  // `string`); the newest releases, whose baselines (2.541, 2.479) the LTS satisfies.
  plugin('credentials', '1502.v5c95e620ddfe', 'credentials-plugin'),
  plugin('plain-credentials', '199.v9f8e1f741799', 'plain-credentials-plugin'),
];

/**
 * The plugins below {@link JENKINS_PLUGINS}: every plugin those require, directly or not, pinned so that nothing is left
 * to the plugin tool's choice. Each is the release jenkinsci/bom's 2.568.x line tests (tag 6916.v15ec97679743) where
 * that release's pom could be read and needs no newer pinned plugin or core, else the lowest release every requirer
 * accepts (what `jenkins-plugin-cli --latest false` would install): `node tools/jenkins-closure/derive.js --suggest
 * --bom 2.568.x` prints this list. It writes packages/core/jenkins/plugin-closure.json, each plugin's requirements read
 * from its own pom.xml at its tag; plugin-closure.test.ts fails when a required plugin is missing here or pinned below
 * what a requirer declares. The requirements of {@link PLUGINS_NOT_READ} are not read.
 */
export const JENKINS_PLUGIN_CLOSURE: readonly JenkinsPin[] = [
  plugin('antisamy-markup-formatter', '173.v680e3a_b_69ff3', 'antisamy-markup-formatter-plugin'),
  plugin('apache-httpcomponents-client-4-api', '4.5.14-269.vfa_2321039a_83', 'apache-httpcomponents-client-4-api-plugin'),
  plugin('apache-httpcomponents-client-5-api', '5.6.4-204.vfa_29df89ffcf', 'apache-httpcomponents-client-5-api-plugin'),
  plugin('asm-api', '9.9-185.va_6c6b_3348b_c3', 'asm-api-plugin'),
  plugin('aws-credentials', '218.v1b_e9466ec5da_', 'aws-credentials-plugin'),
  plugin('aws-java-sdk-ec2', '1.12.780-480.v4a_0819121a_9e', 'aws-java-sdk-plugin'),
  plugin('aws-java-sdk-ecs', '1.12.780-480.v4a_0819121a_9e', 'aws-java-sdk-plugin'),
  plugin('aws-java-sdk-efs', '1.12.780-480.v4a_0819121a_9e', 'aws-java-sdk-plugin'),
  plugin('aws-java-sdk-minimal', '1.12.780-480.v4a_0819121a_9e', 'aws-java-sdk-plugin'),
  plugin('bootstrap5-api', '5.3.8-1048.va_c299057e35c', 'bootstrap5-api-plugin'),
  plugin('bouncycastle-api', '2.30.1.84-291.v9f17b_21896e2', 'bouncycastle-api-plugin'),
  plugin('branch-api', '2.1280.v0d4e5b_b_460ef', 'branch-api-plugin'),
  plugin('caffeine-api', '3.2.3-194.v31a_b_f7a_b_5a_81', 'caffeine-api-plugin'),
  plugin('cloudbees-folder', '6.1053.vd62fb_b_f7367b_', 'cloudbees-folder-plugin'),
  plugin('commons-lang3-api', '3.20.0-109.ve43756e2d2b_4', 'commons-lang3-api-plugin'),
  plugin('commons-text-api', '1.15.0-218.va_61573470393', 'commons-text-api-plugin'),
  plugin('display-url-api', '2.217.va_6b_de84cc74b_', 'display-url-api-plugin'),
  plugin('durable-task', '686.v80ff80875b_82', 'durable-task-plugin'),
  plugin('font-awesome-api', '7.2.0-983.v3f63c34eddb_9', 'font-awesome-api-plugin'),
  plugin('git-client', '6.6.1', 'git-client-plugin'),
  plugin('gson-api', '2.13.2-173.va_a_092315913c', 'gson-api-plugin'),
  plugin('ionicons-api', '94.vcc3065403257', 'ionicons-api-plugin'),
  plugin('jackson2-api', '2.18.3-402.v74c4eb_f122b_2', 'jackson2-api-plugin'),
  plugin('jakarta-activation-api', '2.1.4-1', 'jakarta-activation-api-plugin'),
  plugin('jakarta-mail-api', '2.1.5-1', 'jakarta-mail-api-plugin'),
  plugin('javax-activation-api', '1.2.0-8', 'javax-activation-api-plugin'),
  plugin('jaxb', '2.3.9-143.v5979df3304e6', 'jaxb-plugin'),
  plugin('joda-time-api', '2.13.1-115.va_6b_5f8efb_1d8', 'joda-time-api-plugin'),
  plugin('json-api', '20251224-185.v0cc18490c62c', 'json-api-plugin'),
  plugin('json-path-api', '3.0.0-218.vcd4dd1355de2', 'json-path-api-plugin'),
  plugin('mailer', '534.v1b_36f5864073', 'mailer-plugin'),
  plugin('mina-sshd-api-common', '2.16.0-167.va_269f38cc024', 'mina-sshd-api-plugin'),
  plugin('mina-sshd-api-core', '2.16.0-167.va_269f38cc024', 'mina-sshd-api-plugin'),
  plugin('nimbus-jose-jwt-api', '10.9.1-4.v58e0353801ec', 'nimbus-jose-jwt-api-plugin'),
  plugin('okhttp-api', '5.3.2-200.vedb_720a_cf1f8', 'okhttp-api-plugin'),
  plugin('pipeline-input-step', '560.v56198a_642157', 'pipeline-input-step-plugin'),
  plugin('pipeline-model-api', '2.2218.v56d0cda_37c72', 'pipeline-model-definition-plugin'),
  plugin('pipeline-model-extensions', '2.2218.v56d0cda_37c72', 'pipeline-model-definition-plugin'),
  plugin('pipeline-stage-tags-metadata', '2.2218.v56d0cda_37c72', 'pipeline-model-definition-plugin'),
  plugin('plugin-util-api', '7.1341.v039f146993d9', 'plugin-util-api-plugin'),
  plugin('prism-api', '1.30.0-717.vb_f8360844b_53', 'prism-api-plugin'),
  plugin('scm-api', '728.vc30dcf7a_0df5', 'scm-api-plugin'),
  plugin('snakeyaml-api', '2.5-149.v72471e9c6371', 'snakeyaml-api-plugin'),
  plugin('ssh-credentials', '361.vb_f6760818e8c', 'ssh-credentials-plugin'),
  plugin('structs', '362.va_b_695ef4fdf9', 'structs-plugin'),
  plugin('variant', '70.va_d9f17f859e0', 'variant-plugin'),
  plugin('workflow-api', '1413.v2ff1a_5e720fa_', 'workflow-api-plugin'),
  plugin('workflow-step-api', '724.v538c2362b_dfb_', 'workflow-step-api-plugin'),
  plugin('workflow-support', '1015.v785e5a_b_b_8b_22', 'workflow-support-plugin'),
];

/**
 * The pinned plugins whose release no mirror here holds (the snapshots predate it), so that what they require in turn
 * is not read (their packaging is, at the newest readable release); plugin-closure.test.ts checks that this is exactly
 * the derivation's list.
 */
export const PLUGINS_NOT_READ: readonly string[] = ['matrix-auth', 'snakeyaml-api', 'workflow-step-api'];

/**
 * Read by the schema generator besides the configured plugins: scm-api (its pin in {@link JENKINS_PLUGIN_CLOSURE}),
 * for the SCMSource/SCMSourceTrait supertypes of the library retriever.
 */
export const CASC_SCHEMA_SUPERTYPE_SOURCES: readonly JenkinsPin[] = JENKINS_PLUGIN_CLOSURE.filter((p) => p.id === 'scm-api');

/**
 * What the conformance schema (packages/core/jenkins/casc-schema/casc-schema.json) is generated from, in this order:
 * tools/casc-schema/generate.sh reads this list, and test/build-server/casc-conformance.test.ts checks the schema's
 * `sources` against it.
 */
export const CASC_SCHEMA_SOURCES: readonly JenkinsPin[] = [JENKINS_CORE, ...JENKINS_PLUGINS, ...CASC_SCHEMA_SUPERTYPE_SOURCES];

/** A jenkinsci plugin; its code is in src/main/java unless said otherwise. */
function plugin(id: string, version: string, repository: string, options: Partial<JenkinsPin> = {}): JenkinsPin {
  return { id, version, repository: `jenkinsci/${repository}`, codeRoots: ['src/main/java'], ...options };
}

/**
 * The components whose advisories packages/core/jenkins/advisories/ records and test/build-server/advisories.test.ts
 * checks: every pinned plugin (core is always covered). tools/jenkins-advisories/snapshot.js reads this list.
 */
export function advisoryCoverage(): string[] {
  return [...JENKINS_PLUGINS, ...JENKINS_PLUGIN_CLOSURE].map(({ id }) => id);
}

/** A pin under published advisories that could not be moved past them yet (the releases that fix them are in the advisory data). */
export interface AdvisoryExposure {
  /** `core` or the id of a pinned plugin ({@link JENKINS_PLUGINS}, {@link JENKINS_PLUGIN_CLOSURE}). */
  readonly component: string;
  /** The advisories' ids (SECURITY-nnnn), as the Jenkins project publishes them. */
  readonly advisories: readonly string[];
  /** The PCI DSS requirements whose controls these advisories weaken while deployed (`KnownVulnerability.underminesRequirements`). */
  readonly undermines?: readonly string[];
}

/**
 * What the build server installs today under a published Jenkins advisory. advisories.test.ts fails on any advisory
 * that matches a pin and is not listed here, and on an entry here that no longer matches (the pin moved past it), so
 * this list is always exactly the exposure. docs/build-server.md ("Pins under advisories") explains it to operators.
 *
 * Why they have not moved: every check of the build server is read in the sources at the pinned tags (the conformance
 * schema, the cited lines), and the fixed releases were published after the newest snapshots of those sources that
 * this project's machines can read (jenkinsci repositories and jenkinsci/bom as of 2026-08-21; the Jenkins update
 * site and Maven repository are out of their reach). Moving the pins is the procedure of docs/build-server.md,
 * "Upgrading the pins", run where those sources can be read.
 */
export const PINS_UNDER_ADVISORY: readonly AdvisoryExposure[] = [
  { component: 'core', advisories: ['SECURITY-3972', 'SECURITY-3908', 'SECURITY-3915', 'SECURITY-3967', 'SECURITY-3878', 'SECURITY-4032', 'SECURITY-4025', 'SECURITY-4016', 'SECURITY-3981', 'SECURITY-3926', 'SECURITY-3879', 'SECURITY-4006', 'SECURITY-4015'] },
  // Sandbox bypasses among them: a pipeline author's code runs beyond the permission matrix, which the build server's
  // authorisation controls (7.2.1, 7.2.2, 7.3.1, 7.3.3) rest on.
  {
    component: 'script-security',
    advisories: ['SECURITY-3986', 'SECURITY-3929', 'SECURITY-3931', 'SECURITY-3923', 'SECURITY-3925', 'SECURITY-3897', 'SECURITY-3932', 'SECURITY-3977'],
    undermines: ['7.2.1', '7.2.2', '7.3.1', '7.3.3'],
  },
  { component: 'pipeline-groovy-lib', advisories: ['SECURITY-3815', 'SECURITY-3796'] },
  { component: 'sonar', advisories: ['SECURITY-3989'] },
  // 821 is readable here and is what pipeline-groovy-lib's optional dependency needs; the fix (842) is not.
  { component: 'workflow-multibranch', advisories: ['SECURITY-3729'] },
];

/** plugins.txt, the format of jenkins-plugin-cli and the plugin manager: `id:version` a line, the closure after the pins. */
export function pluginsTxt(): string {
  return [...JENKINS_PLUGINS, ...JENKINS_PLUGIN_CLOSURE].map(({ id, version }) => `${id}:${version}`).join('\n') + '\n';
}

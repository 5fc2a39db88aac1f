import { ref } from './casc-variable';
import { ARTIFACT_RETENTION_DAYS, ARTIFACTS_KEPT, AUDIT_SYSLOG_PORT, BUILD_LOG_RETENTION_DAYS, BUILDS_KEPT, JENKINS_AUDIT_PATTERN } from './hardening';
import type { EcsCloud } from './jenkins-agents';
import { FAILED_SIGN_IN_RECORDER } from './jenkins-monitoring';
import { SONARQUBE } from './jenkins-sonarqube';

/** The environment variables the configuration reads (configuration-as-code resolves `${NAME}` at start). */
export const ENV = {
  publicUrl: 'JENKINS_URL',
  oidcWellKnownUrl: 'OIDC_WELL_KNOWN_URL',
  oidcClientId: 'OIDC_CLIENT_ID',
  oidcScopes: 'OIDC_SCOPES',
  oidcClientSecret: 'OIDC_CLIENT_SECRET',
} as const;

/** oic-auth's signed-out page (oic-auth 4.715 OicLogoutAction.java line 38), where the provider sends users back. */
export const OIDC_LOGGED_OUT_PAGE = 'OicLogout';

/** API tokens are honoured only while their user's sign-in at the identity provider is (see the realm below). */
export const API_TOKENS_FOLLOW_PROVIDER_SESSION = true;


/** The groups of the identity provider that the matrix authorisation names. */
export interface JenkinsGroups {
  readonly admin: string;
  readonly developer: string;
  readonly devops: string;
  readonly viewer: string;
  /** Reads the compliance jobs (with the administrators), and nothing else beyond Overall/Read. */
  readonly auditor: string;
}

/**
 * The seed script's variable that names the auditors' group (`jenkins/jobs/compliance-jobs.groovy`), handed to it by
 * job-dsl's `providedEnv` (job-dsl SeedJobConfigurator.java lines 90-101: each entry becomes a binding variable).
 */
export const SEED_AUDITORS_VARIABLE = 'COMPLIANCE_AUDITORS';

/** What varies between deployments of the same hardened configuration. */
export interface JenkinsConfigurationOptions {
  readonly groups: JenkinsGroups;
  /** The ID token claim that names a user (the Jenkins user id). */
  readonly userIdClaim: string;
  /** Where audit-trail writes its log (`%g` is the rotation generation). */
  readonly auditLogPattern: string;
  /** audit-trail log file size limit (MB) and number of files. */
  readonly auditLogLimit: number;
  readonly auditLogCount: number;
  /** Also write the audit trail to standard output (Fargate: the container log is shipped to CloudWatch). */
  readonly auditToConsole: boolean;
  /** Remote syslog server for the audit trail; none when undefined. */
  readonly syslogHost?: string;
  /** The administrator's e-mail address (`location.adminAddress`); Jenkins' placeholder when undefined. */
  readonly adminEmail?: string;
  /** Path of the Job DSL seed script on the controller, run at every start (read as it is: no variable expansion). */
  readonly seedJobFile: string;
  /** Hashes of the pipeline scripts the seed script defines, approved to run outside the sandbox. */
  readonly approvedScriptHashes: string[];
  /** The pipeline library's git repository and pinned version; no global library when undefined. */
  readonly pipelineLibrary?: PipelineLibrarySource;
  /** The fixed TCP port inbound agents connect to. */
  readonly agentPort: number;
  /** The cloud that starts the build agents. */
  readonly agentCloud: EcsCloud;
  /** The SonarQube server's address; no installation when undefined. */
  readonly sonarQubeUrl?: string;
}

/**
 * A credential configured as code, scope GLOBAL (a build looks credentials up in its job's context): secret text
 * (plain-credentials' `StringCredentialsImpl`) or a username with password (credentials' `UsernamePasswordCredentialsImpl`).
 */
export type SystemCredential =
  | { readonly string: { readonly scope: 'GLOBAL'; readonly id: string; readonly secret: string; readonly description: string } }
  | {
    readonly usernamePassword: {
      readonly scope: 'GLOBAL'; readonly id: string; readonly username: string; readonly password: string; readonly description: string;
    };
  };

/** Where Jenkins fetches the pipeline library (`jenkins/pipeline-library` of @fw/core, pushed to your git server). */
export interface PipelineLibrarySource {
  /** Git repository URL, for example https://git.example.com/ci/fw-pipeline-library.git */
  readonly repository: string;
  /** The tag or commit to load. Pipelines cannot choose another. */
  readonly version: string;
  /**
   * The id of a Jenkins credential that reads the repository (a username with password or an SSH key, in the global
   * credentials store), added in Jenkins by hand. Not with `credentialsSecretArn`.
   * @default - none: a repository anyone may read, or the credential of `credentialsSecretArn`
   */
  readonly credentialsId?: string;
  /**
   * The complete ARN of a Secrets Manager secret whose JSON holds `username` and `password` (a git server's user and
   * password or access token): the controller reads them at start into the username-with-password credential
   * `PIPELINE_LIBRARY_CREDENTIAL.id`, which the library is read with. Only the ARN is in the template.
   * @default - none
   */
  readonly credentialsSecretArn?: string;
}

/** The credential made from `PipelineLibrarySource.credentialsSecretArn`, and the variables its values arrive in. */
export const PIPELINE_LIBRARY_CREDENTIAL = {
  id: 'fw-pipeline-library',
  usernameVariable: 'PIPELINE_LIBRARY_USERNAME',
  passwordVariable: 'PIPELINE_LIBRARY_PASSWORD',
} as const;

/** The name pipelines load the library by: `@Library('fw-pci') _`. */
export const PIPELINE_LIBRARY_NAME = 'fw-pci';

/** One row of the matrix: a group and what it may do. */
export interface MatrixEntry {
  readonly group: { readonly name: string; readonly permissions: string[] };
}

export type AuditLogger =
  | { readonly console: { readonly output: 'STD_OUT'; readonly dateFormat: string; readonly logPrefix: string } }
  | { readonly logFile: { readonly log: string; readonly limit: number; readonly count: number } }
  | {
    readonly syslog: {
      readonly syslogServerHostname: string;
      readonly syslogServerPort: number;
      readonly appName: string;
      readonly facility: string;
      readonly messageFormat: string;
    };
  };

/**
 * The Jenkins configuration, typed after the configuration-as-code keys of Jenkins and its plugins (matrix-auth,
 * oic-auth, job-dsl, audit-trail, amazon-ecs). Rendered to YAML by `renderConfiguration`, the same on both runtimes; every
 * rendering is checked against the schema of the pinned sources by test/build-server/casc-conformance.test.ts.
 */
export interface JenkinsConfiguration {
  readonly jenkins: {
    readonly systemMessage: string;
    readonly numExecutors: number;
    readonly slaveAgentPort: number;
    readonly clouds: EcsCloud[];
    readonly securityRealm: {
      readonly oic: {
        readonly serverConfiguration: {
          readonly wellKnown: {
            readonly wellKnownOpenIDConfigurationUrl: string; readonly scopesOverride: string;
          };
        };
        readonly clientId: string;
        readonly clientSecret: string;
        readonly userNameField: string;
        readonly userIdStrategy: 'caseSensitive';
        readonly groupIdStrategy: 'caseSensitive';
        readonly fullNameFieldName: string;
        readonly emailFieldName: string;
        readonly groupsFieldName: string;
        readonly logoutFromOpenidProvider: boolean;
        readonly postLogoutRedirectUrl: string;
        readonly allowTokenAccessWithoutOicSession: boolean;
        readonly properties: string[];
      };
    };
    readonly authorizationStrategy: { readonly projectMatrix: { readonly entries: MatrixEntry[] } };
    readonly crumbIssuer: 'standard';
    readonly disableRememberMe: boolean;
    readonly markupFormatter: string;
    readonly log: { readonly recorders: ReadonlyArray<typeof FAILED_SIGN_IN_RECORDER> };
  };
  /** Credentials for pipelines; each secret from the controller's environment. */
  readonly credentials?: { readonly system: { readonly domainCredentials: Array<{ readonly credentials: SystemCredential[] }> } };
  readonly security: {
    readonly contentSecurityPolicy: { readonly enforce: boolean };
    readonly globalJobDslSecurityConfiguration: { readonly useScriptSecurity: boolean };
    readonly scriptApproval: { readonly approvedScriptHashes: string[]; readonly forceSandbox: boolean };
  };
  readonly unclassified: {
    readonly 'location': { readonly url: string; readonly adminAddress?: string };
    readonly 'buildDiscarders': {
      readonly configuredBuildDiscarders: Array<string | {
        readonly simpleBuildDiscarder: {
          readonly discarder: {
            readonly logRotator: {
              readonly daysToKeepStr: string;
              readonly numToKeepStr: string;
              readonly artifactDaysToKeepStr: string;
              readonly artifactNumToKeepStr: string;
            };
          };
        };
      }>;
    };
    readonly 'audit-trail': { readonly logBuildCause: boolean; readonly logScriptUsage: boolean; readonly pattern: string; readonly loggers: AuditLogger[] };
    readonly 'sonarGlobalConfiguration'?: {
      readonly buildWrapperEnabled: boolean;
      readonly installations: Array<{
        readonly name: string; readonly serverUrl: string; readonly credentialsId: string; readonly webhookSecretId: string;
      }>;
    };
    readonly 'globalLibraries'?: {
      readonly libraries: Array<{
        readonly name: string;
        readonly defaultVersion: string;
        readonly implicit: boolean;
        readonly allowVersionOverride: boolean;
        readonly includeInChangesets: boolean;
        readonly retriever: { readonly modernSCM: { readonly scm: { readonly git: { readonly remote: string; readonly credentialsId?: string } } } };
      }>;
    };
  };
  /** Job DSL scripts (the job-dsl plugin's configuration-as-code root), after the variables they read. */
  readonly jobs: Array<{ readonly providedEnv: Record<string, string> } | { readonly file: string }>;
}

/** The hardened configuration of the build server: each section from the function that says why it is so. */
export function jenkinsConfiguration(options: JenkinsConfigurationOptions): JenkinsConfiguration {
  const credentials = systemCredentials(options);
  const library = options.pipelineLibrary;
  return {
    jenkins: {
      systemMessage: 'Card-data environment build server: access is logged and reviewed.',
      // The controller runs no builds: a build on it would run next to JENKINS_HOME/secrets as the Jenkins user.
      numExecutors: 0,
      // Builds run on agents the ECS cloud starts, one per build; they connect to this port only from their own
      // security group.
      slaveAgentPort: options.agentPort,
      clouds: [options.agentCloud],
      securityRealm: oidcRealm(options.userIdClaim),
      authorizationStrategy: authorization(options.groups),
      // Since Jenkins 2.543 the crumb is bound to the session, not the client address: the issuer has no options.
      crumbIssuer: 'standard',
      disableRememberMe: true,
      markupFormatter: 'plainText',
      // The daily log review reads this recorder: Jenkins' own log buffer keeps INFO and above only.
      log: { recorders: [FAILED_SIGN_IN_RECORDER] },
    },
    // The SonarQube token and webhook secret as secret-text credentials, and the pipeline library's git user, their
    // values resolved from the environment at start (configuration-as-code PrimitiveConfigurator.java lines 43-48
    // resolves every scalar): GLOBAL, because a build looks them up in its job's context, which SYSTEM credentials are
    // hidden from (credentials SystemCredentialsProvider.java lines 448-455). The list replaces the system store's at
    // every start.
    ...(credentials.length > 0 ? { credentials: { system: { domainCredentials: [{ credentials }] } } } : {}),
    security: {
      // Enforced, not report-only: the advisories' own workaround for the stored XSS of SECURITY-3967 (core) and
      // SECURITY-3989 (sonar); jenkins-2.568.2 CspConfiguration.java lines 55 and 78 (@Symbol, setEnforce).
      contentSecurityPolicy: { enforce: true },
      globalJobDslSecurityConfiguration: { useScriptSecurity: true },
      // The compliance scripts are approved by hash, and a hash is not a job (script-security 1402.1405.vc96e74964250
      // ScriptApproval.java 647-668): forceSandbox stops anyone without Overall/Administer from saving a pipeline
      // unsandboxed (lines 1004, 1020-1022, 1364-1368; workflow-cps 4350 CpsFlowDefinition.java line 88), so no devops
      // job can run an approved text outside the sandbox. Job DSL run by configuration-as-code is SYSTEM, which holds
      // Administer: the compliance jobs keep sandbox(false). SECURITY-3986 (fixed in 1415) lets a form submitter clear
      // the setting until the next start; the scripts also refuse to run outside their own job (compliance-jobs.groovy).
      scriptApproval: { approvedScriptHashes: options.approvedScriptHashes, forceSandbox: true },
    },
    unclassified: {
      'location': { url: ref(ENV.publicUrl), ...options.adminEmail ? { adminAddress: options.adminEmail } : {} },
      'buildDiscarders': buildDiscarders(),
      'audit-trail': auditTrail(options),
      ...(options.sonarQubeUrl ? { sonarGlobalConfiguration: sonarQube(options.sonarQubeUrl) } : {}),
      ...(library ? { globalLibraries: globalLibraries(library) } : {}),
    },
    jobs: [{ providedEnv: { [SEED_AUDITORS_VARIABLE]: options.groups.auditor } }, { file: options.seedJobFile }],
  };
}

type Section<K extends keyof JenkinsConfiguration['jenkins']> = JenkinsConfiguration['jenkins'][K];
type Unclassified<K extends keyof JenkinsConfiguration['unclassified']> = NonNullable<JenkinsConfiguration['unclassified'][K]>;

/** SonarQube's token and webhook secret, and the pipeline library's git user when its secret is given. */
function systemCredentials(options: JenkinsConfigurationOptions): SystemCredential[] {
  return [
    ...(options.sonarQubeUrl ? [
      stringCredential(SONARQUBE.tokenCredential, SONARQUBE.tokenVariable, 'SonarQube token (from Secrets Manager)'),
      stringCredential(SONARQUBE.webhookCredential, SONARQUBE.webhookVariable, 'SonarQube webhook secret (from Secrets Manager)'),
    ] : []),
    ...(options.pipelineLibrary?.credentialsSecretArn !== undefined ? [{
      usernamePassword: {
        scope: 'GLOBAL' as const,
        id: PIPELINE_LIBRARY_CREDENTIAL.id,
        username: ref(PIPELINE_LIBRARY_CREDENTIAL.usernameVariable),
        password: ref(PIPELINE_LIBRARY_CREDENTIAL.passwordVariable),
        description: 'Pipeline library git user (from Secrets Manager)',
      },
    }] : []),
  ];
}

/**
 * OIDC only: no local user database, and no escape hatch (it would bypass the identity provider's MFA). The
 * provider's discovery document brings its endpoints and the keys that sign its ID tokens.
 */
function oidcRealm(userIdClaim: string): Section<'securityRealm'> {
  return {
    oic: {
      serverConfiguration: {
        wellKnown: {
          wellKnownOpenIDConfigurationUrl: ref(ENV.oidcWellKnownUrl),
          // The deployment's oidcScopes. Without it the realm asks for every scope the provider supports.
          scopesOverride: ref(ENV.oidcScopes),
        },
      },
      clientId: ref(ENV.oidcClientId),
      clientSecret: ref(ENV.oidcClientSecret),
      userNameField: userIdClaim,
      // Ids and group names match exactly. Left out, the realm matches both ignoring case and shows an administrative
      // warning at every start (oic-auth 4.715 OicSecurityRealm.java lines 489-501 and 523-530,
      // monitor/OicIdStrategyMonitor.java lines 37-48).
      userIdStrategy: 'caseSensitive',
      groupIdStrategy: 'caseSensitive',
      fullNameFieldName: 'name',
      emailFieldName: 'email',
      groupsFieldName: 'groups',
      // Signing out ends the provider's session too, then returns to Jenkins' signed-out page (OicLogoutAction)
      // rather than leaving the user on the provider's (OicSecurityRealm.java lines 1068-1093).
      logoutFromOpenidProvider: true,
      postLogoutRedirectUrl: `${ref(ENV.publicUrl)}/${OIDC_LOGGED_OUT_PAGE}`,
      // An API token is honoured only while its user's sign-in at the provider is: once the access token of the last
      // sign-in expired, the realm refreshes it at the provider (which re-reads the user's groups) or refuses the
      // request (oic-auth 4.715 OicSecurityRealm.java lines 1216-1230). With `true` it would skip that check, and core
      // would grant the groups recorded at the last browser sign-in (LastGrantedAuthoritiesProperty) for as long as
      // the token exists: someone removed from a group at the provider would keep it (PCI DSS 7.2.4, 8.2.5).
      allowTokenAccessWithoutOicSession: !API_TOKENS_FOLLOW_PROVIDER_SESSION,
      properties: ['pkce'],
    },
  };
}

/**
 * Administer implies RunScripts: only the admin group reaches the script console. Overall/Read goes to the named groups
 * only, never to `authenticated` (everyone the provider signs in for this client): each user with Overall/Read owns
 * their "My Views" and may POST a view's config.xml (jenkins-2.568.2 User.java 961-966, MyViewsProperty.java 235-264),
 * the input of SECURITY-3972 and SECURITY-4032. Viewers and auditors only read.
 */
function authorization(groups: JenkinsGroups): Section<'authorizationStrategy'> {
  const developer = ['Overall/Read', 'Job/Build', 'Job/Cancel', 'Job/Read'];
  return {
    projectMatrix: {
      entries: [
        { group: { name: groups.admin, permissions: ['Overall/Administer'] } },
        { group: { name: groups.developer, permissions: developer } },
        { group: { name: groups.devops, permissions: [...developer, 'Job/Configure'] } },
        { group: { name: groups.viewer, permissions: ['Overall/Read', 'Job/Read'] } },
        { group: { name: groups.auditor, permissions: ['Overall/Read'] } },
      ],
    },
  };
}

/** Every job keeps its builds, logs and artifacts for the retention hardening.ts sets. */
function buildDiscarders(): Unclassified<'buildDiscarders'> {
  return {
    configuredBuildDiscarders: [
      'jobBuildDiscarder',
      {
        simpleBuildDiscarder: {
          discarder: {
            logRotator: {
              daysToKeepStr: String(BUILD_LOG_RETENTION_DAYS),
              numToKeepStr: String(BUILDS_KEPT),
              artifactDaysToKeepStr: String(ARTIFACT_RETENTION_DAYS),
              artifactNumToKeepStr: String(ARTIFACTS_KEPT),
            },
          },
        },
      },
    ],
  };
}

/** The audit trail: to its rotated files, and to the console (on Fargate) and a syslog server when they are given. */
function auditTrail(options: JenkinsConfigurationOptions): Unclassified<'audit-trail'> {
  return {
    logBuildCause: true,
    // Script use through script-security, which the plugin leaves off by default (`logScriptUsage`, line 73).
    logScriptUsage: true,
    pattern: JENKINS_AUDIT_PATTERN,
    loggers: [
      { logFile: { log: options.auditLogPattern, limit: options.auditLogLimit, count: options.auditLogCount } },
      ...(options.auditToConsole ? [{ console: { output: 'STD_OUT' as const, dateFormat: 'yyyy-MM-dd HH:mm:ss.SSS', logPrefix: 'audit' } }] : []),
      ...(options.syslogHost ? [{
        syslog: {
          syslogServerHostname: options.syslogHost,
          syslogServerPort: AUDIT_SYSLOG_PORT,
          appName: 'jenkins',
          facility: 'AUTHPRIV',
          messageFormat: 'RFC_5424',
        },
      }] : []),
    ],
  };
}

// sonar 2.18.2: SonarGlobalConfiguration (named by its class: it has no symbol) and SonarInstallation's
// constructor (SonarInstallation.java lines 86-106); the token credential is looked up as StringCredentials
// (lines 177-192), the webhook's by waitForQualityGate (WaitForQualityGateStep.java lines 343-363).
function sonarQube(serverUrl: string): Unclassified<'sonarGlobalConfiguration'> {
  return {
    buildWrapperEnabled: true,
    installations: [{
      name: SONARQUBE.installation,
      serverUrl,
      credentialsId: SONARQUBE.tokenCredential,
      webhookSecretId: SONARQUBE.webhookCredential,
    }],
  };
}

/** The pipeline library by its pinned version, with the git credential the options name. */
function globalLibraries(library: PipelineLibrarySource): Unclassified<'globalLibraries'> {
  const credentialsId = library.credentialsSecretArn !== undefined ? PIPELINE_LIBRARY_CREDENTIAL.id : library.credentialsId;
  return {
    libraries: [{
      name: PIPELINE_LIBRARY_NAME,
      defaultVersion: library.version,
      implicit: false,
      allowVersionOverride: false,
      includeInChangesets: false,
      // git 5.10.1 GitSCMSource: `remote` by its constructor, `credentialsId` by its setter.
      retriever: {
        modernSCM: {
          scm: {
            git: {
              remote: library.repository,
              ...(credentialsId ? { credentialsId } : {}),
            },
          },
        },
      },
    }],
  };
}

function stringCredential(id: string, variable: string, description: string): SystemCredential {
  return { string: { scope: 'GLOBAL', id, secret: ref(variable), description } };
}

/** configuration-as-code YAML of a configuration. */
export function renderConfiguration(configuration: JenkinsConfiguration): string {
  // Loaded here, when the build server is deployed: every plugin's process loads this module through @fw/core's index.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const YAML: typeof import('yaml') = require('yaml');
  return '# Generated by @fw/core (build server). Managed as code: changes made in the UI are overwritten at start.\n' +
    YAML.stringify(configuration, { lineWidth: 0 });
}

import { assertNotExpandedByCasc } from './casc-variable';
import type { ControllerLayout } from './controller-files';
import { AUDIT_SYSLOG_PORT, CONTROLLER_STARTUP_SECONDS, JENKINS_BLOCKED_REQUESTS, JENKINS_REQUEST_BODY_LIMITS } from './hardening';
import { AGENT_DEFAULTS, agentWorkers, assertValidAgentSettings, type AgentSettings } from './jenkins-agents';
import type { PipelineLibrarySource } from './jenkins-configuration';
import { assertValidSonarQube, type SonarQubeServer, sonarQubeFromSettings, sonarQubeSecrets, sonarQubeSettings } from './jenkins-sonarqube';
import { jenkinsOutboundConnections } from './outbound-connections';
import { JENKINS_IMAGE } from './versions';
import { email } from '../context/key-parsers';
import type { ApplicationSize } from '../contract/application-size';
import { ApplicationSpec, type IApplicationSpec } from '../contract/application-spec';
import { AuthMode } from '../contract/auth-mode';
import type { BlockedRequest } from '../contract/blocked-request';
import type { ComplianceControl } from '../contract/compliance-control';
import type { ContainerInitialization } from '../contract/container-initialization';
import type { Ec2Context } from '../contract/ec2-context';
import { type EgressRule, isIpv4 } from '../contract/egress-rule';
import type { EphemeralWorkers } from '../contract/ephemeral-workers';
import type { KnownVulnerability } from '../contract/known-vulnerability';
import type { LogAlarm } from '../contract/log-alarm';
import type { IOidcIntegration } from '../contract/oidc-integration';
import type { OutboundConnection } from '../contract/outbound-connection';
import type { PluginSetting } from '../contract/plugin-setting';
import type { RequestBodyLimit } from '../contract/request-body-limit';
import type { SoftwareComponent } from '../contract/software-component';
import type { IUserDataBuilder } from '../contract/user-data-builder';
import { UserError } from '../errors';

/** The claim that names a user unless `userIdClaim` says otherwise (OpenID Connect Core 1.0, sections 2 and 5.7). */
const DEFAULT_USER_ID_CLAIM = 'sub';

/** Options of the build server. Every one has a default, so the registry can build it without arguments. */
export interface JenkinsSpecProps {
  /** Identity-provider group with Overall/Administer. @default 'jenkins-admins' */
  readonly adminGroup?: string;
  /** Group with Job/Build, Job/Cancel and Job/Read. @default 'jenkins-developers' */
  readonly developerGroup?: string;
  /** Group with Job/Build, Job/Cancel, Job/Read and Job/Configure. @default 'jenkins-devops' */
  readonly devopsGroup?: string;
  /** Group with Job/Read only. @default 'jenkins-viewers' */
  readonly viewerGroup?: string;
  /**
   * Group that reads the compliance jobs and their reports (user inventory, failed sign-ins, audit-trail extracts),
   * which live in a folder only it and the administrators can read (PCI DSS 10.3.1). @default 'jenkins-auditors'
   */
  readonly auditorGroup?: string;
  /**
   * The ID token claim whose value is the Jenkins user id: what the audit trail records and permissions name. It must
   * be unique and never reassigned at your provider. `sub` is the one claim OpenID Connect Core guarantees that of
   * (section 5.7: `preferred_username` and `email` are not); choose another only where your provider guarantees it.
   * @default - `DEFAULT_USER_ID_CLAIM`
   */
  readonly userIdClaim?: string;
  /** Remote syslog server (UDP 514) that also receives the audit trail: an IPv4 address or a name. @default - none */
  readonly syslogHost?: string;
  /**
   * The e-mail address Jenkins names as its administrator's and sends its notifications from
   * (`unclassified.location.adminAddress`); also the setting `jenkinsAdminEmail`.
   * @default - Jenkins' placeholder address
   */
  readonly adminEmail?: string;
  /**
   * The IPv4 range the controller may send syslog to (UDP 514), for example `10.0.5.20/32`. Required when `syslogHost`
   * is a name; with an address, that address alone.
   * @default - `syslogHost`/32
   */
  readonly syslogNetwork?: string;
  /**
   * Traffic the controller and its agents send beyond HTTPS to anywhere, for example SSH (TCP 22) to your Git server.
   * @default - none
   */
  readonly egress?: EgressRule[];
  /**
   * The git repository holding the pipeline library (`jenkins/pipeline-library` of @fw/core), loaded as the global
   * library `fw-pci`. Jenkins' git plugin refuses repositories on the controller's own disk, so the library is pushed
   * to your git server.
   * @default - no global library
   */
  readonly pipelineLibrary?: PipelineLibrarySource;
  /**
   * The build agents' image: the official inbound agent, or your own pinned image built on it for your toolchains
   * (it must start the agent the way `jenkins/inbound-agent` does: its entry point takes the agent's arguments).
   * @default - `AGENT_IMAGE`
   */
  readonly agentImage?: string;
  /**
   * The SonarQube server of the pipelines' analyses and quality gate: configured as code as the installation
   * `sonarqube`, its token and webhook secret as the secret-text credentials `sonar-token` and `sonar-webhook-secret`,
   * read from Secrets Manager by reference (the example Jenkinsfile, jenkins/examples/Jenkinsfile, uses these names).
   * @default - no SonarQube installation (`withSonarQubeEnv` fails)
   */
  readonly sonarQube?: SonarQubeServer;
  /** CPU units of each agent task (a Fargate size with `agentMemoryMiB`). @default - `AGENT_DEFAULTS.cpu` */
  readonly agentCpu?: number;
  /** Memory of each agent task in MiB. @default - `AGENT_DEFAULTS.memoryMiB` */
  readonly agentMemoryMiB?: number;
  /** The most agents (so builds) at once. More builds wait in the queue. 1 to 100. @default - `AGENT_DEFAULTS.maxAgents` */
  readonly maxAgents?: number;
  /** Minutes after which an agent that no build took is stopped (each agent runs one build, then stops). 1 to 60. @default - `AGENT_DEFAULTS.idleMinutes` */
  readonly agentIdleMinutes?: number;
  /** The label pipelines ask for: `node('<label>') { ... }`. @default - `AGENT_DEFAULTS.label` */
  readonly agentLabel?: string;
}

/* eslint-disable @typescript-eslint/no-require-imports */
/**
 * The build server's parts, loaded when a deployment uses them: discovery constructs every installed plugin to read
 * its applicationId, and another plugin's deployment then loads only this file and what the constructor checks with
 * (docs/benchmarks.md).
 */
const parts = {
  files: (): typeof import('./controller-files') => require('./controller-files'),
  health: (): typeof import('./controller-health') => require('./controller-health'),
  controls: (): typeof import('./jenkins-compliance-controls') => require('./jenkins-compliance-controls'),
  configuration: (): typeof import('./jenkins-configuration') => require('./jenkins-configuration'),
  container: (): typeof import('./jenkins-container') => require('./jenkins-container'),
  monitoring: (): typeof import('./jenkins-monitoring') => require('./jenkins-monitoring'),
  oidc: (): typeof import('./jenkins-oidc') => require('./jenkins-oidc'),
  ec2: (): typeof import('./jenkins-user-data') => require('./jenkins-user-data'),
  vulnerabilities: (): typeof import('./known-vulnerabilities') => require('./known-vulnerabilities'),
  components: (): typeof import('./software-components') => require('./software-components'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * The built-in plugin: a Jenkins build server hardened for a card-data environment, on both runtimes. Both runtimes
 * get the same controller files (its configuration as code, plugin list, init script and jobs), placed by the init
 * container on Fargate and by the user data on EC2.
 */
export class JenkinsSpec extends ApplicationSpec {
  private readonly props: JenkinsSpecProps;
  private readonly agents: AgentSettings;

  /** @param props the build server's options. Each has a default */
  constructor(props: JenkinsSpecProps = {}) {
    super();
    this.props = props;
    this.agents = {
      image: props.agentImage ?? AGENT_DEFAULTS.image,
      cpu: props.agentCpu ?? AGENT_DEFAULTS.cpu,
      memoryMiB: props.agentMemoryMiB ?? AGENT_DEFAULTS.memoryMiB,
      maxAgents: props.maxAgents ?? AGENT_DEFAULTS.maxAgents,
      idleMinutes: props.agentIdleMinutes ?? AGENT_DEFAULTS.idleMinutes,
      label: props.agentLabel ?? AGENT_DEFAULTS.label,
    };
    assertValidAgentSettings(this.agents);
    assertNotExpandedByCasc({
      'adminGroup': props.adminGroup,
      'developerGroup': props.developerGroup,
      'devopsGroup': props.devopsGroup,
      'viewerGroup': props.viewerGroup,
      'auditorGroup': props.auditorGroup,
      'userIdClaim': props.userIdClaim,
      'syslogHost': props.syslogHost,
      'adminEmail': props.adminEmail,
      'pipelineLibrary.repository': props.pipelineLibrary?.repository,
      'pipelineLibrary.version': props.pipelineLibrary?.version,
      'pipelineLibrary.credentialsId': props.pipelineLibrary?.credentialsId,
      'sonarQube.serverUrl': props.sonarQube?.serverUrl,
      'agentImage': props.agentImage,
      'agentLabel': props.agentLabel,
    }, 'JenkinsSpec');
    if (props.userIdClaim !== undefined && !/^[A-Za-z_][\w.:-]{0,63}$/.test(props.userIdClaim)) {
      throw new UserError(`JenkinsSpec: userIdClaim ${JSON.stringify(props.userIdClaim)} is not a claim name (letters, digits and ` +
        `_ . : -, at most 64 characters); leave it out for '${DEFAULT_USER_ID_CLAIM}', the one claim unique at every provider.`);
    }
    if (props.adminEmail !== undefined && 'allowed' in email(props.adminEmail)) {
      throw new UserError(`JenkinsSpec: adminEmail ${JSON.stringify(props.adminEmail)} is not allowed; expected ${(email(props.adminEmail) as { allowed: string }).allowed}.`);
    }
    if (props.sonarQube) assertValidSonarQube(props.sonarQube);
    if (props.pipelineLibrary) assertValidLibrarySource(props.pipelineLibrary);
    if (props.syslogHost && !isIpv4(props.syslogHost) && !props.syslogNetwork) {
      throw new UserError(`JenkinsSpec: syslogHost ${JSON.stringify(props.syslogHost)} is a name, and the controller's security ` +
        'group sends only to addresses: set syslogNetwork to the syslog server\'s IPv4 range (for example 10.0.5.20/32).');
    }
  }

  public applicationId() { return 'jenkins'; }
  public defaultContainerImage() { return JENKINS_IMAGE; }
  public applicationPort() { return parts.files().JENKINS_PORT; }
  public containerDataPath() { return parts.container().CONTAINER_LAYOUT.home; }
  public efsDataPath() { return '/jenkins'; }
  public volumeName() { return 'jenkins-home'; }
  public containerUser() { return '1000:1000'; }
  public efsPermissions() { return '750'; }
  public ebsDeviceName() { return '/dev/xvdf'; }
  public ec2DataPath() { return parts.ec2().EC2_LAYOUT.home; }
  /** Jenkins logs to journald on Amazon Linux 2023 unless JENKINS_LOG is set. The service unit sets it. */
  public ec2LogPaths() {
    const { EC2_JENKINS_LOG, EC2_LAYOUT } = parts.ec2();
    return [EC2_JENKINS_LOG, EC2_LAYOUT.auditLogPattern.replace('%g', '*')];
  }
  /** Answers 200 without authentication. */
  public healthCheckPath() { return '/login'; }
  public defaultSize(): ApplicationSize { return { startupSeconds: CONTROLLER_STARTUP_SECONDS }; }

  /**
   * Jenkins signs users in itself, with the identity provider's MFA: without sign-in (`none`), or behind the load
   * balancer's (`alb-oidc`), the realm would have no provider and nobody could sign in.
   */
  public supportedAuthModes(): string[] {
    return [AuthMode.APPLICATION_OIDC];
  }

  public containerEnvironmentVariables(fqdn: string, sslEnabled: boolean, authMode: string): Record<string, string> {
    void authMode; // the same for every auth mode (named plainly for Java's and Python's bindings)
    return parts.files().controllerEnvironment(parts.container().CONTAINER_LAYOUT, fqdn, sslEnabled);
  }

  public containerInitialization(fqdn: string, sslEnabled: boolean, authMode: string, securityProfile: string): ContainerInitialization {
    void [fqdn, sslEnabled, authMode]; // as above
    const { CONTAINER_LAYOUT, jenkinsContainerInitialization } = parts.container();
    return jenkinsContainerInitialization(this.files(CONTAINER_LAYOUT, securityProfile), this.cascSecrets());
  }

  public configureUserData(builder: IUserDataBuilder, context: Ec2Context): void {
    const { configureJenkinsUserData, EC2_LAYOUT } = parts.ec2();
    configureJenkinsUserData(builder, context, {
      spec: this,
      files: this.files(EC2_LAYOUT, context.securityProfile),
      environment: parts.files().controllerEnvironment(EC2_LAYOUT, context.fqdn ?? '', context.sslEnabled),
      cascSecrets: this.cascSecrets(),
    });
  }

  /** The secrets jenkins.yaml names as `${VAR}`: the OIDC client secret and the build server's own. */
  private cascSecrets(): string[] {
    return [this.oidcIntegration().clientSecretVariable(), ...Object.keys(this.secrets())];
  }

  /**
   * More than 10 failed logins in a day. Any published security advisory against what the controller runs; the
   * controller's health (`CONTROLLER_HEALTH_ALARMS`).
   */
  public logAlarms(): LogAlarm[] {
    const { FAILED_LOGIN_ALARM, SECURITY_WARNING_ALARM } = parts.monitoring();
    return [FAILED_LOGIN_ALARM, SECURITY_WARNING_ALARM, ...parts.health().CONTROLLER_HEALTH_ALARMS];
  }

  /** One ECS Fargate task a build, started by the amazon-ecs plugin (docs/build-agents.md). */
  public ephemeralWorkers(): EphemeralWorkers {
    return { ...agentWorkers(this.agents, parts.files().JENKINS_PORT), egress: this.props.egress };
  }

  /** The audit trail to the syslog server, when one is set, and the deployment's own `egress`. */
  public egressRules(): EgressRule[] {
    const { syslogHost, syslogNetwork, egress = [] } = this.props;
    const syslog: EgressRule[] = syslogHost
      ? [{ description: 'Audit trail to the syslog server', protocol: 'udp', port: AUDIT_SYSLOG_PORT, cidr: syslogNetwork ?? `${syslogHost}/32` }]
      : [];
    return [...syslog, ...egress];
  }

  /** Jenkins' forms and uploads that exceed the WAF's `WAF_BODY_SIZE_LIMIT` (`JENKINS_REQUEST_BODY_LIMITS`). */
  public requestBodyLimits(): RequestBodyLimit[] {
    return JENKINS_REQUEST_BODY_LIMITS.map((limit) => ({ ...limit }));
  }

  /** The script consoles, the CLI and POSTs of a `config.xml`, from outside (`JENKINS_BLOCKED_REQUESTS`). */
  public blockedRequests(): BlockedRequest[] {
    return JENKINS_BLOCKED_REQUESTS.map((request) => ({ ...request }));
  }

  /** What the pins install under published advisories (`PINS_UNDER_ADVISORY`), with severity and fixed release. */
  public knownVulnerabilities(): KnownVulnerability[] {
    return parts.vulnerabilities().jenkinsKnownVulnerabilities();
  }

  /** Jenkins core, every pinned plugin and the plugin manager (`jenkinsSoftwareComponents`), for the bill of materials. */
  public softwareComponents(): SoftwareComponent[] {
    return parts.components().jenkinsSoftwareComponents();
  }

  /** The payment-gateway key's path and SonarQube's (`jenkinsOutboundConnections`), for the diagrams and the report. */
  public outboundConnections(): OutboundConnection[] {
    return jenkinsOutboundConnections(this.props.sonarQube);
  }

  /** The server's own PCI DSS controls (`jenkinsComplianceControls`), for the PRODUCTION evidence report. */
  public complianceControls(): ComplianceControl[] {
    return parts.controls().jenkinsComplianceControls(this.groups());
  }

  /** The identity provider's groups the matrix names, defaults filled in. */
  private groups() {
    return {
      admin: this.props.adminGroup ?? 'jenkins-admins',
      developer: this.props.developerGroup ?? 'jenkins-developers',
      devops: this.props.devopsGroup ?? 'jenkins-devops',
      viewer: this.props.viewerGroup ?? 'jenkins-viewers',
      auditor: this.props.auditorGroup ?? 'jenkins-auditors',
    };
  }

  /**
   * What `pluginSettings` may set by configuration: the administrator's e-mail address (`jenkinsAdminEmail`) and the
   * SonarQube server (`SONARQUBE_SETTINGS`, all three or none). Every other option is a prop of the constructor.
   */
  public settings(): PluginSetting[] {
    return [ADMIN_EMAIL_SETTING, ...sonarQubeSettings()];
  }

  /** The build server with what the settings give. A prop given in code stays where they give nothing instead. */
  public withSettings(values: Record<string, string>): IApplicationSpec {
    const sonarQube = sonarQubeFromSettings(values);
    const adminEmail = values[ADMIN_EMAIL_SETTING.name];
    return sonarQube || adminEmail !== undefined
      ? new JenkinsSpec({ ...this.props, ...sonarQube ? { sonarQube } : {}, ...adminEmail !== undefined ? { adminEmail } : {} })
      : this;
  }

  /** The SonarQube token and webhook secret, when a server is set. The pipeline library's git user, when a secret holds it. */
  public secrets(): Record<string, string> {
    const library = this.props.pipelineLibrary?.credentialsSecretArn;
    const { PIPELINE_LIBRARY_CREDENTIAL } = parts.configuration();
    return {
      ...(this.props.sonarQube ? sonarQubeSecrets(this.props.sonarQube) : {}),
      // The JSON-key form ECS takes (`<ARN>:<json-key>::`), read the same way on EC2.
      ...(library ? {
        [PIPELINE_LIBRARY_CREDENTIAL.usernameVariable]: `${library}:username::`,
        [PIPELINE_LIBRARY_CREDENTIAL.passwordVariable]: `${library}:password::`,
      } : {}),
    };
  }

  public supportsOidcIntegration(): boolean {
    return true;
  }

  public oidcIntegration(): IOidcIntegration {
    return new (parts.oidc().JenkinsOidcIntegration)();
  }

  private files(layout: ControllerLayout, securityProfile: string) {
    return parts.files().controllerFiles(layout, {
      groups: this.groups(),
      userIdClaim: this.props.userIdClaim ?? DEFAULT_USER_ID_CLAIM,
      syslogHost: this.props.syslogHost,
      adminEmail: this.props.adminEmail,
      pipelineLibrary: this.props.pipelineLibrary,
      sonarQubeUrl: this.props.sonarQube?.serverUrl,
      agents: this.agents,
      securityProfile,
    });
  }
}

/** `jenkinsAdminEmail`: `adminEmail` by configuration. Checked by the constructor, as the context key `alarmEmail` is. */
const ADMIN_EMAIL_SETTING: PluginSetting = {
  name: 'jenkinsAdminEmail',
  description: 'the e-mail address Jenkins names as its administrator\'s and sends its notifications from',
  allowed: 'an e-mail address such as jenkins@example.com',
  optional: true,
};

/** Fails, naming the value, unless the library's credential is one id or one secret given as a complete ARN. */
function assertValidLibrarySource(library: PipelineLibrarySource): void {
  const { credentialsId, credentialsSecretArn } = library;
  if (credentialsId !== undefined && credentialsSecretArn !== undefined) {
    throw new UserError('JenkinsSpec: pipelineLibrary has credentialsId and credentialsSecretArn; give one: the id of a credential ' +
      'added in Jenkins, or the secret the framework makes one from.');
  }
  if (credentialsId !== undefined && !/^[A-Za-z0-9][\w.-]{0,63}$/.test(credentialsId)) {
    throw new UserError(`JenkinsSpec: pipelineLibrary.credentialsId ${JSON.stringify(credentialsId)} is not a credential id ` +
      '(letters, digits and _ . -, starting with a letter or digit, at most 64 characters).');
  }
  if (credentialsSecretArn !== undefined && !/^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[\w/+=.@-]+-[A-Za-z0-9]{6}$/.test(credentialsSecretArn)) {
    throw new UserError('JenkinsSpec: pipelineLibrary.credentialsSecretArn is not the complete ARN of a Secrets Manager secret ' +
      '(the value is not shown: it may be the secret itself); give it as Secrets Manager shows it, for example ' +
      'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ci/library-git-AbCdEf, whose JSON holds username and password.');
  }
}

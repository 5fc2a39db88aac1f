import type { ApplicationSize } from './application-size';
import { defaultAuthModes } from './auth-mode';
import type { BlockedRequest } from './blocked-request';
import type { ComplianceControl } from './compliance-control';
import type { ContainerCommand } from './container-command';
import type { ContainerInitialization } from './container-initialization';
import type { DatabaseRequirement } from './database-requirement';
import type { DefaultCredential } from './default-credential';
import type { Ec2Context } from './ec2-context';
import type { EgressRule } from './egress-rule';
import type { EphemeralWorkers } from './ephemeral-workers';
import type { KnownVulnerability } from './known-vulnerability';
import type { LogAlarm } from './log-alarm';
import type { IOidcIntegration } from './oidc-integration';
import type { OutboundConnection } from './outbound-connection';
import type { PluginSetting } from './plugin-setting';
import type { RequestBodyLimit } from './request-body-limit';
import type { SoftwareComponent } from './software-component';
import type { IUserDataBuilder } from './user-data-builder';

/**
 * The plugin contract (`IApplicationSpec`): everything the framework needs to run an application on Fargate
 * or EC2. Plugins usually extend `ApplicationSpec`, which supplies the optional members' defaults.
 *
 * A plugin only describes; it never reaches into the framework's constructs.
 *
 * jsii forbids members named `getXxx`: the OIDC handler is `oidcIntegration()`.
 */
export interface IApplicationSpec {
  /** Unique identifier of the application. Also the value of the `applicationId` context key. */
  applicationId(): string;
  /** Container image reference, pinned to a version (for example `jenkins/jenkins:2.528.2-lts-jdk21`). */
  defaultContainerImage(): string;
  /** HTTP port of the application (1-65535). */
  applicationPort(): number;
  /** Absolute mount path of the data volume inside the container. */
  containerDataPath(): string;
  /** Absolute path inside the EFS file system (the access point's root). */
  efsDataPath(): string;
  /** Name by which the data volume is referenced in the task definition. */
  volumeName(): string;
  /**
   * `<UID>:<GID>` with numeric ids, for example `1000:1000` or an official image's own (`472:0`): the task's user on
   * Fargate, the owner of the data on EFS, and on EC2 the application's account (uid 0 refused, and a gid of 0 becomes
   * a group of the account's own there, as docs/writing-a-plugin.md says).
   */
  containerUser(): string;
  /** Permissions of the EFS access point's root directory, as octal text (for example `750`). */
  efsPermissions(): string;
  /** Block device name of the data volume on EC2, for example `/dev/xvdf`. */
  ebsDeviceName(): string;
  /** Absolute mount path of the data volume on EC2. */
  ec2DataPath(): string;
  /** Absolute paths of the log files shipped to CloudWatch on EC2. */
  ec2LogPaths(): string[];
  /**
   * Adds the EC2 installation script, in the user-data order: system update, install, CloudWatch agent, mount,
   * then configuration, service unit, enable and start.
   */
  configureUserData(builder: IUserDataBuilder, context: Ec2Context): void;
  /** Load-balancer health-check path. Starts with `/` and may carry a query string. */
  healthCheckPath(): string;
  /**
   * The port the load balancer's health check calls, where the application answers it on another port than
   * `applicationPort()` (a management port). Undefined for the application port. `ApplicationSpec` gives a default.
   */
  healthCheckPort(): number | undefined;
  /**
   * What the container runs instead of its image's `ENTRYPOINT` and `CMD` (see `ContainerCommand`), on Fargate and,
   * through `runImage`, on EC2. Undefined to run the image's own. `ApplicationSpec` gives a default.
   */
  containerCommand(): ContainerCommand | undefined;
  /**
   * Whether the application keeps data of its own. False: it gets no file-system access point and no data volume on
   * either runtime, nothing it writes outlives its task or instance, and `containerDataPath()`, `efsDataPath()`,
   * `volumeName()`, `efsPermissions()` and `ebsDeviceName()` are not used (`ec2DataPath()` is then its account's home
   * on the instance's own disk, and `Ec2Context.keepsData` is false). `ApplicationSpec` gives a default (true).
   */
  keepsData(): boolean;
  /**
   * Environment of the container.
   *
   * @param fqdn the application's domain name, or an empty string when it has none (then fall back to a local
   *   address with the application port). Not optional: jsii cannot pass an optional parameter before required ones
   * @param sslEnabled true selects `https://`, false `http://`, as the scheme of the public address
   * @param authMode `none`, `application-oidc` or `alb-oidc` (see `AuthMode`)
   */
  containerEnvironmentVariables(fqdn: string, sslEnabled: boolean, authMode: string): Record<string, string>;
  /**
   * Fargate: files written before the application's container starts (configuration delivered without building an
   * image), and commands run then. Undefined when there is nothing to prepare. It is
   * the container counterpart of `configureUserData`.
   *
   * @param securityProfile `DEV`, `STAGING` or `PRODUCTION`, as `Ec2Context.securityProfile` tells `configureUserData`
   */
  containerInitialization(fqdn: string, sslEnabled: boolean, authMode: string, securityProfile: string): ContainerInitialization | undefined;
  /**
   * Alarms on the application's log (for example failed sign-ins), raised on both runtimes and sent to the alarm
   * topic (context key `alarmEmail`). It lets a plugin state what its log means.
   */
  logAlarms(): LogAlarm[];
  /**
   * The `authMode` values this application can be deployed with (see `AuthMode`). The factory refuses any other
   * before building anything. It lets a plugin that must not run without sign-in say so.
   */
  supportedAuthModes(): string[];
  /**
   * Short-lived ECS Fargate tasks the application starts itself (for example build agents), on both runtimes. The
   * framework tells the application where they are through `WorkerVariables`. Undefined when it starts none. `ApplicationSpec` gives a default.
   */
  ephemeralWorkers(): EphemeralWorkers | undefined;
  /**
   * Traffic the application sends beyond HTTPS to anywhere, NFS to its file system and what its workers need (for
   * example UDP 514 to a syslog server). The application's security group sends nothing else. `ApplicationSpec` gives a default.
   */
  egressRules(): EgressRule[];
  /**
   * Secrets the application itself needs, by environment variable name, each a Secrets Manager secret ARN: the same
   * form as `ApplicationFactoryProps.secrets`, to which they are added (a name in both is refused). Fargate injects them
   * as container secrets; EC2 reads them at boot into `Ec2Files.APPLICATION_ENVIRONMENT_FILE`. Only the ARNs are in
   * the template. `ApplicationSpec` gives a default.
   */
  secrets(): Record<string, string>;
  /**
   * The size the application needs, where the framework's defaults (`FACTORY_SIZE_DEFAULTS`) are too small. The
   * factory's props and the context keys `cpu`, `memoryLimitMiB` and `instanceType` override it. `ApplicationSpec` gives a default.
   */
  defaultSize(): ApplicationSize;
  /**
   * The settings the plugin takes by configuration (the `pluginSettings` context key), each checked before
   * `withSettings()` receives them. `ApplicationSpec` gives a default.
   */
  settings(): PluginSetting[];
  /**
   * The plugin configured with its settings: called once a deployment, when `settings()` declares any, with every
   * declared setting's text (given, or its default). The factory deploys what it returns, whose `applicationId()` must
   * be this one's. The registry constructs plugins without arguments (as Java's ServiceLoader does), so this is how a
   * plugin used by configuration receives its settings. `ApplicationSpec` gives a default.
   *
   * @param values the settings by name
   */
  withSettings(values: Record<string, string>): IApplicationSpec;
  /**
   * Paths whose requests carry bodies larger than the WAF lets through elsewhere (`WAF_BODY_SIZE_LIMIT`), each with the largest it
   * takes (for example the build server's job configuration). Everywhere else such bodies stay blocked. `ApplicationSpec` gives a default.
   */
  requestBodyLimits(): RequestBodyLimit[];
  /**
   * Requests the load balancer's WAF blocks from outside: endpoints of the application nobody needs from the internet
   * and its configuration cannot switch off (for example the build server's script console). `ApplicationSpec` gives a default.
   */
  blockedRequests(): BlockedRequest[];
  /**
   * Published advisories against what the application installs at the versions it pins: the framework refuses each in
   * PRODUCTION unless the `acceptedAdvisories` context key accepts it, and warns in the other profiles. `ApplicationSpec` gives a default.
   */
  knownVulnerabilities(): KnownVulnerability[];
  /**
   * What the application installs, each at its pinned version (the image and packages the framework deploys are added
   * by the framework): the bill of materials beside the PRODUCTION evidence report. `ApplicationSpec` gives a default.
   */
  softwareComponents(): SoftwareComponent[];
  /**
   * Connections the application (or its workers) opens to systems outside the framework's stacks, which no
   * security-group rule names (see `OutboundConnection`): drawn in the diagrams and listed in the evidence report.
   * `ApplicationSpec` gives a default (none). Contract 1.1.
   */
  outboundConnections(): OutboundConnection[];
  /**
   * Accounts the application's image starts with at a password its vendor publishes (see `DefaultCredential`): the
   * evidence report lists each as the first thing to change. `ApplicationSpec` gives a default (none). Contract 1.1.
   */
  defaultCredentials(): DefaultCredential[];
  /**
   * The PCI DSS controls the application implements itself (sign-in with MFA, authorisation, audit trail, masking),
   * each with its requirement numbers, listed in the PRODUCTION evidence report beside what the template shows. `ApplicationSpec` gives a default.
   */
  complianceControls(): ComplianceControl[];
  /**
   * The database the application needs, which the framework provides and connects it to (see `DatabaseRequirement`).
   * Undefined when it needs none. `ApplicationSpec` gives a default.
   */
  database(): DatabaseRequirement | undefined;
  /** Whether the application can perform OIDC sign-in itself. */
  supportsOidcIntegration(): boolean;
  /** The application's OIDC handler. Undefined when OIDC is unsupported. */
  oidcIntegration(): IOidcIntegration | undefined;
}

/**
 * Base class for plugins: declares the required members and gives the defaults for the optional ones.
 */
export abstract class ApplicationSpec implements IApplicationSpec {
  public abstract applicationId(): string;
  public abstract defaultContainerImage(): string;
  public abstract applicationPort(): number;
  public abstract containerDataPath(): string;
  public abstract efsDataPath(): string;
  public abstract volumeName(): string;
  public abstract containerUser(): string;
  public abstract efsPermissions(): string;
  public abstract ebsDeviceName(): string;
  public abstract ec2DataPath(): string;
  public abstract ec2LogPaths(): string[];
  public abstract configureUserData(builder: IUserDataBuilder, context: Ec2Context): void;

  /** Default `/`. */
  public healthCheckPath(): string {
    return '/';
  }

  /** Default: the application port. */
  public healthCheckPort(): number | undefined {
    return undefined;
  }

  /** Default: the image's own entry point and command. */
  public containerCommand(): ContainerCommand | undefined {
    return undefined;
  }

  /** Default: it keeps data (a file system or data volume of its own). */
  public keepsData(): boolean {
    return true;
  }

  /** Default: no environment. */
  public containerEnvironmentVariables(fqdn: string, sslEnabled: boolean, authMode: string): Record<string, string> {
    // Unused here; named plainly because Java's and Python's bindings (and their docs) take these names.
    void [fqdn, sslEnabled, authMode];
    return {};
  }

  /** Default: nothing to prepare. */
  public containerInitialization(fqdn: string, sslEnabled: boolean, authMode: string,
    securityProfile: string): ContainerInitialization | undefined {
    void [fqdn, sslEnabled, authMode, securityProfile]; // as above
    return undefined;
  }

  /** Default: no alarms. */
  public logAlarms(): LogAlarm[] {
    return [];
  }

  /**
   * Default: the modes whose sign-in asks nothing of the plugin (`none`, `alb-oidc`), and `application-oidc` when it
   * signs users in itself (`supportsOidcIntegration()`). A plugin is offered only those its plugin contract knew (a
   * mode a later release adds is refused for it until it is rebuilt: docs/writing-a-plugin.md, "Upgrading").
   */
  public supportedAuthModes(): string[] {
    return defaultAuthModes(this.supportsOidcIntegration());
  }

  /** Default: no workers. */
  public ephemeralWorkers(): EphemeralWorkers | undefined {
    return undefined;
  }

  /** Default: nothing beyond what the framework allows. */
  public egressRules(): EgressRule[] {
    return [];
  }

  /** Default: none beyond `ApplicationFactoryProps.secrets`. */
  public secrets(): Record<string, string> {
    return {};
  }

  /** Default: the framework's (`FACTORY_SIZE_DEFAULTS`). */
  public defaultSize(): ApplicationSize {
    return {};
  }

  /** Default: no settings. */
  public settings(): PluginSetting[] {
    return [];
  }

  /** Default: fails, naming the plugin. A plugin that declares `settings()` overrides it. */
  public withSettings(values: Record<string, string>): IApplicationSpec {
    throw new Error(`${this.constructor.name} declares settings() (${Object.keys(values).join(', ')}) but does not ` +
      'override withSettings(values), which must return the plugin configured with them.');
  }

  /** Default: no request body above `WAF_BODY_SIZE_LIMIT` anywhere. */
  public requestBodyLimits(): RequestBodyLimit[] {
    return [];
  }

  /** Default: none blocked. */
  public blockedRequests(): BlockedRequest[] {
    return [];
  }

  /** Default: none known. */
  public knownVulnerabilities(): KnownVulnerability[] {
    return [];
  }

  /** Default: none beyond what the framework knows (the images it deploys). */
  public softwareComponents(): SoftwareComponent[] {
    return [];
  }

  /** Default: none. */
  public outboundConnections(): OutboundConnection[] {
    return [];
  }

  /** Default: none. */
  public defaultCredentials(): DefaultCredential[] {
    return [];
  }

  /** Default: none. */
  public complianceControls(): ComplianceControl[] {
    return [];
  }

  /** Default: no database. */
  public database(): DatabaseRequirement | undefined {
    return undefined;
  }

  /** Default: OIDC unsupported. */
  public supportsOidcIntegration(): boolean {
    return false;
  }

  /** Default: no integration. */
  public oidcIntegration(): IOidcIntegration | undefined {
    return undefined;
  }
}

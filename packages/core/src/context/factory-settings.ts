import type { AcceptedAdvisory } from './accepted-advisory';
import type { ExistingVpc } from './existing-vpc';
import type { DeploymentStrategy } from '../contract/deployment-strategy';
import type { Ec2Storage } from '../contract/ec2-storage';
import type { OidcProviderSettings } from '../contract/oidc-integration';
import type { PciDssScope } from '../contract/pci-dss-scope';
import type { SecurityProfile } from '../contract/security-profile';

/**
 * How to deploy. Each field is the context key of the same name (docs/context-keys.md), which the factory also reads from
 * the construct tree (`cdk.json`, `-c`): a field set here and a key with another value is an error; a field left out
 * takes the key's value; without either, the defaults make a DEV deployment without a domain. The factory's own props
 * (`ApplicationFactoryProps`) add what no key gives: the platform and how to attach to it.
 */
export interface FactorySettings {
  /** How hardened the deployment is: `DEV`, `STAGING` or `PRODUCTION` (docs/security-profiles.md). @default SecurityProfile.DEV */
  readonly securityProfile?: SecurityProfile;
  /** The domain the application is reached under, for example `example.com`. @default - no domain: the load balancer's own DNS name */
  readonly domain?: string;
  /** The label before `domain`: the application's FQDN is `<subdomain>.<domain>`. @default - the FQDN is the domain itself */
  readonly subdomain?: string;
  /** Whether users reach the application over HTTPS (TLS ends at the load balancer). @default false */
  readonly sslEnabled?: boolean;
  /** The Route 53 hosted zone of `domain`: the alias record, and the certificate's DNS validation. @default - no DNS record; the certificate comes from `certificateArn` */
  readonly hostedZoneId?: string;
  /** An existing ACM certificate for the FQDN, in the stack's region. @default - a DNS-validated certificate is created in `hostedZoneId` */
  readonly certificateArn?: string;
  /** `none`, `application-oidc` or `alb-oidc` (`AuthMode`). @default AuthMode.NONE */
  readonly authMode?: string;
  /** The identity provider. Required when `authMode` is not `none`. @default - none */
  readonly oidc?: OidcProviderSettings;
  /** EC2 data volume. @default Ec2Storage.EFS */
  readonly ec2Storage?: Ec2Storage;
  /**
   * EC2 with `ebs` storage: the EBS snapshot the data volume is created from (restore). Changing it replaces the volume.
   * @default - an empty volume
   */
  readonly dataVolumeSnapshotId?: string;
  /**
   * How a deployment replaces the application: `ROLLING`, new beside old and only without data of its own, or `STOP_FIRST`.
   * @default - ROLLING for an application that keeps no data, else STOP_FIRST
   */
  readonly deploymentStrategy?: DeploymentStrategy;
  /**
   * How many tasks or instances serve the application, 1 to `DESIRED_COUNT_MAX`, and more than one only without data.
   * @default 1
   */
  readonly desiredCount?: number;
  /**
   * When RDS rotates the database password, and the application restarts for it: a Secrets Manager cron expression (UTC).
   * @default - STAGING and PRODUCTION: the profile's window; DEV: RDS's own schedule
   */
  readonly maintenanceWindow?: string;
  /**
   * EC2: the Amazon Linux 2023 image (AMI id) the instance runs. Required in STAGING and PRODUCTION.
   * @default - DEV: the newest Amazon Linux 2023, read at each deployment
   */
  readonly ec2ImageId?: string;
  /**
   * Secrets the application needs, by environment variable name. Each value is a Secrets Manager secret's complete
   * ARN, the `secretArn` of a secret in the same app, or either followed by `:<json-key>:<version-stage>:<version-id>`
   * (ECS's form for one key of a JSON secret; see docs/writing-a-plugin.md, "Secrets"). Fargate injects them as
   * container secrets; EC2 reads them at boot with the instance role. Only references ever reach the template.
   * @default - none
   */
  readonly secrets?: Record<string, string>;
  /**
   * The customer-managed KMS keys (complete key ARNs) that encrypt the secrets in `secrets`: the roles that read them
   * may decrypt with these keys, through Secrets Manager only.
   * @default - none: the secrets are under Secrets Manager's own key
   */
  readonly secretKeyArns?: string[];
  /**
   * E-mail address subscribed to the alarm topic that receives the alarms on the application's health and the
   * plugin's log alarms. Required in PRODUCTION.
   * @default - no subscription
   */
  readonly alarmEmail?: string;
  /**
   * CloudWatch Container Insights on the ECS clusters the deployment creates. PRODUCTION requires it.
   * @default - false in DEV, true in STAGING and PRODUCTION
   */
  readonly containerInsights?: boolean;
  /**
   * A Secrets Manager secret named `ecr-pullthroughcache/...` holding a Docker Hub account's credential: Docker Hub
   * images (the application's and its workers') are pulled through an ECR pull-through cache of the stack's (on a
   * platform: the platform's).
   * @default - pulled from Docker Hub; refused in STAGING and PRODUCTION when an image comes from Docker Hub
   */
  readonly dockerHubCredentialArn?: string;
  /**
   * Known vulnerabilities deployed anyway: advisory id -> why, and until when. PRODUCTION refuses every vulnerability
   * the application declares (`knownVulnerabilities()`) that is not accepted here, or whose acceptance has lapsed; the
   * other profiles warn. An id the application does not declare is refused.
   * @default - none accepted
   */
  readonly acceptedAdvisories?: Record<string, AcceptedAdvisory>;
  /**
   * The digest of each image the plugin names by tag (image reference -> `sha256:` and 64 hex digits): the task runs
   * exactly that image. PRODUCTION refuses an image pinned by tag only.
   * @default - none
   */
  readonly imageDigests?: Record<string, string>;
  /**
   * Deploys AWS's own PCI DSS 4.0 conformance pack (`AWS::Config::ConformancePack`) with the stack, so AWS Config
   * checks the deployed account and region against it. Needs an AWS Config configuration recorder recording there:
   * without one the deployment fails (AWS Config's `NoAvailableConfigurationRecorderException`). Deploy it once per
   * account and region.
   * @default false
   */
  readonly pciConformancePack?: boolean;
  /**
   * Enables Security Hub's PCI DSS v4.0.1 standard (`AWS::SecurityHub::Standard`) with the stack, so its controls
   * evaluate the deployed account and region. Needs Security Hub enabled there; enable it once per account and region.
   * @default false
   */
  readonly securityHubPciDss?: boolean;
  /**
   * The application's role toward the cardholder data environment, as your PCI DSS scoping decided. The evidence
   * report states it and what follows from it.
   * @default - not stated (the report says so)
   */
  readonly pciDssScope?: PciDssScope;
  /**
   * Whether you are a multi-tenant service provider (you host other entities' card-data environments): only then
   * does the evidence report hold appendix A1's requirements.
   * @default false
   */
  readonly pciDssMultiTenantProvider?: boolean;
  /** Fargate task CPU units. @default - the plugin's `defaultSize().cpu`, else `FACTORY_SIZE_DEFAULTS.cpu` */
  readonly cpu?: number;
  /** Fargate task memory in MiB. @default - the plugin's `defaultSize().memoryLimitMiB`, else `FACTORY_SIZE_DEFAULTS.memoryLimitMiB` */
  readonly memoryLimitMiB?: number;
  /** EC2 instance type. @default - the plugin's `defaultSize().instanceType`, else `FACTORY_SIZE_DEFAULTS.instanceType` */
  readonly instanceType?: string;
  /** EBS data volume size in GiB (EC2 with `ebs` storage). @default - `FACTORY_SIZE_DEFAULTS.dataVolumeGiB` */
  readonly dataVolumeGiB?: number;
  /** The instance class of the plugin's database (`database()`), for example `db.t4g.medium`. @default - `DATABASE_DEFAULTS.instanceType` */
  readonly databaseInstanceType?: string;
  /** The storage of the plugin's database in GiB, 20 to 65536. @default - `DATABASE_DEFAULTS.storageGiB` */
  readonly databaseStorageGiB?: number;
  /**
   * Under `alb-oidc`, the path patterns the application authenticates by itself (its API tokens): requests to them skip
   * the load balancer's sign-in. At most `TOKEN_PATHS_MAX` (4). Only with `authMode` `alb-oidc`.
   * @default - none: every request signs in
   */
  readonly tokenPaths?: string[];
  /**
   * Requests one client address may send to the application in 5 minutes before the WAF blocks it for a while
   * (STAGING and PRODUCTION), on a platform to the application's host only. Within WAF's bounds (`WAF_RATE_LIMIT_BOUNDS`).
   * @default - `WAF_RATE_LIMIT`
   */
  readonly rateLimit?: number;
  /**
   * The plugin's own settings by name, each one its `settings()` declares. The plugin deployed is what its
   * `withSettings()` returns for them (see docs/writing-a-plugin.md, "Settings by configuration").
   * @default - none: the declared defaults
   */
  readonly pluginSettings?: Record<string, string>;
  /**
   * The VPC's address range (standalone: on a platform the platform's `vpcCidr` decides).
   * @default - the CDK's default range (`Vpc.DEFAULT_CIDR_RANGE`)
   */
  readonly vpcCidr?: string;
  /**
   * A VPC you are given, by ids, instead of one the framework creates (standalone: on a platform the platform's decides).
   * @default - none: the framework creates the VPC
   */
  readonly existingVpc?: ExistingVpc;
}

import type { AcceptedAdvisory } from './accepted-advisory';
import type { ExistingVpc } from './existing-vpc';
import type { DeploymentStrategy } from '../contract/deployment-strategy';
import type { Ec2Storage } from '../contract/ec2-storage';
import type { OidcProviderSettings } from '../contract/oidc-integration';
import type { PciDssScope } from '../contract/pci-dss-scope';
import type { RuntimeType } from '../contract/runtime-type';
import type { SecurityProfile } from '../contract/security-profile';

/**
 * The validated deployment configuration: what the context keys say, with defaults applied.
 */
export interface DeploymentContext {
  /** CloudFormation stack name. */
  readonly stackName: string;
  /** The plugin to deploy. */
  readonly applicationId: string;
  /** Where it runs. */
  readonly runtimeType: RuntimeType;
  /** How strict the deployment is. */
  readonly securityProfile: SecurityProfile;
  /** Whether users reach the application over HTTPS. */
  readonly sslEnabled: boolean;
  /** `none`, `application-oidc` or `alb-oidc`. */
  readonly authMode: string;
  /**
   * Domain name.
   * @default - none
   */
  readonly domain?: string;
  /**
   * Sub-domain.
   * @default - none
   */
  readonly subdomain?: string;
  /**
   * `<subdomain>.<domain>`, or the domain alone.
   * @default - none when there is no domain
   */
  readonly fqdn?: string;
  /**
   * Route 53 hosted zone of the domain.
   * @default - no DNS record and no DNS-validated certificate
   */
  readonly hostedZoneId?: string;
  /**
   * Existing ACM certificate.
   * @default - a certificate is created when TLS is on
   */
  readonly certificateArn?: string;
  /**
   * AWS region of the stack.
   * @default - environment-agnostic
   */
  readonly region?: string;
  /**
   * The EC2 data volume, `efs` or `ebs`.
   * @default Ec2Storage.EFS
   */
  readonly ec2Storage?: Ec2Storage;
  /**
   * The snapshot the EBS data volume is created from (EC2 with `ebs` storage).
   * @default - an empty volume
   */
  readonly dataVolumeSnapshotId?: string;
  /**
   * How a deployment replaces the application.
   * @default - ROLLING without data of its own, else STOP_FIRST
   */
  readonly deploymentStrategy?: DeploymentStrategy;
  /**
   * How many tasks or instances serve the application.
   * @default 1
   */
  readonly desiredCount?: number;
  /**
   * When RDS rotates the database password (a Secrets Manager cron expression, UTC).
   * @default - the profile's window
   */
  readonly maintenanceWindow?: string;
  /**
   * EC2: the Amazon Linux 2023 image the instance runs.
   * @default - DEV: the newest, read at each deployment
   */
  readonly ec2ImageId?: string;
  /**
   * The VPC's address range.
   * @default - the CDK's default range (`Vpc.DEFAULT_CIDR_RANGE`)
   */
  readonly vpcCidr?: string;
  /**
   * The digest of each image named by tag: image reference -> `sha256:...`.
   * @default - none
   */
  readonly imageDigests?: Record<string, string>;
  /**
   * Known vulnerabilities accepted, by advisory id.
   * @default - none accepted
   */
  readonly acceptedAdvisories?: Record<string, AcceptedAdvisory>;
  /** Whether the stack deploys AWS's PCI DSS 4.0 conformance pack. */
  readonly pciConformancePack: boolean;
  /** Whether the stack enables Security Hub's PCI DSS v4.0.1 standard. */
  readonly securityHubPciDss: boolean;
  /**
   * The application's role toward the cardholder data environment, stated in the evidence report.
   * @default - not stated
   */
  readonly pciDssScope?: PciDssScope;
  /**
   * Whether you are a multi-tenant service provider: only then does the evidence report hold appendix A1.
   * @default - not stated (the report says so; it never prints a default as your statement)
   */
  readonly pciDssMultiTenantProvider?: boolean;
  /**
   * The Docker Hub credential of the ECR pull-through cache.
   * @default - Docker Hub images are pulled from Docker Hub
   */
  readonly dockerHubCredentialArn?: string;
  /**
   * Subscribed to the alarm topic.
   * @default - no subscription
   */
  readonly alarmEmail?: string;
  /** CloudWatch Container Insights on the ECS clusters the deployment creates. */
  readonly containerInsights: boolean;
  /**
   * Secrets by environment variable name, each a secret reference (`ApplicationFactoryProps.secrets`).
   * @default - none beyond the plugin's own
   */
  readonly secrets?: Record<string, string>;
  /**
   * The KMS keys of the secrets in `secrets` (`ApplicationFactoryProps.secretKeyArns`).
   * @default - none: the secrets are under Secrets Manager's own key
   */
  readonly secretKeyArns?: string[];
  /**
   * Under `alb-oidc`, the path patterns that skip the load balancer's sign-in (the application authenticates them).
   * @default - none
   */
  readonly tokenPaths?: string[];
  /**
   * Requests one client address may send to the application in 5 minutes before the WAF blocks it for a while.
   * @default - `WAF_RATE_LIMIT`
   */
  readonly rateLimit?: number;
  /**
   * A VPC given by ids instead of one the framework creates.
   * @default - none
   */
  readonly existingVpc?: ExistingVpc;
  /**
   * The plugin's own settings by name, as text (`IApplicationSpec.settings()`).
   * @default - none
   */
  readonly pluginSettings?: Record<string, string>;
  /**
   * Fargate task CPU units.
   * @default - the plugin's `defaultSize()`, else the framework's
   */
  readonly cpu?: number;
  /**
   * Fargate task memory in MiB.
   * @default - the plugin's `defaultSize()`, else the framework's
   */
  readonly memoryLimitMiB?: number;
  /**
   * EC2 instance type.
   * @default - the plugin's `defaultSize()`, else the framework's
   */
  readonly instanceType?: string;
  /**
   * EC2 EBS data volume size in GiB.
   * @default - the framework's
   */
  readonly dataVolumeGiB?: number;
  /**
   * The instance class of the plugin's database.
   * @default - `DATABASE_DEFAULTS.instanceType`
   */
  readonly databaseInstanceType?: string;
  /**
   * The storage of the plugin's database in GiB.
   * @default - `DATABASE_DEFAULTS.storageGiB`
   */
  readonly databaseStorageGiB?: number;
  /**
   * The identity provider, when `authMode` is not `none`.
   * @default - none
   */
  readonly oidc?: OidcProviderSettings;
}

import { aws_logs as logs, RemovalPolicy } from 'aws-cdk-lib';
import { SecurityProfile } from '../contract/security-profile';

/**
 * What a security profile changes. Every difference between DEV, STAGING and PRODUCTION is a field here, or the
 * default of a context key a deployment may set otherwise (`defaultByProfile` in the key table); the table of
 * docs/security-profiles.md is this table.
 */
export interface ProfileSettings {
  /** TLS on the load balancer is required: `sslEnabled` false is a context error (card data in clear text). */
  readonly tlsRequired: boolean;
  /**
   * Signing users in (`authMode` other than `none`) needs TLS: over plain HTTP the authorization code, the session
   * cookie and, with `application-oidc`, the tokens cross the network in clear text.
   */
  readonly signInTlsRequired: boolean;
  /**
   * Docker Hub images are pulled through an ECR pull-through cache (`dockerHubCredentialArn` is required when a task
   * runs one): without it every task pulls from Docker Hub, whose anonymous limit per address stops agents and
   * replacements once the NAT gateways' addresses have spent it.
   */
  readonly imageCacheRequired: boolean;
  /**
   * Every image a task runs is pinned by digest (in its reference, or through `imageDigests`): a tag can be moved to
   * another image, and what runs in PRODUCTION is what was reviewed.
   */
  readonly imageDigestRequired: boolean;
  /** The stack needs a region: load-balancer access logs are delivered by a region-specific account. */
  readonly regionRequired: boolean;
  /** A plugin that declares log alarms needs someone to receive them (`alarmEmail`). */
  readonly alarmRecipientRequired: boolean;
  /** Keep the longest audit history a plugin offers (the build server: audit-trail's full template, a year). */
  readonly fullAuditTrail: boolean;
  /** NAT gateways; 0 puts compute in public subnets with no public ingress (DEV only). */
  readonly natGateways: number;
  /**
   * Session Manager reaches the compute (ECS Exec on Fargate, the SSM agent's permissions on EC2): a developer's port
   * forward to an application without a domain, whose address is then `http://localhost:<port>`.
   */
  readonly sessionManager: boolean;
  /** VPC flow logs to CloudWatch. */
  readonly flowLogs: boolean;
  /**
   * An ECS deployment rolls back when one of the application's health alarms goes off during it (no healthy target,
   * 5xx answers, no running task), beside the circuit breaker, which rolls back only a task that never reaches
   * RUNNING: a change that runs but fails its users is backed out (PCI DSS 6.5.2). DEV leaves a failed change in
   * place, for its developer to look at.
   */
  readonly deploymentAlarmRollback: boolean;
  /**
   * EC2 instances run the Amazon Linux 2023 image the deployment names (`ec2ImageId`): a new release changes nothing
   * until the configuration does, and then as a reviewed change. Otherwise they follow the newest release, read from
   * AWS's public parameter at each deployment, which replaces the instance when a release comes out.
   */
  readonly ec2ImagePinned: boolean;
  /**
   * When RDS rotates an application's database password (a Secrets Manager schedule expression, UTC; the window is
   * `ROTATION_WINDOW_HOURS` long), and so when the application restarts for it; the key `maintenanceWindow` names
   * another. Undefined: RDS's own schedule, every 7 days at any hour.
   */
  readonly maintenanceWindow?: string;
  /**
   * VPC endpoints for the AWS APIs the compute calls (CloudWatch Logs, Secrets Manager, ECS; S3 as a gateway), each with
   * a policy that allows only the stack's own calls: those calls stay inside the VPC, and stolen credentials used
   * from inside reach nothing else through them.
   */
  readonly vpcEndpoints: boolean;
  /** Retention of every log group the stack creates. */
  readonly logRetention: logs.RetentionDays;
  /**
   * Log groups, keys, EFS, the EBS data volume and the access-log bucket: kept or destroyed with the stack. Kept means
   * `RETAIN_ON_UPDATE_OR_DELETE` (CloudFormation's `RetainExceptOnCreate`), never plain `RETAIN`.
   */
  readonly removalPolicy: RemovalPolicy;
  /** Deletion protection on the load balancer and on a plugin's database. */
  readonly deletionProtection: boolean;
  /** A plugin's database in two availability zones (RDS Multi-AZ). */
  readonly databaseMultiAz: boolean;
  /**
   * Termination protection on a platform's stack: deleting it would delete the listener, and with it every attached
   * application's routing, before CloudFormation reaches anything it keeps.
   */
  readonly platformTerminationProtection: boolean;
  /** A WAF web ACL (AWS managed rule sets) on the load balancer. */
  readonly waf: boolean;
  /** Load-balancer access logs to an S3 bucket. */
  readonly accessLogs: boolean;
  /**
   * Days a daily AWS Backup recovery point of the EC2 EBS data volume is kept; no backup plan when undefined. EFS has
   * its own automatic backups (AWS Backup's default plan, 35 days) in every profile.
   */
  readonly dataVolumeBackupDays?: number;
  /**
   * A known vulnerability the application declares (`knownVulnerabilities()`) is refused unless `acceptedAdvisories`
   * accepts it (with an `until` not passed); otherwise it is a warning.
   */
  readonly knownVulnerabilitiesRefused: boolean;
  /**
   * Egress rules (`egressRules()`, the workers' `egress`) that reach more than a /8's share of the public internet on one
   * port, alone or together, are refused (`broadEgressProblems`); otherwise allowed.
   */
  readonly broadEgressRefused: boolean;
  /**
   * An application container that runs as root (uid 0, `containerUser()` or `containerImage.user`) is refused on Fargate;
   * EC2 refuses it in every profile (the application would run as root on the instance).
   */
  readonly rootContainerRefused: boolean;
  /**
   * A variable in a container's environment whose name says it holds a secret (`SECRET_NAME_ENDINGS`) is refused, on
   * both runtimes, before the compliance packs run (the environment is written in clear: a task definition, EC2's user
   * data); otherwise a warning names it.
   */
  readonly secretInEnvironmentRefused: boolean;
  /**
   * The application's `pciDssScope` must be stated: the evidence report never prints a default as the user's scoping
   * decision.
   */
  readonly pciDssScopeRequired: boolean;
  /**
   * The evidence report names the source revision it was synthesised from (`FW_SOURCE_REVISION`, or the deployment
   * project's git commit): without one the system it describes cannot be identified, so synth refuses.
   */
  readonly sourceRevisionRequired: boolean;
  /** cdk-nag AwsSolutions, PCI DSS v4.0.1 (the framework's PciDss401Checks), NIST 800-53 R5 and HIPAA at synth, failing on unacknowledged findings. */
  readonly complianceChecks: boolean;
}

export const PROFILE_SETTINGS: Record<SecurityProfile, ProfileSettings> = {
  [SecurityProfile.DEV]: {
    tlsRequired: false,
    signInTlsRequired: false,
    imageCacheRequired: false,
    imageDigestRequired: false,
    regionRequired: false,
    alarmRecipientRequired: false,
    fullAuditTrail: false,
    natGateways: 0,
    sessionManager: true,
    flowLogs: false,
    deploymentAlarmRollback: false,
    ec2ImagePinned: false,
    maintenanceWindow: undefined,
    vpcEndpoints: false,
    logRetention: logs.RetentionDays.ONE_WEEK,
    removalPolicy: RemovalPolicy.DESTROY,
    deletionProtection: false,
    databaseMultiAz: false,
    platformTerminationProtection: false,
    waf: false,
    accessLogs: false,
    // No backups: DEV data is disposable (and the volume goes with the stack).
    knownVulnerabilitiesRefused: false,
    broadEgressRefused: false,
    rootContainerRefused: false,
    secretInEnvironmentRefused: false,
    pciDssScopeRequired: false,
    sourceRevisionRequired: false,
    complianceChecks: false,
  },
  [SecurityProfile.STAGING]: {
    tlsRequired: false,
    signInTlsRequired: true,
    imageCacheRequired: true,
    imageDigestRequired: false,
    regionRequired: true,
    alarmRecipientRequired: false,
    fullAuditTrail: false,
    natGateways: 1,
    sessionManager: false,
    flowLogs: true,
    deploymentAlarmRollback: true,
    ec2ImagePinned: true,
    maintenanceWindow: 'cron(0 3 ? * SUN *)',
    vpcEndpoints: true,
    logRetention: logs.RetentionDays.ONE_MONTH,
    removalPolicy: RemovalPolicy.DESTROY,
    deletionProtection: false,
    databaseMultiAz: false,
    platformTerminationProtection: true,
    waf: true,
    accessLogs: true,
    // A week: enough to undo a bad deployment or a broken upgrade found in testing.
    dataVolumeBackupDays: 7,
    knownVulnerabilitiesRefused: false,
    broadEgressRefused: true,
    rootContainerRefused: false,
    secretInEnvironmentRefused: false,
    pciDssScopeRequired: false,
    sourceRevisionRequired: false,
    complianceChecks: false,
  },
  [SecurityProfile.PRODUCTION]: {
    tlsRequired: true,
    signInTlsRequired: true,
    imageCacheRequired: true,
    imageDigestRequired: true,
    regionRequired: true,
    alarmRecipientRequired: true,
    fullAuditTrail: true,
    natGateways: 2,
    sessionManager: false,
    flowLogs: true,
    deploymentAlarmRollback: true,
    ec2ImagePinned: true,
    maintenanceWindow: 'cron(0 3 ? * SUN *)',
    vpcEndpoints: true,
    logRetention: logs.RetentionDays.ONE_YEAR, // PCI DSS 10.5.1: a year of audit history
    // Kept when the stack is deleted or a resource replaced, not when its first create fails and rolls back: a retained
    // resource with a fixed name (a log group) would make the next create fail with AlreadyExists
    // (CloudFormation's DeletionPolicy `RetainExceptOnCreate`).
    removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    deletionProtection: true,
    databaseMultiAz: true,
    platformTerminationProtection: true,
    waf: true,
    accessLogs: true,
    // 35 days, as EFS's automatic backups keep: a month of daily restore points on either storage.
    dataVolumeBackupDays: 35,
    knownVulnerabilitiesRefused: true,
    broadEgressRefused: true,
    rootContainerRefused: true,
    secretInEnvironmentRefused: true,
    pciDssScopeRequired: true,
    sourceRevisionRequired: true,
    complianceChecks: true,
  },
};

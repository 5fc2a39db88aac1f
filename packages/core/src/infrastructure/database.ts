import {
  aws_backup as backup, aws_ec2 as ec2, aws_events as events, type aws_kms as kms, aws_rds as rds, Duration,
  RemovalPolicy,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import type { Logging } from './logging';
import { backupVaultName, shortHash } from './names';
import { acknowledge } from '../compliance/acknowledge';
import { DATABASE_DEFAULTS, type DatabaseRequirement } from '../contract/database-requirement';
import type { ProfileSettings } from '../profiles/profile-settings';

/** PostgreSQL's port on RDS, which the security groups open: the default, so clients need no extra setting. */
export const POSTGRES_PORT = 5432;


/** How every database identifier of the framework starts (a platform's logs key names their log groups by it). */
export const DATABASE_IDENTIFIER_PREFIX = 'fw-';

/**
 * The RDS instance identifier of an application's database: `fw-<stack name>` in lowercase letters, digits and single
 * hyphens, at most 63 characters, starting with a letter (RDS's rule), with 8 hex characters of the stack name's
 * SHA-256 when anything had to change, so that two stack names never share one.
 */
export function databaseIdentifier(stackName: string): string {
  const cleaned = `${DATABASE_IDENTIFIER_PREFIX}${stackName.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`.replace(/-+$/, '');
  const exact = cleaned === `${DATABASE_IDENTIFIER_PREFIX}${stackName}` && cleaned.length <= 63;
  return exact ? cleaned : `${cleaned.slice(0, 63 - 9).replace(/-+$/, '')}-${shortHash(stackName)}`;
}

/** The log types PostgreSQL exports to CloudWatch Logs (RDS user guide, "PostgreSQL database log files"). */
export const POSTGRES_LOG_EXPORTS = ['postgresql', 'upgrade'];

/** The log group RDS writes an exported log type to: `/aws/rds/instance/<identifier>/<type>`. */
export function databaseLogGroupName(identifier: string, logType: string): string {
  return `/aws/rds/instance/${identifier}/${logType}`;
}

export interface PluginDatabaseProps {
  /** What the plugin asks for (`IApplicationSpec.database()`): engine, version, database name, variable names. */
  readonly requirement: DatabaseRequirement;
  /** The VPC whose isolated subnets hold the instance. */
  readonly vpc: ec2.IVpc;
  /** Isolated subnets in two zones. */
  readonly subnets: ec2.SubnetSelection;
  /** Encrypts the storage, the backups and the managed master password's secret. */
  readonly key: kms.IKey;
  /** Where its exported logs' groups are created, with the profile's retention and the logs key. */
  readonly logging: Logging;
  /** The application's stack name: the instance's identifier derives from it. */
  readonly stackName: string;
  /** A standby in a second zone (the profile's `databaseMultiAz`). */
  readonly multiAz: boolean;
  /** Refuse deleting the instance until this is turned off (the profile's `deletionProtection`). */
  readonly deletionProtection: boolean;
  /**
   * Of the instance: `SNAPSHOT` (a final snapshot, then deleted) where the profile keeps data, `DESTROY` where it does
   * not. Never kept running: a kept instance would hold its identifier and its groups, and the stack could not be
   * created again (docs/data-and-restore.md, "The database").
   */
  readonly removalPolicy: RemovalPolicy;
  /** Days of RDS's automated backups (at least one: RDS needs it). */
  readonly backupDays: number;
  /**
   * Days of AWS Backup's daily recovery points, in a vault kept when the stack is deleted.
   * @default - no AWS Backup plan (RDS's automated backups only)
   */
  readonly vaultBackupDays?: number;
  /** @default DATABASE_DEFAULTS.instanceType */
  readonly instanceType?: string;
  /** @default DATABASE_DEFAULTS.storageGiB */
  readonly storageGiB?: number;
}

/**
 * What a profile decides of a plugin's database: Multi-AZ, deletion protection, a final snapshot where it keeps data,
 * and the days of backups (the EC2 data volume's; RDS's own at least one day, which it needs, where the profile keeps
 * none, and then no AWS Backup plan either).
 */
export function profileDatabaseSettings(settings: ProfileSettings): Pick<PluginDatabaseProps, 'multiAz' | 'deletionProtection' | 'removalPolicy' | 'backupDays' | 'vaultBackupDays'> {
  return {
    multiAz: settings.databaseMultiAz,
    deletionProtection: settings.deletionProtection,
    removalPolicy: settings.removalPolicy === RemovalPolicy.DESTROY ? RemovalPolicy.DESTROY : RemovalPolicy.SNAPSHOT,
    backupDays: settings.dataVolumeBackupDays ?? 1,
    vaultBackupDays: settings.dataVolumeBackupDays,
  };
}

/**
 * The database a plugin declares, in the application's stack (standalone or on a platform): PostgreSQL on RDS in
 * isolated subnets, storage and backups encrypted under the data key, TLS enforced (`rds.force_ssl`), connections
 * logged, the master password generated and rotated by RDS in Secrets Manager (encrypted under the data key; never in
 * the template), Multi-AZ and deletion protection per profile, RDS's automated backups and, where the profile keeps
 * backups, an AWS Backup plan into a vault named after the stack; its logs exported to log groups of the stack's. Its
 * security group admits nobody but the application the factory connects. Where the profile keeps data, deleting the
 * stack leaves a final snapshot, and its security group, subnet and parameter groups go with the instance: nothing
 * holds a name the stack would need again. A new major version is the plugin's choice, so RDS is allowed to upgrade to
 * it (`AllowMajorVersionUpgrade`; RDS's ModifyDBInstance refuses another major version without it).
 */
export class PluginDatabase extends Construct {
  public readonly instance: rds.DatabaseInstance;
  public readonly securityGroup: ec2.SecurityGroup;
  public readonly identifier: string;
  private readonly props: PluginDatabaseProps;

  constructor(scope: Construct, id: string, props: PluginDatabaseProps) {
    super(scope, id);
    this.props = props;
    const { requirement } = props;
    this.identifier = databaseIdentifier(props.stackName);
    const engine = rds.DatabaseInstanceEngine.postgres({
      version: rds.PostgresEngineVersion.of(requirement.majorVersion, requirement.majorVersion),
    });
    this.securityGroup = new ec2.SecurityGroup(this, 'SecurityGroup', {
      vpc: props.vpc,
      description: `Database of ${props.stackName}: PostgreSQL from the application only`,
      allowAllOutbound: false,
    });
    const subnetGroup = new rds.SubnetGroup(this, 'Subnets', {
      vpc: props.vpc,
      vpcSubnets: props.subnets,
      description: `Isolated subnets of the database of ${props.stackName}`,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const parameterGroup = new rds.ParameterGroup(this, 'Parameters', {
      engine,
      description: `PostgreSQL settings of ${props.stackName}: TLS only, connections logged`,
      parameters: { 'rds.force_ssl': '1', 'log_connections': '1', 'log_disconnections': '1' },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Named as RDS names them, so that they exist (encrypted, with the profile's retention) before RDS writes.
    const logGroups = POSTGRES_LOG_EXPORTS.map((type) => props.logging.logGroup(`Database-${this.identifier}-${type}`, databaseLogGroupName(this.identifier, type)));
    this.instance = new rds.DatabaseInstance(this, 'Instance', {
      engine,
      instanceIdentifier: this.identifier,
      instanceType: new ec2.InstanceType((props.instanceType ?? DATABASE_DEFAULTS.instanceType).replace(/^db\./, '')),
      vpc: props.vpc,
      vpcSubnets: props.subnets,
      subnetGroup,
      securityGroups: [this.securityGroup],
      port: POSTGRES_PORT,
      databaseName: requirement.databaseName,
      manageMasterUserPassword: true,
      credentials: rds.Credentials.fromUsername('fwadmin', { encryptionKey: props.key }),
      storageEncryptionKey: props.key,
      storageType: rds.StorageType.GP3,
      allocatedStorage: props.storageGiB ?? DATABASE_DEFAULTS.storageGiB,
      multiAz: props.multiAz,
      deletionProtection: props.deletionProtection,
      removalPolicy: props.removalPolicy,
      backupRetention: Duration.days(props.backupDays),
      copyTagsToSnapshot: true,
      autoMinorVersionUpgrade: true,
      allowMajorVersionUpgrade: true,
      publiclyAccessible: false,
      parameterGroup,
      cloudwatchLogsExports: POSTGRES_LOG_EXPORTS,
      iamAuthentication: false,
      enablePerformanceInsights: false,
    });
    logGroups.forEach((group) => this.instance.node.addDependency(group));
    if (props.vaultBackupDays !== undefined) this.addBackupPlan(props.vaultBackupDays);
    this.acknowledgeFindings();
  }

  /**
   * AWS Backup's daily recovery points. They outlive the stack: a vault that holds them cannot be deleted, so it is
   * kept, under a name a stack created again adopts (`backupVaultName`).
   */
  private addBackupPlan(days: number): void {
    const vault = new backup.BackupVault(this, 'Vault', {
      backupVaultName: backupVaultName(this.props.stackName, 'database'),
      encryptionKey: this.props.key,
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    const plan = new backup.BackupPlan(this, 'BackupPlan', {
      backupVault: vault,
      backupPlanRules: [new backup.BackupPlanRule({
        ruleName: 'Daily',
        scheduleExpression: events.Schedule.cron({ hour: '3', minute: '30' }),
        deleteAfter: Duration.days(days),
      })],
    });
    const selection = plan.addSelection('Database', { resources: [backup.BackupResource.fromRdsDatabaseInstance(this.instance)] });
    acknowledge(selection.node.findChild('Role'), 'AwsSolutions-IAM4', 'AWS Backup\'s own service role policy ' +
      '(AWSBackupServiceRolePolicyForBackup), which AWS maintains for the services it backs up; the selection names ' +
      'only this database.');
  }

  private acknowledgeFindings(): void {
    acknowledge(this.instance, 'AwsSolutions-RDS11', 'PostgreSQL\'s default port: the security group admits the ' +
      'application alone, and a non-default port hides nothing from a client inside the VPC.');
    acknowledge(this.instance, 'RDSEnhancedMonitoringEnabled', 'CloudWatch\'s standard RDS metrics and the exported ' +
      'PostgreSQL log are kept; enhanced monitoring (an agent role and per-second OS metrics) is not needed for this ' +
      'application database.');
    acknowledge(this.instance, 'AwsSolutions-RDS6', 'Password authentication with the master password RDS manages and ' +
      'rotates in Secrets Manager; the application is given it as a secret, not IAM tokens it would have to renew.');
  }

  /** How the application reaches it: its endpoint, its database, the master password's secret, its security group. */
  public get connection(): DatabaseConnection {
    return {
      host: this.instance.dbInstanceEndpointAddress,
      port: this.instance.dbInstanceEndpointPort,
      name: this.props.requirement.databaseName,
      secretArn: this.instance.secret!.secretArn,
      securityGroup: this.securityGroup,
    };
  }
}

/** How an application reaches its database, in its own stack or read from its platform's parameters. */
export interface DatabaseConnection {
  readonly host: string;
  readonly port: string;
  readonly name: string;
  /** The master user's secret (JSON with `username` and `password`), which RDS rotates. */
  readonly secretArn: string;
  /** Admit the application here, on `POSTGRES_PORT`. */
  readonly securityGroup: ec2.ISecurityGroup;
}

import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as efs from 'aws-cdk-lib/aws-efs';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import type { NetworkAccess } from './network';
import type { PosixIds } from '../contract/posix-user';
import { acknowledge } from '../profiles/compliance';

/** What a runtime needs of the application's storage on EFS, standalone or on a platform. */
export interface ApplicationStorage {
  readonly fileSystemId: string;
  /** The application's access point: `efsDataPath()`, owned by `containerUser()`. */
  readonly accessPointId: string;
  /** Lets compute behind `peer` mount the file system over NFS as `role`, through the application's access point. */
  allowFrom(peer: ec2.ISecurityGroup, role: iam.IRole): void;
}

/** The port EFS mount targets serve NFS on. */
export const NFS_PORT = 2049;

/** NFS mount and write, the client actions the application's role is granted; root access is never granted. */
export const CLIENT_ACTIONS = ['elasticfilesystem:ClientMount', 'elasticfilesystem:ClientWrite'];

/**
 * The statements every file-system policy starts with: no client without TLS, no root access, no mount or write other
 * than through an access point. Explicit denies win over any allow, CDK's own statement for IAM clients included.
 */
function baseStatements(): iam.PolicyStatement[] {
  const everyone = [new iam.AnyPrincipal()];
  return [
    new iam.PolicyStatement({
      sid: 'DenyWithoutTls',
      effect: iam.Effect.DENY,
      principals: everyone,
      actions: [...CLIENT_ACTIONS, 'elasticfilesystem:ClientRootAccess'],
      conditions: { Bool: { 'aws:SecureTransport': 'false' } },
    }),
    new iam.PolicyStatement({ sid: 'DenyRootAccess', effect: iam.Effect.DENY, principals: everyone, actions: ['elasticfilesystem:ClientRootAccess'] }),
    new iam.PolicyStatement({
      sid: 'DenyOtherThanAnAccessPoint',
      effect: iam.Effect.DENY,
      principals: everyone,
      actions: CLIENT_ACTIONS,
      conditions: { Null: { 'elasticfilesystem:AccessPointArn': 'true' } },
    }),
  ];
}

/** Adds statements to a file system's policy: in a resource policy "*" is the resource itself (its own ARN would be a cycle). */
function addToPolicy(fileSystem: efs.FileSystem, statements: iam.PolicyStatement[]): void {
  statements.forEach((statement) => {
    statement.addAllResources();
    fileSystem.addToResourcePolicy(statement);
  });
}

/** Where the application's directory is and who owns it. */
export interface AccessPointSettings {
  /** The access point's root: `efsDataPath()`. */
  readonly path: string;
  /** Owner of the access point's root and the identity of every request: `containerUser()`. */
  readonly owner: PosixIds;
  /** `efsPermissions()`. */
  readonly permissions: string;
}

/** Encrypted EFS with automatic backups (the data key), its mount targets in the compute subnets. */
function encryptedFileSystem(scope: Construct, network: NetworkAccess, key: kms.IKey, removalPolicy: RemovalPolicy, description: string) {
  const securityGroup = new ec2.SecurityGroup(scope, 'SecurityGroup', { vpc: network.vpc, description, allowAllOutbound: false });
  const fileSystem = new efs.FileSystem(scope, 'FileSystem', {
    vpc: network.vpc,
    vpcSubnets: network.computeSubnets,
    securityGroup,
    encrypted: true,
    kmsKey: key,
    enableAutomaticBackups: true,
    removalPolicy,
  });
  acknowledge(fileSystem, 'EFSInBackupPlan', 'Automatic backups are on: EFS puts the file system in the ' +
    'AWS Backup default plan (daily, kept 35 days), which the service creates outside this template.');
  return { securityGroup, fileSystem };
}

function accessPoint(scope: Construct, id: string, fileSystem: efs.IFileSystem, settings: AccessPointSettings,
  removalPolicy?: RemovalPolicy): efs.AccessPoint {
  const created = new efs.AccessPoint(scope, id, {
    fileSystem,
    path: settings.path,
    createAcl: { ownerUid: settings.owner.uid, ownerGid: settings.owner.gid, permissions: settings.permissions },
    posixUser: { uid: settings.owner.uid, gid: settings.owner.gid },
  });
  if (removalPolicy) created.applyRemovalPolicy(removalPolicy);
  return created;
}

export interface SharedStorageProps extends AccessPointSettings {
  readonly network: NetworkAccess;
  readonly key: kms.IKey;
  readonly removalPolicy: RemovalPolicy;
}

/** Encrypted EFS with one access point, owned by the application's user: a standalone application's storage. */
export class SharedStorage extends Construct implements ApplicationStorage {
  public readonly fileSystem: efs.FileSystem;
  public readonly accessPoint: efs.AccessPoint;
  public readonly securityGroup: ec2.SecurityGroup;

  constructor(scope: Construct, id: string, props: SharedStorageProps) {
    super(scope, id);
    const { securityGroup, fileSystem } = encryptedFileSystem(this, props.network, props.key, props.removalPolicy,
      'EFS mount targets: NFS from the application only');
    this.securityGroup = securityGroup;
    this.fileSystem = fileSystem;
    this.accessPoint = accessPoint(this.fileSystem, 'AccessPoint', this.fileSystem, props);
  }

  public get fileSystemId(): string {
    return this.fileSystem.fileSystemId;
  }

  public get accessPointId(): string {
    return this.accessPoint.accessPointId;
  }

  /**
   * Lets compute behind `peer` mount the file system over NFS, as `role` only: the file system policy denies every
   * client without TLS, root access to everyone, and mounting or writing other than by `role` through an access point
   * (the stack's is the only one); `role` gets mount and write through it. Explicit denies win over any allow (CDK's own statement
   * for IAM clients included), and with a file system policy no anonymous client may mount.
   */
  public allowFrom(peer: ec2.ISecurityGroup, role: iam.IRole): void {
    this.fileSystem.grant(role, ...CLIENT_ACTIONS);
    this.securityGroup.addIngressRule(peer, ec2.Port.tcp(NFS_PORT), 'NFS from the application');
    peer.addEgressRule(this.securityGroup, ec2.Port.tcp(NFS_PORT), 'NFS to the file system');
    const everyone = [new iam.AnyPrincipal()];
    addToPolicy(this.fileSystem, [
      ...baseStatements(),
      // The policy cannot name the access point (it belongs to the file system, so that would be a cycle); the stack's
      // is the file system's only one, so "through an access point" is "through the stack's".
      new iam.PolicyStatement({
        sid: 'DenyOtherThanTheApplication',
        effect: iam.Effect.DENY,
        principals: everyone,
        actions: CLIENT_ACTIONS,
        conditions: { ArnNotEquals: { 'aws:PrincipalArn': role.roleArn } },
      }),
      new iam.PolicyStatement({
        sid: 'AllowTheApplication',
        principals: [new iam.ArnPrincipal(role.roleArn)],
        actions: CLIENT_ACTIONS,
        conditions: { Null: { 'elasticfilesystem:AccessPointArn': 'false' } },
      }),
    ]);
  }
}

export interface PlatformFileSystemProps {
  readonly network: NetworkAccess;
  readonly key: kms.IKey;
  readonly removalPolicy: RemovalPolicy;
  /** The IAM path of every application's roles (`platformRolePath`): nobody else may mount. */
  readonly rolePath: string;
}

/**
 * A platform's encrypted EFS, shared by its applications. Its policy cannot name their access points (each lives in
 * its application's stack, and the policy is a property of the file system, so naming one would be a cycle): it
 * admits only roles under the platform's path, through an access point, with TLS. Which access point is each role's
 * own is said by the role's policy (`applicationAccessPoint`), with an explicit deny of every other.
 */
export class PlatformFileSystem extends Construct {
  public readonly fileSystem: efs.FileSystem;
  public readonly securityGroup: ec2.SecurityGroup;

  constructor(scope: Construct, id: string, props: PlatformFileSystemProps) {
    super(scope, id);
    const { securityGroup, fileSystem } = encryptedFileSystem(this, props.network, props.key, props.removalPolicy,
      'EFS mount targets: NFS from the platform applications only');
    this.securityGroup = securityGroup;
    this.fileSystem = fileSystem;
    const stack = Stack.of(this);
    addToPolicy(this.fileSystem, [
      ...baseStatements(),
      new iam.PolicyStatement({
        sid: 'DenyOtherThanTheApplications',
        effect: iam.Effect.DENY,
        principals: [new iam.AnyPrincipal()],
        actions: CLIENT_ACTIONS,
        conditions: { ArnNotLike: { 'aws:PrincipalArn': `arn:${stack.partition}:iam::${stack.account}:role${props.rolePath}*` } },
      }),
    ]);
  }
}

export interface ApplicationAccessPointProps {
  /** The platform's file system and its mount targets' security group. */
  readonly fileSystem: efs.IFileSystem;
  readonly securityGroup: ec2.ISecurityGroup;
  readonly settings: AccessPointSettings;
  /** The profile's: the access point is kept in PRODUCTION when the application's stack goes. */
  readonly removalPolicy: RemovalPolicy;
}

/**
 * An application's access point on a platform's file system, in the application's stack, and what its roles may do
 * with it: mount and write through it (`allowFrom`), and, by an explicit deny in the role's own policy, through no
 * other access point of the file system, whatever else the role is granted.
 */
export class ApplicationAccessPoint extends Construct implements ApplicationStorage {
  public readonly accessPoint: efs.AccessPoint;
  private readonly fileSystem: efs.IFileSystem;
  private readonly securityGroup: ec2.ISecurityGroup;

  constructor(scope: Construct, id: string, props: ApplicationAccessPointProps) {
    super(scope, id);
    this.fileSystem = props.fileSystem;
    this.securityGroup = props.securityGroup;
    this.accessPoint = accessPoint(this, 'AccessPoint', props.fileSystem, props.settings, props.removalPolicy);
  }

  public get fileSystemId(): string {
    return this.fileSystem.fileSystemId;
  }

  public get accessPointId(): string {
    return this.accessPoint.accessPointId;
  }

  public allowFrom(peer: ec2.ISecurityGroup, role: iam.IRole): void {
    this.securityGroup.addIngressRule(peer, ec2.Port.tcp(NFS_PORT), 'NFS from the application');
    peer.addEgressRule(this.securityGroup, ec2.Port.tcp(NFS_PORT), 'NFS to the file system');
    const own = { 'elasticfilesystem:AccessPointArn': this.accessPoint.accessPointArn };
    role.addToPrincipalPolicy(new iam.PolicyStatement({
      actions: CLIENT_ACTIONS, resources: [this.fileSystem.fileSystemArn], conditions: { ArnEquals: own },
    }));
    role.addToPrincipalPolicy(new iam.PolicyStatement({
      effect: iam.Effect.DENY, actions: CLIENT_ACTIONS, resources: [this.fileSystem.fileSystemArn], conditions: { ArnNotEquals: own },
    }));
  }
}

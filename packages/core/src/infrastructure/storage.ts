import {
  aws_ec2 as ec2, aws_efs as efs, aws_iam as iam, type aws_kms as kms, type aws_logs as logs, custom_resources as cr,
  Lazy, RemovalPolicy, Stack,
} from 'aws-cdk-lib';
import { Construct, type IDependable } from 'constructs';
import { acknowledgeCustomResourceFunction } from './custom-resource-function';
import { deployedLengthAtMost } from './deployed-length';
import { shortHash } from './names';
import type { NetworkAccess } from './network';
import { acknowledge } from '../compliance/acknowledge';
import type { PosixIds } from '../contract/posix-user';

/** What a runtime needs of the application's storage on EFS, standalone or on a platform. */
export interface ApplicationStorage {
  readonly fileSystemId: string;
  /** The application's access point: `efsDataPath()`, owned by `containerUser()`. */
  readonly accessPointId: string;
  /** What compute that mounts at its first start waits for: the mount targets (a platform's exist before its applications). */
  readonly mountTargetsAvailable: IDependable;
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
  /** The VPC and the compute subnets of the mount targets. */
  readonly network: NetworkAccess;
  /** Encrypts the file system at rest. */
  readonly key: kms.IKey;
  /** Of the file system: kept with the stack's data in STAGING and PRODUCTION. */
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

  public get mountTargetsAvailable(): IDependable {
    return this.fileSystem.mountTargetsAvailable;
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
  /** The VPC and the compute subnets of the mount targets. */
  readonly network: NetworkAccess;
  /** Encrypts the file system at rest. */
  readonly key: kms.IKey;
  /** Of the file system: kept with the platform's data in STAGING and PRODUCTION. */
  readonly removalPolicy: RemovalPolicy;
  /** The IAM path of every application's roles (`platformRolePath`): nobody else may mount. */
  readonly rolePath: string;
  /** Where the function that writes the policy logs (the stack's custom-resource function, `Network`). */
  readonly logGroup: logs.ILogGroup;
}

/** The longest file-system policy EFS takes (PutFileSystemPolicy's `Policy`; aws/efs/file-system-policy.json). */
export const EFS_POLICY_MAX = 20000;
/** The longest access point id EFS's model allows: `fsap-` and up to 40 hexadecimal digits (same file). */
const ACCESS_POINT_ID_MAX = 45;

/**
 * A platform's encrypted EFS, shared by its applications, each through an access point of its own that the platform
 * keeps (`addApplication`). Its policy names every access point and the roles that may use it, so it cannot be the
 * file system's own `FileSystemPolicy` property: an access point refers to its file system, and that property
 * naming the access point would be a dependency cycle (cfn-lint E3004). A function writes it instead
 * (`PutFileSystemPolicy`, the whole policy each time), after the access points exist, at every deployment that
 * changes it. Until its first write, in the platform's first deployment, no client can reach the mount targets: their
 * security group admits only applications, which attach afterwards.
 */
export class PlatformFileSystem extends Construct {
  public readonly fileSystem: efs.FileSystem;
  public readonly securityGroup: ec2.SecurityGroup;
  /** The policy the function writes: every statement is added to it before the template is written. */
  public readonly policy: iam.PolicyDocument;
  /** The stack names of the applications with data here, in the order they attached. */
  private readonly applications: string[] = [];

  constructor(scope: Construct, id: string, props: PlatformFileSystemProps) {
    super(scope, id);
    const { securityGroup, fileSystem } = encryptedFileSystem(this, props.network, props.key, props.removalPolicy,
      'EFS mount targets: NFS from the platform applications only');
    this.securityGroup = securityGroup;
    this.fileSystem = fileSystem;
    const stack = Stack.of(this);
    const statements = [
      ...baseStatements(),
      new iam.PolicyStatement({
        sid: 'DenyOtherThanTheApplications',
        effect: iam.Effect.DENY,
        principals: [new iam.AnyPrincipal()],
        actions: CLIENT_ACTIONS,
        conditions: { ArnNotLike: { 'aws:PrincipalArn': this.roles(props.rolePath) } },
      }),
    ];
    // In a resource policy "*" is the resource itself.
    statements.forEach((statement) => statement.addAllResources());
    this.policy = new iam.PolicyDocument({ statements });
    const write: cr.AwsSdkCall = {
      service: 'EFS',
      action: 'putFileSystemPolicy',
      // Read when the template is written: every application attached by then.
      parameters: { FileSystemId: fileSystem.fileSystemId, Policy: Lazy.string({ produce: () => stack.toJsonString(this.policy) }) },
      physicalResourceId: cr.PhysicalResourceId.of(`${fileSystem.fileSystemId}-policy`),
    };
    const writer = new cr.AwsCustomResource(this, 'Policy', {
      // Only the id comes back: the whole response (the policy again) grows with every application, and
      // CloudFormation refuses a custom resource's response over 4,096 bytes.
      onCreate: { ...write, outputPaths: ['FileSystemId'] },
      onUpdate: { ...write, outputPaths: ['FileSystemId'] },
      policy: cr.AwsCustomResourcePolicy.fromStatements([new iam.PolicyStatement({
        actions: ['elasticfilesystem:PutFileSystemPolicy'],
        resources: [fileSystem.fileSystemArn],
      })]),
      logGroup: props.logGroup,
      installLatestAwsSdk: false,
    });
    acknowledge(writer.node.findChild('CustomResourcePolicy'), 'IAMNoInlinePolicy', 'One statement for the one call this ' +
      'function makes on the platform\'s file system; a customer-managed policy would hold the same.');
    acknowledgeCustomResourceFunction(this, writer);
    // Each application with data here adds two statements; EFS refuses a policy over its limit, and the deployment with
    // it. Refused at synth instead, with every ARN and id at the longest its deployed value can be.
    this.node.addValidation({
      validate: () => {
        const length = this.policyLengthAtMost();
        if (length <= EFS_POLICY_MAX) return [];
        const applications = this.applications.length;
        return [`The platform's file-system policy would hold up to ${length} characters with the ${applications} applications ` +
          `that keep data on it (${this.applications.join(', ')}); EFS takes at most ${EFS_POLICY_MAX} (PutFileSystemPolicy). ` +
          'Keep fewer applications on this platform\'s file system: attach the others to another platform, or give those on ' +
          'EC2 an EBS data volume (ec2Storage ebs).'];
      },
    });
  }


  /** The most characters the written policy can have once deployed, every account id, partition and access point id at its longest. */
  public policyLengthAtMost(): number {
    const stack = Stack.of(this);
    return deployedLengthAtMost(stack, stack.toJsonString(this.policy), { 'AWS::EFS::AccessPoint': ACCESS_POINT_ID_MAX });
  }

  /**
   * The access point of one application, in `scope` (the platform's part for that application), and the policy's
   * statements that let the roles under `rolePath` mount and write through it, and through no other access point.
   * `removalPolicy` keeps the access point when the application leaves the platform; the data stays under its path
   * either way (deleting an access point deletes no file).
   */
  public addApplication(scope: Construct, stackName: string, rolePath: string, settings: AccessPointSettings,
    removalPolicy: RemovalPolicy): efs.AccessPoint {
    const sid = statementId(stackName);
    const created = accessPoint(scope, 'AccessPoint', this.fileSystem, settings, removalPolicy);
    const roles = this.roles(rolePath);
    const statements = [
      new iam.PolicyStatement({
        sid: `Deny${sid}OtherAccessPoints`,
        effect: iam.Effect.DENY,
        principals: [new iam.AnyPrincipal()],
        actions: CLIENT_ACTIONS,
        conditions: { ArnLike: { 'aws:PrincipalArn': roles }, ArnNotEquals: { 'elasticfilesystem:AccessPointArn': created.accessPointArn } },
      }),
      new iam.PolicyStatement({
        sid: `Allow${sid}`,
        principals: [new iam.AnyPrincipal()],
        actions: CLIENT_ACTIONS,
        conditions: {
          StringEquals: { 'aws:PrincipalAccount': Stack.of(this).account },
          ArnLike: { 'aws:PrincipalArn': roles },
          ArnEquals: { 'elasticfilesystem:AccessPointArn': created.accessPointArn },
        },
      }),
    ];
    statements.forEach((statement) => statement.addAllResources());
    this.policy.addStatements(...statements);
    this.applications.push(stackName);
    return created;
  }

  /** Every role under an IAM path, as `aws:PrincipalArn` names it: a role's ARN holds its path. */
  private roles(rolePath: string): string {
    const stack = Stack.of(this);
    return `arn:${stack.partition}:iam::${stack.account}:role${rolePath}*`;
  }
}

/**
 * A policy statement's id part for an application: its stack name in letters and digits (what a statement id takes),
 * and where that drops characters, 8 hex characters of the name's SHA-256, so that `fw-wiki` and `fwwiki` differ
 * (a policy's statement ids must be unique). A name already in letters and digits keeps the id it always had.
 */
export function statementId(stackName: string): string {
  const letters = stackName.replace(/[^A-Za-z0-9]/g, '');
  return letters === stackName ? letters : `${letters}${shortHash(stackName)}`;
}

/**
 * An application's storage on a platform's file system: its access point, kept by the platform, and the file system's
 * mount targets. `allowFrom` opens NFS between them and grants the role mount and write through that access point
 * only; the file system's policy says the same.
 */
export class AttachedStorage implements ApplicationStorage {
  constructor(private readonly fileSystem: efs.IFileSystem, private readonly securityGroup: ec2.ISecurityGroup,
    public readonly accessPointId: string) {}

  public get fileSystemId(): string {
    return this.fileSystem.fileSystemId;
  }

  public get mountTargetsAvailable(): IDependable {
    return this.fileSystem.mountTargetsAvailable;
  }

  public allowFrom(peer: ec2.ISecurityGroup, role: iam.IRole): void {
    this.securityGroup.addIngressRule(peer, ec2.Port.tcp(NFS_PORT), 'NFS from the application');
    peer.addEgressRule(this.securityGroup, ec2.Port.tcp(NFS_PORT), 'NFS to the file system');
    const accessPointArn = Stack.of(this.fileSystem).formatArn({ service: 'elasticfilesystem', resource: 'access-point', resourceName: this.accessPointId });
    role.addToPrincipalPolicy(new iam.PolicyStatement({
      actions: CLIENT_ACTIONS, resources: [this.fileSystem.fileSystemArn], conditions: { ArnEquals: { 'elasticfilesystem:AccessPointArn': accessPointArn } },
    }));
  }
}

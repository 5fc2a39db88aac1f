import { RemovalPolicy } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as efs from 'aws-cdk-lib/aws-efs';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import type { Network } from './network';
import type { PosixIds } from '../contract/posix-user';
import { acknowledge } from '../profiles/compliance';

export interface SharedStorageProps {
  readonly network: Network;
  readonly key: kms.IKey;
  readonly removalPolicy: RemovalPolicy;
  /** The access point's root: `efsDataPath()`. */
  readonly path: string;
  /** Owner of the access point's root and the identity of every request: `containerUser()`. */
  readonly owner: PosixIds;
  /** `efsPermissions()`. */
  readonly permissions: string;
}

/** Encrypted EFS with one access point, owned by the application's user. */
export class SharedStorage extends Construct {
  public readonly fileSystem: efs.FileSystem;
  public readonly accessPoint: efs.AccessPoint;
  public readonly securityGroup: ec2.SecurityGroup;

  constructor(scope: Construct, id: string, props: SharedStorageProps) {
    super(scope, id);
    this.securityGroup = new ec2.SecurityGroup(this, 'SecurityGroup', {
      vpc: props.network.vpc,
      description: 'EFS mount targets: NFS from the application only',
      allowAllOutbound: false,
    });
    this.fileSystem = new efs.FileSystem(this, 'FileSystem', {
      vpc: props.network.vpc,
      vpcSubnets: props.network.computeSubnets,
      securityGroup: this.securityGroup,
      encrypted: true,
      kmsKey: props.key,
      enableAutomaticBackups: true,
      removalPolicy: props.removalPolicy,
    });
    this.accessPoint = this.fileSystem.addAccessPoint('AccessPoint', {
      path: props.path,
      createAcl: { ownerUid: props.owner.uid, ownerGid: props.owner.gid, permissions: props.permissions },
      posixUser: { uid: props.owner.uid, gid: props.owner.gid },
    });
    acknowledge(this.fileSystem, 'EFSInBackupPlan', 'Automatic backups are on: EFS puts the file system in the ' +
      'AWS Backup default plan (daily, kept 35 days), which the service creates outside this template.');
  }

  /**
   * Lets compute behind `peer` mount the file system over NFS, as `role` only: the file system policy denies every
   * client without TLS, root access to everyone, and mounting or writing other than by `role` through an access point
   * (the stack's is the only one); `role` gets mount and write through it. Explicit denies win over any allow (CDK's own statement
   * for IAM clients included), and with a file system policy no anonymous client may mount.
   */
  public allowFrom(peer: ec2.ISecurityGroup, role: iam.IRole): void {
    this.securityGroup.addIngressRule(peer, ec2.Port.tcp(2049), 'NFS from the application');
    peer.addEgressRule(this.securityGroup, ec2.Port.tcp(2049), 'NFS to the file system');
    const clientActions = ['elasticfilesystem:ClientMount', 'elasticfilesystem:ClientWrite'];
    const everyone = [new iam.AnyPrincipal()];
    const statements = [
      new iam.PolicyStatement({
        sid: 'DenyWithoutTls',
        effect: iam.Effect.DENY,
        principals: everyone,
        actions: [...clientActions, 'elasticfilesystem:ClientRootAccess'],
        conditions: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
      new iam.PolicyStatement({ sid: 'DenyRootAccess', effect: iam.Effect.DENY, principals: everyone, actions: ['elasticfilesystem:ClientRootAccess'] }),
      // The policy cannot name the access point (it belongs to the file system, so that would be a cycle); the stack's
      // is the file system's only one, so "through an access point" is "through the stack's".
      new iam.PolicyStatement({
        sid: 'DenyOtherThanAnAccessPoint',
        effect: iam.Effect.DENY,
        principals: everyone,
        actions: clientActions,
        conditions: { Null: { 'elasticfilesystem:AccessPointArn': 'true' } },
      }),
      new iam.PolicyStatement({
        sid: 'DenyOtherThanTheApplication',
        effect: iam.Effect.DENY,
        principals: everyone,
        actions: clientActions,
        conditions: { ArnNotEquals: { 'aws:PrincipalArn': role.roleArn } },
      }),
      new iam.PolicyStatement({
        sid: 'AllowTheApplication',
        principals: [new iam.ArnPrincipal(role.roleArn)],
        actions: clientActions,
        conditions: { Null: { 'elasticfilesystem:AccessPointArn': 'false' } },
      }),
    ];
    // In a resource policy "*" is the resource itself; naming its own ARN would be a cycle.
    statements.forEach((statement) => {
      statement.addAllResources();
      this.fileSystem.addToResourcePolicy(statement);
    });
  }
}

import { RemovalPolicy } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as efs from 'aws-cdk-lib/aws-efs';
import type * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import type { PosixIds } from '../contract/posix-user';
import { acknowledge } from '../profiles/compliance';
import type { Network } from './network';

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

  /** Lets compute behind `peer` mount the file system over NFS. */
  public allowFrom(peer: ec2.ISecurityGroup): void {
    this.securityGroup.addIngressRule(peer, ec2.Port.tcp(2049), 'NFS from the application');
  }
}

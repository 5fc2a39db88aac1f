import {
  aws_autoscaling as autoscaling, aws_backup as backup, aws_ec2 as ec2, aws_events as events, aws_iam as iam,
  type aws_kms as kms, Duration, Names, RemovalPolicy, Size, Stack, Tags,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { acknowledge, wildcardPolicy } from '../compliance/acknowledge';
import { backupVaultName } from '../infrastructure/names';

export interface Ec2DataVolumeProps {
  /** The zone of the group's only subnet. */
  readonly availabilityZone: string;
  /** The volume's size (`dataVolumeGiB`). */
  readonly sizeGiB: number;
  /** The stack's key: encrypts the volume (and so its snapshots). */
  readonly key: kms.IKey;
  /** Of the volume: kept with the stack's data in STAGING and PRODUCTION. */
  readonly removalPolicy: RemovalPolicy;
  /** The stack's name, which names the backup vault (`backupVaultName`). */
  readonly stackName: string;
  /**
   * Creates the volume from this snapshot (restore).
   * @default - an empty volume
   */
  readonly snapshotId?: string;
  /**
   * Days a daily backup is kept.
   * @default - no backup plan
   */
  readonly backupDays?: number;
}

/**
 * EC2 with EBS storage: one data volume, created once by the stack, that every instance of the group attaches at boot
 * (the user data's `fw_attach_ebs`), so the data outlives each instance; a daily AWS Backup plan when the profile
 * keeps backups.
 */
export class Ec2DataVolume extends Construct {
  public readonly volume: ec2.Volume;
  public readonly backupPlan?: backup.BackupPlan;

  constructor(scope: Construct, id: string, props: Ec2DataVolumeProps) {
    super(scope, id);
    this.volume = new ec2.Volume(this, 'Volume', {
      availabilityZone: props.availabilityZone,
      size: Size.gibibytes(props.sizeGiB),
      volumeType: ec2.EbsDeviceVolumeType.GP3,
      encrypted: true,
      encryptionKey: props.key,
      snapshotId: props.snapshotId,
      removalPolicy: props.removalPolicy,
    });
    if (props.backupDays !== undefined) {
      // Recovery points outlive the stack: a vault that holds them cannot be deleted (except after a failed first create,
      // when it holds none), so it is kept, under a name a stack created again adopts (`backupVaultName`).
      const vault = new backup.BackupVault(this, 'Vault', {
        backupVaultName: backupVaultName(props.stackName, 'data-volume'),
        encryptionKey: props.key,
        removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      });
      this.backupPlan = new backup.BackupPlan(this, 'Plan', {
        backupVault: vault,
        backupPlanRules: [new backup.BackupPlanRule({
          ruleName: 'Daily',
          scheduleExpression: events.Schedule.cron({ hour: '3', minute: '0' }),
          deleteAfter: Duration.days(props.backupDays),
        })],
      });
      const selection = this.backupPlan.addSelection('DataVolume', {
        resources: [backup.BackupResource.fromArn(this.volumeArn())],
      });
      acknowledge(selection.node.findChild('Role'), 'AwsSolutions-IAM4', 'AWS Backup\'s own service role policy ' +
        '(AWSBackupServiceRolePolicyForBackup), which AWS maintains for the services it backs up; the selection names ' +
        'only the data volume.');
    }
  }

  /**
   * Lets the instances of `group` attach this volume and nothing else (a `wildcardPolicy`). As aws-cdk-lib 2.263.0's `grantAttachVolumeByResourceTag` does (aws-ec2/lib/volume.ts):
   * AttachVolume on this volume and on instances, both carrying a tag only this volume and the group's instances have
   * (the group puts it on every instance it launches); CreateGrant on the key only for EC2 acting for an AWS resource.
   * DescribeVolumes, to wait until the volume is free, supports no resource-level permission (AWS Service
   * Authorization Reference), so it takes "*".
   */
  public grantAttach(role: iam.IRole, group: autoscaling.AutoScalingGroup): iam.Policy {
    const tag = 'fw:data-volume';
    const value = Names.uniqueId(this);
    Tags.of(this.volume).add(tag, value);
    Tags.of(group).add(tag, value, { applyToLaunchedInstances: true });
    const stack = Stack.of(this);
    return wildcardPolicy(this, 'AttachPolicy', role, 'data-volume', [
      new iam.PolicyStatement({
        actions: ['ec2:AttachVolume'],
        resources: [this.volumeArn(), stack.formatArn({ service: 'ec2', resource: 'instance', resourceName: '*' })],
        conditions: { StringEquals: { [`ec2:ResourceTag/${tag}`]: value } },
      }),
      new iam.PolicyStatement({
        actions: ['kms:CreateGrant'],
        resources: [this.volume.encryptionKey!.keyArn],
        conditions: {
          Bool: { 'kms:GrantIsForAWSResource': true },
          StringEquals: { 'kms:ViaService': `ec2.${stack.region}.amazonaws.com`, 'kms:GrantConstraintType': 'EncryptionContextSubset' },
        },
      }),
      new iam.PolicyStatement({ actions: ['ec2:DescribeVolumes'], resources: ['*'] }),
    ], 'The instance id is known only at boot: AttachVolume names this volume and instances of any id that carry this ' +
      'volume\'s tag (condition); DescribeVolumes supports no resource-level permission (AWS Service Authorization ' +
      'Reference), so it takes "*".');
  }

  private volumeArn(): string {
    return Stack.of(this).formatArn({ service: 'ec2', resource: 'volume', resourceName: this.volume.volumeId });
  }
}

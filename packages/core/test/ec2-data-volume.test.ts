import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ApplicationFactory, Ec2Storage, RuntimeType, SecurityProfile } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { needing, shellcheck, shellcheckUnavailable } from './support/shellcheck';
import { EC2_IMAGE_ID, only, propsFor, refTarget, REGION_ENV, resources, synth, userData } from './support/synth';
import { complianceFindings } from '../src/compliance/compliance-packs';

/**
 * EC2 with EBS storage: the data volume is the stack's own resource, in the zone of the group's only subnet, attached
 * by every instance at boot, backed up daily in STAGING and PRODUCTION, and creatable from a snapshot.
 */

const PROFILES = [SecurityProfile.DEV, SecurityProfile.STAGING, SecurityProfile.PRODUCTION];
const ebs = (profile: SecurityProfile, extra = {}) => synth(RuntimeType.EC2, { ...propsFor(profile), ec2Storage: Ec2Storage.EBS, ...extra });

describe.each(PROFILES)('EC2 with EBS, %s', (profile) => {
  const { json } = ebs(profile);
  const [volumeId, volume] = resources(json, 'AWS::EC2::Volume')[0] ?? [];
  const group = only(json, 'AWS::AutoScaling::AutoScalingGroup');

  test('one data volume, encrypted with the stack\'s key, and none in the launch template', () => {
    expect(resources(json, 'AWS::EC2::Volume')).toHaveLength(1);
    expect(volume.Properties).toMatchObject({ Encrypted: true, Size: 50, VolumeType: 'gp3' });
    expect(json.Resources[refTarget(volume.Properties.KmsKeyId)].Type).toBe('AWS::KMS::Key');
    const disks = only(json, 'AWS::EC2::LaunchTemplate').Properties.LaunchTemplateData.BlockDeviceMappings;
    expect(disks.map((d: any) => d.DeviceName)).toEqual(['/dev/xvda']);
    expect(volume.DeletionPolicy).toBe(profile === SecurityProfile.PRODUCTION ? 'RetainExceptOnCreate' : 'Delete');
  });

  test('the group\'s only subnet is in the volume\'s zone', () => {
    expect(group.Properties.VPCZoneIdentifier).toHaveLength(1);
    const subnet = json.Resources[refTarget(group.Properties.VPCZoneIdentifier[0])];
    expect(subnet.Properties.AvailabilityZone).toEqual(volume.Properties.AvailabilityZone);
  });

  test('the instance role may attach this volume only, to instances carrying its tag, and the group tags them', () => {
    const [policyId, policy] = resources(json, 'AWS::IAM::Policy').find(([id]) => id.includes('DataAttachPolicy'))!;
    const [attach, grant, describe] = policy.Properties.PolicyDocument.Statement;
    expect(attach.Action).toBe('ec2:AttachVolume');
    const [volumeArn, instances] = attach.Resource.map((r: any) => JSON.stringify(r));
    expect(volumeArn).toContain(`:volume/",{"Ref":"${volumeId}"}`);
    expect(instances).toMatch(/:instance\/\*"\]\]\}$/);
    const [[tagCondition, tagValue]] = Object.entries<string>(attach.Condition.StringEquals);
    const tagKey = tagCondition.replace('ec2:ResourceTag/', '');
    expect(volume.Properties.Tags).toContainEqual({ Key: tagKey, Value: tagValue });
    expect(group.Properties.Tags).toContainEqual({ Key: tagKey, Value: tagValue, PropagateAtLaunch: true });
    expect(grant).toMatchObject({ Action: 'kms:CreateGrant', Condition: { Bool: { 'kms:GrantIsForAWSResource': true } } });
    expect(describe).toMatchObject({ Action: 'ec2:DescribeVolumes', Resource: '*' });
    // Attached to the instance role only, and the instance starts only once it exists.
    const instanceRole = refTarget(only(json, 'AWS::IAM::InstanceProfile').Properties.Roles[0]);
    expect(policy.Properties.Roles).toEqual([{ Ref: instanceRole }]);
    expect(group.DependsOn).toContain(policyId);
  });

  test('the user data attaches the volume before the plugin mounts it', () => {
    const script = userData(json);
    const attach = script.indexOf(`fw_attach_ebs '{"Ref":"${volumeId}"}' '/dev/xvdf' 'eu-west-1'`);
    expect(attach).toBeGreaterThan(0);
    expect(attach).toBeLessThan(script.indexOf("fw_mount_ebs '/dev/xvdf'"));
  });

  test(`backups: ${profile === SecurityProfile.DEV ? 'none' : 'a daily AWS Backup plan for the volume'}`, () => {
    const plans = resources(json, 'AWS::Backup::BackupPlan');
    if (profile === SecurityProfile.DEV) {
      expect(plans).toEqual([]);
      expect(resources(json, 'AWS::Backup::BackupSelection')).toEqual([]);
      return;
    }
    expect(plans).toHaveLength(1);
    const [rule] = plans[0][1].Properties.BackupPlan.BackupPlanRule;
    expect(rule.ScheduleExpression).toBe('cron(0 3 * * ? *)');
    expect(rule.Lifecycle).toEqual({ DeleteAfterDays: profile === SecurityProfile.PRODUCTION ? 35 : 7 });
    const selection = only(json, 'AWS::Backup::BackupSelection').Properties.BackupSelection;
    expect(selection.Resources).toHaveLength(1);
    expect(JSON.stringify(selection.Resources[0])).toContain(`:volume/",{"Ref":"${volumeId}"}`);
    const vault = only(json, 'AWS::Backup::BackupVault');
    expect(vault.DeletionPolicy).toBe('RetainExceptOnCreate');
    expect(json.Resources[refTarget(vault.Properties.EncryptionKeyArn)].Type).toBe('AWS::KMS::Key');
  });
});

describe('unchanged elsewhere', () => {
  test.each([
    ['FARGATE', () => synth(RuntimeType.FARGATE)],
    ['EC2 with EFS', () => synth(RuntimeType.EC2)],
  ])('%s: no data volume, no backup plan of ours (EFS keeps its automatic backups)', (_name, build) => {
    const { json } = build();
    expect(resources(json, 'AWS::EC2::Volume')).toEqual([]);
    expect(resources(json, 'AWS::Backup::BackupPlan')).toEqual([]);
    expect(only(json, 'AWS::EFS::FileSystem').Properties.BackupPolicy).toEqual({ Status: 'ENABLED' });
  });

  test('PRODUCTION with EBS passes the four compliance packs', () => {
    const app = new App();
    const stack = new Stack(app, 'Ebs', { env: REGION_ENV });
    new ApplicationFactory(stack, 'App', RuntimeType.EC2, new WikiSpec(), { ...propsFor(SecurityProfile.PRODUCTION), ec2Storage: Ec2Storage.EBS, ec2ImageId: EC2_IMAGE_ID });
    expect(complianceFindings(stack)).toEqual([]);
  });
});

describe('restore: dataVolumeSnapshotId', () => {
  test('creates the volume from the snapshot', () => {
    const { json } = ebs(SecurityProfile.STAGING, { dataVolumeSnapshotId: 'snap-0123456789abcdef0' });
    expect(only(json, 'AWS::EC2::Volume').Properties.SnapshotId).toBe('snap-0123456789abcdef0');
  });

  test('is read from the context key as well', () => {
    const app = new App({ context: { dataVolumeSnapshotId: 'snap-01234567' } });
    const stack = new Stack(app, 'Restore', { env: REGION_ENV });
    new ApplicationFactory(stack, 'App', RuntimeType.EC2, new WikiSpec(), { ec2Storage: Ec2Storage.EBS });
    expect(only(Template.fromStack(stack).toJSON(), 'AWS::EC2::Volume').Properties.SnapshotId).toBe('snap-01234567');
  });

  test('a malformed snapshot id is refused in one line', () => {
    expect(() => ebs(SecurityProfile.DEV, { dataVolumeSnapshotId: 'snapshot-1' })).toThrow(
      'Invalid deployment context (1 problem):\n  - dataVolumeSnapshotId "snapshot-1" is not allowed; expected an EBS snapshot ' +
      'id: snap- and 8 or 17 hex digits, for example snap-0123456789abcdef0.');
  });

  test.each([
    ['EC2 with EFS', RuntimeType.EC2, {}, 'runtimeType EC2, ec2Storage efs'],
    ['FARGATE', RuntimeType.FARGATE, {}, 'runtimeType FARGATE, ec2Storage efs'],
  ])('is refused on %s, which has no EBS data volume', (_name, runtime, extra, given) => {
    expect(() => synth(runtime, { dataVolumeSnapshotId: 'snap-0123456789abcdef0', ...extra })).toThrow(
      `dataVolumeSnapshotId "snap-0123456789abcdef0" applies to runtimeType EC2 with ec2Storage ebs only (given: ${given}); ` +
      'EFS is restored from AWS Backup (see "Data and restore").');
  });
});

needing('shellcheck', shellcheckUnavailable()).test('the EBS user data, attach step included, has zero shellcheck findings', () => {
  const script = userData(ebs(SecurityProfile.DEV).json).replace(/\{"Ref":"\w+"\}/g, 'vol-0123456789abcdef0');
  expect(shellcheck(script)).toBe('');
});

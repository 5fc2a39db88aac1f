import { LogAlarm, SecurityProfile } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { propsFor, refTarget, resources, RUNTIMES_PROFILES_AND_STORAGE, synth } from './support/synth';

const ALARM: LogAlarm = { name: 'WikiErrors', description: 'Too many errors', filterPattern: '"ERROR"', threshold: 5, periodSeconds: 300 };
class AlarmingWiki extends WikiSpec {
  public logAlarms() { return [ALARM]; }
}

/** The logical id of the key a resource property names (a Ref, a GetAtt of its Arn). */
const keyOf = (value: any) => refTarget(value);

describe.each(RUNTIMES_PROFILES_AND_STORAGE)('keys on %s in %s (%s)', (runtime, profile, ec2Storage) => {
  const { json } = synth(runtime, { ...propsFor(profile), ec2Storage, alarmEmail: 'ops@example.com' }, new AlarmingWiki());
  const keys: Record<string, string> = Object.fromEntries(resources(json, 'AWS::KMS::Key').map(([id, key]) => [key.Properties.Description, id]));

  // Shares this matrix's synth: every runtime, profile and storage.
  test('a failed first create keeps nothing: what a profile keeps is RetainExceptOnCreate, never Retain', () => {
    // CloudFormation's DeletionPolicy: Retain keeps a resource even when the stack's first create rolls back, and a
    // kept resource with a fixed name (a log group) makes the next create fail with AlreadyExists; RetainExceptOnCreate
    // deletes it then and keeps it on every later delete or replacement (CloudFormation User Guide, DeletionPolicy).
    const kept = Object.entries<any>(json.Resources).filter(([, r]) => r.DeletionPolicy !== undefined && r.DeletionPolicy !== 'Delete');
    expect(kept.filter(([, r]) => r.DeletionPolicy !== 'RetainExceptOnCreate').map(([id, r]) => `${id}: ${r.DeletionPolicy}`)).toEqual([]);
    if (profile === SecurityProfile.PRODUCTION) expect(kept.length).toBeGreaterThan(5);
  });

  test('one key per purpose: logs, application data, notifications, each used for its purpose only', () => {
    expect(Object.keys(keys).sort()).toEqual([
      'Encrypts the application data (file system, data volume, backups) of WikiStack',
      'Encrypts the logs of WikiStack',
      'Encrypts the notifications of WikiStack',
    ]);
    const logs = keys['Encrypts the logs of WikiStack'];
    const data = keys['Encrypts the application data (file system, data volume, backups) of WikiStack'];
    const notifications = keys['Encrypts the notifications of WikiStack'];
    const groups = resources(json, 'AWS::Logs::LogGroup');
    expect(groups.length).toBeGreaterThan(0);
    for (const [, group] of groups) expect(keyOf(group.Properties.KmsKeyId)).toBe(logs);
    const dataUsers = [
      ...resources(json, 'AWS::EFS::FileSystem').map(([, r]) => r.Properties.KmsKeyId),
      ...resources(json, 'AWS::EC2::Volume').map(([, r]) => r.Properties.KmsKeyId),
      ...resources(json, 'AWS::Backup::BackupVault').map(([, r]) => r.Properties.EncryptionKeyArn),
      // EC2's root volume too: it holds the system's logs and temporary files.
      ...resources(json, 'AWS::EC2::LaunchTemplate').flatMap(([, r]) => r.Properties.LaunchTemplateData.BlockDeviceMappings.map((m: any) => m.Ebs.KmsKeyId)),
    ];
    expect(dataUsers.length).toBeGreaterThan(0);
    for (const user of dataUsers) expect(keyOf(user)).toBe(data);
    for (const [, topic] of resources(json, 'AWS::SNS::Topic')) expect(keyOf(topic.Properties.KmsMasterKeyId)).toBe(notifications);
    for (const id of Object.values(keys)) {
      expect(json.Resources[id].Properties.EnableKeyRotation).toBe(true);
      expect(json.Resources[id].Properties.PendingWindowInDays).toBe(30);
    }
  });

  test('on EC2, EC2 Auto Scaling\'s service-linked role may use the data key for the volumes it creates, as its user guide requires; on Fargate nothing', () => {
    const policy = json.Resources[keys['Encrypts the application data (file system, data volume, backups) of WikiStack']].Properties.KeyPolicy.Statement;
    const forAutoScaling = policy.filter((st: any) => st.Sid?.startsWith('AutoScaling'));
    if (runtime !== 'EC2') {
      expect(forAutoScaling).toEqual([]);
      return;
    }
    const role = {
      'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::', { Ref: 'AWS::AccountId' },
        ':role/aws-service-role/autoscaling.amazonaws.com/AWSServiceRoleForAutoScaling']],
    };
    expect(forAutoScaling).toEqual([
      expect.objectContaining({
        Sid: 'AutoScalingVolumes',
        Principal: { AWS: '*' },
        Condition: { ArnEquals: { 'aws:PrincipalArn': role } },
        Action: ['kms:Encrypt', 'kms:Decrypt', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:DescribeKey'],
      }),
      expect.objectContaining({
        Sid: 'AutoScalingVolumeGrants',
        Principal: { AWS: '*' },
        Action: 'kms:CreateGrant',
        Condition: { ArnEquals: { 'aws:PrincipalArn': role }, Bool: { 'kms:GrantIsForAWSResource': true } },
      }),
    ]);
  });

  test('CloudWatch Logs may use the logs key for the stack\'s own log groups only, named in the encryption context', () => {
    const policy = json.Resources[keys['Encrypts the logs of WikiStack']].Properties.KeyPolicy.Statement;
    const forLogs = policy.filter((st: any) => JSON.stringify(st.Principal ?? {}).includes('logs.'));
    expect(forLogs).toHaveLength(1);
    expect(forLogs[0].Principal).toEqual({ Service: 'logs.eu-west-1.amazonaws.com' });
    expect(Object.keys(forLogs[0].Condition)).toEqual(['ArnEquals']);
    const named = forLogs[0].Condition.ArnEquals['kms:EncryptionContext:aws:logs:arn'].map((arn: any) => arn['Fn::Join'][1].at(-1));
    const groups = resources(json, 'AWS::Logs::LogGroup').map(([, g]) => `:log-group:${g.Properties.LogGroupName}`);
    expect(named.sort()).toEqual(groups.sort());
    // No other service principal is let in by the logs key.
    expect(policy.filter((st: any) => st.Principal?.Service && st !== forLogs[0])).toEqual([]);
  });
});

import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { BashUserDataBuilder, ContainerImageSpec, Ec2Context, RuntimeType, SecurityProfile } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { PLATFORM_PROPS, synthPlatform } from './support/platform';
import { applicationTask, propsFor, resources, synth, userData } from './support/synth';
import { specProblems } from '../src/contract/spec-validation';

// An application that keeps no data (keepsData() false; containerImage without dataPath): no access point, file
// system or volume of its own on either runtime, standalone or on a platform, and nothing asked of its data members.

const IDP = { applicationId: 'idp', image: 'example/identity:2.1.0', port: 8080, user: '1000:1000', healthCheckPort: 9000, healthCheckPath: '/health/ready' };
const DIGESTS = { imageDigests: { [IDP.image]: `sha256:${'4'.repeat(64)}` } };
const STORAGE = ['AWS::EFS::FileSystem', 'AWS::EFS::AccessPoint', 'AWS::EFS::MountTarget', 'AWS::EC2::Volume', 'AWS::Backup::BackupPlan'];
const storageIn = (json: any) => STORAGE.filter((type) => resources(json, type).length > 0);

const fargate = synth(RuntimeType.FARGATE, { ...propsFor(SecurityProfile.PRODUCTION), ...DIGESTS }, new ContainerImageSpec(IDP));
const ec2 = synth(RuntimeType.EC2, { ...propsFor(SecurityProfile.PRODUCTION), ...DIGESTS, ec2Storage: 'ebs' } as any, new ContainerImageSpec(IDP));

test('Fargate, PRODUCTION: no file system, access point or volume; the task mounts nothing', () => {
  expect(storageIn(fargate.json)).toEqual([]);
  const task = applicationTask(fargate.json).Properties;
  expect(task.Volumes ?? []).toEqual([]);
  expect(task.ContainerDefinitions.flatMap((c: any) => c.MountPoints ?? [])).toEqual([]);
  // The negative control: the same image with a data path has its own.
  const withData = synth(RuntimeType.FARGATE, {}, new ContainerImageSpec({ ...IDP, dataPath: '/data' }));
  expect(storageIn(withData.json)).toEqual(['AWS::EFS::FileSystem', 'AWS::EFS::AccessPoint', 'AWS::EFS::MountTarget']);
});

test('EC2, PRODUCTION with ec2Storage ebs: no volume, nothing attached or mounted, and the unused key is named', () => {
  expect(storageIn(ec2.json)).toEqual([]);
  const steps = userData(ec2.json).split('\n').filter((l) => l.startsWith('fw_log \'step ')).map((l) => l.replace(/^fw_log 'step \d+: /, '').replace(/'$/, ''));
  expect(steps.filter((s) => /attach|mount/i.test(s))).toEqual([]);
  expect(steps).toContain('image example/identity:2.1.0');
  Annotations.fromStack(ec2.stack).hasWarning('*', Match.stringLikeRegexp('ec2Storage ebs is not used: the application keeps no data'));
});

test('on a platform: the platform makes it no access point, and its stack reads none', () => {
  const { templates } = synthPlatform([
    { stackName: 'Idp', runtime: RuntimeType.FARGATE, spec: () => new ContainerImageSpec(IDP), props: { subdomain: 'login', ...DIGESTS } },
    { stackName: 'Wiki', runtime: RuntimeType.EC2, spec: () => new WikiSpec(), props: { subdomain: 'wiki' } },
  ], PLATFORM_PROPS);
  // The wiki's access point only (the platform's file system stays, for the applications that keep data).
  expect(resources(templates.Platform, 'AWS::EFS::AccessPoint')).toHaveLength(1);
  expect(JSON.stringify(templates.Idp)).not.toMatch(/access-point-id|elasticfilesystem/);
  expect(JSON.stringify(templates.Wiki)).toMatch(/access-point-id/);
});

test('a plugin in code that keeps no data is not asked for its data members; one that does still is', () => {
  class Stateless extends WikiSpec {
    public keepsData() { return false; }
    public containerDataPath() { return ''; }
    public volumeName() { return ''; }
  }
  expect(specProblems(new Stateless(), 'Stateless')).toEqual([]);
  class Stateful extends Stateless {
    public keepsData() { return true; }
  }
  expect(specProblems(new Stateful(), 'Stateful')).toEqual([
    expect.stringMatching(/^Stateful\.containerDataPath\(\) returned "" ?; allowed:/),
    expect.stringMatching(/^Stateful\.volumeName\(\) returned "" ?; allowed:/),
  ]);
  class Unsure extends WikiSpec {
    public keepsData() { return 'no' as unknown as boolean; }
  }
  expect(specProblems(new Unsure(), 'Unsure')).toEqual(['Unsure.keepsData() returned "no"; allowed: true or false.']);
});

test('a plugin that keeps no data and still mounts its data volume is told there is none', () => {
  const context: Ec2Context = {
    stackName: 's', securityProfile: 'DEV', runtimeType: 'EC2', logGroupName: '/aws/s/EC2/DEV', serviceUser: 's', sslEnabled: false, hasEfs: false, keepsData: false,
  };
  expect(() => new BashUserDataBuilder().mountDataVolume(context, '/dev/xvdf', '/srv/s', '1000', '1000'))
    .toThrow('mountDataVolume(): the application keeps no data (keepsData() is false), so it has no data volume to mount at "/srv/s"; ' +
      'leave the call out, or return true from keepsData().');
});

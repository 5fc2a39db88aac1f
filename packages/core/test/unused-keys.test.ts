import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { Ec2Storage, RuntimeType } from '../src';
import { SonarSpec } from './fixtures/sonar-spec';
import { synth } from './support/synth';
import type { DeploymentContext } from '../src/context/deployment-context';
import { unusedKeyMessages } from '../src/context/unused-keys';

// Nothing dropped silently: a sizing key given where nothing reads it is named, with where it belongs.
const context = (values: Partial<DeploymentContext>) =>
  ({ runtimeType: RuntimeType.FARGATE, ec2Storage: Ec2Storage.EFS, ...values }) as DeploymentContext;

test('each sizing key of the other runtime, of a data volume that does not exist, of a database nobody asks for, is named', () => {
  expect(unusedKeyMessages(context({ instanceType: 'm7i.large', dataVolumeGiB: 100, databaseStorageGiB: 50 }), false, true)).toEqual([
    'instanceType m7i.large is not used on runtimeType FARGATE: it sizes an EC2 instance; on Fargate cpu and memoryLimitMiB decide.',
    'dataVolumeGiB 100 is not used: it sizes the EBS data volume of runtimeType EC2 with ec2Storage ebs; EFS grows as it is used.',
    'databaseStorageGiB 50 is not used: the plugin asks for no database (database()).',
  ]);
  expect(unusedKeyMessages(context({ runtimeType: RuntimeType.EC2, cpu: 1024 }), false, true))
    .toEqual(['cpu 1024 is not used on runtimeType EC2: it sizes a Fargate task; on EC2 instanceType decides.']);
  // Where each is read, nothing is said (negative controls).
  expect(unusedKeyMessages(context({ cpu: 1024, memoryLimitMiB: 4096 }), false, true)).toEqual([]);
  expect(unusedKeyMessages(context({ runtimeType: RuntimeType.EC2, ec2Storage: Ec2Storage.EBS, instanceType: 'm7i.large', dataVolumeGiB: 100 }), false, true)).toEqual([]);
  expect(unusedKeyMessages(context({ databaseInstanceType: 'db.t4g.large' }), true, true)).toEqual([]);
});

test('the data volume\'s keys for an application that keeps no data are named, the others still', () => {
  const ebs = context({ runtimeType: RuntimeType.EC2, ec2Storage: Ec2Storage.EBS, dataVolumeGiB: 100, cpu: 1024 });
  expect(unusedKeyMessages(ebs, false, false)).toEqual([
    'ec2Storage ebs, dataVolumeGiB 100 are not used: the application keeps no data (keepsData() is false, or containerImage has no dataPath), so it has no data volume.',
    'cpu 1024 is not used on runtimeType EC2: it sizes a Fargate task; on EC2 instanceType decides.',
  ]);
  // ec2Storage's default (efs) is not a choice anyone made.
  expect(unusedKeyMessages(context({ runtimeType: RuntimeType.EC2 }), false, false)).toEqual([]);
});

test('synth warns with @fw/core:key-not-used on the factory', () => {
  const { stack } = synth(RuntimeType.FARGATE, { instanceType: 'm7i.large' }, new SonarSpec());
  Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp('instanceType m7i.large is not used on runtimeType FARGATE.*\\[ack: @fw/core:key-not-used\\]'));
});

test('containerImage in the context of a factory made in code, which deploys the plugin it is given, is named', () => {
  const { stack } = synth(RuntimeType.FARGATE, {}, new SonarSpec(), { containerImage: { image: 'grafana/grafana-oss:11.5.2' } });
  Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp('containerImage \\(image grafana/grafana-oss:11.5.2\\) is not used: SonarSpec'));
});

import type { DeploymentContext } from './deployment-context';
import { Ec2Storage } from '../contract/ec2-storage';
import { RuntimeType } from '../contract/runtime-type';
import { PROFILE_SETTINGS } from '../profiles/profile-settings';

/**
 * The sizing keys given where nothing reads them, each with where it belongs: a runtime's size on the other runtime,
 * the data volume's without one (or for an application that keeps no data), the database's for a plugin that asks for
 * none. Warned at synth rather than refused, so that one configuration can move between runtimes (every key keeps its
 * value, and the other runtime's are read).
 */
export function unusedKeyMessages(context: DeploymentContext, hasDatabase: boolean, keepsData: boolean): string[] {
  const messages: string[] = [];
  const given = (key: keyof DeploymentContext) => context[key] !== undefined;
  const ebs = context.runtimeType === RuntimeType.EC2 && context.ec2Storage === Ec2Storage.EBS;
  if (!keepsData) {
    // ec2Storage has a default (efs): only ebs says that someone chose a data volume.
    const dataKeys = (['ec2Storage', 'dataVolumeGiB', 'dataVolumeSnapshotId'] as const)
      .filter((key) => (key === 'ec2Storage' ? context.ec2Storage === Ec2Storage.EBS : given(key)));
    if (dataKeys.length > 0) {
      messages.push(`${dataKeys.map((key) => `${key} ${context[key]}`).join(', ')} ${dataKeys.length > 1 ? 'are' : 'is'} not used: ` +
        'the application keeps no data (keepsData() is false, or containerImage has no dataPath), so it has no data volume.');
    }
  }
  for (const key of ['cpu', 'memoryLimitMiB'] as const) {
    if (given(key) && context.runtimeType !== RuntimeType.FARGATE) {
      messages.push(`${key} ${context[key]} is not used on runtimeType ${context.runtimeType}: it sizes a Fargate task; on EC2 instanceType decides.`);
    }
  }
  // ec2ImageId is not warned on Fargate: STAGING and PRODUCTION require it on EC2, so a configuration that moves
  // between runtimes (as the build server's example does) carries it on both.
  if (given('instanceType') && context.runtimeType !== RuntimeType.EC2) {
    messages.push(`instanceType ${context.instanceType} is not used on runtimeType ${context.runtimeType}: it sizes an EC2 instance; ` +
      'on Fargate cpu and memoryLimitMiB decide.');
  }
  // Without data the message above names it already.
  if (keepsData && given('dataVolumeGiB') && !ebs) {
    messages.push(`dataVolumeGiB ${context.dataVolumeGiB} is not used: it sizes the EBS data volume of runtimeType EC2 with ec2Storage ebs; ` +
      'EFS grows as it is used.');
  }
  if (given('rateLimit') && !PROFILE_SETTINGS[context.securityProfile]?.waf) {
    messages.push(`rateLimit ${context.rateLimit} is not used: securityProfile ${context.securityProfile} puts no WAF in front of the ` +
      'application (STAGING and PRODUCTION do).');
  }
  for (const key of ['databaseInstanceType', 'databaseStorageGiB', 'maintenanceWindow'] as const) {
    if (given(key) && !hasDatabase) messages.push(`${key} ${context[key]} is not used: the plugin asks for no database (database()).`);
  }
  return messages;
}

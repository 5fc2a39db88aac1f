import { type CfnResource, Stack } from 'aws-cdk-lib';
import { CfnLaunchTemplate } from 'aws-cdk-lib/aws-ec2';
import { CfnFileSystem } from 'aws-cdk-lib/aws-efs';
import { CfnLogGroup } from 'aws-cdk-lib/aws-logs';
import { CfnDBInstance } from 'aws-cdk-lib/aws-rds';
import { CfnBucket } from 'aws-cdk-lib/aws-s3';
import { CfnSecret } from 'aws-cdk-lib/aws-secretsmanager';
import { CfnTopic } from 'aws-cdk-lib/aws-sns';
import { NagRuleCompliance } from 'cdk-nag';

/** A key of the account's own: an ARN, id or reference, not an AWS-managed alias (`alias/aws/...`). */
function customerKey(key: unknown): boolean {
  return key !== undefined && key !== '' && !/alias\/aws\//.test(JSON.stringify(key));
}

/**
 * The data stores the framework creates keep their data under a customer-managed KMS key, whose policy you control
 * and whose use CloudTrail records: log groups, file systems, topics, database instances, secrets, buckets and the
 * EBS volumes of launch templates (PCI DSS 3.5.1, 3.6.1). Other types are not judged.
 */
export function EncryptedWithCustomerKey(node: CfnResource): NagRuleCompliance {
  const resolve = (value: unknown) => Stack.of(node).resolve(value);
  let keys: unknown[];
  if (node instanceof CfnLogGroup) {keys = [node.kmsKeyId];} else if (node instanceof CfnFileSystem) {keys = [resolve(node.encrypted) === true ? node.kmsKeyId : undefined];} else if (node instanceof CfnTopic) {keys = [node.kmsMasterKeyId];} else if (node instanceof CfnDBInstance) {keys = [resolve(node.storageEncrypted) === true ? node.kmsKeyId : undefined];} else if (node instanceof CfnSecret) {keys = [node.kmsKeyId];} else if (node instanceof CfnBucket) {
    const rules = resolve(node.bucketEncryption)?.serverSideEncryptionConfiguration ?? [{}];
    keys = rules.map((r: any) => (r.serverSideEncryptionByDefault?.sseAlgorithm?.startsWith('aws:kms') ? r.serverSideEncryptionByDefault.kmsMasterKeyId : undefined));
  } else if (node instanceof CfnLaunchTemplate) {
    const volumes = (resolve(node.launchTemplateData)?.blockDeviceMappings ?? []).filter((m: any) => m.ebs);
    keys = volumes.map((m: any) => (m.ebs.encrypted === true ? m.ebs.kmsKeyId : undefined));
  } else {return NagRuleCompliance.NOT_APPLICABLE;}
  return keys.every((key) => customerKey(resolve(key))) ? NagRuleCompliance.COMPLIANT : NagRuleCompliance.NON_COMPLIANT;
}

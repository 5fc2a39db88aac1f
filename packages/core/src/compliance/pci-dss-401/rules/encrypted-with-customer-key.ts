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
  const keys = keysOf(node, (value) => Stack.of(node).resolve(value));
  if (keys === undefined) return NagRuleCompliance.NOT_APPLICABLE;
  return keys.every((key) => customerKey(Stack.of(node).resolve(key))) ? NagRuleCompliance.COMPLIANT : NagRuleCompliance.NON_COMPLIANT;
}

/** The key each encrypted part of `node` names (undefined where it is unencrypted), or undefined for a type not judged. */
function keysOf(node: CfnResource, resolve: (value: unknown) => any): unknown[] | undefined {
  if (node instanceof CfnLogGroup || node instanceof CfnSecret) return [node.kmsKeyId];
  if (node instanceof CfnTopic) return [node.kmsMasterKeyId];
  if (node instanceof CfnFileSystem) return [resolve(node.encrypted) === true ? node.kmsKeyId : undefined];
  if (node instanceof CfnDBInstance) return [resolve(node.storageEncrypted) === true ? node.kmsKeyId : undefined];
  if (node instanceof CfnBucket) {
    const rules = resolve(node.bucketEncryption)?.serverSideEncryptionConfiguration ?? [{}];
    return rules.map((r: any) => (r.serverSideEncryptionByDefault?.sseAlgorithm?.startsWith('aws:kms') ? r.serverSideEncryptionByDefault.kmsMasterKeyId : undefined));
  }
  if (node instanceof CfnLaunchTemplate) {
    const volumes = (resolve(node.launchTemplateData)?.blockDeviceMappings ?? []).filter((m: any) => m.ebs);
    return volumes.map((m: any) => (m.ebs.encrypted === true ? m.ebs.kmsKeyId : undefined));
  }
  return undefined;
}

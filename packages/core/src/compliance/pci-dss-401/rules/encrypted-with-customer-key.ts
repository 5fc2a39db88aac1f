import {
  aws_ec2 as ec2, aws_efs as efs, aws_logs as logs, aws_rds as rds, aws_s3 as s3,
  aws_secretsmanager as secretsmanager, aws_sns as sns, type CfnResource, Stack,
} from 'aws-cdk-lib';
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
  if (node instanceof logs.CfnLogGroup || node instanceof secretsmanager.CfnSecret) return [node.kmsKeyId];
  if (node instanceof sns.CfnTopic) return [node.kmsMasterKeyId];
  if (node instanceof efs.CfnFileSystem) return [resolve(node.encrypted) === true ? node.kmsKeyId : undefined];
  if (node instanceof rds.CfnDBInstance) return [resolve(node.storageEncrypted) === true ? node.kmsKeyId : undefined];
  if (node instanceof s3.CfnBucket) {
    const rules = resolve(node.bucketEncryption)?.serverSideEncryptionConfiguration ?? [{}];
    return rules.map((r: any) => (r.serverSideEncryptionByDefault?.sseAlgorithm?.startsWith('aws:kms') ? r.serverSideEncryptionByDefault.kmsMasterKeyId : undefined));
  }
  if (node instanceof ec2.CfnLaunchTemplate) {
    const volumes = (resolve(node.launchTemplateData)?.blockDeviceMappings ?? []).filter((m: any) => m.ebs);
    return volumes.map((m: any) => (m.ebs.encrypted === true ? m.ebs.kmsKeyId : undefined));
  }
  return undefined;
}

import { createHash } from 'node:crypto';

/**
 * 8 hex characters of a text's SHA-256: the suffix that tells apart names derived from different inputs (stack names,
 * ARNs), always the same for the same input.
 */
export function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/**
 * A name derived from inputs (usually the stack name), kept within an AWS length limit: unchanged when it fits,
 * otherwise its first characters, `-` and 8 hex characters of its SHA-256. The same input always gives the same
 * name, and two long inputs that share a prefix still give different names.
 *
 * The suffix uses only `0-9a-f` and `-`, which every name this is used for accepts.
 */
export function boundedName(name: string, maxLength: number): string {
  if (name.length <= maxLength) return name;
  const hash = shortHash(name);
  return `${name.slice(0, maxLength - hash.length - 1)}-${hash}`;
}

/**
 * Limits of the names the platform derives from the stack name. Every value here is the service's own limit; the
 * test of the longest accepted stack name checks each derived name against it.
 */
export const NAME_LIMITS = {
  /**
   * SNS topic display name: at most 100 characters.
   * @see https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-sns-topic.html#cfn-sns-topic-displayname
   */
  snsDisplayName: 100,
  /**
   * WAF metric name: 1 to 128 characters of `A-Z a-z 0-9 - _` (the API's pattern `^[\w#:\.\-/]+$` is wider; the
   * description's 128 is the limit WAF applies).
   * @see https://docs.aws.amazon.com/waf/latest/APIReference/API_VisibilityConfig.html
   */
  wafMetricName: 128,
  /**
   * CloudWatch Logs log group name: 1 to 512 characters of `a-z A-Z 0-9 _ - / . #`.
   * @see https://docs.aws.amazon.com/AmazonCloudWatchLogs/latest/APIReference/API_CreateLogGroup.html
   */
  logGroupName: 512,
  /**
   * CloudWatch metric namespace: 1 to 255 characters.
   * @see https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_PutMetricAlarm.html
   */
  metricNamespace: 255,
  /**
   * CloudWatch alarm name: 1 to 255 characters.
   * @see https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_PutMetricAlarm.html
   */
  alarmName: 255,
  /**
   * AWS Backup vault name: 2 to 50 characters of `a-z A-Z 0-9 - _`.
   * @see https://docs.aws.amazon.com/aws-backup/latest/devguide/API_CreateBackupVault.html
   */
  backupVaultName: 50,
} as const;

/**
 * A backup vault's name: `fw-<stack name>-<purpose>`. Named, not left to the CDK (which names it after its construct
 * path): a vault outlives its stack while it holds recovery points, and a stack created again under the same name
 * adopts it with `cdk deploy --import-existing-resources`, which needs the name in the template.
 */
export function backupVaultName(stackName: string, purpose: string): string {
  return boundedName(`fw-${stackName}-${purpose}`, NAME_LIMITS.backupVaultName);
}

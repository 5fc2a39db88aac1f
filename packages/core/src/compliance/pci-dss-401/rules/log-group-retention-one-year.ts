import { aws_logs as logs, type CfnResource } from 'aws-cdk-lib';
import { NagRuleCompliance, NagRules } from 'cdk-nag';
import { MIN_LOG_RETENTION_DAYS } from '../retention';

/**
 * A log group keeps its events at least `MIN_LOG_RETENTION_DAYS` days, or never expires them: AWS Config's
 * cw-loggroup-retention-period-check with its default MinRetentionTime. cdk-nag's CloudWatchLogGroupRetentionPeriod
 * accepts any retention, a week included.
 */
export function LogGroupRetentionOneYear(node: CfnResource): NagRuleCompliance {
  if (!(node instanceof logs.CfnLogGroup)) return NagRuleCompliance.NOT_APPLICABLE;
  const days = NagRules.resolveIfPrimitive(node, node.retentionInDays);
  if (days === undefined) return NagRuleCompliance.COMPLIANT;
  return typeof days === 'number' && days >= MIN_LOG_RETENTION_DAYS ? NagRuleCompliance.COMPLIANT : NagRuleCompliance.NON_COMPLIANT;
}

import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import type { LogAlarm } from '../contract/log-alarm';
import type { Logging } from './logging';
import { boundedName, NAME_LIMITS } from './names';

export interface LogAlarmsProps {
  readonly logging: Logging;
  /** What the plugin declared (already validated). */
  readonly alarms: LogAlarm[];
  /** Subscribed to the topic. @default - no subscription */
  readonly email?: string;
}

/**
 * The plugin's log alarms: a metric filter on the application log group and an alarm per declaration, all notifying
 * one encrypted topic.
 */
export class LogAlarms extends Construct {
  public readonly topic: sns.Topic;
  public readonly alarms: cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: LogAlarmsProps) {
    super(scope, id);
    const { logging } = props;
    this.topic = new sns.Topic(this, 'Topic', {
      // Every stack name the key table accepts (up to 128 characters) gives a display name SNS accepts (100).
      displayName: boundedName(`Alarms of ${Stack.of(this).stackName}`, NAME_LIMITS.snsDisplayName),
      masterKey: logging.key,
      enforceSSL: true,
    });
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));

    const action = new SnsAction(this.topic);
    const namespace = `FW/${Stack.of(this).stackName}`;
    this.alarms = props.alarms.map((declared) => {
      const filter = new logs.MetricFilter(this, `${declared.name}Filter`, {
        logGroup: logging.applicationLogGroup,
        filterPattern: logs.FilterPattern.literal(declared.filterPattern),
        metricNamespace: namespace,
        metricName: declared.name,
        metricValue: '1',
      });
      const alarm = new cloudwatch.Alarm(this, declared.name, {
        alarmDescription: declared.description,
        metric: filter.metric({ statistic: cloudwatch.Stats.SUM, period: Duration.seconds(declared.periodSeconds) }),
        threshold: declared.threshold,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        // No matching event in a period publishes no data point: that is the quiet, healthy state.
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      alarm.addAlarmAction(action);
      return alarm;
    });
    this.letCloudWatchPublish(logging);
  }

  /**
   * A topic policy replaces SNS's default policy, and the one that enforces TLS holds only its deny: CloudWatch may
   * publish only when the policy allows it, and to an encrypted topic only when the key lets it use the key ("Enable
   * compatibility between event sources from AWS services and encrypted topics",
   * https://docs.aws.amazon.com/sns/latest/dg/sns-key-management.html#compatibility-with-aws-services). Both are
   * limited to this account's alarms by aws:SourceAccount and aws:SourceArn (the confused-deputy conditions): the topic
   * to these alarms; the key, whose policy cannot name them (they depend on the topic, which depends on the key), to
   * the account's alarms in this region.
   */
  private letCloudWatchPublish(logging: Logging): void {
    const stack = Stack.of(this);
    const cloudwatchPrincipal = new ServicePrincipal('cloudwatch.amazonaws.com');
    const fromAccount = { StringEquals: { 'aws:SourceAccount': stack.account } };
    this.topic.addToResourcePolicy(new PolicyStatement({
      principals: [cloudwatchPrincipal],
      actions: ['sns:Publish'],
      resources: [this.topic.topicArn],
      conditions: { ...fromAccount, ArnEquals: { 'aws:SourceArn': this.alarms.map((a) => a.alarmArn) } },
    }));
    const anyAlarm = stack.formatArn({ service: 'cloudwatch', resource: 'alarm', resourceName: '*', arnFormat: ArnFormat.COLON_RESOURCE_NAME });
    logging.key.addToResourcePolicy(new PolicyStatement({
      principals: [cloudwatchPrincipal],
      actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      resources: ['*'],
      conditions: { ...fromAccount, ArnLike: { 'aws:SourceArn': anyAlarm } },
    }));
  }
}

import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
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
    // An alarm publishes to an encrypted topic only when the key lets CloudWatch use it.
    logging.key.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
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
  }
}

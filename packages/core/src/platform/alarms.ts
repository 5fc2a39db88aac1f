import { ArnFormat, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { purposeKey } from './keys';
import type { Logging } from './logging';
import { boundedName, NAME_LIMITS } from './names';
import type { LogAlarm } from '../contract/log-alarm';

export interface LogAlarmsProps {
  readonly logging: Logging;
  /** What the plugin declared (already validated). */
  readonly alarms: LogAlarm[];
  /** Subscribed to the topic. @default - no subscription */
  readonly email?: string;
  /** Of the topic's key. */
  readonly removalPolicy: RemovalPolicy;
}

/**
 * The plugin's log alarms: a metric filter on the application log group and an alarm per declaration, all notifying
 * one topic encrypted with a key of its own.
 */
export class LogAlarms extends Construct {
  public readonly topic: sns.Topic;
  /** Encrypts the topic, and CloudWatch may use it for these alarms only. */
  public readonly key: kms.Key;
  public readonly alarms: cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: LogAlarmsProps) {
    super(scope, id);
    const { logging } = props;
    const stack = Stack.of(this);
    this.key = purposeKey(this, 'Key', 'notifications', props.removalPolicy);
    this.topic = new sns.Topic(this, 'Topic', {
      // Every stack name the key table accepts (up to 128 characters) gives a display name SNS accepts (100).
      displayName: boundedName(`Alarms of ${stack.stackName}`, NAME_LIMITS.snsDisplayName),
      masterKey: this.key,
      enforceSSL: true,
    });
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));

    const action = new SnsAction(this.topic);
    const namespace = `FW/${stack.stackName}`;
    const alarmNames = props.alarms.map((declared) => boundedName(`${stack.stackName}-${declared.name}`, NAME_LIMITS.alarmName));
    this.alarms = props.alarms.map((declared, i) => {
      const filter = new logs.MetricFilter(this, `${declared.name}Filter`, {
        logGroup: logging.applicationLogGroup,
        filterPattern: logs.FilterPattern.literal(declared.filterPattern),
        metricNamespace: namespace,
        metricName: declared.name,
        metricValue: '1',
      });
      const alarm = new cloudwatch.Alarm(this, declared.name, {
        // Named, so that the topic's and the key's policies can name it without depending on it.
        alarmName: alarmNames[i],
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
    this.letCloudWatchPublish(alarmNames);
  }

  /**
   * A topic policy replaces SNS's default policy, and the one that enforces TLS holds only its deny: CloudWatch may
   * publish only when the policy allows it, and to an encrypted topic only when the key lets it use the key ("Enable
   * compatibility between event sources from AWS services and encrypted topics",
   * https://docs.aws.amazon.com/sns/latest/dg/sns-key-management.html#compatibility-with-aws-services). Both are
   * limited to these alarms of this account by aws:SourceArn and aws:SourceAccount (the confused-deputy conditions).
   */
  private letCloudWatchPublish(alarmNames: string[]): void {
    const stack = Stack.of(this);
    const principals = [new ServicePrincipal('cloudwatch.amazonaws.com')];
    const conditions = {
      StringEquals: { 'aws:SourceAccount': stack.account },
      ArnEquals: {
        'aws:SourceArn': alarmNames.map((name) => stack.formatArn({
          service: 'cloudwatch', resource: 'alarm', resourceName: name, arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        })),
      },
    };
    this.topic.addToResourcePolicy(new PolicyStatement({ principals, actions: ['sns:Publish'], resources: [this.topic.topicArn], conditions }));
    this.key.addToResourcePolicy(new PolicyStatement({ principals, actions: ['kms:Decrypt', 'kms:GenerateDataKey*'], resources: ['*'], conditions }));
  }
}

import {
  ArnFormat, aws_cloudwatch as cloudwatch, aws_cloudwatch_actions as cloudwatchActions, aws_iam as iam,
  type aws_kms as kms, aws_logs as logs, aws_sns as sns, aws_sns_subscriptions as snsSubscriptions, Duration,
  RemovalPolicy, Stack,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { purposeKey } from './keys';
import type { ApplicationLog } from './logging';
import { boundedName, NAME_LIMITS } from './names';
import type { LogAlarm } from '../contract/log-alarm';

/** An alarm's name: `<stackName>-<name>`, within CloudWatch's limit (the platform's topic names it before it exists). */
export function alarmName(stackName: string, name: string): string {
  return boundedName(`${stackName}-${name}`, NAME_LIMITS.alarmName);
}

/**
 * The topic alarms notify, encrypted with a key of its own (purpose: notifications), with an optional e-mail
 * subscription. Not a construct: its key and topic sit directly in `scope`, as they always have.
 */
export class AlarmTopic {
  public readonly topic: sns.Topic;
  /** Encrypts the topic, and CloudWatch may use it for the allowed alarms only. */
  public readonly key: kms.Key;

  constructor(scope: Construct, email: string | undefined, removalPolicy: RemovalPolicy) {
    const stack = Stack.of(scope);
    this.key = purposeKey(scope, 'Key', 'notifications', removalPolicy);
    this.topic = new sns.Topic(scope, 'Topic', {
      // Every stack name the key table accepts (up to 128 characters) gives a display name SNS accepts (100).
      displayName: boundedName(`Alarms of ${stack.stackName}`, NAME_LIMITS.snsDisplayName),
      masterKey: this.key,
      enforceSSL: true,
    });
    if (email) this.topic.addSubscription(new snsSubscriptions.EmailSubscription(email));
  }

  /**
   * Lets CloudWatch publish to the topic for these alarms (of this account and region) only. A topic policy replaces
   * SNS's default policy, and the one that enforces TLS holds only its deny: CloudWatch may publish only when the policy
   * allows it, and to an encrypted topic only when the key lets it use the key ("Enable compatibility between event
   * sources from AWS services and encrypted topics",
   * https://docs.aws.amazon.com/sns/latest/dg/sns-key-management.html#compatibility-with-aws-services). Both are
   * limited to these alarms by aws:SourceArn and aws:SourceAccount (the confused-deputy conditions).
   */
  public allowAlarms(names: string[]): void {
    this.allow('ArnEquals', names);
  }

  /**
   * Lets CloudWatch publish to the topic for every alarm of this account and region: a platform's, whose applications
   * come and go. Naming them would change the key's policy with each one, and a detached application's alarms would
   * fail to notify until it is deleted.
   */
  public allowAccountAlarms(): void {
    this.allow('ArnLike', ['*']);
  }

  private allow(operator: 'ArnEquals' | 'ArnLike', names: string[]): void {
    const stack = Stack.of(this.topic);
    const principals = [new iam.ServicePrincipal('cloudwatch.amazonaws.com')];
    const conditions = {
      StringEquals: { 'aws:SourceAccount': stack.account },
      [operator]: {
        'aws:SourceArn': names.map((name) => stack.formatArn({
          service: 'cloudwatch', resource: 'alarm', resourceName: name, arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        })),
      },
    };
    this.topic.addToResourcePolicy(new iam.PolicyStatement({ principals, actions: ['sns:Publish'], resources: [this.topic.topicArn], conditions }));
    this.key.addToResourcePolicy(new iam.PolicyStatement({ principals, actions: ['kms:Decrypt', 'kms:GenerateDataKey*'], resources: ['*'], conditions }));
  }
}

export interface LogAlarmsProps {
  /** The application's log group, which the filters read. */
  readonly log: ApplicationLog;
  /** What the plugin declared (already validated). */
  readonly alarms: LogAlarm[];
  /** Subscribed to the topic (when the topic is created here). @default - no subscription */
  readonly email?: string;
  /** Of the topic's key (when the topic is created here). */
  readonly removalPolicy: RemovalPolicy;
  /**
   * The topic to notify, when another construct owns it (a `Platform`'s): that owner allows `alarmNames`.
   * @default - a topic of its own (`AlarmTopic`)
   */
  readonly topic?: sns.ITopic;
}

/**
 * The plugin's log alarms: a metric filter on the application log group and an alarm per declaration, all notifying
 * one topic. An own topic lets CloudWatch publish only once `ownTopic.allowAlarms` names every alarm that notifies it.
 */
export class LogAlarms extends Construct {
  /** The topic's key and topic when they were created here. */
  public readonly ownTopic?: AlarmTopic;
  /** The topic the alarms notify: the given one, or `ownTopic`'s. */
  public readonly topic: sns.ITopic;
  public readonly alarms: cloudwatch.Alarm[];
  /** The alarms' names: `<stackName>-<name>`, within CloudWatch's limit. */
  public readonly alarmNames: string[];

  constructor(scope: Construct, id: string, props: LogAlarmsProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.ownTopic = props.topic ? undefined : new AlarmTopic(this, props.email, props.removalPolicy);
    this.topic = props.topic ?? this.ownTopic!.topic;

    const action = new cloudwatchActions.SnsAction(this.topic);
    const namespace = `FW/${stack.stackName}`;
    const alarmNames = props.alarms.map((declared) => alarmName(stack.stackName, declared.name));
    this.alarmNames = alarmNames;
    this.alarms = props.alarms.map((declared, i) => {
      const filter = new logs.MetricFilter(this, `${declared.name}Filter`, {
        logGroup: props.log.group,
        filterPattern: logs.FilterPattern.literal(declared.filterPattern),
        metricNamespace: namespace,
        metricName: declared.name,
        metricValue: declared.metricValue ?? '1',
      });
      const alarm = new cloudwatch.Alarm(this, declared.name, {
        // Named, so that the topic's and the key's policies can name it without depending on it.
        alarmName: alarmNames[i],
        alarmDescription: declared.description,
        metric: filter.metric({ statistic: declared.statistic ?? cloudwatch.Stats.SUM, period: Duration.seconds(declared.periodSeconds) }),
        threshold: declared.threshold,
        comparisonOperator: declared.comparison === 'LessThan'
          ? cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD : cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        // No matching event in a period publishes no data point: the quiet, healthy state, unless the plugin's
        // events are a heartbeat.
        treatMissingData: declared.missingDataBreaches ? cloudwatch.TreatMissingData.BREACHING : cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      alarm.addAlarmAction(action);
      return alarm;
    });
  }
}

import {
  type aws_autoscaling as autoscaling, aws_cloudwatch as cloudwatch, aws_cloudwatch_actions as cloudwatchActions,
  type aws_ecs as ecs, type aws_elasticloadbalancingv2 as elbv2, type aws_sns as sns, Duration, Stack,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { alarmName } from './alarms';
import { FRAMEWORK_ALARM_NAMES as NAMES } from '../contract/log-alarm';

/** Responses with a 5xx status from the application, in five minutes, that raise `fw-target-5xx`. */
export const TARGET_5XX_THRESHOLD = 10;

export interface HealthAlarmsProps {
  /** Where the alarms notify: the application's topic or its platform's. */
  readonly topic: sns.ITopic;
  /** The application's target group: with its load balancer, the dimensions of the load balancer's metrics. */
  readonly targetGroup: elbv2.ApplicationTargetGroup;
  /** The target group's load balancer, `app/<name>/<id>`. */
  readonly loadBalancerFullName: string;
  /** How long the application takes to answer its health check after starting: no alarm before. */
  readonly startupSeconds: number;
  /** The application's log group, where a description sends the reader. */
  readonly logGroupName: string;
  /** Fargate: the application's service. */
  readonly service?: ecs.FargateService;
  /** EC2: the application's instance group. */
  readonly autoScalingGroup?: autoscaling.AutoScalingGroup;
}

/**
 * Three alarms on the application's health, to the alarm topic, each saying what to look at first: no healthy target
 * behind the load balancer (which is also how a failed EC2 boot shows: the instance never answers), 5xx answers from the
 * application, and on Fargate no running task, on EC2 a failed status check of the instance.
 */
export class HealthAlarms extends Construct {
  public readonly alarmNames: string[] = [];

  constructor(scope: Construct, id: string, props: HealthAlarmsProps) {
    super(scope, id);
    const action = new cloudwatchActions.SnsAction(props.topic);
    const target = { TargetGroup: props.targetGroup.targetGroupFullName, LoadBalancer: props.loadBalancerFullName };
    const minutes = (seconds: number) => Math.ceil(seconds / 60);
    // A stop-first deployment or a restart leaves no healthy target for the start-up time: not an alarm.
    const startupMinutes = Math.max(5, minutes(props.startupSeconds) + 2);
    const logs = `the application's log group ${props.logGroupName}`;
    /** An alarm to the topic: at or above the threshold (or below it) for `periods` periods of its metric. */
    const add = (name: string, description: string, metric: cloudwatch.Metric, rule: {
      readonly threshold: number; readonly below?: boolean; readonly periods: number; readonly missingBreaches?: boolean;
    }) => {
      // Named, so that the topic's and the key's policies can name it without depending on it.
      const named = alarmName(Stack.of(this).stackName, name);
      new cloudwatch.Alarm(this, name, {
        alarmName: named,
        alarmDescription: description,
        metric,
        threshold: rule.threshold,
        evaluationPeriods: rule.periods,
        comparisonOperator: rule.below
          ? cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD : cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: rule.missingBreaches ? cloudwatch.TreatMissingData.BREACHING : cloudwatch.TreatMissingData.NOT_BREACHING,
      }).addAlarmAction(action);
      this.alarmNames.push(named);
    };
    const elb = (metricName: string, statistic: string, period: Duration) =>
      new cloudwatch.Metric({ namespace: 'AWS/ApplicationELB', metricName, dimensionsMap: target, statistic, period });

    add(NAMES.noHealthyTarget, `No target of the application has passed the load balancer's health check for ${startupMinutes} ` +
      `minutes: users get 503. Look first at ${logs}; then at the target group's health reasons (aws elbv2 describe-target-health).` +
      (props.autoScalingGroup ? ' On EC2, an instance whose boot failed never answers: its /var/log/userdata.log (Session Manager, or the console output) says where it stopped.' : ''),
    elb('HealthyHostCount', 'Minimum', Duration.minutes(1)), { threshold: 1, below: true, periods: startupMinutes, missingBreaches: true });
    add(NAMES.targetErrors, `The application answered ${TARGET_5XX_THRESHOLD} or more requests with a 5xx status in five ` +
      `minutes. Look first at ${logs} around the alarm's time.`,
    elb('HTTPCode_Target_5XX_Count', 'Sum', Duration.minutes(5)), { threshold: TARGET_5XX_THRESHOLD, periods: 1 });
    if (props.service) {
      // A running task reports its CPU every minute (AWS/ECS, by service): no sample means no task is running.
      add(NAMES.noRunningTask, `No task of the service has run for ${startupMinutes} minutes: tasks fail to start or ` +
        'keep stopping. Look first at the service\'s events (aws ecs describe-services) and the stopped tasks\' reasons ' +
        `(aws ecs describe-tasks on aws ecs list-tasks --desired-status STOPPED); then at ${logs}.`,
      props.service.metricCpuUtilization({ statistic: 'SampleCount', period: Duration.minutes(1) }),
      { threshold: 1, below: true, periods: startupMinutes, missingBreaches: true });
    }
    if (props.autoScalingGroup) {
      // EC2 publishes its instance metrics by Auto Scaling group too (dimension AutoScalingGroupName).
      add(NAMES.instanceStatus, 'The instance failed its EC2 status checks (system or instance) for three minutes. ' +
        'Look first at the instance\'s status checks in the EC2 console; the group replaces an instance that stays impaired.',
      new cloudwatch.Metric({
        namespace: 'AWS/EC2',
        metricName: 'StatusCheckFailed',
        statistic: 'Maximum',
        period: Duration.minutes(1),
        dimensionsMap: { AutoScalingGroupName: props.autoScalingGroup.autoScalingGroupName },
      }), { threshold: 1, periods: 3 });
    }
  }
}

import { RuntimeType } from './runtime-type';

/**
 * An alarm a plugin asks for on its own log: the framework counts the log events that match `filterPattern` in the
 * application's log group (both runtimes ship there) and notifies the deployment's alarm topic when more than
 * `threshold` of them fall within `periodSeconds`. For a JSON log line, `metricValue` takes a number from it instead
 * of counting, and `statistic`, `comparison` and `missingDataBreaches` say how the period's values are judged.
 */
export interface LogAlarm {
  /** Identifier, also the metric's name: letters, digits and -, starting with a letter (at most 64). */
  readonly name: string;
  /** What the alarm means and what to do, shown in the notification. */
  readonly description: string;
  /**
   * A CloudWatch Logs filter pattern, for example `?"Login attempt failed" ?"Bad authentication response"`.
   * @see https://docs.aws.amazon.com/AmazonCloudWatch/latest/logs/FilterAndPatternSyntax.html
   */
  readonly filterPattern: string;
  /** The alarm fires when the number of matching events in one period is greater than this (0 or more). */
  readonly threshold: number;
  /** The period in seconds: a multiple of 60, at most 86400 (one day). */
  readonly periodSeconds: number;
  /**
   * What each matching event publishes: `$.<field>` of a JSON log event (its number), as CloudWatch Logs metric
   * filters take it.
   * @default '1' (each matching event counts once)
   */
  readonly metricValue?: string;
  /** How a period's values are combined: `Sum`, `Minimum` or `Maximum`. @default 'Sum' */
  readonly statistic?: string;
  /** `GreaterThan` or `LessThan` the threshold. @default 'GreaterThan' */
  readonly comparison?: string;
  /**
   * Whether a period without any matching event alarms: true for a heartbeat whose absence means trouble.
   * @default false (no event is the quiet, healthy state)
   */
  readonly missingDataBreaches?: boolean;
}

/**
 * The alarms the framework gives every application (on its health, whatever the plugin declares), by name: a plugin's
 * log alarm may not take one of them, since both are named `<stackName>-<name>`.
 */
export const FRAMEWORK_ALARM_NAMES = {
  noRunningTask: 'fw-no-running-task',
  noHealthyTarget: 'fw-no-healthy-target',
  targetErrors: 'fw-target-5xx',
  instanceStatus: 'fw-instance-status-check',
} as const;

/** The framework's alarms on one runtime: a Fargate service has tasks, an EC2 group an instance. */
export function frameworkAlarmNames(runtimeType: RuntimeType): string[] {
  const { noRunningTask, noHealthyTarget, targetErrors, instanceStatus } = FRAMEWORK_ALARM_NAMES;
  return [noHealthyTarget, targetErrors, runtimeType === RuntimeType.FARGATE ? noRunningTask : instanceStatus];
}

/** The statistics and comparisons `LogAlarm` takes. */
export const LOG_ALARM_STATISTICS = ['Sum', 'Minimum', 'Maximum'] as const;
export const LOG_ALARM_COMPARISONS = ['GreaterThan', 'LessThan'] as const;

/** Every problem with one alarm, in the words of `LogAlarm`'s documentation. */
export function logAlarmProblems(alarm: LogAlarm): string[] {
  const problems: string[] = [];
  const shown = (v: unknown) => JSON.stringify(v);
  if (typeof alarm.name !== 'string' || !/^[A-Za-z][A-Za-z0-9-]{0,63}$/.test(alarm.name)) {
    problems.push(`name ${shown(alarm.name)}; allowed: letters, digits and -, starting with a letter (at most 64)`);
  } else if ((Object.values(FRAMEWORK_ALARM_NAMES) as string[]).includes(alarm.name)) {
    problems.push(`name ${shown(alarm.name)} is the framework's own alarm's; allowed: any other, not one of ${Object.values(FRAMEWORK_ALARM_NAMES).join(', ')}`);
  }
  if (typeof alarm.filterPattern !== 'string' || alarm.filterPattern.trim() === '' || alarm.filterPattern.length > 1024) {
    problems.push(`filterPattern ${shown(alarm.filterPattern)}; allowed: a CloudWatch Logs filter pattern of 1 to 1024 characters`);
  }
  if (!Number.isInteger(alarm.threshold) || alarm.threshold < 0) {
    problems.push(`threshold ${shown(alarm.threshold)}; allowed: an integer of 0 or more`);
  }
  if (!Number.isInteger(alarm.periodSeconds) || alarm.periodSeconds < 60 || alarm.periodSeconds > 86400 || alarm.periodSeconds % 60 !== 0) {
    problems.push(`periodSeconds ${shown(alarm.periodSeconds)}; allowed: a multiple of 60 from 60 to 86400`);
  }
  // CloudWatch Logs metric filters: a metric value is a number or a `$.` selector of the event's JSON (PutMetricFilter).
  if (alarm.metricValue !== undefined && !/^(\$(\.[A-Za-z_][A-Za-z0-9_]*)+|\d+(\.\d+)?)$/.test(alarm.metricValue)) {
    problems.push(`metricValue ${shown(alarm.metricValue)}; allowed: a number or a JSON field selector such as $.heapUsedPercent`);
  }
  if (alarm.statistic !== undefined && !(LOG_ALARM_STATISTICS as readonly string[]).includes(alarm.statistic)) {
    problems.push(`statistic ${shown(alarm.statistic)}; allowed: ${LOG_ALARM_STATISTICS.join(', ')}`);
  }
  if (alarm.comparison !== undefined && !(LOG_ALARM_COMPARISONS as readonly string[]).includes(alarm.comparison)) {
    problems.push(`comparison ${shown(alarm.comparison)}; allowed: ${LOG_ALARM_COMPARISONS.join(', ')}`);
  }
  return problems;
}

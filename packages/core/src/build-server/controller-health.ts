import * as fs from 'fs';
import * as path from 'path';
import { JENKINS_CODE_DIR } from './compliance-jobs';
import type { LogAlarm } from '../contract/log-alarm';

/**
 * The controller's health in CloudWatch with no plugin added: an init script (`jenkins/init/fw-controller-health.groovy`,
 * run by core from `$JENKINS_HOME/init.groovy.d` at every start) prints one JSON line a minute on standard output,
 * which both runtimes ship to the application's log group; metric filters on its fields feed the alarms below. The
 * `metrics` plugin would have been one more plugin to pin, check against advisories and configure; core's own API
 * gives these numbers.
 */
export const CONTROLLER_HEALTH_SCRIPT = 'init.groovy.d/fw-controller-health.groovy';

/** The init script's text. */
export function controllerHealthScript(): string {
  return fs.readFileSync(path.join(JENKINS_CODE_DIR, 'init', path.basename(CONTROLLER_HEALTH_SCRIPT)), 'utf-8');
}

/** The script's lines, as a CloudWatch Logs JSON filter pattern selects them. */
const SAMPLES = '{ $.fwControllerHealth = 1 }';

/** Seconds a condition must hold before its alarm: a sustained state, not one sample. */
export const SUSTAINED_SECONDS = 900;

/** A buildable item waiting longer than this for an agent, throughout `SUSTAINED_SECONDS`, means none can launch. */
export const AGENT_LAUNCH_WAIT_SECONDS = 600;
/** Heap in use above this share of the maximum, throughout `SUSTAINED_SECONDS`. */
export const HEAP_PRESSURE_PERCENT = 85;

const sample = (name: string, field: string, statistic: string, threshold: number, periodSeconds: number, description: string): LogAlarm =>
  ({ name, description, filterPattern: SAMPLES, metricValue: `$.${field}`, statistic, comparison: 'GreaterThan', threshold, periodSeconds });

/** The six alarms on the controller's health samples. */
export const CONTROLLER_HEALTH_ALARMS: LogAlarm[] = [
  {
    name: 'JenkinsControllerUnhealthy',
    description: 'No health sample from the Jenkins controller for 10 minutes: it is down, restarting, or too busy to run ' +
      'its timer. Expected while a deployment replaces it (a first start takes up to CONTROLLER_STARTUP_SECONDS); ' +
      'otherwise look at the application log group and the load balancer\'s target health.',
    filterPattern: SAMPLES,
    threshold: 1,
    comparison: 'LessThan',
    periodSeconds: 600,
    missingDataBreaches: true,
  },
  sample('JenkinsQueueStuck', 'stuckItems', 'Minimum', 0, SUSTAINED_SECONDS, 'An item has been stuck in the Jenkins ' +
    'queue for 15 minutes (core\'s Queue.Item.isStuck(): its label has no online node, or it waited ten times its ' +
    'estimated duration): open /queue and the item\'s "why".'),
  sample('JenkinsNoAgentCanLaunch', 'longestBuildableWaitSeconds', 'Minimum', AGENT_LAUNCH_WAIT_SECONDS, SUSTAINED_SECONDS,
    'A build has waited over 10 minutes for an agent for 15 minutes: the ECS cloud cannot start agent tasks (capacity, ' +
    'the task role, the image pull, the agents\' subnets); the controller log names the ECS error.'),
  sample('JenkinsHeapPressure', 'heapUsedPercent', 'Minimum', HEAP_PRESSURE_PERCENT, SUSTAINED_SECONDS, 'The Jenkins ' +
    `controller has used over ${HEAP_PRESSURE_PERCENT} % of its heap for 15 minutes: give it more memory (memoryLimitMiB or ` +
    'instanceType) before it slows down and fails.'),
  sample('JenkinsPluginFailedToLoad', 'failedPlugins', 'Maximum', 0, 300, 'A Jenkins plugin failed to load at start ' +
    '(Manage Jenkins shows which and why, often a missing or too old dependency): configuration that needs it was not applied.'),
  sample('JenkinsExecutorsOnController', 'builtInExecutors', 'Maximum', 0, 300, 'The Jenkins controller has executors: ' +
    'builds could run on it, next to its secrets. The configuration sets none (jenkins.numExecutors: 0); someone changed it.'),
];

import { AuthMode, JenkinsSpec, RuntimeType, SecurityProfile } from '../../src';
import { CONTROLLER_HEALTH_ALARMS, CONTROLLER_HEALTH_SCRIPT, controllerHealthScript } from '../../src/build-server/controller-health';
import { logAlarmProblems } from '../../src/contract/log-alarm';
import { applicationTask, OIDC, propsFor, resources, synth, userData } from '../support/synth';
import { filesWritten } from '../support/user-data-files';

/**
 * The controller's health in CloudWatch: the init script prints one JSON sample a minute (its behaviour is tested in
 * Groovy against stand-ins of core's classes: jenkins/src/test/java/dev/fwframework/jenkins/ControllerHealthTest.java),
 * both runtimes put it in `$JENKINS_HOME/init.groovy.d`, and the six alarms read its fields through metric filters.
 */
const SIGN_IN = { authMode: AuthMode.APPLICATION_OIDC, oidc: OIDC, domain: 'example.com', alarmEmail: 'security@example.com' };
const templates = {
  [RuntimeType.FARGATE]: synth(RuntimeType.FARGATE, { ...propsFor(SecurityProfile.PRODUCTION), ...SIGN_IN }, new JenkinsSpec()).json,
  [RuntimeType.EC2]: synth(RuntimeType.EC2, { ...propsFor(SecurityProfile.PRODUCTION), ...SIGN_IN }, new JenkinsSpec()).json,
};

test('six alarms, each valid as a LogAlarm, each on a field the script prints', () => {
  expect(CONTROLLER_HEALTH_ALARMS.map((a) => a.name)).toEqual(['JenkinsControllerUnhealthy', 'JenkinsQueueStuck',
    'JenkinsNoAgentCanLaunch', 'JenkinsHeapPressure', 'JenkinsPluginFailedToLoad', 'JenkinsExecutorsOnController']);
  for (const alarm of CONTROLLER_HEALTH_ALARMS) {
    expect([alarm.name, logAlarmProblems(alarm)]).toEqual([alarm.name, []]);
    if (alarm.metricValue) expect(controllerHealthScript()).toContain(`    ${alarm.metricValue.slice(2)}: `);
  }
  expect(controllerHealthScript()).toContain('    fwControllerHealth: 1,');
});

describe.each([RuntimeType.FARGATE, RuntimeType.EC2])('%s', (runtime) => {
  const json = templates[runtime];

  test('the script is placed in the home\'s init.groovy.d, as it is', () => {
    if (runtime === RuntimeType.FARGATE) {
      const init = applicationTask(json).Properties.ContainerDefinitions.find((c: any) => c.Name === 'Initialization');
      expect(init.Command[0]).toContain(`cp /fw/config/fw-controller-health.groovy /var/jenkins_home/${CONTROLLER_HEALTH_SCRIPT}`);
      expect(init.Command[0]).toContain('mkdir -p /var/jenkins_home/logs /var/jenkins_home/plugins /var/jenkins_home/init.groovy.d');
    } else {
      expect(filesWritten(userData(json), json)[`/var/lib/jenkins/${CONTROLLER_HEALTH_SCRIPT}`]).toBe(controllerHealthScript());
      expect(userData(json)).toContain("install -d -m 0750 -o 1000 -g 1000 '/var/lib/jenkins/init.groovy.d'");
    }
  });

  test('each alarm reads its field through a metric filter on the samples, judged as declared, to the alarm topic', () => {
    const filters = resources(json, 'AWS::Logs::MetricFilter').map(([, f]) => f.Properties);
    const alarms = resources(json, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    for (const declared of CONTROLLER_HEALTH_ALARMS) {
      const filter = filters.find((f: any) => f.MetricTransformations[0].MetricName === declared.name);
      expect(filter).toMatchObject({ FilterPattern: '{ $.fwControllerHealth = 1 }', MetricTransformations: [{ MetricValue: declared.metricValue ?? '1' }] });
      const alarm = alarms.find((a: any) => a.MetricName === declared.name);
      expect(alarm).toMatchObject({
        Statistic: declared.statistic ?? 'Sum',
        Threshold: declared.threshold,
        Period: declared.periodSeconds,
        ComparisonOperator: declared.comparison === 'LessThan' ? 'LessThanThreshold' : 'GreaterThanThreshold',
        TreatMissingData: declared.missingDataBreaches ? 'breaching' : 'notBreaching',
      });
      expect(alarm.AlarmActions).toHaveLength(1);
    }
  });
});

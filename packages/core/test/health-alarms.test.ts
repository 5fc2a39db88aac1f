import { RuntimeType, SecurityProfile } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { THREE, synthPlatform } from './support/platform';
import { propsFor, resources, synth } from './support/synth';
import { startupSeconds } from '../src/contract/application-size';
import { FRAMEWORK_ALARM_NAMES } from '../src/contract/log-alarm';

// Every application gets alarms on its health, whatever its plugin declares (src/infrastructure/health-alarms.ts).

/** The stack's alarms by name. */
const alarmsOf = (json: any) => Object.fromEntries(resources(json, 'AWS::CloudWatch::Alarm').map(([, a]) => [a.Properties.AlarmName, a.Properties]));
const dimensions = (alarm: any) => Object.fromEntries(alarm.Dimensions.map((d: any) => [d.Name, d.Value]));

describe.each([RuntimeType.FARGATE, RuntimeType.EC2])('a plugin with no log alarms, standalone on %s', (runtime) => {
  const { json } = synth(runtime, {}, new WikiSpec());
  const alarms = alarmsOf(json);
  const [[topicId]] = resources(json, 'AWS::SNS::Topic');

  test('three alarms, each notifying the application\'s topic', () => {
    const expected = runtime === RuntimeType.FARGATE
      ? ['fw-no-healthy-target', 'fw-target-5xx', 'fw-no-running-task'] : ['fw-no-healthy-target', 'fw-target-5xx', 'fw-instance-status-check'];
    expect(Object.keys(alarms)).toEqual(expected.map((n) => `WikiStack-${n}`));
    for (const alarm of Object.values<any>(alarms)) expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
  });

  test('the target group\'s metrics, by the target group and its load balancer, as the load balancer publishes them', () => {
    const noHealthy = alarms['WikiStack-fw-no-healthy-target'];
    expect(noHealthy).toMatchObject({
      Namespace: 'AWS/ApplicationELB',
      MetricName: 'HealthyHostCount',
      Statistic: 'Minimum',
      ComparisonOperator: 'LessThanThreshold',
      Threshold: 1,
      TreatMissingData: 'breaching',
    });
    const [[targetGroupId]] = resources(json, 'AWS::ElasticLoadBalancingV2::TargetGroup');
    const [[loadBalancerId]] = resources(json, 'AWS::ElasticLoadBalancingV2::LoadBalancer');
    expect(dimensions(noHealthy)).toEqual({
      TargetGroup: { 'Fn::GetAtt': [targetGroupId, 'TargetGroupFullName'] },
      LoadBalancer: { 'Fn::GetAtt': [loadBalancerId, 'LoadBalancerFullName'] },
    });
    const errors = alarms['WikiStack-fw-target-5xx'];
    expect([errors.MetricName, errors.Statistic, errors.Period, errors.Threshold, errors.TreatMissingData])
      .toEqual(['HTTPCode_Target_5XX_Count', 'Sum', 300, 10, 'notBreaching']);
  });

  test('no alarm within the application\'s start-up time: the periods cover it and five minutes at least', () => {
    const startupMinutes = Math.ceil(startupSeconds(new WikiSpec().defaultSize(), 'WikiSpec') / 60);
    expect(alarms['WikiStack-fw-no-healthy-target'].EvaluationPeriods).toBe(Math.max(5, startupMinutes + 2));
  });

  test('each description says what to look at first', () => {
    expect(alarms['WikiStack-fw-no-healthy-target'].AlarmDescription).toMatch(/Look first at the application's log group \/aws\/WikiStack/);
    if (runtime === RuntimeType.EC2) expect(alarms['WikiStack-fw-no-healthy-target'].AlarmDescription).toContain('/var/log/userdata.log');
  });

  test('the topic lets CloudWatch publish for exactly these alarms', () => {
    const [, policy] = resources(json, 'AWS::SNS::TopicPolicy')[0];
    const publish = policy.Properties.PolicyDocument.Statement.find((s: any) => s.Action === 'sns:Publish' && s.Principal?.Service);
    const sources = publish.Condition.ArnEquals['aws:SourceArn'].map((arn: any) => JSON.stringify(arn).match(/alarm:([\w-]+)/)![1]);
    expect(sources).toEqual(Object.keys(alarms));
  });
});

test('Fargate: no running task is a missing CPU sample of the service, breaching', () => {
  const alarm = alarmsOf(synth(RuntimeType.FARGATE, {}, new WikiSpec()).json)['WikiStack-fw-no-running-task'];
  expect([alarm.Namespace, alarm.MetricName, alarm.Statistic, alarm.TreatMissingData]).toEqual(['AWS/ECS', 'CPUUtilization', 'SampleCount', 'breaching']);
  expect(Object.keys(dimensions(alarm)).sort()).toEqual(['ClusterName', 'ServiceName']);
});

test('EC2: the status checks of the group\'s instance', () => {
  const { json } = synth(RuntimeType.EC2, {}, new WikiSpec());
  const alarm = alarmsOf(json)['WikiStack-fw-instance-status-check'];
  const [[groupId]] = resources(json, 'AWS::AutoScaling::AutoScalingGroup');
  expect([alarm.Namespace, alarm.MetricName, alarm.Statistic, alarm.EvaluationPeriods]).toEqual(['AWS/EC2', 'StatusCheckFailed', 'Maximum', 3]);
  expect(dimensions(alarm)).toEqual({ AutoScalingGroupName: { Ref: groupId } });
});

test('on a platform: the platform\'s topic, and the shared load balancer named from the listener\'s ARN', () => {
  const { templates } = synthPlatform(THREE);
  for (const stack of ['Jenkins', 'Wiki', 'Docs']) {
    const alarms = Object.values<any>(alarmsOf(templates[stack])).filter((a) => a.AlarmName.includes('-fw-'));
    expect(alarms.length).toBeGreaterThanOrEqual(3);
    expect(resources(templates[stack], 'AWS::SNS::Topic')).toEqual([]);
    const noHealthy = alarms.find((a) => a.MetricName === 'HealthyHostCount');
    expect(JSON.stringify(dimensions(noHealthy).LoadBalancer)).toMatch(/"Fn::Join":\["\/",\[\{"Fn::Select":\[1,\{"Fn::Split":\["\/",/);
  }
});

test('a plugin\'s log alarm may not take a framework alarm\'s name', () => {
  class Clashing extends WikiSpec {
    public logAlarms() { return [{ name: FRAMEWORK_ALARM_NAMES.targetErrors, description: 'd', filterPattern: '"x"', threshold: 1, periodSeconds: 60 }]; }
  }
  expect(() => synth(RuntimeType.FARGATE, {}, new Clashing())).toThrow(/name "fw-target-5xx" is the framework's own alarm's; allowed: any other/);
});

describe('a Fargate deployment rolls back on the health alarms where the profile says so (deploymentAlarmRollback)', () => {
  const service = (json: any) => resources(json, 'AWS::ECS::Service')[0][1].Properties.DeploymentConfiguration;

  test('STAGING: the three health alarms, by name, roll it back, beside the circuit breaker; one task at a time stays', () => {
    const { json } = synth(RuntimeType.FARGATE, propsFor(SecurityProfile.STAGING), new WikiSpec());
    expect(service(json)).toEqual({
      Alarms: { AlarmNames: ['fw-no-healthy-target', 'fw-target-5xx', 'fw-no-running-task'].map((n) => `WikiStack-${n}`), Enable: true, Rollback: true },
      DeploymentCircuitBreaker: { Enable: true, Rollback: true },
      MaximumPercent: 100,
      MinimumHealthyPercent: 0,
    });
    expect(Object.keys(alarmsOf(json))).toEqual(service(json).Alarms.AlarmNames);
  });

  test('DEV: the circuit breaker only', () => {
    expect(service(synth(RuntimeType.FARGATE, {}, new WikiSpec()).json).Alarms).toEqual({ AlarmNames: [], Enable: false, Rollback: false });
  });
});

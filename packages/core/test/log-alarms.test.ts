import { App, Stack } from 'aws-cdk-lib';
import { ApplicationFactory, LogAlarm, PciDssScope, RuntimeType, SecurityProfile } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { only, propsFor, resources, RUNTIMES_AND_PROFILES, synth, TLS } from './support/synth';

const ERRORS: LogAlarm = {
  name: 'WikiErrors', description: 'Too many errors', filterPattern: '"ERROR"', threshold: 5, periodSeconds: 300,
};

/** The plugin's alarm (the framework's health alarms sit beside it: health-alarms.test.ts). */
const pluginAlarm = (json: any) => resources(json, 'AWS::CloudWatch::Alarm').find(([, a]) => a.Properties.AlarmName === 'WikiStack-WikiErrors')![1];

class AlarmingWiki extends WikiSpec {
  constructor(private readonly alarms: LogAlarm[] = [ERRORS]) { super(); }
  public logAlarms() { return this.alarms; }
}

describe.each([RuntimeType.FARGATE, RuntimeType.EC2])('a plugin\'s log alarms on %s', (runtime) => {
  const { json, template } = synth(runtime, { alarmEmail: 'ops@example.com' }, new AlarmingWiki());

  test('a metric filter on the application log group counts each matching event once', () => {
    const filter = only(json, 'AWS::Logs::MetricFilter').Properties;
    expect(filter.FilterPattern).toBe('"ERROR"');
    expect(filter.MetricTransformations).toEqual([{ MetricNamespace: 'FW/WikiStack', MetricName: 'WikiErrors', MetricValue: '1' }]);
    const [groupId] = resources(json, 'AWS::Logs::LogGroup').find(([, g]) => g.Properties.LogGroupName === `/aws/WikiStack/${runtime}/DEV`)!;
    expect(filter.LogGroupName).toEqual({ Ref: groupId });
  });

  test('the alarm: Sum over the period, greater than the threshold, one period, quiet when nothing matches', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'WikiErrors',
      Namespace: 'FW/WikiStack',
      Statistic: 'Sum',
      Period: 300,
      Threshold: 5,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
      AlarmDescription: 'Too many errors',
    });
  });

  test('it notifies an encrypted topic that only accepts TLS, with the e-mail from context subscribed', () => {
    const [topicId, topic] = resources(json, 'AWS::SNS::Topic')[0];
    expect(topic.Properties.KmsMasterKeyId).toBeDefined();
    expect(pluginAlarm(json).Properties.AlarmActions).toEqual([{ Ref: topicId }]);
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com', TopicArn: { Ref: topicId } });
    const policy = only(json, 'AWS::SNS::TopicPolicy').Properties.PolicyDocument.Statement;
    expect(policy).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
  });

});

describe.each(RUNTIMES_AND_PROFILES)('the alarm chain on %s in %s', (runtime, profile) => {
  const { json } = synth(runtime, { ...propsFor(profile), alarmEmail: 'ops@example.com' }, new AlarmingWiki());

  test('CloudWatch may publish to the topic and use its key, for these alarms of this account only', () => {
    const [topicId, topic] = resources(json, 'AWS::SNS::Topic')[0];
    // The alarm is named, so that both policies name its ARN without depending on it (the key would be a cycle).
    const alarm = pluginAlarm(json).Properties;
    const arn = (name: string) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':cloudwatch:eu-west-1:', { Ref: 'AWS::AccountId' }, `:alarm:${name}`]] });
    // Every alarm of the stack, the plugin's and the framework's, by name; no other.
    const names = resources(json, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties.AlarmName);
    expect(names).toContain('WikiStack-WikiErrors');
    const conditions = {
      StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
      ArnEquals: { 'aws:SourceArn': names.map(arn) },
    };
    const statements = only(json, 'AWS::SNS::TopicPolicy').Properties.PolicyDocument.Statement;
    expect(statements).toContainEqual(expect.objectContaining({
      Effect: 'Allow', Principal: { Service: 'cloudwatch.amazonaws.com' }, Action: 'sns:Publish', Resource: { Ref: topicId }, Condition: conditions,
    }));
    // The chain an alarm's notification travels: alarm -> topic (allowed above) -> the key that encrypts it -> the e-mail.
    const keyId = topic.Properties.KmsMasterKeyId['Fn::GetAtt'][0];
    const key = json.Resources[keyId].Properties;
    expect(key.Description).toBe('Encrypts the notifications of WikiStack');
    expect(key.KeyPolicy.Statement).toContainEqual(expect.objectContaining({
      Effect: 'Allow', Principal: { Service: 'cloudwatch.amazonaws.com' }, Action: ['kms:Decrypt', 'kms:GenerateDataKey*'], Condition: conditions,
    }));
    expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
    expect(only(json, 'AWS::SNS::Subscription').Properties.TopicArn).toEqual({ Ref: topicId });
  });
});

test('a plugin without log alarms gets no metric filter, and only the framework\'s alarms', () => {
  const { json } = synth(RuntimeType.FARGATE, {}, new WikiSpec());
  expect(resources(json, 'AWS::Logs::MetricFilter')).toEqual([]);
  expect(resources(json, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties.AlarmName).filter((n) => !n.startsWith('WikiStack-fw-'))).toEqual([]);
});

test('PRODUCTION refuses alarms that nobody receives, naming the key to set, and creates nothing', () => {
  const app = new App();
  const stack = new Stack(app, 'Prod', { env: { region: 'eu-west-1' } });
  expect(() => new ApplicationFactory(stack, 'App', RuntimeType.FARGATE, new AlarmingWiki(), { securityProfile: SecurityProfile.PRODUCTION, ...TLS, pciDssScope: PciDssScope.CONNECTED }))
    .toThrow('AlarmingWiki raises alarms (fw-no-healthy-target, fw-target-5xx, fw-no-running-task, WikiErrors), and in PRODUCTION someone must receive them: set alarmEmail (for example security@example.com).');
  expect(stack.node.findAll().filter((c) => c.node.path.includes('App/')).length).toBe(0);
});

test('every problem at once: PRODUCTION without alarmEmail and without pciDssScope names both in one error', () => {
  const stack = new Stack(new App(), 'Prod', { env: { region: 'eu-west-1' } });
  const build = () => new ApplicationFactory(stack, 'App', RuntimeType.FARGATE, new AlarmingWiki(), { securityProfile: SecurityProfile.PRODUCTION, ...TLS });
  expect(build).toThrow(/^Invalid deployment context \(2 problems\):\n {2}- securityProfile PRODUCTION needs pciDssScope[^\n]*\n {2}- AlarmingWiki raises alarms \(fw-no-healthy-target, fw-target-5xx, fw-no-running-task, WikiErrors\), and in PRODUCTION someone must receive them: set alarmEmail/);
});

test('an invalid alarm is refused with the member, the value and what is allowed', () => {
  const bad = new AlarmingWiki([{ ...ERRORS, name: '1st', threshold: -1, periodSeconds: 90 }, { ...ERRORS, name: 'WikiErrors', filterPattern: ' ' }, ERRORS]);
  expect(() => synth(RuntimeType.FARGATE, {}, bad)).toThrow([
    'Plugin AlarmingWiki declares invalid values:',
    '  - AlarmingWiki.logAlarms()[0].name "1st"; allowed: letters, digits and -, starting with a letter (at most 64).',
    '  - AlarmingWiki.logAlarms()[0].threshold -1; allowed: an integer of 0 or more.',
    '  - AlarmingWiki.logAlarms()[0].periodSeconds 90; allowed: a multiple of 60 from 60 to 86400.',
    '  - AlarmingWiki.logAlarms()[1].filterPattern " "; allowed: a CloudWatch Logs filter pattern of 1 to 1024 characters.',
    '  - AlarmingWiki.logAlarms()[2].name "WikiErrors" is used twice; names must be unique.',
  ].join('\n'));
});

test('the judging fields of a JSON sample are checked too: a value selector, a statistic, a comparison', () => {
  const bad = new AlarmingWiki([{ ...ERRORS, metricValue: 'heapUsedPercent', statistic: 'Average', comparison: 'Equal' }]);
  expect(() => synth(RuntimeType.FARGATE, {}, bad)).toThrow([
    'Plugin AlarmingWiki declares invalid values:',
    '  - AlarmingWiki.logAlarms()[0].metricValue "heapUsedPercent"; allowed: a number or a JSON field selector such as $.heapUsedPercent.',
    '  - AlarmingWiki.logAlarms()[0].statistic "Average"; allowed: Sum, Minimum, Maximum.',
    '  - AlarmingWiki.logAlarms()[0].comparison "Equal"; allowed: GreaterThan, LessThan.',
  ].join('\n'));
  // And accepted as declared: a heartbeat whose absence alarms.
  const heartbeat = new AlarmingWiki([{ ...ERRORS, metricValue: '$.beat', statistic: 'Minimum', comparison: 'LessThan', threshold: 1, missingDataBreaches: true }]);
  const alarm = pluginAlarm(synth(RuntimeType.FARGATE, {}, heartbeat).json).Properties;
  expect(alarm).toMatchObject({ Statistic: 'Minimum', ComparisonOperator: 'LessThanThreshold', TreatMissingData: 'breaching', Threshold: 1 });
});

test('alarmEmail must be an e-mail address', () => {
  expect(() => synth(RuntimeType.FARGATE, { alarmEmail: 'not-an-address' }, new AlarmingWiki()))
    .toThrow('alarmEmail "not-an-address" is not allowed; expected an e-mail address such as security@example.com.');
});

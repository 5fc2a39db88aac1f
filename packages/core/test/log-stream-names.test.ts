import * as fs from 'node:fs';
import * as path from 'node:path';
import { BashUserDataBuilder, JenkinsSpec } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { LOG_STREAM_NAME } from '../src/userdata/bash-user-data-builder';

/**
 * Every log stream name the CloudWatch agent is configured with is one CloudWatch Logs accepts: the `LogStreamName`
 * shape of its API model (aws/cloudwatch-logs/log-stream-name.json, from botocore), once the agent has replaced
 * `{instance_id}` with the longest instance id there is.
 */
const MODEL = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'aws', 'cloudwatch-logs', 'log-stream-name.json'), 'utf-8'));
const SHAPE = MODEL.LogStreamName;
const INSTANCE_ID = 'i-0123456789abcdef0';

/** The stream names the builder writes for these log paths, as the agent sends them. */
function streamNames(logPaths: string[]): string[] {
  const builder = new BashUserDataBuilder();
  builder.installCloudWatchAgent('/aws/app/EC2/DEV', logPaths);
  const names = [...builder.render().matchAll(/"log_stream_name": "([^"]*)"/g)].map((m) => m[1]);
  expect(names).toHaveLength(logPaths.length);
  return names.map((name) => name.replace('{instance_id}', INSTANCE_ID));
}

function refused(name: string): boolean {
  return !new RegExp(`^(?:${SHAPE.pattern})$`).test(name) || name.length < SHAPE.min || name.length > SHAPE.max;
}

test('the model is botocore\'s, and the framework\'s constant says what it says', () => {
  expect(MODEL.provenance).toMatchObject({ package: 'botocore', version: '1.44.8', path_in_wheel: 'botocore/data/logs/2014-03-28/service-2.json.gz' });
  expect(MODEL.provenance.used_by).toEqual(expect.arrayContaining(['CreateLogStreamRequest.logStreamName', 'PutLogEventsRequest.logStreamName']));
  expect(SHAPE).toEqual({ type: 'string', min: 1, max: LOG_STREAM_NAME.maxLength, pattern: `[^${LOG_STREAM_NAME.forbidden.source.slice(1, -1)}]*` });
});

test.each([
  ['the build server', () => new JenkinsSpec().ec2LogPaths()],
  ['the wiki fixture', () => new WikiSpec().ec2LogPaths()],
  ['globs, colons and the longest path allowed', () => ['/var/log/a/*.log', '/var/log/b:c/**/x?.log', `/${'d'.repeat(LOG_STREAM_NAME.maxLength - INSTANCE_ID.length - 1)}`]],
])('%s: every stream name is one CloudWatch Logs accepts', (_name, logPaths) => {
  const names = streamNames(logPaths());
  expect(names.filter(refused)).toEqual([]);
});

test('the audit trail\'s glob ships to one stream per instance', () => {
  const audit = new JenkinsSpec().ec2LogPaths().find((p) => p.includes('*'))!;
  expect(streamNames([audit])).toEqual([`${INSTANCE_ID}${audit.replace(/\*/g, '_')}`]);
});

test('a path whose stream would pass the limit is refused, naming it', () => {
  const long = `/${'e'.repeat(LOG_STREAM_NAME.maxLength)}`;
  expect(() => streamNames([long])).toThrow(/installCloudWatchAgent\(\): "\/e{39}…" \(513 characters\) is longer than 493 characters/);
});

test('negative control: the name the builder used to write is refused by the model', () => {
  expect(refused(`${INSTANCE_ID}/var/log/jenkins/audit-*.log`)).toBe(true);
  expect(refused(`${INSTANCE_ID}/var/log/jenkins/audit-_.log`)).toBe(false);
});

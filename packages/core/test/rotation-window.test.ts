import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RuntimeType, SecurityProfile } from '../src';
import { SonarSpec } from './fixtures/sonar-spec';
import { IMAGE_DIGESTS, propsFor, resources, synth } from './support/synth';
import { HANDLER, ROTATION_WINDOW_HOURS } from '../src/infrastructure/rotation-restart';
import { PROFILE_SETTINGS } from '../src/profiles/profile-settings';

// The database password rotates in the maintenance window (the profile's, or the key maintenanceWindow), so the
// restart that follows falls in it; the restart takes the application's own deployment path (src/infrastructure/
// rotation-restart.ts). The schedule is set as Secrets Manager's user guide changes a managed rotation's:
// RotateSecret with rotation rules only ("Managed rotation for AWS Secrets Manager secrets").

const production = synth(RuntimeType.EC2, { ...propsFor(SecurityProfile.PRODUCTION), imageDigests: IMAGE_DIGESTS }, new SonarSpec()).json;
const calls = (json: any) => resources(json, 'Custom::AWS').map(([, r]) => JSON.stringify(r.Properties.Create))
  .filter((create) => create.includes('rotateSecret'));

test('PRODUCTION: the rotation moves into the profile\'s window, the secret named, nothing rotated at once; the function may do only that', () => {
  const [create] = calls(production);
  expect(create).toContain(`\\"ScheduleExpression\\":\\"${PROFILE_SETTINGS.PRODUCTION.maintenanceWindow}\\",\\"Duration\\":\\"${ROTATION_WINDOW_HOURS}h\\"`);
  expect(create).toContain('\\"RotateImmediately\\":false');
  expect(create).toMatch(/\\"SecretId\\":\\"",\{"Fn::GetAtt":\["AppDatabaseInstance\w+","MasterUserSecret.SecretArn"\]\}/);
  const statements = resources(production, 'AWS::IAM::Policy').flatMap(([, p]) => p.Properties.PolicyDocument.Statement)
    .filter((s: any) => [s.Action].flat().includes('secretsmanager:RotateSecret'));
  expect(statements).toEqual([{ Action: 'secretsmanager:RotateSecret', Effect: 'Allow', Resource: { 'Fn::GetAtt': [expect.stringMatching(/^AppDatabaseInstance/), 'MasterUserSecret.SecretArn'] } }]);
});

test('the key names another window; DEV keeps RDS\'s own schedule', () => {
  const chosen = synth(RuntimeType.FARGATE, { maintenanceWindow: 'cron(0 2 ? * SAT *)' }, new SonarSpec()).json;
  expect(calls(chosen)).toEqual([expect.stringContaining('\\"ScheduleExpression\\":\\"cron(0 2 ? * SAT *)\\"')]);
  expect(calls(synth(RuntimeType.FARGATE, {}, new SonarSpec()).json)).toEqual([]);
  expect(() => synth(RuntimeType.FARGATE, { maintenanceWindow: 'Sundays at 3' }, new SonarSpec()))
    .toThrow('maintenanceWindow "Sundays at 3" is not allowed; expected a Secrets Manager cron expression such as cron(0 3 ? * SUN *)');
});

test('an application that keeps data is refreshed stop-first (its one writer), as its rolling update replaces it', () => {
  const [, fn] = resources(production, 'AWS::Lambda::Function').find(([, f]) => /^Restarts/.test(f.Properties.Description))!;
  expect(fn.Properties.Environment.Variables).toMatchObject({ KIND: 'asg', MIN_HEALTHY: '0' });
});

test.each([['0', { MinHealthyPercentage: 0, MaxHealthyPercentage: 100 }], ['100', { MinHealthyPercentage: 100, MaxHealthyPercentage: 200 }]])(
  'the handler, run by Python against a stand-in boto3, refreshes with MIN_HEALTHY %s as %j', (minHealthy, preferences) => {
    const script = `
import sys, types, json
seen = []
class Client:
    def __init__(self, name): self.name = name
    def __getattr__(self, op):
        def call(**kw):
            seen.append([self.name + "." + op, kw])
            return {}
        return call
sys.modules["boto3"] = types.SimpleNamespace(client=Client)
import os
os.environ.update(SECRET="s", KIND="asg", GROUP="g", MIN_HEALTHY="${minHealthy}")
ns = {}
exec(open(sys.argv[1]).read(), ns)
ns["handler"]({"source": "aws.secretsmanager"}, None)
print(json.dumps(seen))
`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-refresh-'));
    fs.writeFileSync(path.join(dir, 'index.py'), HANDLER);
    fs.writeFileSync(path.join(dir, 'run.py'), script);
    const run = spawnSync('python3', [path.join(dir, 'run.py'), path.join(dir, 'index.py')], { encoding: 'utf-8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!)).toEqual([['autoscaling.start_instance_refresh', { AutoScalingGroupName: 'g', Preferences: preferences }]]);
  });

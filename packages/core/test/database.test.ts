import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import * as rds from 'aws-cdk-lib/aws-rds';
import { ApplicationFactory, JenkinsSpec, RuntimeType, SecurityProfile } from '../src';
import { SonarSpec } from './fixtures/sonar-spec';
import { WikiSpec } from './fixtures/wiki-spec';
import { iamProblems } from './support/iam-reference';
import { type OnPlatform, synthPlatform } from './support/platform';
import { applicationTask, IMAGE_DIGESTS, pinnedImage, propsFor, refTarget, REGION_ENV, resources, securityGroupId, synth, userData } from './support/synth';
import { databaseRequirementProblems, POSTGRES_MAJOR_VERSIONS } from '../src/contract/database-requirement';
import { databaseIdentifier } from '../src/infrastructure/database';
import { HANDLER, ROTATION_CHECK_HOURS } from '../src/infrastructure/rotation-restart';

/**
 * A plugin's database (`IApplicationSpec.database()`): PostgreSQL on RDS, always in the application's stack (on a
 * platform, in the platform's isolated subnets under its keys), connected to the application on both runtimes.
 */
const SONAR: OnPlatform = { stackName: 'Sonar', runtime: RuntimeType.FARGATE, spec: () => new SonarSpec(), props: { subdomain: 'sonar' } };
/** The same plugin under another applicationId, on EC2. */
const SONAR_EC2: OnPlatform = {
  stackName: 'SonarVm',
  runtime: RuntimeType.EC2,
  props: { subdomain: 'sonarvm' },
  spec: () => new (class extends SonarSpec { public applicationId() { return 'sonarvm'; } public efsDataPath() { return '/sonarvm'; } })(),
};
const WIKI: OnPlatform = { stackName: 'Wiki', runtime: RuntimeType.FARGATE, spec: () => new WikiSpec(), props: { subdomain: 'wiki' } };
/** PRODUCTION: synth runs the four packs, so a synth that returns is a pass with no acknowledgement of the user's. */
const withDatabase = synthPlatform([WIKI, SONAR, SONAR_EC2]);
const without = synthPlatform([WIKI]);
const platform = withDatabase.templates.Platform;
const sonar = withDatabase.templates.Sonar;
const instances = ['Sonar', 'SonarVm'].flatMap((stack) => resources(withDatabase.templates[stack], 'AWS::RDS::DBInstance'));

describe('on a PRODUCTION platform', () => {
  test('one PostgreSQL instance each, in its application\'s stack: encrypted under the data key, Multi-AZ, deletion-protected, RDS-managed password', () => {
    expect(instances).toHaveLength(2);
    expect(resources(platform, 'AWS::RDS::DBInstance')).toEqual([]);
    const [[, instance]] = resources(sonar, 'AWS::RDS::DBInstance');
    const dataKey = { Ref: expect.stringMatching(/^SsmParameterValuefwPlatformdatakeyarn/) };
    expect(instance.Properties).toMatchObject({
      Engine: 'postgres',
      EngineVersion: '16',
      DBName: 'sonar',
      DBInstanceIdentifier: 'fw-sonar-' + databaseIdentifier('Sonar').slice(-8),
      StorageEncrypted: true,
      KmsKeyId: dataKey,
      ManageMasterUserPassword: true,
      MasterUserSecret: { KmsKeyId: dataKey },
      AllowMajorVersionUpgrade: true,
      MultiAZ: true,
      DeletionProtection: true,
      PubliclyAccessible: false,
      BackupRetentionPeriod: 35,
      EnableCloudwatchLogsExports: ['postgresql', 'upgrade'],
    });
    expect(instance.Properties.MasterUserPassword).toBeUndefined();
    // A final snapshot when the stack is deleted: a kept instance would hold its name and its groups (the lifecycle test).
    expect([instance.DeletionPolicy, instance.UpdateReplacePolicy]).toEqual(['Snapshot', 'Snapshot']);
  });

  test('TLS enforced and connections logged by its parameter group; in isolated subnets; backed up by AWS Backup', () => {
    const groups = resources(sonar, 'AWS::RDS::DBParameterGroup').map(([, g]) => g.Properties.Parameters);
    expect(groups).toEqual([{ 'rds.force_ssl': '1', 'log_connections': '1', 'log_disconnections': '1' }]);
    const subnetGroups = resources(sonar, 'AWS::RDS::DBSubnetGroup').map(([, g]) => JSON.stringify(g.Properties.SubnetIds));
    expect(subnetGroups).toEqual([expect.stringMatching(/SsmParameterValuefwPlatformdatasubnet1\w+.*SsmParameterValuefwPlatformdatasubnet2/)]);
    // The platform publishes its isolated subnets.
    const published = resources(platform, 'AWS::SSM::Parameter').map(([, p]) => [p.Properties.Name, JSON.stringify(p.Properties.Value)]);
    expect(published).toContainEqual(['/fw/Platform/data-subnet-1', expect.stringMatching(/PlatformNetworkVpcDataSubnet1Subnet/)]);
    const dataSubnets = resources(platform, 'AWS::EC2::Subnet').filter(([id]) => id.includes('DataSubnet'));
    expect(dataSubnets.map(([, s]) => s.Properties.MapPublicIpOnLaunch)).toEqual([false, false]);
    // Isolated: their route tables hold no route at all.
    const routes = resources(platform, 'AWS::EC2::Route').filter(([id]) => id.includes('DataSubnet'));
    expect(routes).toEqual([]);
    const selections = resources(sonar, 'AWS::Backup::BackupSelection').map(([, s]) => JSON.stringify(s.Properties.BackupSelection.Resources));
    expect(selections.filter((r) => r.includes(':db:'))).toHaveLength(1);
    // Its vault is named after the stack: kept with its recovery points, adopted by a stack created again.
    expect(resources(sonar, 'AWS::Backup::BackupVault').map(([, v]) => [v.Properties.BackupVaultName, v.DeletionPolicy]))
      .toEqual([['fw-Sonar-database', 'RetainExceptOnCreate']]);
  });

  test('its exported logs go to log groups of its stack\'s, encrypted under the platform\'s logs key, kept as long as the profile keeps logs', () => {
    const groups = ['Sonar', 'SonarVm'].flatMap((stack) => resources(withDatabase.templates[stack], 'AWS::Logs::LogGroup')).map(([, g]) => g.Properties)
      .filter((g) => String(g.LogGroupName).startsWith('/aws/rds/instance/'));
    expect(groups.map((g) => g.LogGroupName).sort()).toEqual([
      `/aws/rds/instance/${databaseIdentifier('Sonar')}/postgresql`, `/aws/rds/instance/${databaseIdentifier('Sonar')}/upgrade`,
      `/aws/rds/instance/${databaseIdentifier('SonarVm')}/postgresql`, `/aws/rds/instance/${databaseIdentifier('SonarVm')}/upgrade`,
    ].sort());
    for (const g of groups) expect([g.RetentionInDays, JSON.stringify(g.KmsKeyId)]).toEqual([365, expect.stringContaining('logskeyarn')]);
  });

  test('the platform\'s key policies are the same with and without databases', () => {
    const keys = (t: any) => JSON.stringify(resources(t, 'AWS::KMS::Key').filter(([id]) => !id.includes('DockerHub')).map(([id, k]) => [id, k.Properties.KeyPolicy]));
    expect(keys(platform)).toBe(keys(without.templates.Platform));
  });

  test('only the application\'s group reaches the database port, through a rule in the application\'s stack', () => {
    const [[dbGroupId, dbGroup]] = resources(sonar, 'AWS::EC2::SecurityGroup').filter(([, g]) => g.Properties.GroupDescription.startsWith('Database of Sonar:'));
    expect(dbGroup.Properties.SecurityGroupEgress).toEqual([expect.objectContaining({ CidrIp: '255.255.255.255/32' })]);
    const ingress = resources(sonar, 'AWS::EC2::SecurityGroupIngress').filter(([, r]) => r.Properties.FromPort === 5432)
      .concat((dbGroup.Properties.SecurityGroupIngress ?? []).map((r: any) => ['inline', { Properties: r }]));
    expect(ingress).toHaveLength(1);
    expect(JSON.stringify(ingress[0][1].Properties.GroupId ?? { 'Fn::GetAtt': [dbGroupId, 'GroupId'] })).toContain(dbGroupId);
    expect(ingress[0][1].Properties.SourceSecurityGroupId).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^AppFargateSecurityGroup/), 'GroupId'] });
    // No other stack admits anything to it, and the platform holds nothing of it.
    for (const name of ['Wiki', 'SonarVm', 'Platform']) {
      expect([name, JSON.stringify(withDatabase.templates[name]).includes('Database of Sonar:')]).toEqual([name, false]);
    }
  });

  test('Fargate: the connection in the task, the user and password as secret references only', () => {
    const container = applicationTask(withDatabase.templates.Sonar).Properties.ContainerDefinitions[0];
    const url = container.Environment.find((e: any) => e.Name === 'SONAR_JDBC_URL').Value;
    expect(JSON.stringify(url)).toMatch(/jdbc:postgresql:\/\/.*Endpoint\.Address.*Endpoint\.Port.*\/sonar\?sslmode=require/);
    const secrets = Object.fromEntries(container.Secrets.map((s: any) => [s.Name, JSON.stringify(s.ValueFrom)]));
    expect(secrets.SONAR_JDBC_PASSWORD).toMatch(/MasterUserSecret\.SecretArn.*:password::/);
    expect(secrets.SONAR_JDBC_USERNAME).toMatch(/MasterUserSecret\.SecretArn.*:username::/);
    expect(JSON.stringify(withDatabase.templates.Sonar)).not.toMatch(/"MasterUserPassword"|"password":/);
    // The secret is encrypted under the platform's data key: the execution role may decrypt through Secrets Manager only.
    const statements = resources(withDatabase.templates.Sonar, 'AWS::IAM::Policy').flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
    expect(statements).toContainEqual({
      Action: 'kms:Decrypt',
      Effect: 'Allow',
      Resource: { Ref: expect.stringMatching(/^SsmParameterValuefwPlatformdatakeyarn/) },
      Condition: { StringEquals: { 'kms:ViaService': 'secretsmanager.eu-west-1.amazonaws.com' } },
    });
  });

  test('EC2: the boot reads the password into the environment file from the secret, the rest as values', () => {
    const script = userData(withDatabase.templates.SonarVm);
    expect(script).toMatch(/^fw_env_secret '\/etc\/fw\/application\.env' 'SONAR_JDBC_PASSWORD' '[^']+' '[^']+' 'password'$/m);
    expect(script).toMatch(/fw_env_line '\/etc\/fw\/application\.env' 'SONAR_JDBC_URL' 'jdbc:postgresql:\/\//);
    const statements = resources(withDatabase.templates.SonarVm, 'AWS::IAM::Policy').flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
    expect(statements.filter((s: any) => s.Action === 'kms:Decrypt' && s.Condition?.StringEquals?.['kms:ViaService'])).toHaveLength(1);
  });

  test('every IAM statement of every stack is one AWS honours (aws/iam-reference)', () => {
    for (const [name, template] of Object.entries(withDatabase.templates)) expect([name, iamProblems(template)]).toEqual([name, []]);
  });

  test('a rotation of the password restarts the application: new tasks, or an instance refresh', () => {
    for (const [stack, action] of [['Sonar', 'ecs:UpdateService'], ['SonarVm', 'autoscaling:StartInstanceRefresh']]) {
      const template = withDatabase.templates[stack];
      const [rule] = resources(template, 'AWS::Events::Rule').map(([, r]) => r).filter((r) => r.Properties.EventPattern);
      expect(rule.Properties.EventPattern).toEqual({
        'source': ['aws.secretsmanager'],
        'detail-type': ['AWS Service Event via CloudTrail'],
        'detail': {
          eventSource: ['secretsmanager.amazonaws.com'],
          eventName: ['RotationSucceeded'],
          additionalEventData: { SecretId: [{ 'Fn::GetAtt': [expect.stringMatching(/^AppDatabaseInstance/), 'MasterUserSecret.SecretArn'] }] },
        },
      });
      const [, fn] = resources(template, 'AWS::Lambda::Function').find(([, f]) => /^Restarts/.test(f.Properties.Description))!;
      expect(fn.Properties.Code.ZipFile).toContain(action === 'ecs:UpdateService' ? 'forceNewDeployment=True' : 'start_instance_refresh');
      const statements = resources(template, 'AWS::IAM::Policy').flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
      expect(statements.flatMap((s: any) => s.Action)).toContain(action);
    }
  });

  test('no stack imports or exports anything', () => {
    for (const [name, template] of Object.entries(withDatabase.templates)) {
      expect([name, JSON.stringify(template).includes('Fn::ImportValue'), Object.keys(template.Outputs ?? {}).filter((o) => template.Outputs[o].Export)])
        .toEqual([name, false, []]);
    }
  });
});

describe('standalone', () => {
  const synthStandalone = (runtime: RuntimeType, profile: SecurityProfile) => {
    const app = new App();
    const stack = new Stack(app, 'Sonar', { env: REGION_ENV });
    new ApplicationFactory(stack, 'App', runtime, new SonarSpec(), { ...propsFor(profile), imageDigests: IMAGE_DIGESTS, ...pinnedImage(runtime, propsFor(profile)) });
    return app.synth().getStackByName('Sonar').template;
  };

  test.each([RuntimeType.FARGATE, RuntimeType.EC2])('%s in PRODUCTION passes the packs; a final snapshot, and what the instance used goes with it', (runtime) => {
    const template = synthStandalone(runtime, SecurityProfile.PRODUCTION);
    const [[, instance]] = resources(template, 'AWS::RDS::DBInstance');
    expect(instance.DeletionPolicy).toBe('Snapshot');
    // Nothing it used is kept: a kept group would hold nothing, and the stack created again makes its own.
    for (const type of ['AWS::RDS::DBSubnetGroup', 'AWS::RDS::DBParameterGroup']) {
      expect(resources(template, type).map(([, r]) => r.DeletionPolicy)).toEqual(['Delete']);
    }
    const [[, group]] = resources(template, 'AWS::EC2::SecurityGroup').filter(([, g]) => g.Properties.GroupDescription.startsWith('Database of'));
    expect(group.DeletionPolicy).toBeUndefined();
  });

  test('DEV: a single zone, no deletion protection, destroyed with the stack', () => {
    const template = synthStandalone(RuntimeType.FARGATE, SecurityProfile.DEV);
    const [[, instance]] = resources(template, 'AWS::RDS::DBInstance');
    expect([instance.Properties.MultiAZ, instance.Properties.DeletionProtection, instance.DeletionPolicy]).toEqual([false, false, 'Delete']);
    // DEV keeps no backups: no AWS Backup plan, so no vault outlives the stack.
    expect(resources(template, 'AWS::Backup::BackupVault')).toEqual([]);
  });
});

describe('what a plugin may ask for', () => {
  test('every major version offered is one aws-cdk-lib knows for RDS PostgreSQL', () => {
    for (const major of POSTGRES_MAJOR_VERSIONS) expect([major, (rds.PostgresEngineVersion as any)[`VER_${major}`]?.postgresMajorVersion]).toEqual([major, major]);
  });

  test('a wrong requirement is refused, each field named with its value and what is allowed', () => {
    expect(databaseRequirementProblems({
      engine: 'mysql', majorVersion: '9', databaseName: '1sonar', environment: { url: 'SONAR JDBC', password: 'PW', user: 'PW' },
    }, 'SonarSpec.database()')).toEqual([
      'SonarSpec.database().engine "mysql"; allowed: "postgres"',
      'SonarSpec.database().majorVersion "9"; allowed: "15", "16", "17"',
      'SonarSpec.database().databaseName "1sonar"; allowed: 1 to 63 letters, digits and _, starting with a letter',
      'SonarSpec.database().environment.url "SONAR JDBC"; allowed: an environment variable name (a letter or _, then letters, digits and _)',
      'SonarSpec.database().environment names "PW" twice; each variable once',
      'SonarSpec.database().environment.urlFormat undefined; allowed: with url, a text using {host}, {port} and {name}, for example "jdbc:postgresql://{host}:{port}/{name}?sslmode=verify-full"; without url, nothing',
    ]);
  });

  test('the instance identifier is RDS\'s shape and unique per stack name', () => {
    expect(databaseIdentifier('sonar')).toBe('fw-sonar');
    expect(databaseIdentifier('Sonar')).toMatch(/^fw-sonar-[0-9a-f]{8}$/);
    expect(databaseIdentifier('fw--x')).not.toContain('--');
    const long = databaseIdentifier('A'.repeat(128));
    expect([long.length <= 63, /^[a-z][a-z0-9-]*[a-z0-9]$/.test(long)]).toEqual([true, true]);
  });
});

describe('sized by the context keys, per application', () => {
  test('databaseInstanceType and databaseStorageGiB reach the instance, standalone and on a platform', () => {
    const app = new App({ context: { databaseInstanceType: 'db.t4g.medium', databaseStorageGiB: 100 } });
    const stack = new Stack(app, 'Sonar', { env: REGION_ENV });
    new ApplicationFactory(stack, 'App', RuntimeType.FARGATE, new SonarSpec(), { securityProfile: SecurityProfile.DEV });
    const [[, standalone]] = resources(app.synth().getStackByName('Sonar').template, 'AWS::RDS::DBInstance');
    expect([standalone.Properties.DBInstanceClass, standalone.Properties.AllocatedStorage]).toEqual(['db.t4g.medium', '100']);
    const sized = synthPlatform([{ ...SONAR, props: { ...SONAR.props, databaseInstanceType: 'db.m7g.large', databaseStorageGiB: 200 } }]);
    const [[, onPlatform]] = resources(sized.templates.Sonar, 'AWS::RDS::DBInstance');
    expect([onPlatform.Properties.DBInstanceClass, onPlatform.Properties.AllocatedStorage]).toEqual(['db.m7g.large', '200']);
    // Unset, the defaults.
    expect([instances[0][1].Properties.DBInstanceClass, instances[0][1].Properties.AllocatedStorage]).toEqual(['db.t4g.micro', '20']);
  });

  test('a value the keys refuse is named, with what is allowed', () => {
    const app = new App({ context: { databaseInstanceType: 'large', databaseStorageGiB: 5 } });
    expect(() => new ApplicationFactory(new Stack(app, 'Sonar', { env: REGION_ENV }), 'App', RuntimeType.FARGATE, new SonarSpec(), { securityProfile: SecurityProfile.DEV }))
      .toThrow(/databaseInstanceType "large" is not allowed; expected an RDS instance class such as db\.t4g\.medium[\s\S]*databaseStorageGiB 5 is not allowed; expected a whole number of GiB from 20/);
  });
});

describe('the restart on rotation, and the endpoints it and the application pass through', () => {
  const SECRET = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:sonar/api-token-AbCdEf';
  /** SonarQube with a secret of its own and ephemeral workers (the build server's agents): both endpoints in play. */
  class BusySonar extends SonarSpec {
    public secrets() { return { API_TOKEN: SECRET }; }
    public ephemeralWorkers() { return new JenkinsSpec().ephemeralWorkers(); }
  }
  const standalone = synth(RuntimeType.FARGATE, { ...propsFor(SecurityProfile.PRODUCTION), imageDigests: IMAGE_DIGESTS }, new BusySonar()).json;
  const endpoint = (json: any, service: string) => resources(json, 'AWS::EC2::VPCEndpoint')
    .map(([, e]) => e).find((e) => JSON.stringify(e.Properties.ServiceName).includes(`.${service}`))!;
  const [[instanceId]] = resources(standalone, 'AWS::RDS::DBInstance');
  const databaseSecret = { 'Fn::GetAtt': [instanceId, 'MasterUserSecret.SecretArn'] };

  test('R3: standalone, the Secrets Manager endpoint serves the database\'s password beside the plugin\'s secret', () => {
    const [statement] = endpoint(standalone, 'secretsmanager').Properties.PolicyDocument.Statement;
    expect(statement.Resource).toEqual([SECRET, databaseSecret]);
  });

  test('R4: the restart function reaches the ECS endpoint, whose policy lets it restart the service', () => {
    const endpointGroup = securityGroupId(standalone, 'VPC interface endpoints');
    const restartGroup = securityGroupId(standalone, 'Restart on rotation');
    const admitted = resources(standalone, 'AWS::EC2::SecurityGroupIngress').filter(([, r]) => refTarget(r.Properties.GroupId) === endpointGroup)
      .map(([, r]) => refTarget(r.Properties.SourceSecurityGroupId));
    expect(admitted).toContain(restartGroup);
    const [[serviceId]] = resources(standalone, 'AWS::ECS::Service');
    expect(endpoint(standalone, 'ecs').Properties.PolicyDocument.Statement).toContainEqual(expect.objectContaining({
      Action: ['ecs:UpdateService', 'ecs:DescribeServices'], Resource: { Ref: serviceId },
    }));
  });

  test('D4: no function reserves concurrency (Lambda refuses it under 101 in the account\'s quota)', () => {
    for (const template of [standalone, sonar]) {
      const functions = resources(template, 'AWS::Lambda::Function');
      expect(functions.length).toBeGreaterThan(0);
      for (const [id, fn] of functions) expect([id, fn.Properties.ReservedConcurrentExecutions]).toEqual([id, undefined]);
    }
  });

  test('R5: besides the event, a schedule calls the function, which restarts only after a rotation it missed', () => {
    const rules = resources(standalone, 'AWS::Events::Rule').map(([, r]) => r.Properties);
    const [[functionId]] = resources(standalone, 'AWS::Lambda::Function').filter(([, f]) => JSON.stringify(f.Properties.Code).includes('describe_secret'));
    expect(rules.map((r) => [r.ScheduleExpression ?? r.EventPattern.detail.eventName[0], r.Targets[0].Arn])).toEqual([
      ['RotationSucceeded', { 'Fn::GetAtt': [functionId, 'Arn'] }],
      [`rate(${ROTATION_CHECK_HOURS} hours)`, { 'Fn::GetAtt': [functionId, 'Arn'] }],
    ]);
  });

  test('R5: the handler, run by Python against a stand-in boto3', () => {
    const calls = (event: string, rotated: string, started: string) => {
      const script = `
import sys, types, json, datetime
calls = []
def at(s): return datetime.datetime.fromisoformat(s)
class Client:
    def __init__(self, name): self.name = name
    def __getattr__(self, op):
        def call(**kw):
            calls.append(self.name + "." + op)
            if op == "describe_secret": return {"LastRotatedDate": at("${rotated}")}
            if op == "describe_services": return {"services": [{"deployments": [{"createdAt": at("${started}")}]}]}
            return {}
        return call
sys.modules["boto3"] = types.SimpleNamespace(client=Client)
import os
os.environ.update(SECRET="s", KIND="ecs", CLUSTER="c", SERVICE="svc")
ns = {}
exec(open(sys.argv[1]).read(), ns)
ns["handler"](json.loads(sys.argv[2]), None)
print(json.dumps(calls))
`;
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-restart-'));
      fs.writeFileSync(path.join(dir, 'index.py'), HANDLER);
      fs.writeFileSync(path.join(dir, 'run.py'), script);
      const run = spawnSync('python3', [path.join(dir, 'run.py'), path.join(dir, 'index.py'), event], { encoding: 'utf-8' });
      expect(run.stderr).toBe('');
      return JSON.parse(run.stdout.trim().split('\n').at(-1)!);
    };
    const rotation = JSON.stringify({ source: 'aws.secretsmanager', detail: { eventName: 'RotationSucceeded' } });
    const schedule = JSON.stringify({ source: 'aws.events' });
    expect(calls(rotation, '2026-11-01T00:00:00', '2026-11-02T00:00:00')).toEqual(['ecs.update_service']);
    // Rotated after the service last started: the event was missed, so the check restarts it.
    expect(calls(schedule, '2026-11-03T00:00:00', '2026-11-02T00:00:00')).toEqual(['secretsmanager.describe_secret', 'ecs.describe_services', 'ecs.update_service']);
    expect(calls(schedule, '2026-11-01T00:00:00', '2026-11-02T00:00:00')).toEqual(['secretsmanager.describe_secret', 'ecs.describe_services']);
  });

  test('on a platform: its endpoint lets the application\'s roles, and no one else, read RDS\'s secrets; the roles carry that path', () => {
    const statements = resources(platform, 'AWS::EC2::VPCEndpoint').flatMap(([, e]) => e.Properties.PolicyDocument?.Statement ?? [])
      .filter((s: any) => JSON.stringify(s.Resource).includes('rds!db-'));
    expect(statements.map((s: any) => s.Condition.ArnLike['aws:PrincipalArn'])).toEqual(['Sonar', 'SonarVm'].map((stack) =>
      ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::', { Ref: 'AWS::AccountId' }, `:role/fw/Platform/${stack}/*`]] })));
    const paths = resources(sonar, 'AWS::IAM::Role').map(([id, r]) => [id.replace(/[0-9A-F]{8}$/, ''), r.Properties.Path]);
    expect(paths).toEqual(expect.arrayContaining([['AppFargateTaskRole', '/fw/Platform/Sonar/'], ['AppFargateExecutionRole', '/fw/Platform/Sonar/'],
      ['AppRestartOnRotationRole', '/fw/Platform/Sonar/']]));
  });
});

test('S1: the application connects as the master user, which docs/writing-a-plugin.md says, with its trade-off', () => {
  const [[, instance]] = resources(sonar, 'AWS::RDS::DBInstance');
  expect(instance.Properties.MasterUsername).toBe('fwadmin');
  const docs = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'writing-a-plugin.md'), 'utf-8');
  expect(docs).toMatch(/The application connects as the RDS master user \(`fwadmin`\)\. A user of its own with fewer privileges/);
});

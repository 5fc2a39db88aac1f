import { App, Stack } from 'aws-cdk-lib';
import * as rds from 'aws-cdk-lib/aws-rds';
import { ApplicationFactory, RuntimeType, SecurityProfile } from '../src';
import { SonarSpec } from './fixtures/sonar-spec';
import { WikiSpec } from './fixtures/wiki-spec';
import { iamProblems } from './support/iam-reference';
import { type OnPlatform, synthPlatform } from './support/platform';
import { applicationTask, IMAGE_DIGESTS, propsFor, REGION_ENV, resources, userData } from './support/synth';
import { databaseRequirementProblems, POSTGRES_MAJOR_VERSIONS } from '../src/contract/database-requirement';
import { databaseIdentifier } from '../src/platform/database';

/**
 * A plugin's database (`IApplicationSpec.database()`): PostgreSQL on RDS, provided by the framework on a platform (in
 * the platform's stack, as access points) and standalone, and connected to the application on both runtimes.
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
const instances = resources(platform, 'AWS::RDS::DBInstance');

describe('on a PRODUCTION platform', () => {
  test('one PostgreSQL instance each, kept by the platform: encrypted under the data key, Multi-AZ, deletion-protected, RDS-managed password', () => {
    expect(instances).toHaveLength(2);
    const [, sonar] = instances.find(([id]) => id.startsWith('PlatformApplicationSonarDatabase'))!;
    expect(sonar.Properties).toMatchObject({
      Engine: 'postgres',
      EngineVersion: '16',
      DBName: 'sonar',
      DBInstanceIdentifier: 'fw-sonar-' + databaseIdentifier('Sonar').slice(-8),
      StorageEncrypted: true,
      KmsKeyId: { 'Fn::GetAtt': [expect.stringMatching(/^PlatformDataKey/), 'Arn'] },
      ManageMasterUserPassword: true,
      MasterUserSecret: { KmsKeyId: { 'Fn::GetAtt': [expect.stringMatching(/^PlatformDataKey/), 'Arn'] } },
      MultiAZ: true,
      DeletionProtection: true,
      PubliclyAccessible: false,
      BackupRetentionPeriod: 35,
      EnableCloudwatchLogsExports: ['postgresql', 'upgrade'],
    });
    expect(sonar.Properties.MasterUserPassword).toBeUndefined();
    expect(sonar.DeletionPolicy).toBe('RetainExceptOnCreate');
  });

  test('TLS enforced and connections logged by its parameter group; in isolated subnets; backed up by AWS Backup', () => {
    const groups = resources(platform, 'AWS::RDS::DBParameterGroup').map(([, g]) => g.Properties.Parameters);
    expect(groups).toEqual([{ 'rds.force_ssl': '1', 'log_connections': '1', 'log_disconnections': '1' }, expect.anything()]);
    const subnetGroups = resources(platform, 'AWS::RDS::DBSubnetGroup').map(([, g]) => JSON.stringify(g.Properties.SubnetIds));
    for (const ids of subnetGroups) expect(ids).toMatch(/PlatformNetworkVpcDataSubnet1Subnet\w+.*PlatformNetworkVpcDataSubnet2Subnet/);
    const dataSubnets = resources(platform, 'AWS::EC2::Subnet').filter(([id]) => id.includes('DataSubnet'));
    expect(dataSubnets.map(([, s]) => s.Properties.MapPublicIpOnLaunch)).toEqual([false, false]);
    // Isolated: their route tables hold no route at all.
    const routes = resources(platform, 'AWS::EC2::Route').filter(([id]) => id.includes('DataSubnet'));
    expect(routes).toEqual([]);
    const selections = resources(platform, 'AWS::Backup::BackupSelection').map(([, s]) => JSON.stringify(s.Properties.BackupSelection.Resources));
    expect(selections.filter((r) => r.includes(':db:'))).toHaveLength(2);
  });

  test('its exported logs go to log groups of the platform\'s, encrypted, kept as long as the profile keeps logs', () => {
    const groups = resources(platform, 'AWS::Logs::LogGroup').map(([, g]) => g.Properties)
      .filter((g) => String(g.LogGroupName).startsWith('/aws/rds/instance/'));
    expect(groups.map((g) => g.LogGroupName).sort()).toEqual([
      `/aws/rds/instance/${databaseIdentifier('Sonar')}/postgresql`, `/aws/rds/instance/${databaseIdentifier('Sonar')}/upgrade`,
      `/aws/rds/instance/${databaseIdentifier('SonarVm')}/postgresql`, `/aws/rds/instance/${databaseIdentifier('SonarVm')}/upgrade`,
    ].sort());
    for (const g of groups) expect([g.RetentionInDays, Boolean(g.KmsKeyId)]).toEqual([365, true]);
  });

  test('the platform\'s key policies are the same with and without databases', () => {
    const keys = (t: any) => JSON.stringify(resources(t, 'AWS::KMS::Key').filter(([id]) => !id.includes('DockerHub')).map(([id, k]) => [id, k.Properties.KeyPolicy]));
    expect(keys(platform)).toBe(keys(without.templates.Platform));
  });

  test('only the application\'s group reaches the database port, through a rule in the application\'s stack', () => {
    const [[dbGroupId, dbGroup]] = resources(platform, 'AWS::EC2::SecurityGroup').filter(([, g]) => g.Properties.GroupDescription.startsWith('Database of Sonar:'));
    expect(dbGroup.Properties.SecurityGroupIngress).toBeUndefined();
    expect(dbGroup.Properties.SecurityGroupEgress).toEqual([expect.objectContaining({ CidrIp: '255.255.255.255/32' })]);
    const ingress = resources(withDatabase.templates.Sonar, 'AWS::EC2::SecurityGroupIngress').filter(([, r]) => r.Properties.FromPort === 5432);
    expect(ingress).toHaveLength(1);
    expect(JSON.stringify(ingress[0][1].Properties.GroupId)).toContain('databasesecuritygroupid');
    expect(ingress[0][1].Properties.SourceSecurityGroupId).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^AppFargateSecurityGroup/), 'GroupId'] });
    // No other stack admits anything to it.
    for (const name of ['Wiki', 'SonarVm']) {
      const other = resources(withDatabase.templates[name], 'AWS::EC2::SecurityGroupIngress').filter(([, r]) => JSON.stringify(r.Properties.GroupId).includes('Sonardatabase'));
      expect(other).toEqual([]);
    }
    void dbGroupId;
  });

  test('Fargate: the connection in the task, the user and password as secret references only', () => {
    const container = applicationTask(withDatabase.templates.Sonar).Properties.ContainerDefinitions[0];
    const url = container.Environment.find((e: any) => e.Name === 'SONAR_JDBC_URL').Value;
    expect(JSON.stringify(url)).toMatch(/jdbc:postgresql:\/\/.*databasehost.*databaseport.*\/sonar\?sslmode=require/);
    const secrets = Object.fromEntries(container.Secrets.map((s: any) => [s.Name, JSON.stringify(s.ValueFrom)]));
    expect(secrets.SONAR_JDBC_PASSWORD).toMatch(/databasesecretarn.*:password::/);
    expect(secrets.SONAR_JDBC_USERNAME).toMatch(/databasesecretarn.*:username::/);
    expect(JSON.stringify(withDatabase.templates.Sonar)).not.toMatch(/MasterUserPassword|"password":/);
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
    expect(script).toContain('reading SONAR_JDBC_PASSWORD from Secrets Manager');
    expect(script).toMatch(/fw_json_value 'password'/);
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
      const [[, rule]] = resources(template, 'AWS::Events::Rule');
      expect(rule.Properties.EventPattern).toEqual({
        'source': ['aws.secretsmanager'],
        'detail-type': ['AWS Service Event via CloudTrail'],
        'detail': {
          eventSource: ['secretsmanager.amazonaws.com'],
          eventName: ['RotationSucceeded'],
          additionalEventData: { SecretId: [{ Ref: expect.stringMatching(/databasesecretarn/) }] },
        },
      });
      const [[, fn]] = resources(template, 'AWS::Lambda::Function');
      expect(fn.Properties.Code.ZipFile).toContain(action === 'ecs:UpdateService' ? 'forceNewDeployment=True' : 'start_instance_refresh');
      const statements = resources(template, 'AWS::IAM::Policy').flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
      expect(statements.map((s: any) => s.Action)).toContainEqual(action);
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
    new ApplicationFactory(stack, 'App', runtime, new SonarSpec(), { ...propsFor(profile), imageDigests: IMAGE_DIGESTS });
    return app.synth().getStackByName('Sonar').template;
  };

  test.each([RuntimeType.FARGATE, RuntimeType.EC2])('%s in PRODUCTION passes the packs; what the instance uses is kept with it', (runtime) => {
    const template = synthStandalone(runtime, SecurityProfile.PRODUCTION);
    const [[, instance]] = resources(template, 'AWS::RDS::DBInstance');
    expect(instance.DeletionPolicy).toBe('RetainExceptOnCreate');
    // Deleting the stack would otherwise fail: the kept instance still uses them.
    for (const type of ['AWS::RDS::DBSubnetGroup', 'AWS::RDS::DBParameterGroup']) {
      expect(resources(template, type).map(([, r]) => r.DeletionPolicy)).toEqual(['RetainExceptOnCreate']);
    }
    const [[, group]] = resources(template, 'AWS::EC2::SecurityGroup').filter(([, g]) => g.Properties.GroupDescription.startsWith('Database of'));
    expect(group.DeletionPolicy).toBe('RetainExceptOnCreate');
  });

  test('DEV: a single zone, no deletion protection, destroyed with the stack', () => {
    const template = synthStandalone(RuntimeType.FARGATE, SecurityProfile.DEV);
    const [[, instance]] = resources(template, 'AWS::RDS::DBInstance');
    expect([instance.Properties.MultiAZ, instance.Properties.DeletionProtection, instance.DeletionPolicy]).toEqual([false, false, 'Delete']);
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
    const [[, onPlatform]] = resources(sized.templates.Platform, 'AWS::RDS::DBInstance');
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

import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { ApplicationFactory, IApplicationSpec, LogAlarm, PluginSetting, KnownVulnerability, RuntimeType } from '../src';
import { SonarSpec } from './fixtures/sonar-spec';
import { CONTEXT_KEYS } from '../src/context/context-keys';

// Every input is used: each context key, changed alone, changes what synth writes (the templates, and the PCI DSS
// evidence report in PRODUCTION), unless it is listed below as validation-only, with the reason. A key declared,
// documented and parsed but never read, or read on one runtime only, fails here, naming it. Each change is made to a
// deployment that already differs from the key's default (CONTEXT_KEYS' examples, in DEV unless the key needs more).

const EXAMPLES: Record<string, unknown> = Object.fromEntries(CONTEXT_KEYS.map((k) => [k.name, k.example]));

/** Keys whose only effect is to refuse a deployment, never to change one; none today. */
const VALIDATION_ONLY: Record<string, string> = {};

/** A plugin with something for every key to change: a Docker Hub image by tag, a setting, an alarm, a database. */
class KeyedSpec extends SonarSpec {
  constructor(private readonly id = String(EXAMPLES.applicationId), private readonly jdbcUrl = '', private readonly data = true) { super(); }
  public applicationId() { return this.id; }
  public keepsData() { return this.data; }
  public efsDataPath() { return `/${this.id}`; }
  public defaultContainerImage() { return Object.keys(EXAMPLES.imageDigests as object)[0]; }
  public settings(): PluginSetting[] { return Object.keys(EXAMPLES.pluginSettings as object).map((name) => ({ name, description: name })); }
  public withSettings(values: Record<string, string>): IApplicationSpec { return new KeyedSpec(this.id, values.jdbcUrl, this.data); }
  public containerEnvironmentVariables(): Record<string, string> {
    return { ...super.containerEnvironmentVariables(), EXTRA_JDBC_URL: this.jdbcUrl };
  }
  public logAlarms(): LogAlarm[] { return [{ name: 'Errors', description: 'Errors', filterPattern: '"ERROR"', threshold: 5, periodSeconds: 300 }]; }
  /** The advisories the `acceptedAdvisories` example accepts, declared (an id the plugin does not declare is refused). */
  public knownVulnerabilities(): KnownVulnerability[] {
    return Object.keys(EXAMPLES.acceptedAdvisories as object).map((id) => ({ id, component: 'wiki', version: '1.4.2', severity: 'High', fixedIn: '1.4.3' }));
  }
}

type Values = Record<string, unknown>;

/** Not a key: the deployment's plugin keeps no data of its own (`keepsData()` false), for the keys only such one reads. */
const KEEPS_NO_DATA = 'keepsNoData';

/** Everything synth writes for one deployment made by configuration: its template, and its evidence report if any. */
function output({ [KEEPS_NO_DATA]: keepsNoData, ...values }: Values): string {
  const app = new App({ context: Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) });
  const stack = new Stack(app, String(values.stackName), { env: { region: String(values.region) } });
  new ApplicationFactory(stack, 'App', values.runtimeType as RuntimeType, new KeyedSpec(String(values.applicationId), '', keepsNoData !== true));
  const assembly = app.synth();
  const report = path.join(assembly.directory, `${values.stackName}.pci-dss-4.0.1.json`);
  // The report's time and template hash follow from the rest; leave them out so only the content compares.
  const content = fs.existsSync(report) ? JSON.stringify({ ...JSON.parse(fs.readFileSync(report, 'utf-8')), system: undefined }) : '';
  return JSON.stringify(assembly.getStackByName(String(values.stackName)).template) + content;
}

const cache = new Map<string, string>();
const outputOf = (values: Values) => {
  const key = JSON.stringify(values);
  if (!cache.has(key)) cache.set(key, output(values));
  return cache.get(key)!;
};

const DEV = { ...EXAMPLES, securityProfile: 'DEV' };
const STATELESS = { ...DEV, [KEEPS_NO_DATA]: true };
const FARGATE = { ...DEV, runtimeType: RuntimeType.FARGATE, ec2Storage: undefined, dataVolumeSnapshotId: undefined, ec2ImageId: undefined };
// PRODUCTION requires Container Insights; the examples (a STAGING deployment) turn it off.
const PRODUCTION = { ...EXAMPLES, securityProfile: 'PRODUCTION', containerInsights: undefined };

/** For each key: the deployment it is changed in, and the other value it gets there. */
const CHANGES: Record<string, [Values, unknown]> = {
  stackName: [DEV, 'wiki-other'],
  applicationId: [DEV, 'docs'],
  runtimeType: [FARGATE, RuntimeType.EC2],
  securityProfile: [DEV, 'STAGING'],
  sslEnabled: [{ ...DEV, authMode: 'none', tokenPaths: undefined }, false],
  domain: [DEV, 'example.org'],
  subdomain: [DEV, 'docs'],
  authMode: [{ ...DEV, tokenPaths: undefined }, 'none'],
  // Under the examples' alb-oidc, another path skips the sign-in.
  tokenPaths: [DEV, ['/api/*']],
  rateLimit: [PRODUCTION, 5000],
  hostedZoneId: [DEV, 'Z9999999999999999999'],
  certificateArn: [DEV, 'arn:aws:acm:eu-west-1:123456789012:certificate/87654321-4321-4321-4321-210987654321'],
  region: [{ ...DEV, certificateArn: undefined, dockerHubCredentialArn: undefined, secrets: undefined, oidcClientSecretArn: undefined, authMode: 'none', tokenPaths: undefined, existingVpc: undefined }, 'eu-central-1'],
  ec2Storage: [{ ...DEV, dataVolumeSnapshotId: undefined }, 'efs'],
  dataVolumeSnapshotId: [DEV, 'snap-0fedcba9876543210'],
  // The launch template's image.
  ec2ImageId: [DEV, 'ami-0fedcba9876543210'],
  // An application without data of its own may roll, and run more than one.
  deploymentStrategy: [STATELESS, 'rolling'],
  desiredCount: [STATELESS, 2],
  // The database password's rotation schedule.
  maintenanceWindow: [DEV, 'cron(0 4 ? * SUN *)'],
  vpcCidr: [{ ...DEV, existingVpc: undefined }, '10.2.0.0/16'],
  // Another VPC id: the endpoints, the flow log and the groups name it.
  existingVpc: [DEV, { ...EXAMPLES.existingVpc as object, vpcId: 'vpc-0f0e0d0c0b0a09080' }],
  alarmEmail: [DEV, 'other@example.com'],
  containerInsights: [FARGATE, true],
  pciConformancePack: [DEV, false],
  securityHubPciDss: [DEV, false],
  pciDssScope: [PRODUCTION, 'CDE'],
  pciDssMultiTenantProvider: [PRODUCTION, false],
  // The evidence report lists each known vulnerability with its acceptance.
  acceptedAdvisories: [PRODUCTION, { 'SECURITY-3972': { reason: 'another reason', owner: 'another owner', reference: 'SEC-13' } }],
  dockerHubCredentialArn: [FARGATE, 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ecr-pullthroughcache/other-AbCdEf'],
  imageDigests: [FARGATE, { [Object.keys(EXAMPLES.imageDigests as object)[0]]: `sha256:${'1'.repeat(64)}` }],
  secrets: [DEV, { DB_PASSWORD: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:other-password-AbCdEf' }],
  secretKeyArns: [DEV, ['arn:aws:kms:eu-west-1:123456789012:key/87654321-4321-4321-4321-210987654321']],
  pluginSettings: [FARGATE, { jdbcUrl: 'jdbc:postgresql://other.example.com:5432/sonar' }],
  cpu: [FARGATE, 1024],
  memoryLimitMiB: [FARGATE, 8192],
  instanceType: [DEV, 'm7i.xlarge'],
  dataVolumeGiB: [DEV, 200],
  databaseInstanceType: [DEV, 'db.t4g.large'],
  databaseStorageGiB: [DEV, 200],
  oidcIssuer: [DEV, 'https://login.example.org'],
  oidcAuthorizationEndpoint: [DEV, 'https://login.example.com/oauth2/authorize'],
  oidcTokenEndpoint: [DEV, 'https://login.example.com/oauth2/token'],
  oidcUserInfoEndpoint: [DEV, 'https://login.example.com/oauth2/userinfo'],
  oidcClientId: [DEV, 'wiki-other'],
  oidcClientSecretArn: [DEV, 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:wiki/other-AbCdEf'],
  oidcScopes: [DEV, ['openid', 'email']],
};

/** Whether changing `key` to `value` in `base` changes what synth writes. */
const changesOutput = (base: Values, key: string, value: unknown) => outputOf(base) !== outputOf({ ...base, [key]: value });

test('every key has a change in CHANGES (this file), or a reason in VALIDATION_ONLY', () => {
  expect(CONTEXT_KEYS.map((k) => k.name).filter((name) => !(name in CHANGES) && !(name in VALIDATION_ONLY))).toEqual([]);
  // The change is a different value from the base's.
  for (const [name, [base, value]] of Object.entries(CHANGES)) {
    expect([name, JSON.stringify(base[name]) !== JSON.stringify(value)]).toEqual([name, true]);
  }
});

test.each(Object.keys(CHANGES))('%s changes what synth writes', (name) => {
  const [base, value] = CHANGES[name];
  expect([name, changesOutput(base, name, value)]).toEqual([name, true]);
});

test('negative control: a key the runtime does not read is found (cpu on EC2, instanceType on Fargate)', () => {
  expect(changesOutput(DEV, 'cpu', 1024)).toBe(false);
  expect(changesOutput(FARGATE, 'instanceType', 'm7i.xlarge')).toBe(false);
});

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AuthMode, Ec2Storage, JenkinsSpec, type PlatformProps, RuntimeType, SecurityProfile } from '../src';
import { SonarSpec } from './fixtures/sonar-spec';
import { type OnPlatform, otherWiki, PLATFORM_PROPS, synthPlatform } from './support/platform';
import { requireInCi } from './support/shellcheck';
import { DOCKER_HUB_CREDENTIAL, OIDC } from './support/synth';
import { type AppState, checkLifecycle, type LifecycleFinding, SCHEMAS } from '../src/lifecycle/lifecycle-check';

/**
 * A platform's life, checked against CloudFormation's own resource schemas (src/lifecycle/lifecycle-check.ts): applications of
 * every kind added, removed and added again, every platform value changed, an application moved to the other runtime,
 * a database's major version bumped, the Docker Hub credential moved, in each profile. Every transition must have
 * nothing CloudFormation would refuse; what `cdk deploy --import-existing-resources` adopts is listed, and
 * docs/platform.md's "Lifecycle" table is these scenarios' output (LIFECYCLE_TABLE), checked below.
 */
const sonar = (stackName: string, runtime: RuntimeType, extra: object = {}, majorVersion = '16'): OnPlatform => ({
  stackName,
  runtime,
  props: { subdomain: stackName.toLowerCase(), ...extra },
  spec: () => new (class extends SonarSpec {
    public applicationId() { return stackName.toLowerCase(); }
    public efsDataPath() { return `/${stackName.toLowerCase()}`; }
    public database() { return { ...super.database(), majorVersion }; }
  })(),
});
const wiki = (stackName: string, runtime: RuntimeType, extra: object = {}): OnPlatform =>
  ({ stackName, runtime, spec: () => otherWiki(stackName.toLowerCase()), props: { subdomain: stackName.toLowerCase(), ...extra } });

/** One of every kind: EFS on both runtimes, EBS, a database on both runtimes, alb-oidc, workers; every TLS one but alb-oidc is routed privately. */
const EVERY_KIND: OnPlatform[] = [
  wiki('Efs', RuntimeType.FARGATE),
  wiki('Vm', RuntimeType.EC2),
  wiki('Ebs', RuntimeType.EC2, { ec2Storage: Ec2Storage.EBS }),
  sonar('Db', RuntimeType.FARGATE),
  sonar('DbVm', RuntimeType.EC2, { ec2Storage: Ec2Storage.EBS }),
  wiki('Oidc', RuntimeType.FARGATE, { authMode: AuthMode.ALB_OIDC, oidc: OIDC }),
  { stackName: 'Ci', runtime: RuntimeType.FARGATE, spec: () => new JenkinsSpec(), props: { subdomain: 'ci', authMode: AuthMode.APPLICATION_OIDC, oidc: OIDC } },
];
const KEPT_ON_REMOVAL = ['Ebs', 'Db', 'DbVm', 'Oidc', 'Ci'];
const remaining = EVERY_KIND.filter((a) => !KEPT_ON_REMOVAL.includes(a.stackName));

const withProfile = (securityProfile: SecurityProfile): PlatformProps => ({ ...PLATFORM_PROPS, securityProfile });
const templates = (applications: OnPlatform[], props: PlatformProps): AppState => synthPlatform(applications, props).templates;

/** The scenarios, each a sequence of states. Synthesised once. */
const SCENARIOS: Record<string, () => AppState[]> = {};
for (const profile of [SecurityProfile.DEV, SecurityProfile.STAGING, SecurityProfile.PRODUCTION]) {
  const props = withProfile(profile);
  SCENARIOS[`${profile}: every kind added, five removed, added again`] = () => {
    const all = templates(EVERY_KIND, props);
    return [all, templates(remaining, props), all];
  };
}
const PRODUCTION = withProfile(SecurityProfile.PRODUCTION);
SCENARIOS['PRODUCTION: every platform value changed'] = () => [templates(EVERY_KIND, PRODUCTION), templates(EVERY_KIND, {
  ...PRODUCTION,
  alarmEmail: 'other@example.com',
  pciConformancePack: true,
  securityHubPciDss: true,
  certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/77777777-2222-3333-4444-555555555555',
  dockerHubCredentialArn: DOCKER_HUB_CREDENTIAL.replace('docker-hub-AbCdEf', 'docker-hub-team-GhIjKl'),
})];
SCENARIOS['PRODUCTION: applications moved to the other runtime'] = () => [
  templates([wiki('Efs', RuntimeType.FARGATE), sonar('Db', RuntimeType.FARGATE)], PRODUCTION),
  templates([wiki('Efs', RuntimeType.EC2), sonar('Db', RuntimeType.EC2)], PRODUCTION),
];
SCENARIOS['PRODUCTION: a database\'s major version bumped'] = () => [
  templates([sonar('Db', RuntimeType.FARGATE)], PRODUCTION), templates([sonar('Db', RuntimeType.FARGATE, {}, '17')], PRODUCTION),
];

/** Not one of the scenarios that must pass: a new network under every application (docs/platform.md, "Changing the platform"). */
const NEW_CIDR = () => [templates(remaining, PRODUCTION), templates(remaining, { ...PRODUCTION, vpcCidr: '10.30.0.0/16' })];

const RESULTS: Record<string, LifecycleFinding[]> = {};
/** The first state of each profile's add-remove-add scenario: every kind of application, databases included, for cfn-lint. */
const LINTED: string[] = [];
beforeAll(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-lifecycle-'));
  for (const [name, states] of Object.entries(SCENARIOS)) {
    const synthesised = states();
    RESULTS[name] = checkLifecycle(synthesised);
    if (!name.includes('added again')) continue;
    for (const [stack, template] of Object.entries(synthesised[0])) {
      const file = path.join(dir, `${name.split(':')[0]}-${stack}.json`);
      fs.writeFileSync(file, JSON.stringify(template));
      LINTED.push(file);
    }
  }
}, 600_000);

const failures = (findings: LifecycleFinding[]) => findings.filter((f) => f.kind !== 'adopts');

test.each(Object.keys(SCENARIOS))('%s: nothing CloudFormation would refuse', (name) => {
  expect(failures(RESULTS[name])).toEqual([]);
});

/** What each scenario has `--import-existing-resources` adopt, by type and count: the docs' table. */
export function lifecycleTable(results: Record<string, LifecycleFinding[]>): string {
  const rows = Object.entries(results).map(([name, findings]) => {
    const adopted = new Map<string, number>();
    for (const f of findings.filter((x) => x.kind === 'adopts')) {
      const type = f.detail.split(' ')[0];
      adopted.set(type, (adopted.get(type) ?? 0) + 1);
    }
    const text = adopted.size === 0 ? 'nothing' : [...adopted].map(([type, n]) => `${n} \`${type}\``).join(', ');
    return `| ${name} | ${text} |`;
  });
  return ['| Scenario (test/platform-lifecycle.test.ts) | Adopted by `cdk deploy --import-existing-resources` |', '|---|---|', ...rows].join('\n');
}

test('docs/platform.md\'s Lifecycle table is what the scenarios do', () => {
  const docs = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'platform.md'), 'utf-8');
  if (process.env.PRINT_LIFECYCLE_TABLE) process.stdout.write(`${lifecycleTable(RESULTS)}\n`);
  expect(docs).toContain(lifecycleTable(RESULTS));
});

test('re-adding keeps the log groups and the vaults, adopted by name; no database instance, nor anything it used, is kept', () => {
  const adopted = RESULTS['PRODUCTION: every kind added, five removed, added again'].filter((f) => f.kind === 'adopts').map((f) => f.detail);
  expect(adopted).toEqual(expect.arrayContaining([
    'AWS::Backup::BackupVault ["fw-Db-database"]', 'AWS::Backup::BackupVault ["fw-DbVm-data-volume"]', 'AWS::Backup::BackupVault ["fw-Ebs-data-volume"]',
  ]));
  expect(adopted.filter((d) => d.startsWith('AWS::RDS::') || d.startsWith('AWS::EC2::'))).toEqual([]);
  // DEV keeps nothing at all.
  expect(RESULTS['DEV: every kind added, five removed, added again'].filter((f) => f.kind === 'adopts')).toEqual([]);
});

test('vpcCidr changed: the checker names every published value the applications still read from the old network', () => {
  const replaced = checkLifecycle(NEW_CIDR()).filter((f) => f.kind === 'replaces-read').map((f) => f.detail.split(' ')[0]);
  expect(replaced).toEqual(expect.arrayContaining(['/fw/Platform/vpc-id', '/fw/Platform/compute-subnet-1', '/fw/Platform/file-system-security-group-id']));
});

describe('the checker\'s negative controls', () => {
  const vault = (name: string, policy = 'RetainExceptOnCreate') => ({ Type: 'AWS::Backup::BackupVault', DeletionPolicy: policy, Properties: { BackupVaultName: name } });
  const state = (resources: Record<string, any>): AppState => ({ App: { Resources: resources } });

  test('a vault kept by a removal, created again: adopted when import can, AlreadyExists when it cannot', () => {
    expect(checkLifecycle([state({ V: vault('fw-App-data') }), state({}), state({ V: vault('fw-App-data') })]).map((f) => f.kind)).toEqual(['adopts']);
    // Import adopts only into a resource whose DeletionPolicy is Retain or RetainExceptOnCreate.
    expect(checkLifecycle([state({ V: vault('fw-App-data') }), state({}), state({ V: vault('fw-App-data', 'Delete') })]).map((f) => f.kind))
      .toEqual(['recreates-kept']);
    // A vault the stack deletes leaves nothing behind; one whose name CloudFormation generates gets a new name.
    expect(checkLifecycle([state({ V: vault('fw-App-data', 'Delete') }), state({}), state({ V: vault('fw-App-data', 'Delete') })])).toEqual([]);
    const unnamed = { Type: 'AWS::Backup::BackupVault', DeletionPolicy: 'RetainExceptOnCreate', Properties: {} };
    expect(checkLifecycle([state({ V: unnamed }), state({}), state({ V: unnamed })])).toEqual([]);
  });

  test('a create-only change on a named resource: replaced under the same name', () => {
    const rule = (credential: string, prefix = 'fw-hub-1') => ({ Type: 'AWS::ECR::PullThroughCacheRule', Properties: { EcrRepositoryPrefix: prefix, CredentialArn: credential } });
    expect(checkLifecycle([state({ R: rule('a') }), state({ R: rule('b') })]).map((f) => [f.kind, f.detail]))
      .toEqual([['replaces-named', 'CredentialArn changed (create-only): AWS::ECR::PullThroughCacheRule ["fw-hub-1"] would be replaced under the same name']]);
    expect(checkLifecycle([state({ R: rule('a') }), state({ R: rule('b', 'fw-hub-2') })])).toEqual([]);
  });

  test('a kept instance adopted beside the new groups it named: adopted stale', () => {
    const group = { Type: 'AWS::EC2::SecurityGroup', Properties: { GroupDescription: 'db' } };
    const instance = { Type: 'AWS::RDS::DBInstance', DeletionPolicy: 'RetainExceptOnCreate', Properties: { DBInstanceIdentifier: 'fw-app', VPCSecurityGroups: [{ 'Fn::GetAtt': ['G', 'GroupId'] }] } };
    expect(checkLifecycle([state({ G: group, I: instance }), state({}), state({ G: group, I: instance })]).map((f) => f.kind)).toEqual(['adopts-stale']);
  });

  test('a replaced resource another stack reads through a parameter, and a parameter nobody creates', () => {
    const vpc = (cidr: string) => ({ Type: 'AWS::EC2::VPC', Properties: { CidrBlock: cidr } });
    const parameter = { Type: 'AWS::SSM::Parameter', Properties: { Name: '/fw/P/vpc-id', Value: { Ref: 'Vpc' } } };
    const reader = { Parameters: { V: { Type: 'AWS::SSM::Parameter::Value<String>', Default: '/fw/P/vpc-id' } }, Resources: {} };
    expect(checkLifecycle([{ P: { Resources: { Vpc: vpc('10.0.0.0/16'), Param: parameter } }, A: reader },
      { P: { Resources: { Vpc: vpc('10.1.0.0/16'), Param: parameter } }, A: reader }]).map((f) => f.kind)).toEqual(['replaces-read']);
    expect(checkLifecycle([{ A: reader }]).map((f) => f.kind)).toEqual(['unread-parameter']);
  });
});

const hasCfnLint = requireInCi(spawnSync('cfn-lint', ['--version']).status === 0, 'cfn-lint');
(hasCfnLint ? test : test.skip)('cfn-lint: no error and no warning in any stack of a platform with every kind of application, in each profile', () => {
  expect(LINTED.filter((f) => f.includes('PRODUCTION-Db')).length).toBeGreaterThan(0);
  // W3005: as in cfn-lint.test.ts (the CDK's AwsCustomResource, and the restart function's role: a redundant DependsOn).
  // W3691: cfn-lint 1.51's generator marks the major version "16" deprecated whenever any 16.x is, while listing it as
  // valid too; RDS takes a major version alone and then keeps the instance on that major's default minor version
  // (ModifyDBInstance, EngineVersion: "If you specify only a major version, Amazon RDS updates the DB instance to the
  // default minor version"), which AutoMinorVersionUpgrade then moves: the major alone is what the plugin chose.
  const run = spawnSync('cfn-lint', ['--format', 'parseable', '--ignore-checks', 'W3005', 'W3691', '--', ...LINTED], { encoding: 'utf-8' });
  expect(run.stdout + run.stderr).toBe('');
  expect(run.status).toBe(0);
}, 600_000);

(hasCfnLint ? test : test.skip)('the resource schemas are what the pinned cfn-lint bundles (tools/aws/cloudformation-schemas/derive.py --check)', () => {
  // The Python cfn-lint runs on (scripts/setup.sh makes it a virtual environment of its own): the one beside it.
  const cfnLint = fs.realpathSync(spawnSync('sh', ['-c', 'command -v cfn-lint'], { encoding: 'utf-8' }).stdout.trim());
  const python = path.join(path.dirname(cfnLint), 'python3');
  const run = spawnSync(python, [path.join(__dirname, '..', '..', '..', 'tools', 'aws', 'cloudformation-schemas', 'derive.py'), '--check'], { encoding: 'utf-8' });
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout).types).toEqual(SCHEMAS);
});

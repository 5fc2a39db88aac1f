import * as fs from 'fs';
import * as path from 'path';
import { App, Fn, Stack } from 'aws-cdk-lib';
import { ApplicationFactory, AuthMode, Ec2Storage, PciDssScope, Platform, RuntimeType } from '../src';
import { SonarSpec } from './fixtures/sonar-spec';
import { type OnPlatform, otherWiki, PLATFORM_PROPS, synthPlatform } from './support/platform';
import { DOCKER_HUB_CREDENTIAL, IMAGE_DIGESTS, OIDC, REGION_ENV } from './support/synth';
import { deployedLengthAtMost } from '../src/infrastructure/deployed-length';
import { VpcEndpoints } from '../src/infrastructure/endpoints';
import { addResourceBudget, RESOURCES_PER_STACK } from '../src/infrastructure/resource-budget';
import { EFS_POLICY_MAX, PlatformFileSystem } from '../src/infrastructure/storage';
import { IDENTITY_PROVIDER_EGRESS } from '../src/platform/platform';

/**
 * The platform's file-system policy as applications attach: each with data on EFS adds two statements, which a
 * function writes with PutFileSystemPolicy. EFS takes a policy of at most 20,000 characters (aws/efs/
 * file-system-policy.json, from botocore's EFS model), and CloudFormation a custom resource's response of at most
 * 4,096 bytes: the writer returns only the file system's id, and a policy that could pass the limit once deployed is
 * refused at synth, naming the limit and the applications.
 */
const MODEL = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'aws', 'efs', 'file-system-policy.json'), 'utf-8'));
const applications = (n: number): OnPlatform[] => Array.from({ length: n }, (_, i) =>
  ({ stackName: `App${i}`, runtime: RuntimeType.FARGATE, spec: () => otherWiki(`app${i}`), props: { subdomain: `app${i}` } }));

test('the limit is EFS\'s, and an access point id is at most what its model allows', () => {
  expect(EFS_POLICY_MAX).toBe(MODEL['PutFileSystemPolicy.Policy'].max);
  expect(MODEL.AccessPointId.pattern).toContain('fsap-[0-9a-f]{8,40}');
});

test('20 applications: the policy fits at its longest, and the writer returns only the file system\'s id', () => {
  const { templates, platform } = synthPlatform(applications(20));
  const writer = Object.values<any>(templates.Platform.Resources).find((r) => r.Type === 'Custom::AWS' && JSON.stringify(r.Properties.Create).includes('putFileSystemPolicy'));
  for (const call of [writer.Properties.Create, writer.Properties.Update]) {
    expect(JSON.stringify(call)).toContain('\\"outputPaths\\":[\\"FileSystemId\\"]');
  }
  const storage = platform.node.findAll().find((c): c is PlatformFileSystem => c instanceof PlatformFileSystem)!;
  expect(storage.policyLengthAtMost()).toBeLessThanOrEqual(EFS_POLICY_MAX);
  // The endpoints' policies too: Logs names the applications' log groups by one pattern; Secrets Manager each secret.
  const endpoints = platform.node.findChild('Endpoints') as VpcEndpoints;
  expect(endpoints.oversizedPolicies()).toEqual([]);
  // More secrets than fit: refused at synth, naming the endpoint and the limit.
  endpoints.serve({ secretArns: Array.from({ length: 250 }, (_, i) => `${DOCKER_HUB_CREDENTIAL}${i}`), amazonLinuxRepositories: false });
  expect(endpoints.oversizedPolicies()).toEqual([expect.stringMatching(/^The policy of the SecretsManager VPC endpoint would hold up to \d{5} characters; an endpoint policy takes at most 20480\./)]);
});

test('30 applications: refused at synth, naming the limit, the applications and what to do', () => {
  expect(() => synthPlatform(applications(30))).toThrow(/\[Platform\/Platform\/Storage\] The platform's file-system policy would hold up to \d{5} characters with the 30 applications that keep data on it \(App0, App1, .*App29\); EFS takes at most 20000 \(PutFileSystemPolicy\)\. Keep fewer applications on this platform's file system: attach the others to another platform, or give those on EC2 an EBS data volume \(ec2Storage ebs\)\./);
});

test('deployedLengthAtMost: literal characters, and each deploy-time value at its longest', () => {
  const stack = new Stack();
  expect(deployedLengthAtMost(stack, `arn:${stack.partition}:iam::${stack.account}:role/x`)).toBe('arn:'.length + 10 + ':iam::'.length + 12 + ':role/x'.length);
  expect(deployedLengthAtMost(stack, `a${Fn.importValue('x')}`)).toBe(1 + 256);
  expect(deployedLengthAtMost(stack, 'plain')).toBe(5);
});

/** Every rule sending HTTPS anywhere, in every template: inline in a group, or a resource of its own. */
function httpsAnywhere(templates: Record<string, any>): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  for (const [stack, template] of Object.entries(templates)) {
    for (const [id, r] of Object.entries<any>(template.Resources)) {
      const rules = r.Type === 'AWS::EC2::SecurityGroup' ? r.Properties.SecurityGroupEgress ?? []
        : r.Type === 'AWS::EC2::SecurityGroupEgress' ? [r.Properties] : [];
      for (const rule of rules) if (rule.CidrIp === '0.0.0.0/0' && rule.FromPort === 443) found.push([stack, `${id}: ${rule.Description}`]);
    }
  }
  return found;
}

describe('alb-oidc applications: the load balancer\'s way to the identity provider is the platform\'s, once', () => {
  const signIn = (name: string): OnPlatform => ({
    stackName: name,
    runtime: RuntimeType.FARGATE,
    spec: () => otherWiki(name.toLowerCase()),
    props: { subdomain: name.toLowerCase(), authMode: AuthMode.ALB_OIDC, oidc: OIDC },
  });
  const loadBalancerRule = (templates: Record<string, any>) => httpsAnywhere(templates).filter(([, rule]) => rule.includes(IDENTITY_PROVIDER_EGRESS));

  test('two of them: one rule, in the platform\'s stack; with one left, it stays', () => {
    const two = synthPlatform([signIn('Wiki'), signIn('Docs')]).templates;
    expect(loadBalancerRule(two)).toEqual([['Platform', expect.stringMatching(/^PlatformLoadBalancerSecurityGroup\w+: /)]]);
    // No application's stack adds HTTPS-anywhere to a group it does not own (the CDK's default for an OIDC action).
    for (const [stack] of httpsAnywhere(two).filter(([, rule]) => rule.includes('IdP'))) expect(stack).toBe('(none)');
    expect(loadBalancerRule(synthPlatform([signIn('Wiki')]).templates)).toEqual(loadBalancerRule(two));
  });

  test('none of them: no such rule', () => {
    expect(loadBalancerRule(synthPlatform(applications(1)).templates)).toEqual([]);
  });
});

describe('thirty applications, each with a database, on one PRODUCTION platform (D1)', () => {
  /** Twenty on Fargate with their data on EFS (the file system's policy takes no more: above), ten on EC2 with EBS. */
  const withDatabase = (i: number): OnPlatform => ({
    stackName: `Db${i}`,
    runtime: i < 20 ? RuntimeType.FARGATE : RuntimeType.EC2,
    props: { subdomain: `db${i}`, ...i < 20 ? {} : { ec2Storage: Ec2Storage.EBS } },
    spec: () => new (class extends SonarSpec { public applicationId() { return `db${i}`; } public efsDataPath() { return `/db${i}`; } })(),
  });
  let counts: Record<string, number> = {};
  beforeAll(() => {
    const { templates } = synthPlatform(Array.from({ length: 30 }, (_, i) => withDatabase(i)));
    counts = Object.fromEntries(Object.entries(templates).map(([stack, t]) => [stack, Object.keys(t.Resources).length]));
  }, 600_000);

  test('synthesise (PRODUCTION\'s packs passing), every stack well under CloudFormation\'s 500 resources: each database is in its application\'s stack', () => {
    expect(Object.keys(counts)).toHaveLength(31);
    for (const [stack, count] of Object.entries(counts)) expect([stack, count <= RESOURCES_PER_STACK / 2]).toEqual([stack, true]);
  });

  test('a stack over the budget is refused at synth, naming the stack, its count and each application\'s share', () => {
    const app = new App();
    const platform = new Platform(new Stack(app, 'Platform', { env: REGION_ENV }), 'Platform', PLATFORM_PROPS);
    for (let i = 0; i < 3; i++) {
      new ApplicationFactory(new Stack(app, `App${i}`, { env: REGION_ENV }), 'App', RuntimeType.FARGATE, otherWiki(`app${i}`),
        { platform, imageDigests: IMAGE_DIGESTS, subdomain: `app${i}`, pciDssScope: PciDssScope.CONNECTED });
    }
    const platformCount = Object.keys(app.synth().getStackByName('Platform').template.Resources).length;
    // The same check, with a budget one under what the platform holds: the real one (500) no platform of 100 applications reaches.
    const tight = new App();
    const tightPlatform = new Platform(new Stack(tight, 'Platform', { env: REGION_ENV }), 'Platform', PLATFORM_PROPS);
    for (let i = 0; i < 3; i++) {
      new ApplicationFactory(new Stack(tight, `App${i}`, { env: REGION_ENV }), 'App', RuntimeType.FARGATE, otherWiki(`app${i}`),
        { platform: tightPlatform, imageDigests: IMAGE_DIGESTS, subdomain: `app${i}`, pciDssScope: PciDssScope.CONNECTED });
    }
    addResourceBudget(tightPlatform, () => ['App0', 'App1', 'App2'].map((s) => [s, tightPlatform.node.findChild(`Application-${s}`)]),
      'Attach the other applications to another platform.', platformCount - 1);
    expect(() => tight.synth()).toThrow(new RegExp(`Stack Platform would hold ${platformCount} resources \\(App0: 2, App1: 2, App2: 2\\); ` +
      `CloudFormation takes at most ${platformCount - 1} in one stack\\. Attach the other applications to another platform\\.`));
  });
});

import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ApplicationFactory, ContainerImageSpec, Ec2Storage, type IApplicationSpec, type PlatformProps, RuntimeType, SecurityProfile } from '../src';
import { SonarSpec } from './fixtures/sonar-spec';
import { type OnPlatform, otherWiki, PLATFORM_PROPS, synthPlatform } from './support/platform';
import { propsFor, REGION_ENV, synth, testDefaults } from './support/synth';
import { CONTEXT_KEYS } from '../src/context/context-keys';
import type { ExistingVpc } from '../src/context/existing-vpc';
import { type AppState, checkLifecycle, type LifecycleFinding } from '../src/lifecycle/lifecycle-check';
import { SERVICE_RULES, SERVICE_SOURCES } from '../src/lifecycle/service-rules';

/**
 * The changes of the AWS review (../shared/reviews/aws-review-6.md, "Lifecycle scenarios run": U1-U6, M2), each as the
 * states a user goes through, checked by the lifecycle checker with the services' rules (src/lifecycle/service-rules.ts).
 * Each one AWS would refuse, or that leaves data out of reach, is refused with its way through; the sound ones pass.
 * docs/platform.md's table "Changes the services refuse" is this test's output (REVIEW_TABLE).
 */
const GIVEN = CONTEXT_KEYS.find((k) => k.name === 'existingVpc')!.example as ExistingVpc;
const { vpcCidr: _, ...WITHOUT_CIDR } = PLATFORM_PROPS;
const NEXUS = { applicationId: 'nexus', image: 'sonatype/nexus3:3.77.1', port: 8081, user: '200:200', dataPath: '/nexus-data' };
const DIGESTS = (image: string) => ({ imageDigests: { [image]: `sha256:${'6'.repeat(64)}` } });

const alone = (runtime: RuntimeType, props: object, spec: IApplicationSpec = otherWiki('wiki')): AppState => ({ WikiStack: synth(runtime, props as any, spec).json });
const image = (runtime: RuntimeType, props: object, fields: object = {}) => {
  const described = { ...NEXUS, ...fields };
  return alone(runtime, { ...DIGESTS(described.image), ...props }, new ContainerImageSpec(described));
};
/** A standalone application in a stack of this name. */
const named = (stackName: string, props: object, spec: IApplicationSpec): AppState => {
  const app = new App();
  const stack = new Stack(app, stackName, { env: REGION_ENV });
  new ApplicationFactory(stack, 'App', RuntimeType.FARGATE, spec, { ...testDefaults(spec), alarmEmail: 'security@example.com', ...props });
  return { [stackName]: Template.fromStack(stack).toJSON() };
};
const onPlatform = (applications: OnPlatform[], props: PlatformProps = PLATFORM_PROPS): AppState => synthPlatform(applications, props).templates;
const DEV_PLATFORM: PlatformProps = { ...PLATFORM_PROPS, securityProfile: SecurityProfile.DEV };
const withDatabase = (name: string, runtime: RuntimeType, extra: object = {}): OnPlatform => ({
  stackName: name,
  runtime,
  props: { subdomain: name.toLowerCase(), ...extra },
  spec: () => new (class extends SonarSpec {
    public applicationId() { return name.toLowerCase(); }
    public efsDataPath() { return `/${name.toLowerCase()}`; }
  })(),
});
const efsWiki: OnPlatform = { stackName: 'Efs', runtime: RuntimeType.FARGATE, spec: () => otherWiki('efs'), props: { subdomain: 'efs' } };
const KEPT = [efsWiki, withDatabase('Db', RuntimeType.FARGATE)];
const subnet = (s: ExistingVpc['computeSubnets'][number], id: string) => ({ ...s, subnetId: id });
const reordered = { ...GIVEN, availabilityZones: [...GIVEN.availabilityZones].reverse() };
const noDatabase = new (class extends SonarSpec { public database(): any { return undefined; } })();
const PRODUCTION = propsFor(SecurityProfile.PRODUCTION);

/** Each scenario: its states, and the service rules it breaks (none: sound). */
const SCENARIOS: Record<string, { readonly states: () => AppState[]; readonly refused: string[] }> = {
  'platform DEV → PRODUCTION, applications kept': {
    states: () => [onPlatform(KEPT, DEV_PLATFORM), onPlatform(KEPT)],
    refused: ['efs-one-mount-target-a-zone', 'rds-subnet-in-use'],
  },
  'platform PRODUCTION → DEV': {
    states: () => [onPlatform(KEPT), onPlatform(KEPT, DEV_PLATFORM)],
    refused: ['efs-one-mount-target-a-zone', 'rds-subnet-in-use'],
  },
  'standalone Fargate DEV → PRODUCTION': {
    states: () => [alone(RuntimeType.FARGATE, {}), alone(RuntimeType.FARGATE, PRODUCTION)],
    refused: ['efs-one-mount-target-a-zone'],
  },
  'existingVpc: compute subnet 1 replaced by another in the same zone': {
    states: () => [alone(RuntimeType.FARGATE, { existingVpc: GIVEN }),
      alone(RuntimeType.FARGATE, { existingVpc: { ...GIVEN, computeSubnets: [subnet(GIVEN.computeSubnets[0], 'subnet-0c000000000000009'), GIVEN.computeSubnets[1]] } })],
    refused: ['efs-one-mount-target-a-zone'],
  },
  'existingVpc: data subnet 1 replaced, under a database': {
    states: () => [alone(RuntimeType.FARGATE, { existingVpc: GIVEN }, new SonarSpec()),
      alone(RuntimeType.FARGATE, { existingVpc: { ...GIVEN, dataSubnets: [subnet(GIVEN.dataSubnets![0], 'subnet-0d000000000000009'), GIVEN.dataSubnets![1]] } }, new SonarSpec())],
    refused: ['rds-subnet-in-use'],
  },
  'existingVpc: availabilityZones in the other order (Fargate, EFS)': {
    states: () => [alone(RuntimeType.FARGATE, { existingVpc: GIVEN }), alone(RuntimeType.FARGATE, { existingVpc: reordered })],
    refused: ['efs-one-mount-target-a-zone'],
  },
  'existingVpc: availabilityZones in the other order (EC2, EBS)': {
    states: () => [alone(RuntimeType.EC2, { existingVpc: GIVEN, ec2Storage: Ec2Storage.EBS }),
      alone(RuntimeType.EC2, { existingVpc: reordered, ec2Storage: Ec2Storage.EBS })],
    refused: ['ebs-volume-zone'],
  },
  'platform: created VPC → existing VPC': {
    states: () => [onPlatform(KEPT), onPlatform(KEPT, { ...WITHOUT_CIDR, existingVpc: GIVEN })],
    refused: ['efs-one-mount-target-a-zone', 'rds-subnet-in-use'],
  },
  'standalone: created VPC → existing VPC (EC2, EBS)': {
    states: () => [alone(RuntimeType.EC2, { ec2Storage: Ec2Storage.EBS }),
      alone(RuntimeType.EC2, { existingVpc: GIVEN, ec2Storage: Ec2Storage.EBS })],
    refused: ['ebs-volume-zone'],
  },
  'a database removed from a PRODUCTION application': {
    states: () => [alone(RuntimeType.FARGATE, PRODUCTION, new SonarSpec()), alone(RuntimeType.FARGATE, PRODUCTION, noDatabase)],
    refused: ['rds-deletion-protection'],
  },
  'containerImage.user 200:200 → 201:201 (Fargate, EFS)': {
    states: () => [image(RuntimeType.FARGATE, {}), image(RuntimeType.FARGATE, {}, { user: '201:201' })],
    refused: ['efs-access-point-owner'],
  },
  'applicationId renamed in its stack (an image, EFS)': {
    states: () => [image(RuntimeType.FARGATE, {}), image(RuntimeType.FARGATE, {}, { applicationId: 'repository' })],
    refused: ['efs-access-point-owner'],
  },
  'platform: existing VPC → created VPC': {
    states: () => [onPlatform(KEPT, { ...WITHOUT_CIDR, existingVpc: GIVEN }), onPlatform(KEPT)],
    refused: ['efs-one-mount-target-a-zone', 'rds-subnet-in-use'],
  },
  'standalone: created VPC → existing VPC (Fargate, a database)': {
    states: () => [alone(RuntimeType.FARGATE, {}, new SonarSpec()), alone(RuntimeType.FARGATE, { existingVpc: GIVEN }, new SonarSpec())],
    refused: ['efs-one-mount-target-a-zone', 'rds-subnet-in-use'],
  },
  'standalone: existing VPC → created VPC (EC2, EBS)': {
    states: () => [alone(RuntimeType.EC2, { existingVpc: GIVEN, ec2Storage: Ec2Storage.EBS }),
      alone(RuntimeType.EC2, { ec2Storage: Ec2Storage.EBS })],
    refused: ['ebs-volume-zone'],
  },
  'a database removed from a PRODUCTION application, then added back': {
    states: () => [alone(RuntimeType.FARGATE, PRODUCTION, new SonarSpec()), alone(RuntimeType.FARGATE, PRODUCTION, noDatabase),
      alone(RuntimeType.FARGATE, PRODUCTION, new SonarSpec())],
    refused: ['rds-deletion-protection'],
  },
  'containerImage.user 200:200 → 201:201 (EC2, EFS)': {
    states: () => [image(RuntimeType.EC2, {}), image(RuntimeType.EC2, {}, { user: '201:201' })],
    refused: ['efs-access-point-owner'],
  },
  'applicationId renamed in its stack (a plugin, EFS)': {
    states: () => [alone(RuntimeType.FARGATE, {}, otherWiki('wiki')), alone(RuntimeType.FARGATE, {}, otherWiki('docs'))],
    refused: ['efs-access-point-owner'],
  },
  // The old stack destroyed, then the new one deployed (docs/platform.md, "Removing an application").
  'stack renamed, same application, with a database': {
    states: () => [named('Wiki', PRODUCTION, new SonarSpec()), {}, named('Docs', PRODUCTION, new SonarSpec())],
    refused: [],
  },
  'EC2, EBS: instanceType t3.medium → m7i.large': {
    states: () => [image(RuntimeType.EC2, { ec2Storage: Ec2Storage.EBS }), image(RuntimeType.EC2, { ec2Storage: Ec2Storage.EBS, instanceType: 'm7i.large' })],
    refused: [],
  },
  'EC2, EBS: the image\'s version bumped': {
    states: () => [image(RuntimeType.EC2, { ec2Storage: Ec2Storage.EBS }), image(RuntimeType.EC2, { ec2Storage: Ec2Storage.EBS }, { image: 'sonatype/nexus3:3.78.0' })],
    refused: [],
  },
  'EC2, EBS: the image\'s port 8081 → 8082': {
    states: () => [image(RuntimeType.EC2, { ec2Storage: Ec2Storage.EBS }), image(RuntimeType.EC2, { ec2Storage: Ec2Storage.EBS }, { port: 8082 })],
    refused: [],
  },
  'Fargate: the image\'s dataPath changed': {
    states: () => [image(RuntimeType.FARGATE, {}), image(RuntimeType.FARGATE, {}, { dataPath: '/data' })],
    refused: [],
  },
  'subdomain changed': {
    states: () => [alone(RuntimeType.FARGATE, { ...PRODUCTION, subdomain: 'wiki' }), alone(RuntimeType.FARGATE, { ...PRODUCTION, subdomain: 'docs' })],
    refused: [],
  },
};

const RESULTS: Record<string, LifecycleFinding[]> = {};
beforeAll(() => {
  for (const [name, { states }] of Object.entries(SCENARIOS)) RESULTS[name] = checkLifecycle(states());
}, 600_000);

const refusedBy = (findings: LifecycleFinding[]) => [...new Set(findings.filter((f) => f.kind === 'refused').map((f) => f.detail.split(':')[0]))].sort();

test.each(Object.keys(SCENARIOS))('%s', (name) => {
  expect(refusedBy(RESULTS[name])).toEqual(SCENARIOS[name].refused);
  // A sound change meets nothing else either (what import adopts aside).
  if (SCENARIOS[name].refused.length === 0) expect(RESULTS[name].filter((f) => f.kind !== 'adopts')).toEqual([]);
});

test('each refusal cites its source, quoted from the service\'s API model, and says the way through', () => {
  for (const finding of Object.values(RESULTS).flat().filter((f) => f.kind === 'refused')) {
    const rule = SERVICE_RULES[finding.detail.split(':')[0]];
    expect(finding.detail).toContain(SERVICE_SOURCES[rule.source].quote);
    expect(finding.detail).toContain(`Way through: ${rule.wayThrough}`);
  }
  expect(Object.keys(SERVICE_RULES).filter((r) => !Object.values(SCENARIOS).some((s) => s.refused.includes(r)))).toEqual([]);
});

/** The docs' table: each change, what the services do, and the way through. */
export function reviewTable(): string {
  const rows = Object.entries(SCENARIOS).map(([name, { refused }]) => `| ${name} | ${refused.length === 0 ? 'sound' : refused.map((r) => `refused: \`${r}\``).join(', ')} |`);
  const ways = Object.entries(SERVICE_RULES).map(([name, rule]) => `| \`${name}\` | ${SERVICE_SOURCES[rule.source].quote} | ${rule.wayThrough} |`);
  return ['| Change (test/lifecycle-review-scenarios.test.ts) | What the checker says |', '|---|---|', ...rows, '',
    '| Rule | What the service says (botocore 1.44.8, aws/lifecycle/service-rules.json) | Way through |', '|---|---|---|', ...ways].join('\n');
}

test('docs/platform.md\'s table of changes the services refuse is what this test computes', () => {
  const doc = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'platform.md'), 'utf-8');
  expect(doc).toContain(reviewTable());
});

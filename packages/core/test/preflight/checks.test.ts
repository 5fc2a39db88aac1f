import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { awsError, MockedAws } from './support';
import { deployedChecks } from '../../src/preflight/checks/deployed';
import { covers, dnsChecks } from '../../src/preflight/checks/dns';
import { imageChecks } from '../../src/preflight/checks/images';
import { networkChecks } from '../../src/preflight/checks/network';
import { quotaChecks, SECURITY_GROUP_RULES_QUOTA } from '../../src/preflight/checks/quotas';
import { secretChecks } from '../../src/preflight/checks/secrets';
import { serviceChecks } from '../../src/preflight/checks/services';
import type { DeploymentFacts } from '../../src/preflight/facts';
import type { Finding } from '../../src/preflight/finding';
import { requireInCi } from '../support/shellcheck';

// Each preflight check against AWS answers shaped as the services' models give them (support.ts), with a case that
// passes and one that fails; the facts are written out here (facts.test.ts reads them from synthesised templates).

const aws = new MockedAws();
afterEach(() => {
  expect(aws.sent().filter((s) => s.misfits.length > 0)).toEqual([]);
  aws.reset();
});
afterAll(() => aws.restore());

const ACCOUNT = '123456789012';
const VPC = 'vpc-0a1b2c3d4e5f60718';
const SECRET = `arn:aws:secretsmanager:eu-west-1:${ACCOUNT}:secret:ecr-pullthroughcache/docker-hub-AbCdEf`;
const DIGEST = `sha256:${'a'.repeat(64)}`;

function facts(partial: Partial<DeploymentFacts>): DeploymentFacts {
  return {
    context: {},
    stacks: {},
    endpoints: [],
    cacheRules: [],
    cachedImages: [],
    machineImages: [],
    containers: [],
    secretArns: [],
    zoneRecords: [],
    requestedCertificates: [],
    givenCertificates: [],
    conformancePack: false,
    securityHubStandard: false,
    counts: { rulesPerListener: {}, targetGroups: 0, elasticIps: 0, mostRules: { inbound: { group: '', rules: 0 }, outbound: { group: '', rules: 0 } } },
    ...partial,
  };
}
const statuses = (findings: Finding[]) => findings.map((f) => `${f.status} ${f.key}: ${f.message}`);

describe('a given VPC', () => {
  const vpc = facts({
    existingVpc: {
      vpcId: VPC,
      endpoints: 'existing',
      subnets: [{ subnetId: 'subnet-0123456789abcdef0', availabilityZone: 'eu-west-1a', routeTableId: 'rtb-0123456789abcdef0', tier: 'computeSubnets' }],
    },
  });
  const network = (dnsHostnames: boolean, zone: string, endpoints: object[]) => aws
    .answer('@aws-sdk/client-ec2', 'DescribeVpcAttribute', { VpcId: VPC, EnableDnsSupport: { Value: true } }, { Attribute: 'enableDnsSupport' })
    .answer('@aws-sdk/client-ec2', 'DescribeVpcAttribute', { VpcId: VPC, EnableDnsHostnames: { Value: dnsHostnames } }, { Attribute: 'enableDnsHostnames' })
    .answer('@aws-sdk/client-ec2', 'DescribeSubnets', { Subnets: [{ SubnetId: 'subnet-0123456789abcdef0', VpcId: VPC, AvailabilityZone: zone }] })
    .answer('@aws-sdk/client-ec2', 'DescribeRouteTables', {
      RouteTables: [{ RouteTableId: 'rtb-0123456789abcdef0', VpcId: VPC, Associations: [{ SubnetId: 'subnet-0123456789abcdef0', Main: false }] }],
    })
    .answer('@aws-sdk/client-ec2', 'DescribeVpcEndpoints', { VpcEndpoints: endpoints });
  const theirs = [
    { VpcEndpointId: 'vpce-01', ServiceName: 'com.amazonaws.eu-west-1.logs', VpcEndpointType: 'Interface', PrivateDnsEnabled: true, State: 'Available' },
    { VpcEndpointId: 'vpce-02', ServiceName: 'com.amazonaws.eu-west-1.secretsmanager', VpcEndpointType: 'Interface', PrivateDnsEnabled: true, State: 'Available' },
    { VpcEndpointId: 'vpce-03', ServiceName: 'com.amazonaws.eu-west-1.s3', VpcEndpointType: 'Gateway', RouteTableIds: ['rtb-0123456789abcdef0'], State: 'Available' },
  ];

  test('passes: DNS attributes on, the subnet where stated, the endpoints "existing" asks for there', async () => {
    network(true, 'eu-west-1a', theirs);
    const found = await networkChecks(vpc, aws.calls());
    expect(found.every((f) => f.status === 'ok')).toBe(true);
    expect(statuses(found)).toContain(`ok existingVpc.endpoints: ${VPC} has its own logs Interface endpoint, vpce-01`);
  });

  test('fails: enableDnsHostnames off, a subnet in another zone, a created endpoint colliding with the VPC\'s own', async () => {
    network(false, 'eu-west-1b', theirs);
    const created = { ...vpc, endpoints: [{ stack: 'App', service: 'logs', type: 'Interface', privateDns: true, vpcId: VPC, routeTableIds: [] }] };
    const found = await networkChecks(created, aws.calls());
    expect(statuses(found.filter((f) => f.status === 'fail'))).toEqual([
      `fail existingVpc: ${VPC}: enableDnsHostnames is off; the private hosted zones, the interface endpoints' private DNS and EC2's mount of EFS by name need it`,
      'fail existingVpc: computeSubnets subnet-0123456789abcdef0 is in eu-west-1b, stated eu-west-1a',
      `fail existingVpc.endpoints: App creates a logs Interface endpoint, and ${VPC} already has vpce-01: EC2 refuses a second one with private DNS`,
    ]);
  });

  test('warns: "existing" endpoints the VPC does not have', async () => {
    network(true, 'eu-west-1a', []);
    expect(statuses((await networkChecks(vpc, aws.calls())).filter((f) => f.status === 'warn'))).toHaveLength(3);
  });

  test('a VPC the deployment creates is not asked about', async () => {
    expect(await networkChecks(facts({}), aws.calls())).toEqual([]);
    expect(aws.sent()).toEqual([]);
  });
});

describe('images through the cache', () => {
  const images = facts({
    cacheRules: [{ prefix: 'fw-hub-e92ef2d4', credentialArn: SECRET }],
    cachedImages: [{ stack: 'App', prefix: 'fw-hub-e92ef2d4', repository: 'fw-hub-e92ef2d4/jenkins/jenkins', tag: '2.568.2-lts-jdk21', digest: DIGEST }],
  });
  const rule = () => aws.answer('@aws-sdk/client-ecr', 'DescribePullThroughCacheRules', {
    pullThroughCacheRules: [{ ecrRepositoryPrefix: 'fw-hub-e92ef2d4', upstreamRegistryUrl: 'registry-1.docker.io', credentialArn: SECRET }],
  });

  const held = (digest: string) => ({ imageDetails: [{ repositoryName: 'fw-hub-e92ef2d4/jenkins/jenkins', imageDigest: digest, imageTags: ['2.568.2-lts-jdk21'] }] });

  test('passes: the cache holds the pinned tag at the pinned digest, asked without a pull', async () => {
    rule().answer('@aws-sdk/client-ecr', 'DescribeImages', held(DIGEST));
    expect(statuses(await imageChecks(images, aws.calls()))).toEqual([`ok imageDigests: fw-hub-e92ef2d4/jenkins/jenkins:2.568.2-lts-jdk21 is ${DIGEST} in the cache, as pinned`]);
    expect(aws.sent().map((s) => s.call)).toEqual(['ecr DescribePullThroughCacheRules', 'ecr DescribeImages']);
    expect(aws.sent()[1].input.imageIds).toEqual([{ imageTag: '2.568.2-lts-jdk21' }]);
  });

  test('fails: the tag moved; the cache refused the question; a placeholder digest', async () => {
    rule().answer('@aws-sdk/client-ecr', 'DescribeImages', held(`sha256:${'b'.repeat(64)}`));
    expect(statuses(await imageChecks(images, aws.calls()))[0]).toMatch(/^fail imageDigests: .* is sha256:b{64} in the cache; the deployment pins sha256:a{64}$/);
    aws.reset();
    rule().answer('@aws-sdk/client-ecr', 'DescribeImages', awsError('InvalidParameterException'));
    expect((await imageChecks(images, aws.calls()))[0]).toMatchObject({ status: 'fail', message: expect.stringMatching(/answered InvalidParameterException$/) });
    const placeholder = facts({ ...images, cachedImages: [{ ...images.cachedImages[0], digest: `sha256:${'0'.repeat(64)}` }] });
    expect((await imageChecks(placeholder, aws.calls()))[0]).toMatchObject({ status: 'fail', message: expect.stringMatching(/placeholder digest/) });
  });

  test('an image not in the cache yet: said, with the pull by tag that fetches it', async () => {
    for (const missing of ['RepositoryNotFoundException', 'ImageNotFoundException']) {
      rule().answer('@aws-sdk/client-ecr', 'DescribeImages', awsError(missing));
      expect((await imageChecks(images, aws.calls()))[0]).toMatchObject({ status: 'warn', message: expect.stringMatching(/is not in the cache yet/), fix: expect.stringMatching(/^pull it once by tag/) });
      aws.reset();
    }
  });

  test('before the first deployment the rule is not there: said, nothing else asked', async () => {
    aws.answer('@aws-sdk/client-ecr', 'DescribePullThroughCacheRules', awsError('PullThroughCacheRuleNotFoundException'));
    expect((await imageChecks(images, aws.calls()))[0]).toMatchObject({ status: 'warn', message: expect.stringMatching(/does not exist yet/) });
    expect(aws.sent().map((s) => s.call)).toEqual(['ecr DescribePullThroughCacheRules']);
  });
});

describe('an image\'s own configuration against the container that runs it', () => {
  const IMAGE = 'fw-hub-e92ef2d4/sonatype/nexus3';
  const CONFIG_DIGEST = `sha256:${'c'.repeat(64)}`;
  const container = { stack: 'App', image: `["${IMAGE}:3.77.1@${DIGEST}"]`, user: '200', ports: [8081], mounts: ['/nexus-data'], command: false };
  const image = facts({
    cacheRules: [{ prefix: 'fw-hub-e92ef2d4', credentialArn: SECRET }],
    cachedImages: [{ stack: 'App', prefix: 'fw-hub-e92ef2d4', repository: IMAGE, tag: '3.77.1', digest: DIGEST }],
    containers: [container],
  });
  const manifest = { schemaVersion: 2, config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: CONFIG_DIGEST, size: 1 }, layers: [] };
  const served = (config: object) => {
    aws.answer('@aws-sdk/client-ecr', 'DescribePullThroughCacheRules', { pullThroughCacheRules: [{ ecrRepositoryPrefix: 'fw-hub-e92ef2d4', credentialArn: SECRET }] })
      .answer('@aws-sdk/client-ecr', 'DescribeImages', { imageDetails: [{ repositoryName: IMAGE, imageDigest: DIGEST, imageTags: ['3.77.1'] }] })
      .answer('@aws-sdk/client-ecr', 'BatchGetImage', {
        images: [{ imageId: { imageDigest: DIGEST }, imageManifestMediaType: manifest.config.mediaType, imageManifest: JSON.stringify(manifest) }],
      }, { imageIds: [{ imageDigest: DIGEST }] })
      .answer('@aws-sdk/client-ecr', 'GetDownloadUrlForLayer', { downloadUrl: 'https://prod-eu-west-1-starport-layer-bucket.s3.eu-west-1.amazonaws.com/config', layerDigest: CONFIG_DIGEST });
    return jest.spyOn(global, 'fetch').mockResolvedValue(new Response(JSON.stringify({ architecture: 'amd64', os: 'linux', config })));
  };
  afterEach(() => jest.restoreAllMocks());

  test('passes: its own user, the port it exposes, its volume mounted, an entrypoint', async () => {
    const blob = served({ User: 'nexus', ExposedPorts: { '8081/tcp': {} }, Volumes: { '/nexus-data': {} }, Entrypoint: ['/opt/sonatype/start-nexus-repository-manager.sh'] });
    expect(statuses(await imageChecks(image, aws.calls()))).toEqual([
      `ok imageDigests: ${IMAGE}:3.77.1 is ${DIGEST} in the cache, as pinned`,
      `ok containerImage: ${IMAGE}:3.77.1: its user, ports, volumes and command fit App's container`,
    ]);
    expect(blob).toHaveBeenCalledWith('https://prod-eu-west-1-starport-layer-bucket.s3.eu-west-1.amazonaws.com/config');
    expect(aws.sent().find((s) => s.call === 'ecr GetDownloadUrlForLayer')!.input).toEqual({ repositoryName: IMAGE, layerDigest: CONFIG_DIGEST });
  });

  test('names an image that starts as root, listens elsewhere, keeps data in an unmounted volume, or starts nothing', async () => {
    served({ ExposedPorts: { '8080/tcp': {} }, Volumes: { '/var/lib/data': {} } });
    expect(statuses(await imageChecks(image, aws.calls())).slice(1)).toEqual([
      `warn containerImage: ${IMAGE}:3.77.1 names no user (it starts as root); App runs it as 200`,
      `warn containerImage: ${IMAGE}:3.77.1 exposes 8080; App sends traffic to 8081`,
      `warn containerImage: ${IMAGE}:3.77.1 declares the volume /var/lib/data, which App does not mount: its data stays in the task's storage and a replacement loses it`,
      `fail containerImage: ${IMAGE}:3.77.1 names no entrypoint and no command, and App gives none`,
    ]);
  });
});

describe('secrets and their keys', () => {
  const KEY = `arn:aws:kms:eu-west-1:${ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;
  const secrets = facts({ secretArns: [SECRET], context: { dockerHubCredentialArn: SECRET } });
  const keyPolicy = (principal: string) => JSON.stringify({ Statement: [{ Effect: 'Allow', Principal: { AWS: principal }, Action: 'kms:*', Resource: '*' }] });
  const described = (policyPrincipal: string) => aws
    .answer('@aws-sdk/client-secrets-manager', 'DescribeSecret', { ARN: SECRET, Name: 'ecr-pullthroughcache/docker-hub', KmsKeyId: KEY })
    .answer('@aws-sdk/client-kms', 'DescribeKey', { KeyMetadata: { KeyId: KEY, Arn: KEY, KeyState: 'Enabled', KeyManager: 'CUSTOMER' } })
    .answer('@aws-sdk/client-kms', 'GetKeyPolicy', { Policy: keyPolicy(policyPrincipal), PolicyName: 'default' });

  test('passes: the secret exists, its key lets the account\'s IAM grant decryption; named by its key', async () => {
    described(`arn:aws:iam::${ACCOUNT}:root`);
    const [found] = await secretChecks(secrets, aws.calls(), ACCOUNT);
    expect(found).toMatchObject({ status: 'ok', key: 'dockerHubCredentialArn' });
  });

  test('fails: a key policy without the account; a secret that does not exist; one scheduled for deletion', async () => {
    described('arn:aws:iam::210987654321:root');
    expect((await secretChecks(secrets, aws.calls(), ACCOUNT))[0]).toMatchObject({ status: 'fail', message: expect.stringMatching(/cannot read it$/) });
    aws.reset();
    aws.answer('@aws-sdk/client-secrets-manager', 'DescribeSecret', awsError('ResourceNotFoundException'));
    expect((await secretChecks(secrets, aws.calls(), ACCOUNT))[0]).toMatchObject({ status: 'fail', message: `${SECRET} does not exist` });
    aws.reset();
    aws.answer('@aws-sdk/client-secrets-manager', 'DescribeSecret', { ARN: SECRET, DeletedDate: new Date('2026-12-01T00:00:00Z') });
    expect((await secretChecks(secrets, aws.calls(), ACCOUNT))[0]).toMatchObject({ status: 'fail', message: expect.stringMatching(/scheduled for deletion/) });
  });
});

describe('the zone and the certificate', () => {
  const CERTIFICATE = `arn:aws:acm:eu-west-1:${ACCOUNT}:certificate/12345678-1234-1234-1234-123456789012`;
  const names = facts({
    zoneRecords: [{ zoneId: 'Z0123456789ABCDEFGHIJ', names: ['ci.example.com'] }],
    requestedCertificates: [{ domainName: 'ci.example.com', zoneIds: ['Z0123456789ABCDEFGHIJ'] }],
    givenCertificates: [{ arn: CERTIFICATE, names: ['ci.example.com'] }],
  });
  const zone = (name: string, privateZone = false) => aws.answer('@aws-sdk/client-route-53', 'GetHostedZone', {
    HostedZone: { Id: '/hostedzone/Z0123456789ABCDEFGHIJ', Name: name, CallerReference: 'r', Config: { PrivateZone: privateZone } },
  });
  const certificate = (status: string, san: string) => aws.answer('@aws-sdk/client-acm', 'DescribeCertificate', {
    Certificate: { CertificateArn: CERTIFICATE, DomainName: san, SubjectAlternativeNames: [san], Status: status, Type: 'AMAZON_ISSUED', NotAfter: new Date(Date.now() + 200 * 86_400_000) },
  });

  test('passes: the zone serves the names, the certificate is issued and covers them (a wildcard covers one label)', async () => {
    zone('example.com.');
    certificate('ISSUED', '*.example.com');
    expect((await dnsChecks(names, aws.calls())).map((f) => f.status)).toEqual(['ok', 'ok', 'ok']);
    expect([covers(['*.example.com'], 'ci.example.com'), covers(['*.example.com'], 'a.ci.example.com'), covers(['*.example.com'], 'example.com')]).toEqual([true, false, false]);
  });

  test('fails: another domain\'s zone, a private zone for validation, a certificate pending or for other names, or of another region', async () => {
    zone('example.org.');
    certificate('PENDING_VALIDATION', 'ci.example.com');
    expect(statuses(await dnsChecks(names, aws.calls()))).toEqual([
      'fail hostedZoneId: Z0123456789ABCDEFGHIJ is example.org, which does not serve ci.example.com (a record)',
      'fail hostedZoneId: Z0123456789ABCDEFGHIJ is example.org, which does not serve ci.example.com (the certificate\'s validation record)',
      `fail certificateArn: ${CERTIFICATE} is PENDING_VALIDATION, not ISSUED`,
    ]);
    aws.reset();
    zone('example.com.', true);
    certificate('ISSUED', 'other.example.com');
    expect(statuses(await dnsChecks(names, aws.calls())).slice(1)).toEqual([
      'fail hostedZoneId: Z0123456789ABCDEFGHIJ is a private zone: ACM cannot read the validation record for ci.example.com there',
      `fail certificateArn: ${CERTIFICATE} does not cover ci.example.com`,
    ]);
    expect((await dnsChecks(names, aws.calls('eu-central-1')))[2]).toMatchObject({ status: 'fail', message: `${CERTIFICATE} is in eu-west-1; the load balancer is in eu-central-1` });
    aws.reset();
    aws.answer('@aws-sdk/client-route-53', 'GetHostedZone', awsError('NoSuchHostedZone'));
    expect((await dnsChecks(facts({ zoneRecords: names.zoneRecords }), aws.calls()))[0]).toMatchObject({ status: 'fail', message: expect.stringMatching(/does not exist/) });
  });
});

describe('AWS Config and Security Hub', () => {
  const both = facts({ conformancePack: true, securityHubStandard: true });

  test('passes: a recorder records, the hub is enabled', async () => {
    aws.answer('@aws-sdk/client-config-service', 'DescribeConfigurationRecorderStatus', { ConfigurationRecordersStatus: [{ name: 'default', recording: true }] })
      .answer('@aws-sdk/client-securityhub', 'DescribeHub', { HubArn: `arn:aws:securityhub:eu-west-1:${ACCOUNT}:hub/default` });
    expect((await serviceChecks(both, aws.calls())).map((f) => `${f.status} ${f.key}`)).toEqual(['ok pciConformancePack', 'ok securityHubPciDss']);
  });

  test('fails: the recorder stopped, the hub not enabled', async () => {
    aws.answer('@aws-sdk/client-config-service', 'DescribeConfigurationRecorderStatus', { ConfigurationRecordersStatus: [{ name: 'default', recording: false }] })
      .answer('@aws-sdk/client-securityhub', 'DescribeHub', awsError('InvalidAccessException', 'Account is not subscribed to AWS Security Hub'));
    expect(statuses(await serviceChecks(both, aws.calls()))).toEqual([
      'fail pciConformancePack: AWS Config does not record in eu-west-1 (default stopped): the conformance pack\'s rules would evaluate nothing',
      'fail securityHubPciDss: Security Hub is not enabled in eu-west-1 (InvalidAccessException): its PCI DSS standard cannot be enabled',
    ]);
  });
});

describe('quotas', () => {
  const counts = facts({
    counts: { rulesPerListener: { '{"Ref":"Https"}': 12 }, targetGroups: 3, elasticIps: 2, mostRules: { inbound: { group: 'App/Sg', rules: 7 }, outbound: { group: 'App/Sg', rules: 2 } } },
  });
  const account = (eips: string, addresses: number, rules: number) => aws
    .answer('@aws-sdk/client-elastic-load-balancing-v2', 'DescribeAccountLimits', { Limits: [{ Name: 'rules-per-application-load-balancer', Max: '100' }, { Name: 'target-groups', Max: '3000' }] })
    .answer('@aws-sdk/client-elastic-load-balancing-v2', 'DescribeTargetGroups', { TargetGroups: [{ TargetGroupName: 'a' }] })
    .answer('@aws-sdk/client-ec2', 'DescribeAccountAttributes', { AccountAttributes: [{ AttributeName: 'vpc-max-elastic-ips', AttributeValues: [{ AttributeValue: eips }] }] })
    .answer('@aws-sdk/client-ec2', 'DescribeAddresses', { Addresses: Array.from({ length: addresses }, (_, i) => ({ PublicIp: `203.0.113.${i}` })) })
    .answer('@aws-sdk/client-service-quotas', 'ListServiceQuotas', { Quotas: [{ QuotaName: SECURITY_GROUP_RULES_QUOTA, QuotaCode: 'L-0EA8095F', Value: rules }] });

  test('passes: room under every quota', async () => {
    account('5', 0, 60);
    expect((await quotaChecks(counts, aws.calls())).map((f) => f.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
  });

  test('fails over a quota, warns near one', async () => {
    account('5', 4, 8);
    expect(statuses(await quotaChecks(counts, aws.calls())).filter((s) => !s.startsWith('ok'))).toEqual([
      'fail the deployment: Elastic IP addresses: 2 from this deployment and 4 in the account, of 5',
      'warn the deployment: inbound rules of one security group (App/Sg): 7 from this deployment, of 8',
    ]);
  });
});

describe('the deployed stacks', () => {
  test('a stack not deployed yet is new; a deployed one is compared by check-change\'s checker', async () => {
    const template = { Resources: { Fs: { Type: 'AWS::EFS::FileSystem', Properties: {} } } };
    aws.answer('@aws-sdk/client-cloudformation', 'GetTemplate', awsError('ValidationError', 'Stack with id App does not exist'));
    expect(statuses(await deployedChecks(facts({ stacks: { App: template } }), aws.calls()))).toEqual(['ok the deployment: no stack of it is deployed in eu-west-1 yet']);
    aws.reset();
    aws.answer('@aws-sdk/client-cloudformation', 'GetTemplate', { TemplateBody: JSON.stringify(template) });
    expect(statuses(await deployedChecks(facts({ stacks: { App: template } }), aws.calls()))).toEqual(['ok the deployment: App: nothing replaced, nothing refused']);
  });
});

test('a mock shaped otherwise than the model is refused (negative control of support.ts)', () => {
  expect(() => aws.answer('@aws-sdk/client-ec2', 'DescribeVpcAttribute', { EnableDnsSupport: { Value: 'yes' } })).toThrow(/\$\.EnableDnsSupport\.Value: "yes" is not a boolean/);
  expect(() => aws.answer('@aws-sdk/client-ec2', 'DescribeVpcAttribute', { DnsSupport: true })).toThrow(/\$\.DnsSupport: no such member/);
  expect(() => aws.answer('@aws-sdk/client-route-53', 'GetHostedZone', awsError('ResourceNotFoundException'))).toThrow(/lists no error ResourceNotFoundException/);
});

const hasCfnLint = requireInCi(spawnSync('cfn-lint', ['--version']).status === 0, 'cfn-lint');
(hasCfnLint ? test : test.skip)('the shapes the mocks are held to are what the pinned botocore gives (tools/aws/preflight-shapes/derive.py --check)', () => {
  // botocore comes with the pinned cfn-lint, in the Python beside it (scripts/setup.sh makes its virtual environment).
  const python = path.join(path.dirname(fs.realpathSync(spawnSync('sh', ['-c', 'command -v cfn-lint'], { encoding: 'utf-8' }).stdout.trim())), 'python3');
  const run = spawnSync(python, [path.join(__dirname, '..', '..', '..', '..', 'tools', 'aws', 'preflight-shapes', 'derive.py'), '--check'], { encoding: 'utf-8' });
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout)).toEqual(JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'aws', 'preflight', 'operation-shapes.json'), 'utf-8')));
});

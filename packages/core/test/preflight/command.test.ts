import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { awsError, MockedAws } from './support';
import { PREFLIGHT_CLIENTS, PREFLIGHT_INSTALL, unpinnedClients } from '../../src/preflight/clients';
import { preflight, readContext } from '../../src/preflight/preflight';
import { requireInCi } from '../support/shellcheck';

// `npx fw-deploy preflight` where cdk.json is: with no credentials, one line saying so; with an account (mocked, each
// answer shaped as the service's model gives it), one line a finding and exit 1 when anything would fail.

const EXAMPLE = path.join(__dirname, '..', '..', '..', '..', 'examples', 'build-server');
const built = requireInCi(fs.existsSync(path.join(__dirname, '..', '..', 'lib', 'preflight', 'preflight.js')), 'the compiled lib/ (compile runs before test)');

(built ? test : test.skip)('without credentials: exit 1 and one line naming them, no stack trace', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-no-credentials-'));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('AWS_')));
  const run = spawnSync(process.execPath, [path.join(__dirname, '..', '..', 'bin', 'fw-deploy'), 'preflight'], {
    cwd: EXAMPLE,
    encoding: 'utf-8',
    env: { ...env, HOME: home, AWS_EC2_METADATA_DISABLED: 'true', AWS_CONFIG_FILE: path.join(home, 'none'), AWS_SHARED_CREDENTIALS_FILE: path.join(home, 'none') },
  });
  expect(run.status).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(
    /^fw-deploy: preflight: no usable AWS credentials \(CredentialsProviderError\): set AWS_PROFILE, or run it where the deployer's credentials are; it makes read-only calls only$/)]);
}, 60_000);

test('the context: cdk.json\'s, then the -c values, an object given as JSON read as one', () => {
  const context = readContext(EXAMPLE, ['-c', 'region=eu-central-1', '-c', 'existingVpc={"vpcId":"vpc-01234567"}']);
  expect(context).toMatchObject({ stackName: 'build-server', region: 'eu-central-1', existingVpc: { vpcId: 'vpc-01234567' } });
});

test('the clients are pinned exactly; the install line names each at its pin, and docs/deploying.md gives that line', () => {
  const docs = fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'docs', 'deploying.md'), 'utf-8');
  expect(docs.replace(/ \\\n {2}/g, ' ')).toContain(`\n${PREFLIGHT_INSTALL}\n`);
  const root = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf-8'));
  for (const [name, version] of PREFLIGHT_INSTALL.split(' ').filter((w) => w.startsWith('@aws-sdk/')).map((w) => [w.slice(0, w.lastIndexOf('@')), w.slice(w.lastIndexOf('@') + 1)])) {
    expect([name, root.devDependencies[name]]).toEqual([name, version]);
  }
});

test('a client installed at another version than its pin is named; the workspace\'s are at their pins', () => {
  expect(unpinnedClients(EXAMPLE)).toEqual([]);
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-unpinned-'));
  const sts = path.join(project, 'node_modules', '@aws-sdk', 'client-sts');
  fs.mkdirSync(sts, { recursive: true });
  fs.writeFileSync(path.join(sts, 'package.json'), JSON.stringify({ name: '@aws-sdk/client-sts', version: '3.0.0' }));
  expect(unpinnedClients(project)).toEqual([{ name: '@aws-sdk/client-sts', installed: '3.0.0', pin: PREFLIGHT_CLIENTS['@aws-sdk/client-sts'] }]);
});

describe('against a mocked account', () => {
  const aws = new MockedAws();
  afterAll(() => aws.restore());

  (built ? test : test.skip)('the build server example: the placeholder digests fail it, the rest holds; every call read-only and shaped as the model\'s', async () => {
    const ACCOUNT = '123456789012';
    const SECRET_PREFIX = `arn:aws:secretsmanager:eu-west-1:${ACCOUNT}:secret:`;
    aws.answer('@aws-sdk/client-sts', 'GetCallerIdentity', { Account: ACCOUNT, Arn: `arn:aws:iam::${ACCOUNT}:role/deployer`, UserId: 'AROA' })
      .answer('@aws-sdk/client-ecr', 'DescribePullThroughCacheRules', { pullThroughCacheRules: [{ ecrRepositoryPrefix: 'fw-hub-e92ef2d4', credentialArn: `${SECRET_PREFIX}ecr-pullthroughcache/docker-hub-AbCdEf` }] })
      .answer('@aws-sdk/client-secrets-manager', 'DescribeSecret', { Name: 'a-secret' })
      .answer('@aws-sdk/client-route-53', 'GetHostedZone', { HostedZone: { Id: 'Z0123456789ABCDEFGHIJ', Name: 'example.com.', CallerReference: 'r', Config: { PrivateZone: false } } })
      .answer('@aws-sdk/client-elastic-load-balancing-v2', 'DescribeAccountLimits', { Limits: [{ Name: 'rules-per-application-load-balancer', Max: '100' }, { Name: 'target-groups', Max: '3000' }] })
      .answer('@aws-sdk/client-ec2', 'DescribeAccountAttributes', { AccountAttributes: [{ AttributeName: 'vpc-max-elastic-ips', AttributeValues: [{ AttributeValue: '5' }] }] })
      .answer('@aws-sdk/client-service-quotas', 'ListServiceQuotas', { Quotas: [{ QuotaName: 'Inbound or outbound rules per security group', Value: 60 }] })
      .answer('@aws-sdk/client-cloudformation', 'GetTemplate', awsError('ValidationError', 'Stack with id build-server does not exist'));
    const lines: string[] = [];
    const code = await preflight([], EXAMPLE, (l) => lines.push(l));
    expect(lines[0]).toBe('preflight: account 123456789012, region eu-west-1, stacks build-server');
    expect(lines).toEqual(expect.arrayContaining([
      expect.stringMatching(/^FAIL images \(imageDigests\): fw-hub-e92ef2d4\/jenkins\/jenkins:2\.568\.2-lts-jdk21 is pinned to the placeholder digest sha256:0{64}$/),
      '       fix: set imageDigests to the digest of the image you reviewed (docker buildx imagetools inspect <image>:<tag>)',
      `ok   secrets (dockerHubCredentialArn): ${SECRET_PREFIX}ecr-pullthroughcache/docker-hub-AbCdEf exists, encrypted with aws/secretsmanager`,
      `ok   secrets (oidcClientSecretArn): ${SECRET_PREFIX}build-server/oidc-AbCdEf exists, encrypted with aws/secretsmanager`,
      'ok   dns (hostedZoneId): Z0123456789ABCDEFGHIJ (example.com) serves ci.example.com',
      'ok   deployed (the deployment): no stack of it is deployed in eu-west-1 yet',
    ]));
    expect(lines.pop()).toMatch(/^preflight: \d+ findings, 2 would fail the deployment, \d+ to look at\.$/);
    expect(code).toBe(1);
    const sent = aws.sent();
    expect(sent.filter((s) => s.misfits.length > 0)).toEqual([]);
    expect(sent.every((s) => /^[a-z0-9-]+ (Get|Describe|List|BatchGet)/.test(s.call))).toBe(true);
  }, 180_000);
});

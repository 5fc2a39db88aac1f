import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ApplicationFactory, Compliance, Platform, RuntimeType, SecurityProfile } from '../../src';
import type { EvidenceReport } from '../../src/compliance/report-model';
import { sourceRevision } from '../../src/compliance/source-revision';
import { WikiSpec } from '../fixtures/wiki-spec';
import { PLATFORM_PROPS } from '../support/platform';
import { IMAGE_DIGESTS, propsFor, REGION_ENV, resources } from '../support/synth';

/**
 * A platform team's own stack (a bucket, a database) under the profile's packs with `Compliance.check`, exactly as the
 * framework's stacks: synth fails on a finding, passes once there is none or it is acknowledged, and the evidence report
 * covers it.
 */
function teamStack(bucket: (stack: Stack) => void, profile = SecurityProfile.PRODUCTION) {
  const app = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'fw-check-')) });
  const stack = new Stack(app, 'TeamData', { env: REGION_ENV });
  bucket(stack);
  Compliance.check(stack, profile);
  return { app, stack };
}

/** A bucket encrypted with a key of its own, versioned, logged, TLS only, replicated nowhere: acknowledged where it is not. */
function cleanBucket(stack: Stack): void {
  const key = new kms.Key(stack, 'Key', { enableKeyRotation: true });
  const logs = new s3.Bucket(stack, 'AccessLogs', {
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    versioned: true,
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
  });
  const data = new s3.Bucket(stack, 'Data', {
    encryptionKey: key,
    encryption: s3.BucketEncryption.KMS,
    enforceSSL: true,
    versioned: true,
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    serverAccessLogsBucket: logs,
  });
  for (const bucket of [logs, data]) {
    Compliance.acknowledge(bucket, 'S3BucketReplicationEnabled', 'Kept in one region by design; AWS Backup copies it to the archive account nightly.');
    Compliance.acknowledge(bucket, 'S3DefaultEncryptionKMS', 'Encrypted at rest; the access-log bucket takes SSE-S3 only, as S3 server access logging requires.');
    Compliance.acknowledge(bucket, 'S3BucketDefaultLockEnabled', 'Objects are replaced by design; versioning keeps every earlier version restorable.');
  }
  Compliance.acknowledge(logs, 'EncryptedWithCustomerKey', 'The access-log bucket takes SSE-S3 only, as S3 server access logging requires.');
  Compliance.acknowledge(logs, 'S3BucketLoggingEnabled', 'This is the access-log bucket itself: logging it to itself would loop.');
}

/**
 * A bucket without encryption settings: S3 has encrypted every new object with its own key (SSE-S3) since 2023, and
 * `BucketEncryption.UNENCRYPTED` is deprecated for that reason; "unencrypted" now means without a key of the account's.
 */
const plainBucket = (stack: Stack) => { new s3.Bucket(stack, 'Plain'); };
const NOT_ENCRYPTED = /NIST\.800\.53\.R5-S3DefaultEncryptionKMS \(error\)[^\n]*\[TeamData\/Plain\/Resource\]/;

test('PRODUCTION: a bucket without a KMS key in a team\'s own stack fails synth, naming the rule and the resource', () => {
  const { app } = teamStack(plainBucket);
  expect(() => app.synth()).toThrow(NOT_ENCRYPTED);
});

test('PRODUCTION: a clean stack passes, with its acknowledgements in the template and the evidence report beside it', () => {
  const { app } = teamStack(cleanBucket);
  const assembly = app.synth();
  const template = assembly.getStackByName('TeamData').template;
  const [[, data]] = resources(template, 'AWS::S3::Bucket').filter(([id]) => id.startsWith('Data'));
  expect(JSON.stringify(data.Metadata)).toContain('S3BucketDefaultLockEnabled');
  const report: EvidenceReport = JSON.parse(fs.readFileSync(path.join(app.outdir, 'TeamData.pci-dss-4.0.1.json'), 'utf-8'));
  const evaluations = report.requirements.flatMap((r) => r.evaluations).filter((e) => e.resource === 'TeamData/Data/Resource');
  expect(evaluations.length).toBeGreaterThan(0);
  expect(evaluations.filter((e) => e.result === 'fails')).toEqual([]);
  expect(evaluations.map((e) => e.result)).toEqual(expect.arrayContaining(['passes', 'acknowledged']));
});

test('DEV and STAGING run no packs: the same bucket synthesises, with no report', () => {
  for (const profile of [SecurityProfile.DEV, SecurityProfile.STAGING]) {
    const { app } = teamStack(plainBucket, profile);
    app.synth();
    expect(fs.existsSync(path.join(app.outdir, 'TeamData.pci-dss-4.0.1.json'))).toBe(false);
  }
});

test('a construct inside a framework stack is checked once: its findings are reported once', () => {
  const app = new App();
  const stack = new Stack(app, 'WikiStack', { env: REGION_ENV });
  new ApplicationFactory(stack, 'App', RuntimeType.FARGATE, new WikiSpec(), propsFor(SecurityProfile.PRODUCTION));
  const bucket = new s3.Bucket(stack, 'Plain');
  Compliance.check(bucket, SecurityProfile.PRODUCTION);
  let message = '';
  try {
    app.synth();
  } catch (e) {
    message = String((e as Error).message);
  }
  expect(message.split('\n').filter((l) => l.includes('NIST.800.53.R5-S3DefaultEncryptionKMS'))).toEqual([expect.stringContaining('[WikiStack/Plain/Resource]')]);
});

test('refused: an app, or a profile that does not exist', () => {
  expect(() => Compliance.check(new App(), SecurityProfile.PRODUCTION)).toThrow(/^Compliance\.check on .*: not allowed; give a stack or a construct inside one/);
  expect(() => Compliance.check(new Stack(), 'PROD' as SecurityProfile)).toThrow(/^Compliance\.check: profile "PROD" is not allowed; expected DEV, STAGING, PRODUCTION\.$/);
});

describe.each([
  ['pciConformancePack', 'AWS::Config::ConformancePack', 'one conformance pack', 'deploys'],
  ['securityHubPciDss', 'AWS::SecurityHub::Standard', 'one Security Hub standard', 'enables'],
])('%s: once per account and region', (key, type, once, verb) => {
  test('on a platform: the platform\'s; an application on it may not set it', () => {
    const app = new App();
    const platform = new Platform(new Stack(app, 'Platform', { env: REGION_ENV }), 'Platform', { ...PLATFORM_PROPS, [key]: true });
    expect(resources(app.synth().getStackByName('Platform').template, type)).toHaveLength(1);
    expect(() => new ApplicationFactory(new Stack(app, 'Wiki', { env: REGION_ENV }), 'App', RuntimeType.FARGATE, new WikiSpec(),
      { platform, imageDigests: IMAGE_DIGESTS, subdomain: 'wiki', [key]: true }))
      .toThrow(new RegExp(`${key} true belongs to the platform \\(${once} per account and region\\); set it there\\.`));
  });

  test('two standalone stacks of one account and region: the second is refused, naming the first', () => {
    const app = new App();
    const props = { ...propsFor(SecurityProfile.DEV), [key]: true };
    new ApplicationFactory(new Stack(app, 'One', { env: REGION_ENV }), 'App', RuntimeType.FARGATE, new WikiSpec(), props);
    expect(() => new ApplicationFactory(new Stack(app, 'Two', { env: REGION_ENV }), 'App', RuntimeType.FARGATE, new WikiSpec(), props))
      .toThrow(new RegExp(`^${key} on Two: One ${verb} it in the same account and region already`));
    // Another region has its own.
    new ApplicationFactory(new Stack(app, 'Three', { env: { region: 'eu-central-1' } }), 'App', RuntimeType.FARGATE, new WikiSpec(), props);
  });
});

test('securityHubPciDss enables the PCI DSS v4.0.1 standard of the stack\'s region, and warns that Security Hub must be enabled there', () => {
  const app = new App();
  const factory = new ApplicationFactory(new Stack(app, 'One', { env: REGION_ENV }), 'App', RuntimeType.FARGATE, new WikiSpec(),
    { ...propsFor(SecurityProfile.DEV), securityHubPciDss: true });
  const [[, standard]] = resources(app.synth().getStackByName('One').template, 'AWS::SecurityHub::Standard');
  expect(standard.Properties).toEqual({ StandardsArn: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':securityhub:eu-west-1::standards/pci-dss/v/4.0.1']] } });
  Annotations.fromStack(Stack.of(factory)).hasWarning('*', Match.stringLikeRegexp('needs Security Hub enabled in this account and region'));
  // Off unless set.
  const other = new App();
  new ApplicationFactory(new Stack(other, 'Two', { env: REGION_ENV }), 'App', RuntimeType.FARGATE, new WikiSpec(), propsFor(SecurityProfile.DEV));
  expect(resources(other.synth().getStackByName('Two').template, 'AWS::SecurityHub::Standard')).toEqual([]);
});

test('the report names the system: the template\'s SHA-256 as written, the environment, the versions; SOURCE_DATE_EPOCH fixes the time', () => {
  const epoch = process.env.SOURCE_DATE_EPOCH;
  process.env.SOURCE_DATE_EPOCH = '1767225600';
  try {
    const { app } = teamStack(cleanBucket);
    app.synth();
    const report: EvidenceReport = JSON.parse(fs.readFileSync(path.join(app.outdir, 'TeamData.pci-dss-4.0.1.json'), 'utf-8'));
    const written = fs.readFileSync(path.join(app.outdir, 'TeamData.template.json'));
    expect(report.system).toEqual({
      stack: 'TeamData',
      account: 'resolved at deploy',
      region: 'eu-west-1',
      templateFile: 'TeamData.template.json',
      templateSha256: createHash('sha256').update(written).digest('hex'),
      versions: { framework: expect.stringMatching(/^\d+\.\d+\.\d+/), cdkNag: expect.stringMatching(/^\d+\.\d+\.\d+$/), awsCdkLib: expect.stringMatching(/^2\./) },
      generatedAt: '2026-01-01T00:00:00.000Z',
      // A stack checked with Compliance.check has no resolved configuration to name.
      sourceRevision: sourceRevision() ?? 'not stated',
    });
  } finally {
    if (epoch === undefined) delete process.env.SOURCE_DATE_EPOCH; else process.env.SOURCE_DATE_EPOCH = epoch;
  }
});

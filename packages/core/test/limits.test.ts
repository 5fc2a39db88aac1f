import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ApplicationFactory, ContainerInitialization, DeploymentContextReader, IOidcIntegration, LogAlarm, PciDssScope, RuntimeType, SecurityProfile } from '../src';
import { MinimalSpec, problemsWith } from './fixtures/minimal-spec';
import { WikiOidcSpec } from './fixtures/wiki-spec';
import { requireInCi } from './support/shellcheck';
import { OIDC, pinnedImage } from './support/synth';
import { factorySizeProblems, checkFactorySizes } from '../src/contract/factory-limits';
import { specProblems, USER_DATA_MAX_BYTES, userDataProblem } from '../src/contract/spec-validation';
import { boundedName } from '../src/infrastructure/names';

/**
 * Every value checked against the limit AWS or Linux applies to it (issue 12, item 3): one test per limit, each
 * expecting a one-line message naming the key or member, the value (shortened when long) and the limit.
 */

const VALID = {
  stackName: 'build-server', applicationId: 'wiki', runtimeType: 'FARGATE', securityProfile: 'DEV', sslEnabled: 'false',
};

/** The one problem line of the reader's error for these values. */
function contextProblem(values: Record<string, unknown>): string {
  try {
    DeploymentContextReader.fromValues({ ...VALID, ...values });
  } catch (e) {
    const lines = (e as Error).message.split('\n');
    expect(lines[0]).toBe('Invalid deployment context (1 problem):');
    expect(lines).toHaveLength(2);
    return lines[1];
  }
  throw new Error('the values were accepted');
}

const long = (c: string, n: number) => c.repeat(n);

describe('context keys: each value within the limit AWS applies', () => {
  test('stackName: at most 128 characters (CloudFormation); a longer one is shown shortened', () => {
    const line = contextProblem({ stackName: `a${long('b', 128)}` });
    expect(line).toBe(`  - stackName "a${long('b', 39)}…" (129 characters) is not allowed; expected a CloudFormation ` +
      'stack name: a letter, then letters, digits and -, at most 128 characters.');
    expect(() => DeploymentContextReader.fromValues({ ...VALID, stackName: `a${long('b', 127)}` })).not.toThrow();
  });

  test('stackName: a letter, then letters, digits and - (CloudFormation\'s pattern)', () => {
    expect(contextProblem({ stackName: 'build_server' })).toMatch(/stackName "build_server" is not allowed; expected a CloudFormation stack name/);
    expect(contextProblem({ stackName: '1build' })).toMatch(/stackName "1build" is not allowed/);
  });

  test('applicationId: at most 63 characters', () => {
    expect(contextProblem({ applicationId: `a${long('b', 63)}` })).toMatch(/applicationId "abbb.*…" \(64 characters\) is not allowed/);
  });

  test('domain: DNS labels of at most 63 characters', () => {
    expect(contextProblem({ domain: `${long('a', 64)}.com` })).toMatch(/domain "a{40}…" \(68 characters\) is not allowed; expected a domain name/);
  });

  test('subdomain: DNS labels of at most 63 characters', () => {
    expect(contextProblem({ domain: 'example.com', subdomain: long('s', 64) })).toMatch(/subdomain "s{40}…" \(64 characters\) is not allowed; expected one or more DNS labels/);
  });

  test('subdomain + domain: at most 253 characters (DNS)', () => {
    const domain = `${long('a', 60)}.${long('b', 60)}.${long('c', 60)}.com`;
    expect(contextProblem({ domain, subdomain: `${long('d', 60)}.${long('e', 20)}` }))
      .toMatch(/^ {2}- subdomain \+ domain "d{40}…" \(268 characters\) is longer than 253 characters, the DNS limit\.$/);
  });

  test('subdomain + domain of a certificate the stack creates: at most 64 characters (ACM)', () => {
    const tls = { sslEnabled: 'true', domain: 'example.com', hostedZoneId: 'Z0123456789ABCDEFGHIJ' };
    expect(contextProblem({ ...tls, subdomain: long('c', 53) }))
      .toMatch(/subdomain \+ domain "c{40}…" \(65 characters\) is longer than 64 characters, the limit ACM applies/);
    expect(() => DeploymentContextReader.fromValues({ ...VALID, ...tls, subdomain: long('c', 52) })).not.toThrow();
    // An imported certificate may carry the long name as a subject alternative name.
    expect(() => DeploymentContextReader.fromValues({
      ...VALID,
      ...tls,
      subdomain: long('c', 53),
      region: 'eu-west-1',
      certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/12345678-1234-1234-1234-123456789012',
    })).not.toThrow();
  });

  test('certificateArn: in the stack\'s region (ACM certificates are regional)', () => {
    expect(contextProblem({
      region: 'eu-west-1', certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/12345678-1234-1234-1234-123456789012',
    })).toMatch(/certificateArn "arn:aws:acm:us-east-1:.*" \(83 characters\) is in us-east-1, the stack in eu-west-1; a load balancer uses only certificates of its own region/);
  });

  test('hostedZoneId: at most 32 characters (Route 53)', () => {
    expect(contextProblem({ domain: 'example.com', hostedZoneId: `Z${long('A', 32)}` }))
      .toMatch(/hostedZoneId "ZAAA+" is not allowed; expected a Route 53 hosted zone id/);
  });

  test('alarmEmail: at most 254 characters, 64 before the @ (SMTP, RFC 5321)', () => {
    expect(contextProblem({ alarmEmail: `${long('a', 65)}@example.com` }))
      .toMatch(/alarmEmail "a{40}…" \(77 characters\) is not allowed; expected an e-mail address .*at most 64 before the @/);
    expect(contextProblem({ alarmEmail: `security@${long('a', 63)}.${long('b', 63)}.${long('c', 63)}.${long('d', 50)}.com` }))
      .toMatch(/alarmEmail "security@a{31}…" \(255 characters\) is not allowed; expected an e-mail address .*at most 254 characters/);
    expect(() => DeploymentContextReader.fromValues({
      ...VALID, alarmEmail: `security@${long('a', 63)}.${long('b', 63)}.${long('c', 63)}.${long('d', 49)}.com`,
    })).not.toThrow();
    expect(() => DeploymentContextReader.fromValues({ ...VALID, alarmEmail: `${long('a', 64)}@example.com` })).not.toThrow();
  });

  test('oidcClientId: at most 255 characters without spaces', () => {
    expect(contextProblem({ oidcClientId: long('x', 256) })).toMatch(/oidcClientId "x{40}…" \(256 characters\) is not allowed/);
  });
});

describe('names derived from the stack name: shortened to the AWS limit, stable', () => {
  test('a name within the limit is unchanged', () => {
    expect(boundedName('Alarms of build-server', 100)).toBe('Alarms of build-server');
  });
  test('a longer one keeps its start and ends with 8 hex characters of its hash; same input, same name', () => {
    const name = `Alarms of a${long('b', 127)}`;
    const bounded = boundedName(name, 100);
    expect(bounded).toHaveLength(100);
    expect(bounded).toMatch(/^Alarms of ab+-[0-9a-f]{8}$/);
    expect(boundedName(name, 100)).toBe(bounded);
    expect(boundedName(`${name}c`, 100)).not.toBe(bounded);
  });
});

/** A test plugin that uses every construct whose names derive from inputs: alarms (SNS topic), init container. */
class FullWikiSpec extends WikiOidcSpec {
  public logAlarms(): LogAlarm[] {
    return [{ name: 'WikiFailedLogins', description: 'Failed sign-ins', filterPattern: '"login failed"', threshold: 10, periodSeconds: 300 }];
  }
  public containerInitialization(): ContainerInitialization {
    return { files: { 'wiki.conf': 'data=/srv/wiki-data\n' } };
  }
}

/** Limits of every name-like property the stack's resources carry, from the CloudFormation and service references. */
const NAME_RULES: Array<[type: string, property: string, pick: (p: any) => unknown[], max: number, pattern?: RegExp]> = [
  ['AWS::Logs::LogGroup', 'LogGroupName', (p) => [p.LogGroupName], 512, /^[\w\-/.#]+$/],
  ['AWS::SNS::Topic', 'DisplayName', (p) => [p.DisplayName], 100],
  ['AWS::WAFv2::WebACL', 'VisibilityConfig.MetricName', (p) => [p.VisibilityConfig.MetricName,
    ...p.Rules.map((r: any) => r.VisibilityConfig.MetricName)], 128, /^[\w-]+$/],
  ['AWS::ECS::TaskDefinition', 'Family', (p) => [p.Family], 255, /^[\w-]+$/],
  ['AWS::ECS::TaskDefinition', 'ContainerDefinitions[].Name', (p) => p.ContainerDefinitions.map((c: any) => c.Name), 255, /^[\w-]+$/],
  ['AWS::ECS::TaskDefinition', 'Volumes[].Name', (p) => p.Volumes.map((v: any) => v.Name), 255, /^[\w-]+$/],
  ['AWS::ECS::TaskDefinition', 'awslogs-stream-prefix', (p) => p.ContainerDefinitions
    .map((c: any) => c.LogConfiguration.Options['awslogs-stream-prefix']), 512, /^[^:*]+$/],
  ['AWS::IAM::Policy', 'PolicyName', (p) => [p.PolicyName], 128, /^[\w+=,.@-]+$/],
  ['AWS::Logs::MetricFilter', 'MetricNamespace', (p) => p.MetricTransformations.map((m: any) => m.MetricNamespace), 255],
  ['AWS::Logs::MetricFilter', 'MetricName', (p) => p.MetricTransformations.map((m: any) => m.MetricName), 255],
  ['AWS::CloudWatch::Alarm', 'Namespace', (p) => [p.Namespace], 255],
  ['AWS::CloudWatch::Alarm', 'AlarmDescription', (p) => [p.AlarmDescription], 1024],
  ['AWS::KMS::Key', 'Description', (p) => [p.Description], 8192],
  ['AWS::EC2::SecurityGroup', 'GroupDescription', (p) => [p.GroupDescription], 255],
];

describe('the longest stack name the key table accepts (128 characters) synthesises, every derived name within its limit', () => {
  const STACK_NAME = `a${long('b', 127)}`;
  test.each([
    [RuntimeType.FARGATE, SecurityProfile.STAGING], [RuntimeType.FARGATE, SecurityProfile.PRODUCTION],
    [RuntimeType.EC2, SecurityProfile.STAGING], [RuntimeType.EC2, SecurityProfile.PRODUCTION],
  ])('%s, %s', (runtime, securityProfile) => {
    const app = new App();
    // As the deployment app creates it: the stack's construct id is its name too.
    const stack = new Stack(app, STACK_NAME, { stackName: STACK_NAME, env: { region: 'eu-west-1' } });
    new ApplicationFactory(stack, 'Application', runtime, new FullWikiSpec(), {
      securityProfile,
      ...pinnedImage(runtime, { securityProfile }),
      pciDssScope: PciDssScope.CONNECTED,
      authMode: 'application-oidc',
      oidc: OIDC,
      alarmEmail: 'security@example.com',
      // Signing in needs TLS in both profiles.
      ...{ sslEnabled: true, domain: 'example.com', subdomain: 'wiki', hostedZoneId: 'Z0123456789ABCDEFGHIJ' },
    });
    const json = Template.fromStack(stack).toJSON();
    const checked = new Set<string>();
    for (const [type, property, pick, max, pattern] of NAME_RULES) {
      for (const resource of Object.values<any>(json.Resources).filter((r) => r.Type === type)) {
        for (const value of pick(resource.Properties)) {
          if (typeof value !== 'string') continue; // a deploy-time reference: named by CloudFormation
          checked.add(`${type} ${property}`);
          expect({ type, property, length: value.length }).toEqual({ type, property, length: Math.min(value.length, max) });
          if (pattern) expect(value).toMatch(pattern);
        }
      }
    }
    expect(checked).toContain('AWS::SNS::Topic DisplayName');
    expect(checked).toContain('AWS::WAFv2::WebACL VisibilityConfig.MetricName');
    expect(checked).toContain('AWS::Logs::LogGroup LogGroupName');
    if (runtime === RuntimeType.FARGATE) expect(checked).toContain('AWS::ECS::TaskDefinition Family');
    expect(stack.stackName).toHaveLength(128);
  });
});

/** The one problem with this member's value (and checks it is one line naming plugin, member and value). */
function memberProblem(member: string, value: unknown): string {
  const problems = problemsWith(member, value);
  expect(problems).toHaveLength(1);
  expect(problems[0]).not.toContain('\n');
  expect(problems[0].startsWith(`MinimalSpec.${member}() returned `)).toBe(true);
  return problems[0];
}

describe('plugin members: each value within the limit AWS or Linux applies', () => {
  test('the minimal plugin passes', () => expect(specProblems(new MinimalSpec(), 'MinimalSpec')).toEqual([]));

  test('applicationId: at most 63 characters', () => {
    expect(memberProblem('applicationId', long('a', 64))).toMatch(/returned "a{40}…" \(64 characters\); allowed: .*at most 63/);
  });

  test('defaultContainerImage: at most 255 characters of ECS\'s image charset, or a sha256 digest', () => {
    expect(memberProblem('defaultContainerImage', `example/${long('a', 250)}:1`)).toMatch(/\(260 characters\); allowed: an image reference of at most 255/);
    expect(memberProblem('defaultContainerImage', 'example/app:1.0 latest')).toMatch(/returned "example\/app:1.0 latest"/);
    expect(problemsWith('defaultContainerImage', `example/app@sha256:${long('a', 64)}`)).toEqual([]);
    expect(memberProblem('defaultContainerImage', `example/app@sha256:${long('a', 63)}`)).toMatch(/@sha256: and 64 hex digits/);
  });

  test('applicationPort: 1 to 65535', () => {
    expect(memberProblem('applicationPort', 65536)).toMatch(/returned 65536; allowed: an integer port from 1 to 65535/);
  });

  test('containerDataPath: a normalised absolute path, not / and not the framework\'s own mount', () => {
    expect(memberProblem('containerDataPath', '/')).toMatch(/returned "\/"; allowed: an absolute path .*not \/ \(Docker/);
    expect(memberProblem('containerDataPath', '/fw/config/data')).toMatch(/not at or below \/fw\/config/);
    expect(memberProblem('containerDataPath', '/srv/../etc')).toMatch(/without empty, \. or \.\. components/);
    expect(memberProblem('containerDataPath', `/${long('d', 256)}`)).toMatch(/\(257 characters\); allowed: .*255 a component \(Linux PATH_MAX, NAME_MAX\)/);
  });

  test('efsDataPath: at most 100 characters and 4 components, EFS\'s characters', () => {
    expect(memberProblem('efsDataPath', `/${long('e', 100)}`)).toMatch(/\(101 characters\); allowed: an absolute path EFS takes .*at most 100 characters/);
    expect(memberProblem('efsDataPath', '/a/b/c/d/e')).toMatch(/returned "\/a\/b\/c\/d\/e"; allowed: .*1 to 4 components/);
    expect(memberProblem('efsDataPath', '/.hidden')).toMatch(/no component starting with \./);
    expect(memberProblem('efsDataPath', '/data$1')).toMatch(/returned "\/data\$1"/);
    expect(problemsWith('efsDataPath', '/a/b/c/d')).toEqual([]);
  });

  test('efsPermissions: EFS\'s pattern, 3 or 4 octal digits', () => {
    expect(memberProblem('efsPermissions', '75')).toBe('MinimalSpec.efsPermissions() returned "75"; allowed: octal ' +
      'permissions of 3 or 4 digits 0-7, for example 750.');
    expect(memberProblem('efsPermissions', '07550')).toMatch(/returned "07550"/);
  });

  test('volumeName: at most 255 of ECS\'s characters, not the framework\'s fw-config', () => {
    expect(memberProblem('volumeName', long('v', 256))).toMatch(/\(256 characters\); allowed: letters, digits, _ and - \(1 to 255 characters\)/);
    expect(memberProblem('volumeName', 'fw-config')).toMatch(/not fw-config/);
  });

  test('containerUser: ids from 0 to 4294967294 (Linux; 4294967295 is "no id")', () => {
    expect(memberProblem('containerUser', '4294967295:1000')).toMatch(/returned "4294967295:1000"; allowed: <UID>:<GID> with numeric ids from 0 to 4294967294/);
    expect(memberProblem('containerUser', '1000:9999999999')).toMatch(/from 0 to 4294967294/);
    expect(problemsWith('containerUser', '4294967294:0')).toEqual([]);
  });

  test('ebsDeviceName: an EC2 device name, not the root volume\'s', () => {
    expect(memberProblem('ebsDeviceName', '/dev/xvda')).toMatch(/returned "\/dev\/xvda"; allowed: an EC2 device name other than the root volume's/);
    expect(memberProblem('ebsDeviceName', '/dev/sda1')).toMatch(/returned "\/dev\/sda1"/);
    expect(memberProblem('ebsDeviceName', '/dev/nvme1n1')).toMatch(/returned "\/dev\/nvme1n1"/);
    for (const name of ['/dev/sdf', '/dev/xvdf', '/dev/xvdz', '/dev/xvdba']) expect(problemsWith('ebsDeviceName', name)).toEqual([]);
  });

  test('ec2DataPath: not / and not a system directory', () => {
    for (const dir of ['/', '/etc', '/var', '/var/lib', '/usr/local/app', '/proc/data', '/tmp/data', '/boot/x']) {
      expect(memberProblem('ec2DataPath', dir)).toMatch(/allowed: an absolute path .*not \/ or a system directory/);
    }
    expect(memberProblem('ec2DataPath', '/srv/my data')).toMatch(/of letters, digits and _ \. \/ -/);
    for (const dir of ['/var/lib/jenkins', '/srv/wiki', '/opt/app/data', '/data']) expect(problemsWith('ec2DataPath', dir)).toEqual([]);
  });

  test('ec2LogPaths: absolute paths within PATH_MAX', () => {
    expect(memberProblem('ec2LogPaths', [`/${long('l', 4095)}`])).toMatch(/allowed: a list of absolute paths \(each starting with \/, at most 4095 bytes/);
  });

  test('healthCheckPath: at most 1024 printable ASCII characters (ELB)', () => {
    expect(memberProblem('healthCheckPath', `/${long('h', 1024)}`)).toMatch(/\(1025 characters\); allowed: a path starting with \/ .*at most 1024 printable ASCII/);
    expect(memberProblem('healthCheckPath', '/gesundheit/prüfung')).toMatch(/returned "\/gesundheit\/prüfung"/);
    expect(problemsWith('healthCheckPath', `/${long('h', 1023)}`)).toEqual([]);
  });

  test('logAlarms()[].description: at most 1024 characters (CloudWatch alarm description)', () => {
    const alarm: LogAlarm = { name: 'Failures', description: long('d', 1025), filterPattern: 'failed', threshold: 1, periodSeconds: 60 };
    const problems = problemsWith('logAlarms', [alarm]);
    expect(problems).toEqual([`MinimalSpec.logAlarms()[0].description "${long('d', 40)}…" (1025 characters); allowed: text of ` +
      'at most 1024 characters (CloudWatch\'s limit for an alarm description).']);
  });

  test('oidcIntegration().clientSecretVariable(): an environment variable name systemd accepts', () => {
    const spec = new MinimalSpec() as any;
    const integration: IOidcIntegration = {
      callbackPath: () => '/callback', clientSecretVariable: () => 'OIDC-SECRET', environment: () => ({}),
    };
    spec.supportsOidcIntegration = () => true;
    spec.oidcIntegration = () => integration;
    expect(specProblems(spec, 'MinimalSpec')).toEqual(['MinimalSpec.oidcIntegration().clientSecretVariable() returned ' +
      '"OIDC-SECRET"; allowed: an environment variable name (a letter or _, then letters, digits and _), as systemd\'s ' +
      'EnvironmentFile= reads it.']);
  });

  test(`configureUserData(): the rendered user data at most ${USER_DATA_MAX_BYTES} bytes (EC2)`, () => {
    expect(userDataProblem('#!/bin/bash\n', 'MinimalSpec')).toBeUndefined();
    expect(userDataProblem(`#!/bin/bash\n${long('x', USER_DATA_MAX_BYTES)}`, 'MinimalSpec'))
      .toBe('MinimalSpec.configureUserData() makes a user-data script of 16396 bytes (with the framework\'s preamble); ' +
        'EC2 accepts at most 16384 bytes (16 KB before base64). Move files into the image or a download.');
  });
});

describe('factory props: each value within the limit AWS applies', () => {
  test('the defaults pass on both runtimes', () => {
    expect(factorySizeProblems(RuntimeType.FARGATE, {})).toEqual([]);
    expect(factorySizeProblems(RuntimeType.EC2, {})).toEqual([]);
  });

  test('cpu: a Fargate task size', () => {
    expect(factorySizeProblems(RuntimeType.FARGATE, { cpu: 3000 }))
      .toEqual(['cpu 3000 is not a Fargate task size; allowed: 256, 512, 1024, 2048, 4096, 8192, 16384 CPU units.']);
  });

  test('memoryLimitMiB: a value Fargate pairs with the cpu', () => {
    expect(factorySizeProblems(RuntimeType.FARGATE, { cpu: 256, memoryLimitMiB: 1536 }))
      .toEqual(['memoryLimitMiB 1536 does not go with cpu 256 on Fargate; allowed: 512, 1024 or 2048 MiB.']);
    expect(factorySizeProblems(RuntimeType.FARGATE, { cpu: 4096 }))
      .toEqual(['memoryLimitMiB 2048 does not go with cpu 4096 on Fargate; allowed: 8192 to 30720 in steps of 1024 MiB.']);
    expect(factorySizeProblems(RuntimeType.FARGATE, { cpu: 8192, memoryLimitMiB: 20480 })).toEqual([]);
    expect(factorySizeProblems(RuntimeType.FARGATE, { cpu: 8192, memoryLimitMiB: 18432 })).toHaveLength(1);
  });

  test('instanceType: an EC2 instance type name', () => {
    expect(factorySizeProblems(RuntimeType.EC2, { instanceType: 'T3 Medium' }))
      .toEqual(['instanceType "T3 Medium" is not an EC2 instance type; allowed: a name such as t3.medium (family and generation, a dot, the size).']);
    for (const type of ['t3.medium', 'm7i-flex.large', 'g4dn.xlarge', 'u-6tb1.112xlarge']) {
      expect(factorySizeProblems(RuntimeType.EC2, { instanceType: type })).toEqual([]);
    }
  });

  test('instanceType: x86_64, the architecture of the instance\'s image', () => {
    for (const type of ['t4g.medium', 'm7g.large', 'c7gn.xlarge', 'a1.large']) {
      expect(factorySizeProblems(RuntimeType.EC2, { instanceType: type })[0]).toMatch(/is an Arm \(Graviton\) type, but the instance runs the x86_64 Amazon Linux 2023 image/);
    }
  });

  test('dataVolumeGiB: a gp3 size, 1 to 16384 GiB', () => {
    for (const gib of [0, 16385, 1.5]) {
      expect(factorySizeProblems(RuntimeType.EC2, { dataVolumeGiB: gib }))
        .toEqual([`dataVolumeGiB ${gib} is not a gp3 volume size; allowed: a whole number of GiB from 1 to 16384.`]);
    }
    expect(factorySizeProblems(RuntimeType.EC2, { dataVolumeGiB: 16384 })).toEqual([]);
  });

  test('every problem in one error, without a stack trace in its message', () => {
    expect(() => checkFactorySizes(RuntimeType.EC2, { instanceType: 'm7g.large', dataVolumeGiB: 0 }))
      .toThrow(/^Invalid ApplicationFactory props \(2 problems\):\n {2}- instanceType "m7g.large" .*\n {2}- dataVolumeGiB 0 /);
  });
});

describe('through cdk synth in examples/build-server: the message only, exit non-zero', () => {
  const example = path.resolve(__dirname, '..', '..', '..', 'examples', 'build-server');
  const built = requireInCi(fs.existsSync(path.resolve(__dirname, '..', 'lib', 'main.js')), 'the compiled lib/ (compile runs before test)');

  function cdkSynth(context: Record<string, string>) {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-limits-'));
    const args = ['cdk', 'synth', '-q', '-o', outdir, ...Object.entries(context).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
    const result = spawnSync('npx', args, {
      cwd: example,
      encoding: 'utf-8',
      timeout: 120_000,
      env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true' },
    });
    fs.rmSync(outdir, { recursive: true, force: true });
    return result;
  }

  (built ? test.each : test.skip.each)([
    ['a stack name over 128 characters', { stackName: `a${long('b', 128)}` },
      `stackName "a${long('b', 39)}…" (129 characters) is not allowed; expected a CloudFormation stack name: a letter, then letters, digits and -, at most 128 characters.`],
    ['a certificate domain name over 64 characters', { subdomain: long('c', 60) },
      `subdomain + domain "${long('c', 40)}…" (72 characters) is longer than 64 characters, the limit ACM applies to the domain name of the certificate created for it.`],
    ['a certificate of another region', { certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/12345678-1234-1234-1234-123456789012' },
      'is in us-east-1, the stack in eu-west-1; a load balancer uses only certificates of its own region'],
    ['an alarm address longer than SMTP allows', { alarmEmail: `${long('s', 65)}@example.com` },
      `alarmEmail "${long('s', 40)}…" (77 characters) is not allowed; expected an e-mail address of at most 254 characters, at most 64 before the @ (the SMTP limits of RFC 5321).`],
  ])('%s', (_name, context, message) => {
    const result = cdkSynth({ runtimeType: 'FARGATE', ...context });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/^fw-deploy: Invalid deployment context \(1 problem\):$/m);
    expect(result.stderr).toContain(message);
    expect(`${result.stdout}\n${result.stderr}`).not.toMatch(/^ {4}at /m);
  }, 120_000);

  (built ? test : test.skip)('the longest stack name the key table accepts synthesises (it crashed on the SNS display name)', () => {
    const result = cdkSynth({ runtimeType: 'FARGATE', stackName: `a${long('b', 127)}` });
    expect(result.stderr).not.toMatch(/^ {4}at /m);
    expect(result.status).toBe(0);
  }, 120_000);
});

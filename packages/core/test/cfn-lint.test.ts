import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApplicationFactoryProps, AuthMode, Ec2Storage, IApplicationSpec, JenkinsSpec, RuntimeType, SecurityProfile } from '../src';
import { WikiOidcSpec } from './fixtures/wiki-spec';
import { cfnValidateFindings } from './support/cfn-validate';
import { requireInCi } from './support/shellcheck';
import { DOCKER_HUB_CREDENTIAL, IMAGE_DIGESTS, OIDC, synth, TLS } from './support/synth';

/** Both runtimes, three profiles, with and without TLS, EFS and EBS, each auth mode, and the build server. */
function matrix(): Array<[string, RuntimeType, ApplicationFactoryProps, IApplicationSpec?]> {
  const cases: Array<[string, RuntimeType, ApplicationFactoryProps, IApplicationSpec?]> = [];
  for (const runtime of [RuntimeType.FARGATE, RuntimeType.EC2]) {
    for (const securityProfile of [SecurityProfile.DEV, SecurityProfile.STAGING, SecurityProfile.PRODUCTION]) {
      for (const tls of [false, true]) {
        if (securityProfile === SecurityProfile.PRODUCTION && !tls) continue;
        for (const ec2Storage of runtime === RuntimeType.EC2 ? [Ec2Storage.EFS, Ec2Storage.EBS] : [Ec2Storage.EFS]) {
          cases.push([`${runtime}-${securityProfile}-${tls ? 'tls' : 'plain'}-${ec2Storage}`, runtime,
            { securityProfile, ec2Storage, ...(tls ? TLS : {}) }]);
        }
      }
    }
    cases.push([`${runtime}-alb-oidc`, runtime, { ...TLS, authMode: AuthMode.ALB_OIDC, oidc: OIDC }]);
    cases.push([`${runtime}-application-oidc`, runtime, { ...TLS, authMode: AuthMode.APPLICATION_OIDC, oidc: OIDC }]);
    cases.push([`${runtime}-jenkins-production`, runtime, { securityProfile: SecurityProfile.PRODUCTION, ...TLS, authMode: AuthMode.APPLICATION_OIDC, oidc: OIDC, alarmEmail: 'security@example.com', dockerHubCredentialArn: DOCKER_HUB_CREDENTIAL, imageDigests: IMAGE_DIGESTS }, new JenkinsSpec()]);
  }
  return cases;
}

/** Every configuration of the matrix, synthesised once into one directory: the two checks below read the same files. */
let files: string[] = [];
beforeAll(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-cfn-lint-'));
  files = matrix().map(([name, runtime, props, spec]) => {
    const file = path.join(dir, `${name}.json`);
    fs.writeFileSync(file, JSON.stringify(synth(runtime, props, spec ?? new WikiOidcSpec()).json, undefined, 1));
    return file;
  });
}, 300_000);

test('each configuration has its own template file', () => {
  expect(fs.readdirSync(path.dirname(files[0])).sort()).toEqual(files.map((f) => path.basename(f)).sort());
});

const hasCfnLint = requireInCi(spawnSync('cfn-lint', ['--version']).status === 0, 'cfn-lint');
(hasCfnLint ? test : test.skip)('cfn-lint reports no error and no warning in any template the framework synthesises', () => {
  // W3005 is ignored: the function of CDK's AwsCustomResource (which closes the VPC's default security group) declares
  // DependsOn on a role it also reaches with GetAtt, a harmless redundancy in generated code we do not control.
  const run = spawnSync('cfn-lint', ['--format', 'parseable', '--ignore-checks', 'W3005', '--', ...files], { encoding: 'utf-8' });
  expect(run.stdout + run.stderr).toBe('');
  expect(run.status).toBe(0);
}, 300_000);

test('the CDK\'s CloudFormation validation (what `cdk synth` runs) reports nothing in any of them', () => {
  expect(cfnValidateFindings(files)).toEqual([]);
}, 300_000);

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RuntimeType, SecurityProfile } from '../src';
import { requireInCi } from './support/shellcheck';
import { propsFor, synth } from './support/synth';
import { CONTEXT_KEYS } from '../src/context/context-keys';
import { assemblyState, changeReport } from '../src/lifecycle/check-change';

// `fw-deploy check-change <previous assembly>`: the lifecycle checker the tests use, on a user's change, before they
// deploy it: what each stack's deployment would replace, and whatever AWS would refuse, with its rule and way through.

const dev = { WikiStack: synth(RuntimeType.FARGATE, {}).json };
const production = { WikiStack: synth(RuntimeType.FARGATE, propsFor(SecurityProfile.PRODUCTION)).json };

test('a change a service refuses: named per stack with its rule and way through, and it stops the change', () => {
  const report = changeReport(dev, production);
  expect(report.refused).toBe(true);
  expect(report.lines[0]).toBe('WikiStack:');
  expect(report.lines).toEqual(expect.arrayContaining([
    expect.stringMatching(/^ {2}replaced: \w+: AWS::EFS::MountTarget \(create-only SubnetId\)$/),
    expect.stringMatching(/^ {2}refused by the service: \w+: efs-one-mount-target-a-zone: .*Way through: /),
  ]));
});

test('no change: nothing replaced, nothing refused; a stack added or gone is said', () => {
  expect(changeReport(dev, dev)).toEqual({ lines: ['WikiStack: nothing replaced, nothing refused'], refused: false });
  expect(changeReport({}, dev).lines[0]).toBe('WikiStack (new): nothing replaced, nothing refused');
  expect(changeReport(dev, {}).lines[0]).toMatch(/^WikiStack \(no longer in the app: cdk destroy it first\)/);
});

test('a directory that is no cloud assembly is named, with what to give', () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-not-an-assembly-'));
  expect(() => assemblyState(empty)).toThrow(`check-change: ${empty} is not a cloud assembly (no manifest.json there); give the directory cdk synth -o wrote, ` +
    'or the cdk.out of the release that was last deployed.');
});

const built = requireInCi(fs.existsSync(path.join(__dirname, '..', 'lib', 'main.js')), 'the compiled lib/ (compile runs before test)');
(built ? test : test.skip)('npx fw-deploy check-change, where cdk.json is: 0 for a sound change, 1 for one AWS refuses', () => {
  const example = path.join(__dirname, '..', '..', '..', 'examples', 'score-workload');
  const previous = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-previous-'));
  const env = { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true' };
  expect(spawnSync('npx', ['cdk', 'synth', '-q', '-o', previous], { cwd: example, encoding: 'utf-8', env }).status).toBe(0);
  const check = (...context: string[]) => spawnSync(process.execPath, [path.join(__dirname, '..', 'bin', 'fw-deploy'), 'check-change', previous, ...context],
    { cwd: example, encoding: 'utf-8', env });
  const same = check('-c', 'rateLimit=20000');
  expect([same.status, same.stdout.trim().split('\n').pop()]).toEqual([0, 'check-change: nothing AWS would refuse.']);
  // The network team's VPC instead of the framework's, under a running database.
  const given = JSON.stringify(CONTEXT_KEYS.find((k) => k.name === 'existingVpc')!.example);
  const moved = check('-c', `existingVpc=${given}`);
  expect(moved.status).toBe(1);
  expect(moved.stdout).toMatch(/refused by the service: \w+: rds-subnet-in-use: .*Way through: /);
  expect(moved.stdout.trim().split('\n').pop()).toBe('check-change: refused; each line above names its rule and the way through.');
  const wrong = check('-c');
  expect([wrong.status, wrong.stderr.trim()]).toEqual([1, 'fw-deploy: check-change: usage: fw-deploy check-change <previous cloud assembly> [-c key=value]... ' +
    `(given ${JSON.stringify([previous, '-c'])})`]);
}, 180_000);

(built ? test : test.skip)('examples/build-server: against a DEV assembly of the same stack, 1 naming the EFS mount targets; against its own, 0', () => {
  const example = path.join(__dirname, '..', '..', '..', 'examples', 'build-server');
  const env = { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true' };
  const assembly = (...context: string[]) => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-previous-'));
    expect(spawnSync('npx', ['cdk', 'synth', '-q', '-o', out, ...context], { cwd: example, encoding: 'utf-8', env }).status).toBe(0);
    return out;
  };
  const check = (previous: string) => spawnSync(process.execPath, [path.join(__dirname, '..', 'bin', 'fw-deploy'), 'check-change', previous], { cwd: example, encoding: 'utf-8', env });
  const fromDev = check(assembly('-c', 'securityProfile=DEV'));
  expect(fromDev.status).toBe(1);
  expect(fromDev.stdout).toMatch(/^ {2}refused by the service: ApplicationStorageFileSystemEfsMountTarget\w+: efs-one-mount-target-a-zone: /m);
  const unchanged = check(assembly());
  expect([unchanged.status, unchanged.stdout.trim().split('\n')]).toEqual([0, ['build-server: nothing replaced, nothing refused', 'check-change: nothing AWS would refuse.']]);
}, 180_000);

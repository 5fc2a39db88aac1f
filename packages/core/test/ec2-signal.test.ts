import { Duration, Stack } from 'aws-cdk-lib';
import { AutoScalingGroup, CfnAutoScalingGroup } from 'aws-cdk-lib/aws-autoscaling';
import { NagRuleCompliance } from 'cdk-nag';
import { RuntimeType, SecurityProfile } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { DEFAULT_STUBS, runInSandbox, SANDBOX_NEEDS, sandboxUnavailable, type Stubs } from './support/sandbox';
import { needing, shellcheck, shellcheckUnavailable } from './support/shellcheck';
import { only, propsFor, resources, synth, userData } from './support/synth';
import { DeploymentBacksOut } from '../src/compliance/pci-dss-401/rules/deployment-backs-out';
import { startupSeconds } from '../src/contract/application-size';
import { signalSeconds } from '../src/runtimes/ec2';

// An EC2 group's creation and each rolling replacement wait for the boot's signal, which it sends once the application
// answers its health check; a failing boot signals FAILURE (src/runtimes/ec2.ts, fw_signal and fw_healthy in
// src/userdata/preamble.ts). CloudFormation's side, as its user guide states it ("CreationPolicy attribute",
// "UpdatePolicy attribute": WaitOnResourceSignals, PauseTime as the signal's timeout; "cfn-signal" / SignalResource
// with the instance id as UniqueId), is what the template below says.

const spec = new WikiSpec();
const { json, factory } = synth(RuntimeType.EC2, propsFor(SecurityProfile.PRODUCTION), spec);
const ec2Group = factory.node.findAll().find((c): c is AutoScalingGroup => c instanceof AutoScalingGroup)!;
const [[groupId, group]] = resources(json, 'AWS::AutoScaling::AutoScalingGroup');
const timeout = Duration.seconds(signalSeconds(startupSeconds(spec.defaultSize(), 'WikiSpec'))).toIsoString();

test('the group\'s creation waits for one signal, and its rolling update for each replacement\'s, within the boot\'s time', () => {
  expect(group.CreationPolicy).toEqual({ ResourceSignal: { Count: 1, Timeout: timeout } });
  expect(group.UpdatePolicy.AutoScalingRollingUpdate).toMatchObject({
    MaxBatchSize: 1, MinInstancesInService: 0, WaitOnResourceSignals: true, PauseTime: timeout,
  });
});

test('the evidence\'s check DeploymentBacksOut (6.5.1) passes the group, and fails one that waits for no signal', () => {
  const cfnGroup = ec2Group.node.defaultChild as CfnAutoScalingGroup;
  expect(DeploymentBacksOut(cfnGroup)).toBe(NagRuleCompliance.COMPLIANT);
  const unsignalled = new CfnAutoScalingGroup(new Stack(), 'G', { maxSize: '1', minSize: '1' });
  unsignalled.cfnOptions.updatePolicy = { autoScalingRollingUpdate: { maxBatchSize: 1, minInstancesInService: 0 } };
  expect(DeploymentBacksOut(unsignalled)).toBe(NagRuleCompliance.NON_COMPLIANT);
});

test('the instance\'s role may signal its own stack only', () => {
  const role = only(json, 'AWS::IAM::InstanceProfile').Properties.Roles[0];
  const statements = resources(json, 'AWS::IAM::Policy').filter(([, p]) => JSON.stringify(p.Properties.Roles) === JSON.stringify([role]))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement)
    .filter((s: any) => [s.Action].flat().includes('cloudformation:SignalResource'));
  expect(statements).toEqual([{ Action: 'cloudformation:SignalResource', Effect: 'Allow', Resource: { Ref: 'AWS::StackId' } }]);
});

const script = userData(json);

test('the boot names the group first and signals SUCCESS last, after the health check the load balancer asks', () => {
  const lines = script.split('\n');
  const named = lines.indexOf(`FW_SIGNAL=('eu-west-1' 'WikiStack' '${groupId}')`);
  const account = lines.findIndex((l) => l.startsWith('fw_service_account '));
  expect(named).toBeGreaterThan(0);
  expect(named).toBeLessThan(account);
  const target = only(json, 'AWS::ElasticLoadBalancingV2::TargetGroup').Properties;
  expect(target.Matcher).toEqual({ HttpCode: '200-399' });
  expect(lines.filter(Boolean).slice(-3)).toEqual([
    `fw_healthy '${target.Port}' '${target.HealthCheckPath}' '200' '399' '${startupSeconds(spec.defaultSize(), 'WikiSpec')}'`,
    'fw_signal SUCCESS',
    'fw_log "user data finished"',
  ]);
});

needing('shellcheck', shellcheckUnavailable()).test('the signal and the health check have zero shellcheck findings', () => {
  expect(shellcheck(script)).toBe('');
});

/** The instance metadata, the health check answering `status`, and aws recording its calls. */
function instance(status: string): Stubs {
  return {
    ...DEFAULT_STUBS,
    curl: `case "$*" in *api/token*) echo token ;; *meta-data/instance-id*) echo i-0123456789abcdef0 ;;
      *meta-data/local-ipv4*) echo 10.0.1.5 ;; *http://10.0.1.5:*) printf '%s' ${status} ;; *) exit 22 ;; esac`,
    aws: '',
  };
}
const signalled = (calls: string[]) => calls.filter((c) => c.startsWith('aws cloudformation'));
const signal = (status: string) => 'aws cloudformation signal-resource --region eu-west-1 --stack-name WikiStack ' +
  `--logical-resource-id ${groupId} --unique-id i-0123456789abcdef0 --status ${status}`;

needing(SANDBOX_NEEDS, sandboxUnavailable()).describe('the boot, executed in a sandbox with stub commands', () => {
  const runnable = script.replace(/\{"Ref":"(\w+)"\}/g, (_ref, id: string) => `unresolved-${id}`);

  test('an application that answers 200 on the instance\'s address: one SUCCESS, after the health check', () => {
    const run = runInSandbox(runnable, instance('200'));
    expect(run.status).toBe(0);
    expect(signalled(run.calls)).toEqual([signal('SUCCESS')]);
    expect(run.calls.findIndex((c) => c.includes('http://10.0.1.5:'))).toBeLessThan(run.calls.indexOf(signal('SUCCESS')));
    expect(run.log).toContain(`signalled SUCCESS to ${groupId}`);
  });

  test.each(['000', '502'])('an application that answers %s until the start-up time is over: FAILURE, naming the status', (status) => {
    const run = runInSandbox(runnable, instance(status));
    expect(run.status).not.toBe(0);
    expect(signalled(run.calls)).toEqual([signal('FAILURE')]);
    expect(run.log).toContainEqual(expect.stringMatching(new RegExp(`did not answer 200-399 within \\d+s \\(last: ${status}\\)$`)));
  });

  test('any earlier failure (the package manager) signals FAILURE, and never SUCCESS', () => {
    const run = runInSandbox(runnable, { ...instance('200'), dnf: 'exit 5' });
    expect(run.status).toBe(5);
    expect(signalled(run.calls)).toEqual([signal('FAILURE')]);
  });

  test('an instance no creation or update waits for (an instance refresh): CloudFormation refuses the signal, the boot still succeeds', () => {
    const run = runInSandbox(runnable, { ...instance('200'), aws: 'case "$1" in cloudformation) echo "ValidationError: not waiting" >&2; exit 254 ;; esac' });
    expect(run.status).toBe(0);
    expect(run.log).toContain('ValidationError: not waiting');
    expect(run.log).toContain(`CloudFormation took no SUCCESS signal for ${groupId} (no creation or update waits for this instance)`);
    expect(run.log[run.log.length - 1]).toBe('user data finished');
  });

  test('negative control: without the signal in the exit path, a failing boot leaves CloudFormation waiting', () => {
    const unsignalled = runnable.replace(/^ {2}if \[ \$\{#FW_SIGNAL\[@\]\} -gt 0 \]; then fw_signal FAILURE \|\| true; fi\n/m, '');
    expect(unsignalled).not.toBe(runnable);
    const run = runInSandbox(unsignalled, { ...instance('200'), dnf: 'exit 5' });
    expect(signalled(run.calls)).toEqual([]);
  });
});

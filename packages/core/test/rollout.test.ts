import { ContainerImageSpec, DeploymentStrategy, RuntimeType, SecurityProfile } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { only, propsFor, resources, synth } from './support/synth';

// How a deployment replaces an application (deploymentStrategy, desiredCount; src/factory/rollout.ts): one without data
// of its own keeps serving while it changes, rolling by default; one that keeps data is stop-first with one task or
// instance, always: a single writer never runs twice.

const STATELESS = { applicationId: 'idp', image: 'example/identity:2.1.0', port: 8080, user: '1000:1000', healthCheckPath: '/health/ready' };
const PRODUCTION = { ...propsFor(SecurityProfile.PRODUCTION), imageDigests: { [STATELESS.image]: `sha256:${'4'.repeat(64)}` } };
const serviceOf = (json: any) => only(json, 'AWS::ECS::Service').Properties;
const groupOf = (json: any) => resources(json, 'AWS::AutoScaling::AutoScalingGroup')[0][1];

describe('Fargate', () => {
  test('no data of its own, PRODUCTION: rolling, new tasks first, every running one kept until they are healthy; alarms roll back', () => {
    const service = serviceOf(synth(RuntimeType.FARGATE, { ...PRODUCTION, desiredCount: 3 }, new ContainerImageSpec(STATELESS)).json);
    expect(service.DesiredCount).toBe(3);
    expect(service.DeploymentConfiguration).toMatchObject({
      MinimumHealthyPercent: 100,
      MaximumPercent: 200,
      DeploymentCircuitBreaker: { Enable: true, Rollback: true },
      Alarms: { Enable: true, Rollback: true },
    });
  });

  test('no data of its own, stop-first chosen: the running task stops first', () => {
    const stopFirst = { deploymentStrategy: DeploymentStrategy.STOP_FIRST };
    const service = serviceOf(synth(RuntimeType.FARGATE, stopFirst, new ContainerImageSpec(STATELESS)).json);
    expect(service.DeploymentConfiguration).toMatchObject({ MinimumHealthyPercent: 0, MaximumPercent: 100 });
  });

  test('data on EFS: one task, stop first, never more than one at a time', () => {
    const service = serviceOf(synth(RuntimeType.FARGATE, propsFor(SecurityProfile.PRODUCTION)).json);
    expect(service.DesiredCount).toBe(1);
    expect(service.DeploymentConfiguration).toMatchObject({ MinimumHealthyPercent: 0, MaximumPercent: 100 });
  });
});

describe('EC2', () => {
  test('no data of its own, desiredCount 2: two instances, room for a successor, both kept in service until it has signalled', () => {
    const group = groupOf(synth(RuntimeType.EC2, { ...PRODUCTION, desiredCount: 2 }, new ContainerImageSpec(STATELESS)).json);
    expect(group.Properties).toMatchObject({ MinSize: '2', MaxSize: '3' });
    expect(group.CreationPolicy.ResourceSignal.Count).toBe(2);
    expect(group.UpdatePolicy.AutoScalingRollingUpdate).toMatchObject({ MaxBatchSize: 1, MinInstancesInService: 2, WaitOnResourceSignals: true });
  });

  test('data of its own: one instance, replaced before its successor starts', () => {
    const group = groupOf(synth(RuntimeType.EC2, propsFor(SecurityProfile.PRODUCTION)).json);
    expect(group.Properties).toMatchObject({ MinSize: '1', MaxSize: '1' });
    expect(group.UpdatePolicy.AutoScalingRollingUpdate).toMatchObject({ MaxBatchSize: 1, MinInstancesInService: 0 });
  });
});

describe.each([RuntimeType.FARGATE, RuntimeType.EC2])('refused on %s, naming why', (runtime) => {
  const WRITER = 'WikiSpec keeps data (keepsData()) on a file system or volume it writes alone, and a single writer never runs twice: ';
  test('rolling or a second task for an application that keeps data', () => {
    expect(() => synth(runtime, { deploymentStrategy: DeploymentStrategy.ROLLING }, new WikiSpec()))
      .toThrow(`${WRITER}deploymentStrategy rolling would start the new one beside the running one. Leave it out (stop-first, one at a time).`);
    expect(() => synth(runtime, { desiredCount: 2, deploymentStrategy: DeploymentStrategy.ROLLING }, new WikiSpec())).toThrow(`${WRITER}` +
      'deploymentStrategy rolling would start the new one beside the running one; desiredCount 2 would run 2 at once. Leave them out');
  });

  test('a count outside 1 to 10, or a strategy that is none', () => {
    expect(() => synth(runtime, { desiredCount: 11 }, new ContainerImageSpec(STATELESS))).toThrow('desiredCount 11 is not allowed; expected a whole number from 1 to 10');
    expect(() => synth(runtime, {}, new ContainerImageSpec(STATELESS), { deploymentStrategy: 'canary' }))
      .toThrow('deploymentStrategy "canary" is not allowed; expected one of rolling, stop-first');
  });
});

// Synth-time ECS consistency checks (issue 12, item 5). What ECS refuses, from its API reference:
// - MountPoint.sourceVolume: "Must be a volume name referenced in the name parameter of task definition volume."
//   https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_MountPoint.html
//   (same text: https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-ecs-taskdefinition-mountpoint.html)
// - LoadBalancer.containerName: "The name of the container (as it appears in a container definition)"; containerPort:
//   "must correspond to a containerPort in the task definition the tasks in the service are using."
//   https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_LoadBalancer.html
//   (ECS model text: https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/ecs/aws.sdk.kotlin.services.ecs.model/-load-balancer/container-port.html)
// - ContainerDependency: a dependency on another container in the same task definition (containerName names it).
//   https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_ContainerDependency.html
//   https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-ecs-taskdefinition-containerdependency.html
import { App, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import { ApplicationFactory, AuthMode, JenkinsSpec, RuntimeType } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { OIDC, REGION_ENV } from './support/synth';
import { addEcsConsistencyChecks } from '../src/infrastructure/ecs-consistency';

/** A Fargate service behind an ALB: container "Web" maps port 8080 and mounts the declared volume "data". */
function shop() {
  const app = new App();
  const stack = new Stack(app, 'Shop', { env: REGION_ENV });
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 2, natGateways: 0 });
  const task = new ecs.FargateTaskDefinition(stack, 'Task', { volumes: [{ name: 'data' }] });
  const web = task.addContainer('Web', { image: ecs.ContainerImage.fromRegistry('nginx'), portMappings: [{ containerPort: 8080 }] });
  web.addMountPoints({ sourceVolume: 'data', containerPath: '/data', readOnly: false });
  const service = new ecs.FargateService(stack, 'Service', { cluster: new ecs.Cluster(stack, 'Cluster', { vpc }), taskDefinition: task });
  const group = new elbv2.ApplicationTargetGroup(stack, 'Targets', { vpc, port: 8080, targetType: elbv2.TargetType.IP });
  new elbv2.ApplicationLoadBalancer(stack, 'Lb', { vpc }).addListener('Http', { port: 80, defaultTargetGroups: [group] });
  service.attachToApplicationTargetGroup(group);
  addEcsConsistencyChecks(stack);
  const worker = new ecs.FargateTaskDefinition(stack, 'Jobs');
  const migrate = worker.addContainer('Migrate', { image: ecs.ContainerImage.fromRegistry('flyway') });
  return { app, stack, task, web, service, group, worker, migrate, cfnService: service.node.defaultChild as ecs.CfnService };
}

/** What synth reports (the message `fw-deploy` prints), or '' when it succeeds. */
function synthError(app: App): string {
  try {
    app.synth();
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}

test('a consistent stack synthesises without findings', () => {
  expect(synthError(shop().app)).toBe('');
});

test('a mount point naming an undeclared volume fails synth, naming the container, the mount point and the volumes', () => {
  const { app, web } = shop();
  web.addMountPoints({ sourceVolume: 'cache', containerPath: '/var/cache', readOnly: false });
  const message = synthError(app);
  expect(message).toMatch(/^Validation failed with the following errors:/);
  expect(message).toContain('[Shop] ECS task definition Shop/Task: container "Web" mounts volume "cache" at /var/cache, ' +
    'but the task definition declares no volume of that name; its volumes: "data".');
});

test('a plugin whose mount point names an undeclared volume fails synth through the factory', () => {
  // The Fargate runtime names the volume and the mount point from one member, volumeName(); only a plugin whose
  // volumeName() is not stable between calls can make them differ.
  class DriftingVolumeSpec extends WikiSpec {
    private calls = 0;
    public volumeName() { return `wiki-data-${++this.calls}`; }
  }
  const app = new App();
  const factory = new ApplicationFactory(new Stack(app, 'WikiStack', { env: REGION_ENV }), 'App', RuntimeType.FARGATE, new DriftingVolumeSpec());
  addEcsConsistencyChecks(factory);
  expect(synthError(app)).toMatch(/ECS task definition WikiStack\/App\/Fargate\/Task: container "Application" mounts volume "wiki-data-\d+" at \/srv\/wiki-data, but the task definition declares no volume of that name; its volumes: "wiki-data-\d+"\./);
});

test('a load-balancer target naming a container the task definition lacks fails synth, naming both', () => {
  const { app, service, group, cfnService } = shop();
  // The CDK's own L2 target refuses this at once; an L1 or escape-hatch target reaches ECS unchecked.
  expect(() => service.loadBalancerTarget({ containerName: 'Api' })).toThrow(/No container named 'Api'/);
  cfnService.loadBalancers = [{ containerName: 'Api', containerPort: 8080, targetGroupArn: group.targetGroupArn }];
  expect(synthError(app)).toContain('ECS service Shop/Service: load-balancer target container "Api" is not in its task ' +
    'definition Shop/Task; its containers: "Web".');
});

test('a load-balancer target naming a port the container does not map fails synth, naming both', () => {
  const { app, group, cfnService } = shop();
  cfnService.loadBalancers = [{ containerName: 'Web', containerPort: 80, targetGroupArn: group.targetGroupArn }];
  expect(synthError(app)).toContain('ECS service Shop/Service: load-balancer target port 80 is not a port mapping of ' +
    'container "Web" in task definition Shop/Task; its container ports: 8080.');
});

test('a container dependency on a container of another task definition fails synth, naming both', () => {
  const { app, web, migrate } = shop();
  web.addContainerDependencies({ container: migrate, condition: ecs.ContainerDependencyCondition.SUCCESS }); // the CDK accepts it
  expect(synthError(app)).toContain('ECS task definition Shop/Task: container "Web" depends on container "Migrate" ' +
    '(SUCCESS), which is not in this task definition; its containers: "Web" ("Migrate" is in Shop/Jobs).');
});

test('a service that runs another task definition than the one holding its target container fails synth, naming both', () => {
  const { app, worker, cfnService } = shop();
  cfnService.taskDefinition = worker.taskDefinitionArn;
  expect(synthError(app)).toContain('ECS service Shop/Service runs task definition Shop/Jobs, but its load-balancer target ' +
    'container "Web" is in task definition Shop/Task; a service can target only containers of the task definition it runs.');
});

test.each([
  ['WikiSpec', () => new WikiSpec(), {}],
  ['JenkinsSpec (init container, dependency, second volume)', () => new JenkinsSpec(), { authMode: AuthMode.APPLICATION_OIDC, oidc: OIDC, domain: 'example.com' }],
])('the framework\'s own Fargate stack for %s has no findings', (_name, spec, props) => {
  const app = new App();
  const factory = new ApplicationFactory(new Stack(app, 'WikiStack', { env: REGION_ENV }), 'App', RuntimeType.FARGATE, spec(), props);
  addEcsConsistencyChecks(factory);
  expect(synthError(app)).toBe('');
});

import { aws_ecs as ecs, CfnResource, Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Registers a synth-time validation on `scope` that fails `cdk synth` on the ECS mistakes that CloudFormation would
 * only refuse at deploy, over every task definition and service below `scope`:
 *
 * 1. a mount point whose source volume the task definition does not declare;
 * 2. a load-balancer target whose container, or whose port, the service's task definition does not have;
 * 3. a container dependency on a container that is not in the same task definition;
 * 4. a load-balancer target container that lives in another task definition than the one the service runs.
 *
 * It reads the synthesised L1 properties, so escape hatches and plain L1 resources are checked too. The CDK itself
 * already refuses 2 when a target is made with the L2 `loadBalancerTarget()` / `attachTo*TargetGroup()`; it checks none
 * of the others. Values that stay CloudFormation references are not compared. Registering twice on one scope is a no-op.
 */
export function addEcsConsistencyChecks(scope: IConstruct): void {
  if (registered.has(scope)) return;
  registered.add(scope);
  scope.node.addValidation({ validate: () => ecsConsistencyProblems(scope) });
}

const registered = new WeakSet<IConstruct>();

interface Task {
  readonly path: string;
  readonly logicalId: string;
  readonly family: unknown;
  readonly containers: any[];
  /** The declared volume names; undefined when one of them is a reference. */
  readonly volumes?: string[];
}

function ecsConsistencyProblems(scope: IConstruct): string[] {
  const resources = scope.node.findAll().filter(CfnResource.isCfnResource);
  const tasks = resources.filter((r) => r.cfnResourceType === ecs.CfnTaskDefinition.CFN_RESOURCE_TYPE_NAME)
    .map((r) => describe(r as ecs.CfnTaskDefinition));
  const services = resources.filter((r) => r.cfnResourceType === ecs.CfnService.CFN_RESOURCE_TYPE_NAME) as ecs.CfnService[];
  return [...tasks.flatMap((task) => taskProblems(task, tasks)), ...services.flatMap((service) => serviceProblems(service, tasks))];
}

function describe(cfn: ecs.CfnTaskDefinition): Task {
  const stack = Stack.of(cfn);
  const volumes = list(stack.resolve(cfn.volumes)).map((v) => v?.name);
  return {
    path: pathOf(cfn),
    logicalId: stack.resolve(cfn.logicalId),
    family: stack.resolve(cfn.family),
    containers: list(stack.resolve(cfn.containerDefinitions)),
    volumes: volumes.every((v) => typeof v === 'string') ? volumes : undefined,
  };
}

function taskProblems(task: Task, tasks: Task[]): string[] {
  const problems: string[] = [];
  const names = task.containers.map((c) => c.name);
  for (const container of task.containers) {
    for (const mount of list(container.mountPoints)) {
      if (task.volumes && typeof mount.sourceVolume === 'string' && !task.volumes.includes(mount.sourceVolume)) {
        problems.push(`ECS task definition ${task.path}: container "${container.name}" mounts volume "${mount.sourceVolume}" ` +
          `at ${mount.containerPath}, but the task definition declares no volume of that name; its volumes: ${quoted(task.volumes)}.`);
      }
    }
    for (const dependency of list(container.dependsOn)) {
      const name = dependency.containerName;
      if (typeof name === 'string' && names.every((n) => typeof n === 'string') && !names.includes(name)) {
        const elsewhere = tasks.find((t) => t.containers.some((c) => c.name === name));
        problems.push(`ECS task definition ${task.path}: container "${container.name}" depends on container "${name}" ` +
          `(${dependency.condition}), which is not in this task definition; its containers: ${quoted(names)}` +
          `${elsewhere ? ` ("${name}" is in ${elsewhere.path})` : ''}.`);
      }
    }
  }
  return problems;
}

function serviceProblems(cfn: ecs.CfnService, tasks: Task[]): string[] {
  const stack = Stack.of(cfn);
  const used = stack.resolve(cfn.taskDefinition);
  const task = tasks.find((t) => used?.Ref === t.logicalId ||
    (typeof used === 'string' && typeof t.family === 'string' && (used === t.family || used.startsWith(`${t.family}:`))));
  if (!task) return []; // an imported or external task definition: nothing to compare with
  const problems: string[] = [];
  for (const target of list(stack.resolve(cfn.loadBalancers))) {
    const { containerName: name, containerPort: port } = target;
    if (typeof name !== 'string') continue;
    const container = task.containers.find((c) => c.name === name);
    const elsewhere = tasks.find((t) => t !== task && t.containers.some((c) => c.name === name));
    if (!container && elsewhere) {
      problems.push(`ECS service ${pathOf(cfn)} runs task definition ${task.path}, but its load-balancer target container ` +
        `"${name}" is in task definition ${elsewhere.path}; a service can target only containers of the task definition it runs.`);
    } else if (!container) {
      problems.push(`ECS service ${pathOf(cfn)}: load-balancer target container "${name}" is not in its task definition ` +
        `${task.path}; its containers: ${quoted(task.containers.map((c) => c.name))}.`);
    } else if (typeof port === 'number' && !list(container.portMappings).some((m) => maps(m, port))) {
      const ports = list(container.portMappings).map((m) => m.containerPort ?? m.containerPortRange);
      problems.push(`ECS service ${pathOf(cfn)}: load-balancer target port ${port} is not a port mapping of container ` +
        `"${name}" in task definition ${task.path}; its container ports: ${ports.length > 0 ? ports.join(', ') : 'none'}.`);
    }
  }
  return problems;
}

/** Whether a port mapping exposes a container port, as a single port or within a range such as "8000-8010". */
function maps(mapping: any, port: number): boolean {
  if (mapping.containerPort === port) return true;
  const range = /^(\d+)-(\d+)$/.exec(String(mapping.containerPortRange ?? ''));
  return range !== null && Number(range[1]) <= port && port <= Number(range[2]);
}

/** The L2 construct's path when the resource is its default child (what the user wrote), otherwise its own. */
function pathOf(cfn: CfnResource): string {
  const parent = cfn.node.scope;
  return parent && parent.node.defaultChild === cfn ? parent.node.path : cfn.node.path;
}

function list(value: unknown): any[] {
  return Array.isArray(value) ? value : [];
}

function quoted(names: unknown[]): string {
  return names.length > 0 ? names.map((n) => (typeof n === 'string' ? `"${n}"` : JSON.stringify(n))).join(', ') : 'none';
}

import { Arn, ArnFormat, aws_ec2 as ec2, aws_ecs as ecs, aws_iam as iam, Fn, Stack } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { ecsCluster } from './cluster';
import { acknowledgeEnvironment } from './container-environment';
import type { ImageSource } from './docker-hub-cache';
import { computeSecurityGroup } from './egress';
import type { ApplicationLog } from './logging';
import type { NetworkAccess } from './network';
import { wildcardPolicy } from '../compliance/acknowledge';
import { type EphemeralWorkers, WorkerVariables } from '../contract/ephemeral-workers';

export interface WorkersProps {
  /** The VPC and the compute subnets the workers run in. */
  readonly network: NetworkAccess;
  /** The application's log group, which the workers write to too. */
  readonly log: ApplicationLog;
  /** Names the workers' log streams (`<applicationId>-worker`). */
  readonly applicationId: string;
  /** What the plugin declares of its workers (`ephemeralWorkers()`): image, size, ports, environment. */
  readonly workers: EphemeralWorkers;
  /** Where the workers' image is pulled from. */
  readonly images: ImageSource;
  /** Container Insights on their cluster (the `containerInsights` key). */
  readonly containerInsights: boolean;
}

/**
 * The workers an application starts itself (`IApplicationSpec.ephemeralWorkers()`), the same on both runtimes: their
 * own ECS cluster, one Fargate task definition, an execution role, a task role without permissions, and a security
 * group that admits nothing. `admitTo` and `grantLaunch` connect them to the application.
 */
export class Workers extends Construct {
  public readonly cluster: ecs.Cluster;
  public readonly taskDefinition: ecs.FargateTaskDefinition;
  /** The workers' role. It has no permissions: grant a deployment job what it needs here (docs/build-agents.md). */
  public readonly taskRole: iam.IRole;
  public readonly executionRole: iam.IRole;
  public readonly securityGroup: ec2.SecurityGroup;
  /** The application's ports the workers connect to. */
  public readonly applicationPorts: number[];
  private readonly props: WorkersProps;

  constructor(scope: Construct, id: string, props: WorkersProps) {
    super(scope, id);
    this.props = props;
    const { network, log, workers } = props;
    this.applicationPorts = workers.applicationPorts;
    // A cluster of their own: the application may stop only tasks of this cluster, and nothing else runs in it.
    this.cluster = ecsCluster(this, network.vpc, props.containerInsights);
    this.taskDefinition = new ecs.FargateTaskDefinition(this, 'Task', {
      cpu: workers.cpu,
      memoryLimitMiB: workers.memoryLimitMiB,
    });
    this.taskRole = this.taskDefinition.taskRole;
    this.taskDefinition.addContainer('Worker', {
      image: props.images.containerImage(this.taskDefinition, workers.image),
      environment: workers.environment,
      logging: ecs.LogDrivers.awsLogs({ logGroup: log.group, streamPrefix: `${props.applicationId}-worker` }),
    });
    this.executionRole = this.taskDefinition.obtainExecutionRole();
    acknowledgeEnvironment(this.taskDefinition, workers.environment, 'The plugin\'s ephemeralWorkers().environment');
    this.securityGroup = computeSecurityGroup(this, 'SecurityGroup', network.vpc, 'Ephemeral workers: nothing inbound', workers.egress);
  }

  /** The application admits the workers on the declared ports, and nothing else from them. */
  public admitTo(application: ec2.SecurityGroup): void {
    for (const port of this.applicationPorts) {
      application.addIngressRule(this.securityGroup, ec2.Port.tcp(port), 'From the ephemeral workers');
      this.securityGroup.addEgressRule(application, ec2.Port.tcp(port), 'To the application');
    }
  }

  /**
   * Lets the application's role run, describe and stop the workers: RunTask only of this task definition's current
   * revision and only in this cluster, DescribeTasks/StopTask only on this cluster's tasks, tags only when RunTask creates the
   * task, and PassRole only of the workers' two roles to ECS tasks (a `wildcardPolicy`).
   */
  public grantLaunch(role: iam.IRole): void {
    wildcardPolicy(this, 'LaunchPolicy', role, 'worker-launch', [
      ...this.ecsStatements(),
      new iam.PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [this.executionRole.roleArn, this.taskRole.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'ecs-tasks.amazonaws.com' } },
      }),
    ], 'Task ARNs exist only once RunTask creates them: the statements name this cluster\'s tasks and require ' +
      'ecs:cluster to be this cluster. DescribeTaskDefinition supports no resource-level permission (AWS Service ' +
      'Authorization Reference), so it takes "*".');
  }

  /**
   * The ECS calls the application makes to run its workers, for its role (`grantLaunch`) or, with `principals` and
   * `conditions`, for a resource policy such as the ECS endpoint's.
   */
  public ecsStatements(principals?: iam.IPrincipal[], conditions: Record<string, Record<string, unknown>> = {}): iam.PolicyStatement[] {
    const stack = Stack.of(this);
    const onCluster = { ArnEquals: { 'ecs:cluster': this.cluster.clusterArn } };
    const tasks = Arn.format({
      service: 'ecs', resource: 'task', resourceName: `${this.cluster.clusterName}/*`, arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    }, stack);
    const statement = (actions: string[], resources: string[], own: Record<string, Record<string, unknown>> = {}) => {
      const created = new iam.PolicyStatement({ principals, actions, resources });
      // addCondition merges keys under the same operator (StringEquals of both).
      for (const [operator, keys] of [...Object.entries(conditions), ...Object.entries(own)]) created.addCondition(operator, keys);
      return created;
    };
    return [
      // The current revision only: it is the family's latest, which the application runs.
      statement(['ecs:RunTask'], [this.taskDefinition.taskDefinitionArn], onCluster),
      statement(['ecs:DescribeTasks', 'ecs:StopTask'], [tasks], onCluster),
      // RunTask tags the task it creates; ECS authorises that as TagResource on the new task.
      statement(['ecs:TagResource'], [tasks], { StringEquals: { 'ecs:CreateAction': 'RunTask' } }),
      // DescribeTaskDefinition has no resource-level permissions: "*" is the only resource it honours.
      statement(['ecs:DescribeTaskDefinition'], ['*']),
    ];
  }

  /** The variables of `WorkerVariables`, except the application's private name, which each runtime knows. */
  public environment(): Record<string, string> {
    const { network, log } = this.props;
    return {
      [WorkerVariables.CLUSTER_ARN]: this.cluster.clusterArn,
      [WorkerVariables.TASK_DEFINITION]: this.taskDefinition.family,
      [WorkerVariables.SUBNETS]: Fn.join(',', network.vpc.selectSubnets(network.computeSubnets).subnetIds),
      [WorkerVariables.SECURITY_GROUP]: this.securityGroup.securityGroupId,
      [WorkerVariables.ASSIGN_PUBLIC_IP]: String(network.computeNeedsPublicIp),
      [WorkerVariables.EXECUTION_ROLE_ARN]: this.executionRole.roleArn,
      [WorkerVariables.TASK_ROLE_ARN]: this.taskRole.roleArn,
      [WorkerVariables.LOG_GROUP]: log.name,
      [WorkerVariables.REGION]: Stack.of(this).region,
    };
  }
}

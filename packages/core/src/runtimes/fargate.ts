import { Duration } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import { Construct } from 'constructs';
import { acknowledge } from '../profiles/compliance';
import type { RuntimeProps } from './runtime-props';

export interface FargateSize {
  /** Task CPU units. */
  readonly cpu: number;
  /** Task memory in MiB. */
  readonly memoryLimitMiB: number;
}

/**
 * Everything FARGATE-specific: an ECS cluster, the task with the plugin's container and its EFS volume, and a service
 * that never runs two tasks against one data directory.
 */
export class FargateRuntime extends Construct {
  public readonly service: ecs.FargateService;
  public readonly taskDefinition: ecs.FargateTaskDefinition;
  public readonly securityGroup: ec2.SecurityGroup;

  constructor(scope: Construct, id: string, props: RuntimeProps & FargateSize) {
    super(scope, id);
    const { spec, network, loadBalancer, logging } = props;
    const storage = props.storage!;

    const cluster = new ecs.Cluster(this, 'Cluster', {
      vpc: network.vpc,
      containerInsightsV2: ecs.ContainerInsights.ENABLED,
    });
    this.taskDefinition = new ecs.FargateTaskDefinition(this, 'Task', {
      cpu: props.cpu,
      memoryLimitMiB: props.memoryLimitMiB,
      volumes: [{
        name: spec.volumeName(),
        efsVolumeConfiguration: {
          fileSystemId: storage.fileSystem.fileSystemId,
          transitEncryption: 'ENABLED',
          authorizationConfig: { accessPointId: storage.accessPoint.accessPointId, iam: 'ENABLED' },
        },
      }],
    });
    const container = this.taskDefinition.addContainer('Application', {
      image: ecs.ContainerImage.fromRegistry(spec.defaultContainerImage()),
      user: spec.containerUser(),
      portMappings: [{ containerPort: spec.applicationPort() }],
      environment: { ...props.pluginEnvironment, ...props.oidcEnvironment },
      secrets: Object.fromEntries(Object.entries(props.secrets)
        .map(([name, secret]) => [name, ecs.Secret.fromSecretsManager(secret)])),
      logging: ecs.LogDrivers.awsLogs({ logGroup: logging.applicationLogGroup, streamPrefix: spec.applicationId() }),
    });
    acknowledge(this.taskDefinition, 'AwsSolutions-ECS2', 'The environment holds only non-secret configuration from the ' +
      'plugin; every secret is a container secret read from Secrets Manager at start.');
    container.addMountPoints({ sourceVolume: spec.volumeName(), containerPath: spec.containerDataPath(), readOnly: false });
    storage.fileSystem.grant(this.taskDefinition.taskRole, 'elasticfilesystem:ClientMount', 'elasticfilesystem:ClientWrite');

    this.securityGroup = new ec2.SecurityGroup(this, 'SecurityGroup', {
      vpc: network.vpc,
      description: 'Application tasks: the application port from the load balancer only',
    });
    this.securityGroup.addIngressRule(loadBalancer.securityGroup, ec2.Port.tcp(spec.applicationPort()), 'From the load balancer');
    storage.allowFrom(this.securityGroup);

    this.service = new ecs.FargateService(this, 'Service', {
      cluster,
      taskDefinition: this.taskDefinition,
      desiredCount: 1,
      // One task at a time against one data directory: stop the old task before starting the new one.
      minHealthyPercent: 0,
      maxHealthyPercent: 100,
      circuitBreaker: { rollback: true },
      assignPublicIp: network.computeNeedsPublicIp,
      vpcSubnets: network.computeSubnets,
      securityGroups: [this.securityGroup],
      healthCheckGracePeriod: Duration.minutes(5),
    });
    const targetGroup = loadBalancer.targetGroup(elbv2.TargetType.IP);
    this.service.attachToApplicationTargetGroup(targetGroup);
    loadBalancer.route(targetGroup);
  }
}

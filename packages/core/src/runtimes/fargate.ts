import {
  aws_ec2 as ec2, aws_ecs as ecs, aws_elasticloadbalancingv2 as elbv2, aws_iam as iam,
  aws_servicediscovery as servicediscovery, Duration,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import type { RuntimeProps } from './runtime-props';
import { grantSecretKeys } from './secret-keys';
import { ContainerFiles, type ContainerInitialization } from '../contract/container-initialization';
import { DeploymentStrategy } from '../contract/deployment-strategy';
import { WorkerVariables } from '../contract/ephemeral-workers';
import { callNewerMember, callPlugin, separateHealthCheckPort } from '../contract/plugin-calls';
import { UserError } from '../errors';
import { ecsCluster } from '../infrastructure/cluster';
import { acknowledgeEnvironment } from '../infrastructure/container-environment';
import { computeSecurityGroup } from '../infrastructure/egress';
import { PRIVATE_NAMESPACE } from '../platform/platform-parameters';
import { PROFILE_SETTINGS } from '../profiles/profile-settings';
import { Shell } from '../userdata/shell';


export interface FargateSize {
  /** Task CPU units. */
  readonly cpu: number;
  /** Task memory in MiB. */
  readonly memoryLimitMiB: number;
}

/**
 * Everything FARGATE-specific: an ECS cluster, the task with the plugin's container and its EFS volume (when it keeps
 * data), and a service that never runs two tasks against one data directory.
 */
export class FargateRuntime extends Construct {
  public readonly service: ecs.FargateService;
  public readonly taskDefinition: ecs.FargateTaskDefinition;
  public readonly securityGroup: ec2.SecurityGroup;
  /** The load balancer's target group of the application's tasks. */
  public readonly targetGroup: elbv2.ApplicationTargetGroup;

  constructor(scope: Construct, id: string, props: RuntimeProps & FargateSize) {
    super(scope, id);
    const { spec, network, loadBalancer, storage, workers } = props;
    // Workers find the application by a name that resolves only inside the VPC; ECS keeps it pointing at the task.
    const privateName = props.namespace ?? (workers ? new servicediscovery.PrivateDnsNamespace(this, 'PrivateNames', {
      name: PRIVATE_NAMESPACE,
      vpc: network.vpc,
      description: 'Private names of the application, for its workers',
    }) : undefined);

    const cluster = props.cluster ?? ecsCluster(this, network.vpc, props.context.containerInsights);
    this.taskDefinition = new ecs.FargateTaskDefinition(this, 'Task', {
      // On a platform the role's path is how the file-system policy knows it.
      taskRole: props.rolePath ? new iam.Role(this, 'TaskRole', {
        assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com'), path: props.rolePath,
      }) : undefined,
      // ... and the platform's Secrets Manager endpoint lets it read the database's password by the path alone.
      executionRole: props.rolePath ? new iam.Role(this, 'ExecutionRole', {
        assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com'), path: props.rolePath,
      }) : undefined,
      cpu: props.cpu,
      memoryLimitMiB: props.memoryLimitMiB,
      volumes: storage ? [{
        name: spec.volumeName(),
        efsVolumeConfiguration: {
          fileSystemId: storage.fileSystemId,
          transitEncryption: 'ENABLED',
          authorizationConfig: { accessPointId: storage.accessPointId, iam: 'ENABLED' },
        },
      }] : [],
    });
    this.addApplication(props);

    this.securityGroup = computeSecurityGroup(this, 'SecurityGroup', network.vpc, 'Application tasks: the application port from the load balancer only', spec.egressRules());
    this.securityGroup.addIngressRule(loadBalancer.securityGroup, ec2.Port.tcp(spec.applicationPort()), 'From the load balancer');
    storage?.allowFrom(this.securityGroup, this.taskDefinition.taskRole);
    if (workers) {
      workers.admitTo(this.securityGroup);
      workers.grantLaunch(this.taskDefinition.taskRole);
    }

    this.service = this.serviceOf(cluster, privateName, props);
    // The first task pulls through the cache only once its role may (CloudFormation would create both in parallel).
    const imagePulls = this.taskDefinition.node.tryFindChild('ImagePulls');
    if (imagePulls) this.service.node.addDependency(imagePulls);
    this.targetGroup = loadBalancer.targetGroup(elbv2.TargetType.IP);
    this.service.attachToApplicationTargetGroup(this.targetGroup);
    // A health check on another port: the load balancer reaches the tasks on it too.
    const healthPort = separateHealthCheckPort(props.spec);
    if (healthPort !== undefined) this.targetGroup.registerConnectable(this.service, ec2.Port.tcp(healthPort));
    loadBalancer.route(this.targetGroup);
  }

  /** The plugin's container: its image, user, ports, environment and secrets, its data volume, its initialization. */
  private addApplication(props: RuntimeProps): void {
    const { spec, pluginName, log, context, workers } = props;
    const fqdn = context.fqdn ?? '';
    const environment = {
      ...callPlugin(pluginName, 'containerEnvironmentVariables', () => spec.containerEnvironmentVariables(fqdn, context.sslEnabled, context.authMode)),
      ...props.environment,
      ...workers ? { ...workers.environment(), [WorkerVariables.PRIVATE_HOST]: `${spec.applicationId()}.${PRIVATE_NAMESPACE}` } : {},
    };
    const image = props.images.containerImage(this.taskDefinition, spec.defaultContainerImage());
    const container = this.taskDefinition.addContainer('Application', {
      image,
      user: spec.containerUser(),
      portMappings: [...new Set([spec.applicationPort(), separateHealthCheckPort(spec), ...workers?.applicationPorts ?? []])]
        .filter((port): port is number => port !== undefined).map((containerPort) => ({ containerPort })),
      ...callNewerMember(spec, pluginName, 'containerCommand') ?? {},
      environment,
      secrets: containerSecrets(props.secrets),
      logging: ecs.LogDrivers.awsLogs({ logGroup: log.group, streamPrefix: spec.applicationId() }),
    });
    grantSecretKeys(this.taskDefinition.obtainExecutionRole(), Object.values(props.secrets), props.context.secretKeyArns);
    acknowledgeEnvironment(this.taskDefinition, environment, 'The plugin\'s containerEnvironmentVariables()');
    if (props.storage) container.addMountPoints({ sourceVolume: spec.volumeName(), containerPath: spec.containerDataPath(), readOnly: false });
    const initialization = callPlugin(pluginName, 'containerInitialization',
      () => spec.containerInitialization(fqdn, context.sslEnabled, context.authMode, context.securityProfile));
    if (initialization) this.addInitialization(container, initialization, props);
  }

  /**
   * The application's tasks, found by its workers through the private namespace. Stop-first (always, with data of its
   * own: one writer of one data directory) stops the running task before the new one starts; rolling starts the new
   * tasks first and stops the old ones once the new are healthy.
   */
  private serviceOf(cluster: ecs.ICluster, privateName: servicediscovery.INamespace | undefined, props: RuntimeProps): ecs.FargateService {
    const { spec, network } = props;
    return new ecs.FargateService(this, 'Service', {
      cluster,
      taskDefinition: this.taskDefinition,
      desiredCount: props.rollout.desiredCount,
      ...props.rollout.strategy === DeploymentStrategy.ROLLING
        ? { minHealthyPercent: 100, maxHealthyPercent: 200 }
        : { minHealthyPercent: 0, maxHealthyPercent: 100 },
      circuitBreaker: { rollback: true },
      assignPublicIp: network.computeNeedsPublicIp,
      vpcSubnets: network.computeSubnets,
      // DEV: a port forward through ECS Exec (the CDK grants the task role the ssmmessages channel).
      enableExecuteCommand: PROFILE_SETTINGS[props.context.securityProfile].sessionManager,
      securityGroups: [this.securityGroup],
      // Not replaced before its first start (init containers included) may finish.
      healthCheckGracePeriod: Duration.seconds(props.startupSeconds),
      cloudMapOptions: privateName ? {
        cloudMapNamespace: privateName,
        name: spec.applicationId(),
        dnsRecordType: servicediscovery.DnsRecordType.A,
        dnsTtl: Duration.seconds(10),
      } : undefined,
    });
  }

  /**
   * An init container from the application's own image writes the plugin's files into a task-local volume and runs
   * its commands; the application starts only after it succeeded. It runs as root because Fargate creates the volume
   * root-owned; what it writes on EFS still belongs to the access point's user.
   */
  private addInitialization(application: ecs.ContainerDefinition, initialization: ContainerInitialization, props: RuntimeProps): void {
    const { spec } = props;
    const { files, commands = [], secrets = [] } = initialization;
    const unknown = secrets.filter((name) => !(name in props.secrets));
    if (unknown.length > 0) {
      throw new UserError(`${spec.applicationId()}: containerInitialization().secrets ${JSON.stringify(unknown)} are not among the ` +
        `application's secrets (${Object.keys(props.secrets).join(', ') || 'none'}); name only secrets the application has.`, this);
    }
    const names = Object.keys(files);
    const bad = names.filter((name) => !/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(name));
    if (bad.length > 0) {
      throw new UserError(`${spec.applicationId()}: containerInitialization() file names ${JSON.stringify(bad)} are not ` +
        'allowed; use plain file names of letters, digits, . _ and - (they are written to one directory).', this);
    }
    const environment = Object.fromEntries(names.map((name, i) => [`FW_FILE_${i + 1}`, Buffer.from(files[name]).toString('base64')]));
    const script = [
      'set -eu',
      ...names.map((name, i) => `printf '%s' "$FW_FILE_${i + 1}" | base64 -d > ${Shell.quote(`${ContainerFiles.DIRECTORY}/${name}`)}`),
      ...names.map((name) => `chmod 0644 ${Shell.quote(`${ContainerFiles.DIRECTORY}/${name}`)}`),
      ...commands,
    ].join('\n');
    this.taskDefinition.addVolume({ name: 'fw-config' });
    const init = this.taskDefinition.addContainer('Initialization', {
      image: props.images.containerImage(this.taskDefinition, spec.defaultContainerImage()),
      essential: false,
      user: '0',
      entryPoint: ['sh', '-c'],
      command: [script],
      environment,
      secrets: containerSecrets(Object.fromEntries(secrets.map((name) => [name, props.secrets[name]]))),
      logging: ecs.LogDrivers.awsLogs({ logGroup: props.log.group, streamPrefix: `${spec.applicationId()}-init` }),
    });
    init.addMountPoints(
      { sourceVolume: 'fw-config', containerPath: ContainerFiles.DIRECTORY, readOnly: false },
      ...props.storage ? [{ sourceVolume: spec.volumeName(), containerPath: spec.containerDataPath(), readOnly: false }] : [],
    );
    application.addMountPoints({ sourceVolume: 'fw-config', containerPath: ContainerFiles.DIRECTORY, readOnly: true });
    application.addContainerDependencies({ container: init, condition: ecs.ContainerDependencyCondition.SUCCESS });
  }
}

/** The application's secrets as ECS injects them: by reference, at a version or a JSON key where given. */
function containerSecrets(secrets: RuntimeProps['secrets']): Record<string, ecs.Secret> {
  return Object.fromEntries(Object.entries(secrets).map(([name, { secret, jsonKey, versionStage, versionId }]) =>
    [name, versionStage || versionId
      ? ecs.Secret.fromSecretsManagerVersion(secret, { versionStage, versionId }, jsonKey)
      : ecs.Secret.fromSecretsManager(secret, jsonKey)]));
}

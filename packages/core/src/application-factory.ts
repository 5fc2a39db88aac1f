import {
  aws_ec2 as ec2, aws_elasticloadbalancingv2 as elbv2, type aws_iam as iam, type aws_kms as kms, aws_secretsmanager as secretsmanager, Stack,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import type { ApplicationFactoryProps } from './application-factory-props';
import { acknowledgeGrantPolicies } from './compliance/acknowledge';
import { complianceChecks } from './compliance/compliance-checks';
import { deployedComponents } from './compliance/deployed-components';
import { inventoryControls, inventoryDeviations } from './compliance/inventory-controls';
import type { DeploymentContext } from './context/deployment-context';
import { createsEndpoints } from './context/existing-vpc';
import type { IApplicationSpec } from './contract/application-spec';
import { signInOf } from './contract/auth-mode';
import { type DatabaseEnvironment, databaseUrl } from './contract/database-requirement';
import { DeploymentStrategy } from './contract/deployment-strategy';
import { callNewerMember, callPlugin, separateHealthCheckPort } from './contract/plugin-calls';
import { RuntimeType } from './contract/runtime-type';
import type { SoftwareComponent } from './contract/software-component';
import { pinnedByPlaceholder } from './contract/spec-validation';
import { UserError, withConstructPath } from './errors';
import { addApplicationAlarms } from './factory/application-alarms';
import { type FactoryPlan, planFactory, tokenPathDeviations } from './factory/factory-plan';
import { attachToPlatform, buildStandalone, type SharedParts } from './factory/shared-parts';
import type { DatabaseConnection } from './infrastructure/database';
import { DockerHubCache, hasDigest, hasTagOrDigest, ImageSource, isDockerHubImage } from './infrastructure/docker-hub-cache';
import { addEcsConsistencyChecks } from './infrastructure/ecs-consistency';
import { VpcEndpoints } from './infrastructure/endpoints';
import { ImageDigestCheck } from './infrastructure/image-digest-check';
import { addResourceBudget } from './infrastructure/resource-budget';
import type { RotationRestart } from './infrastructure/rotation-restart';
import type { Workers } from './infrastructure/workers';
import { onDemand } from './on-demand';
import type { Platform } from './platform/platform';
import { admitApplications, hostOf } from './platform/platform-attachment';
import { PROFILE_SETTINGS } from './profiles/profile-settings';
import type { Ec2Runtime } from './runtimes/ec2';
import { FargateRuntime } from './runtimes/fargate';
import { type ApplicationSecret, EC2_IMAGE_MEMBER, type RuntimeProps } from './runtimes/runtime-props';
import { warn } from './warnings';

/**
 * Deploys an application described by a plugin on one runtime, with the framework's network, load balancer, shared
 * file system and logging.
 */
export class ApplicationFactory extends Construct {
  /** The validated deployment configuration this factory built. */
  public readonly context: DeploymentContext;
  /** The public base address: `https://<fqdn>`, or `http://<load balancer DNS name>` without TLS. */
  public readonly url: string;
  /**
   * The role of the workers the plugin starts (`ephemeralWorkers()`), undefined when it declares none. It has no
   * permissions: grant what your jobs need here, for example `factory.workerTaskRole?.addToPrincipalPolicy(...)`.
   */
  public readonly workerTaskRole?: iam.IRole;
  /**
   * The S3 gateway endpoint of STAGING and PRODUCTION (undefined in DEV). Its policy allows this account's buckets and
   * Amazon Linux's package repository only: add a statement for another account's bucket your jobs need, for example
   * `factory.s3Endpoint?.addToPolicy(...)`.
   */
  public readonly s3Endpoint?: ec2.GatewayVpcEndpoint;
  /** The VPC the application runs in (its own, or its platform's): put what the framework does not provide here. */
  public readonly vpc: ec2.IVpc;
  /** The application's security group: it admits the load balancer on the application port, and what `allowFrom` says. */
  public readonly securityGroup: ec2.ISecurityGroup;
  /**
   * The application's file system (its own, or its platform's), undefined on EC2 with EBS storage and for an
   * application that keeps no data (`keepsData()`).
   */
  public readonly fileSystemId?: string;

  /**
   * @param scope the stack the application is deployed in (one factory a stack)
   * @param id the construct's id
   * @param runtimeType `FARGATE` or `EC2`
   * @param spec the plugin that describes the application
   * @param props the deployment's settings. Each may come from the context key of the same name instead
   */
  constructor(scope: Construct, id: string, runtimeType: RuntimeType, spec: IApplicationSpec, props: ApplicationFactoryProps = {}) {
    super(scope, id);
    // Every mistake found while building it names this construct (UserError.constructPath).
    try {
      // Everything is read and checked before the first resource: a refused deployment leaves nothing half-made.
      assertAloneInStack(this, Stack.of(this));
      const plan = planFactory(this, runtimeType, spec, props);
      this.context = plan.context;
      const { context, settings, platform } = plan;
      const deployed = [
        ...runtimeType === RuntimeType.FARGATE ? [{ member: 'defaultContainerImage()', image: plan.spec.defaultContainerImage() }] : [],
        ...plan.workerSpec ? [{ member: 'ephemeralWorkers().image', image: plan.workerSpec.image }] : [],
      ];
      const images = this.imageSource(context, plan.plugin, platform, deployed);
      const shared = platform ? attachToPlatform(this, plan, platform, props.listenerPriority)
        : buildStandalone(this, context, plan.spec, plan.logGroupName, plan.dataOn, settings, plan.database);
      this.url = shared.url;
      this.vpc = shared.network.vpc;
      this.fileSystemId = shared.storage?.fileSystemId;
      const workers = plan.workerSpec
        ? new (onDemand.workers().Workers)(this, 'Workers', {
          network: shared.network,
          log: shared.log,
          applicationId: plan.spec.applicationId(),
          workers: plan.workerSpec,
          images,
          containerInsights: context.containerInsights,
        })
        : undefined;
      this.workerTaskRole = workers?.taskRole;
      // EC2: the plugin's image is deployed only when its user data runs it (runImage), under the same rules.
      const runtime = this.buildRuntime(plan, shared, images, workers, (member, image) => {
        deployed.push({ member, image });
        return this.imageSource(context, plan.plugin, platform, [{ member, image }]);
      });
      this.securityGroup = runtime.securityGroup;
      // The application changes only once the cache serves each pinned digest its tasks pull (the EC2 boot checks its own).
      const pulledByTasks = deployed.filter((d) => runtimeType === RuntimeType.FARGATE || d.member !== EC2_IMAGE_MEMBER).map((d) => d.image);
      const digests = new ImageDigestCheck(this, 'ImageDigests', { images: pulledByTasks, source: images, logGroup: shared.log.group });
      if (digests.resources.length > 0) ('service' in runtime ? runtime.service : runtime.autoScalingGroup).node.addDependency(digests);
      addApplicationAlarms(this, plan, shared, runtime);
      if (shared.privateLoadBalancer) this.routePrivately(runtime, shared.privateLoadBalancer, shared.listenerPriority!, context, plan.spec);
      const restart = shared.database ? this.connectDatabase(runtime, shared.database, shared, plan) : undefined;
      this.s3Endpoint = platform ? platform.s3Endpoint : this.endpointsOf(plan, shared, runtime, workers, restart);
      if (platform) admitApplications(this, platform, runtime.securityGroup, props.allowFrom ?? [], context);
      this.checkCompliance(plan, deployedComponents(runtimeType, deployed.map((d) => images.pinned(d.image)), context.ec2ImageId),
        callPlugin(plan.plugin, 'softwareComponents', () => plan.spec.softwareComponents()));
      addResourceBudget(this, () => [], 'Ask for less of the plugin (workers, alarms, secrets), or split the application.');
    } catch (e) {
      throw withConstructPath(e, this);
    }
  }


  /** The runtime the plan names, with what the plugin, the database and the identity provider give the application. */
  private buildRuntime(plan: FactoryPlan, shared: SharedParts, images: ImageSource, workers: Workers | undefined,
    admitImage: RuntimeProps['admitImage']): FargateRuntime | Ec2Runtime {
    const { plugin, spec, context, runtimeType, integration, provider, database } = plan;
    const connection = shared.database;
    const runtimeProps = {
      spec,
      images,
      admitImage,
      pluginName: plugin,
      workers,
      context,
      dataKey: runtimeType === RuntimeType.EC2 ? shared.dataKey : undefined,
      network: shared.network,
      loadBalancer: shared.loadBalancer,
      log: shared.log,
      keepsData: plan.dataOn !== undefined,
      storage: shared.storage,
      rolePath: shared.rolePath,
      startupSeconds: plan.startup,
      rollout: plan.rollout,
      cluster: runtimeType === RuntimeType.FARGATE ? shared.cluster : undefined,
      namespace: runtimeType === RuntimeType.FARGATE ? shared.namespace : undefined,
      environment: {
        ...integration && provider ? callPlugin(plugin, 'oidcIntegration().environment', () => integration.environment(provider)) : {},
        ...connection ? databaseEnvironment(database!.environment, connection) : {},
      },
      secrets: {
        ...Object.fromEntries(Object.entries(plan.secrets).map(([name, { secretArn, ...field }]) =>
          [name, { secret: secretsmanager.Secret.fromSecretCompleteArn(this, `Secret-${name}`, secretArn), ...field }])),
        ...connection ? databaseSecrets(this, database!.environment, connection, shared.dataKey) : {},
      },
    };
    if (runtimeType === RuntimeType.FARGATE) {
      if (plan.dataOn && !shared.storage) throw new Error('Fargate keeps data on EFS, but no file system was created');
      return new FargateRuntime(this, 'Fargate', { ...runtimeProps, cpu: plan.sizes.cpu, memoryLimitMiB: plan.sizes.memoryLimitMiB });
    }
    return new (onDemand.ec2Runtime().Ec2Runtime)(this, 'Ec2', {
      ...runtimeProps,
      instanceType: new ec2.InstanceType(plan.sizes.instanceType),
      dataVolumeGiB: plan.sizes.dataVolumeGiB,
      dataVolumeBackupDays: plan.settings.dataVolumeBackupDays,
      dataVolumeRemovalPolicy: plan.settings.removalPolicy,
    });
  }

  /** A standalone deployment's VPC endpoints (STAGING and PRODUCTION), for the application and its workers; its S3 endpoint. */
  private endpointsOf(plan: FactoryPlan, shared: SharedParts, runtime: FargateRuntime | Ec2Runtime, workers: Workers | undefined,
    restart: RotationRestart | undefined) {
    // On a given VPC its network team's endpoints serve, unless existingVpc.endpoints says create.
    if (!plan.settings.vpcEndpoints || !createsEndpoints(plan.context.existingVpc)) return undefined;
    return new VpcEndpoints(this, 'Endpoints', {
      network: shared.network,
      // The restart function too: it calls ECS (through the endpoint, with workers) and describes the database's secret.
      clients: [runtime.securityGroup, ...workers ? [workers.securityGroup] : [], ...restart?.securityGroup ? [restart.securityGroup] : []],
      restart,
      logGroupArns: [shared.log.group.logGroupArn],
      // The database's password too, which the task (or the boot) reads through this endpoint once it exists.
      secretArns: [...new Set(Object.values(plan.secrets).map((s) => s.secretArn)), ...shared.database ? [shared.database.secretArn] : []],
      workers,
      amazonLinuxRepositories: plan.runtimeType === RuntimeType.EC2,
    }).s3;
  }

  /**
   * The whole stack under the profile's packs, with the plugin's controls and the stated scope, and what checks the
   * deployed account: resources the CDK adds at stack level (custom-resource providers) are ours too.
   */
  private checkCompliance(plan: FactoryPlan, framework: SoftwareComponent[], declared: SoftwareComponent[]): void {
    const components = [...framework, ...declared];
    const { context, plugin, spec } = plan;
    acknowledgeGrantPolicies(this);
    addEcsConsistencyChecks(this);
    if (context.pciConformancePack) onDemand.pciConformancePack().addPciConformancePack(this, 'PciConformancePack');
    if (context.securityHubPciDss) onDemand.securityHubStandard().addSecurityHubPciDss(this, 'SecurityHubPciDss');
    if (plan.settings.complianceChecks) {
      const accepted = context.acceptedAdvisories ?? {};
      const controls = [...callPlugin(plugin, 'complianceControls', () => spec.complianceControls()).map((c) => ({ ...c, source: plugin })),
        ...inventoryControls(components, declared, plan.knownVulnerabilities.length)];
      complianceChecks().requireCompliance(this, plan.stack, controls, {
        scope: context.pciDssScope,
        multiTenantProvider: context.pciDssMultiTenantProvider,
        knownVulnerabilities: plan.knownVulnerabilities.map((v) => ({ ...v, ...accepted[v.id] ? { accepted: accepted[v.id] } : {} })),
        conformancePackElsewhere: plan.platform?.context.pciConformancePack === true,
        components,
        resolvedContext: context,
        statedDeviations: [...tokenPathDeviations(plugin, context), ...inventoryDeviations(plugin, context.stackName, declared)],
        signIn: signInOf(context.authMode),
        ...signInOf(context.authMode) === 'application' && context.oidc ? { identityProvider: context.oidc.issuer } : {},
        outboundConnections: callNewerMember(spec, plugin, 'outboundConnections') ?? [],
        defaultCredentials: callNewerMember(spec, plugin, 'defaultCredentials') ?? [],
      });
    }
  }

  /**
   * Where the tasks pull their images: each pinned by its digest when `imageDigests` gives one (PRODUCTION refuses an
   * image pinned by tag only), Docker Hub's through an ECR pull-through cache (the platform's, or one of this stack's
   * with `dockerHubCredentialArn`; a profile that requires the cache refuses a Docker Hub image without one). An image
   * without a tag or digest floats to whatever `latest` is that day: a warning.
   */
  private imageSource(context: DeploymentContext, plugin: string, platform: Platform | undefined,
    images: Array<{ readonly member: string; readonly image: string }>): ImageSource {
    const settings = PROFILE_SETTINGS[context.securityProfile];
    const digests = new ImageSource(undefined, context.imageDigests);
    for (const { member, image } of images.filter((i) => !hasTagOrDigest(digests.pinned(i.image)))) {
      warn(this, 'imageWithoutTag', `${plugin}.${member} is ${JSON.stringify(image)}, ` +
        'with neither a tag nor a digest: every task runs whatever latest is when it starts. Pin a version, for example ' +
        `${JSON.stringify(`${image}:1.2.3`)}.`);
    }
    for (const { member, image } of images.filter((i) => pinnedByPlaceholder(digests.pinned(i.image)))) {
      warn(this, 'placeholderDigest', `${plugin}.${member} ${JSON.stringify(image)} is pinned by the placeholder digest (all ` +
        'zeros): no image has it, so the pull fails at deploy and the evidence report names the image as not identified. Give its ' +
        `digest in imageDigests (docker buildx imagetools inspect ${image}).`);
    }
    const byTag = images.filter((i) => !hasDigest(digests.pinned(i.image)));
    if (settings.imageDigestRequired && byTag.length > 0) {
      throw new UserError(`${plugin}: ${byTag.map((i) => `${i.member} is ${JSON.stringify(i.image)}`).join(', and ')}, pinned by tag ` +
        `only; in ${context.securityProfile} every image is pinned by digest, so that what runs is the image that was ` +
        'reviewed (a tag can be moved). Give each digest in the context key imageDigests, for example ' +
        `{${byTag.map((i) => `"${i.image}": "sha256:<64 hex digits>"`).join(', ')}} (read it with: docker buildx imagetools ` +
        `inspect ${byTag[0].image}), or let the plugin name the image with its digest (<image>@sha256:<64 hex digits>).`, this);
    }
    const fromDockerHub = images.filter((i) => isDockerHubImage(i.image));
    if (fromDockerHub.length === 0) return digests;
    const prefix = platform ? platform._dockerHubCachePrefix()
      : context.dockerHubCredentialArn
        ? ((this.node.tryFindChild('DockerHubCache') as DockerHubCache | undefined)
          ?? new DockerHubCache(this, 'DockerHubCache', { credentialArn: context.dockerHubCredentialArn, removalPolicy: settings.removalPolicy })).prefix
        : undefined;
    if (!prefix && settings.imageCacheRequired) {
      throw new UserError(`${plugin}: ${fromDockerHub.map((i) => `${i.member} is the Docker Hub image ${JSON.stringify(i.image)}`).join(', and ')}; ` +
        `in ${context.securityProfile} every task would pull from Docker Hub, which allows 100 anonymous pulls in 6 hours per ` +
        'address, shared by everything behind the NAT gateways. Set dockerHubCredentialArn' +
        `${platform ? ' on the platform' : ''} to a Secrets Manager secret named ecr-pullthroughcache/... holding a Docker Hub ` +
        'account\'s {"username": ..., "accessToken": ...} (for example arn:aws:secretsmanager:eu-west-1:123456789012:secret:' +
        'ecr-pullthroughcache/docker-hub-AbCdEf): images are then pulled through an ECR pull-through cache.', this);
    }
    return new ImageSource(prefix, context.imageDigests);
  }

  /**
   * On a platform with TLS: the application's own host name reaches it from inside the VPC through the private load
   * balancer (not for alb-oidc: the private listener signs nobody in).
   */
  private routePrivately(runtime: FargateRuntime | Ec2Runtime, privateLoadBalancer: NonNullable<SharedParts['privateLoadBalancer']>,
    priority: number, context: DeploymentContext, spec: IApplicationSpec): void {
    const route = new (onDemand.privateRoutes().PrivateHostRoute)(this, 'PrivateRoute', {
      vpc: this.vpc,
      ...privateLoadBalancer,
      host: hostOf(context),
      priority,
      applicationPort: spec.applicationPort(),
      healthCheckPath: spec.healthCheckPath(),
      healthCheckPort: separateHealthCheckPort(spec),
      applicationSecurityGroup: runtime.securityGroup,
    });
    if (runtime instanceof FargateRuntime) runtime.service.attachToApplicationTargetGroup(route.targetGroup(elbv2.TargetType.IP));
    else runtime.autoScalingGroup.attachToApplicationTargetGroup(route.targetGroup(elbv2.TargetType.INSTANCE));
  }

  /**
   * The database admits the application alone (and its group sends nothing it is not allowed); a rotation of its
   * password (RDS: every 7 days) restarts the application, which read it when it started.
   */
  private connectDatabase(runtime: FargateRuntime | Ec2Runtime, database: DatabaseConnection, shared: SharedParts,
    plan: FactoryPlan): RotationRestart {
    const { context } = plan;
    const { POSTGRES_PORT } = onDemand.database();
    database.securityGroup.addIngressRule(runtime.securityGroup, ec2.Port.tcp(POSTGRES_PORT), `PostgreSQL from ${context.applicationId}`);
    runtime.securityGroup.addEgressRule(database.securityGroup, ec2.Port.tcp(POSTGRES_PORT), 'PostgreSQL to its database');
    return new (onDemand.rotationRestart().RotationRestart)(this, 'RestartOnRotation', {
      secretArn: database.secretArn,
      network: shared.network,
      logGroup: shared.log.group,
      rolePath: shared.rolePath,
      target: runtime instanceof FargateRuntime
        ? { kind: 'ecs', clusterName: runtime.service.cluster.clusterName, serviceName: runtime.service.serviceName, serviceArn: runtime.service.serviceArn }
        : { kind: 'asg', groupName: runtime.autoScalingGroup.autoScalingGroupName, rolling: plan.rollout.strategy === DeploymentStrategy.ROLLING },
      window: context.maintenanceWindow ?? plan.settings.maintenanceWindow,
    });
  }


}


/** The database's plain values under the names the plugin gave (the user and password are secrets: `databaseSecrets`). */
function databaseEnvironment(names: DatabaseEnvironment, database: DatabaseConnection): Record<string, string> {
  const values = { host: database.host, port: database.port, name: database.name };
  return {
    ...names.host ? { [names.host]: values.host } : {},
    ...names.port ? { [names.port]: values.port } : {},
    ...names.name ? { [names.name]: values.name } : {},
    ...names.url && names.urlFormat ? { [names.url]: databaseUrl(names.urlFormat, values) } : {},
  };
}

/** The database's user and password, each a key of the secret RDS manages (encrypted under the data key). */
function databaseSecrets(scope: Construct, names: DatabaseEnvironment, database: DatabaseConnection,
  key: kms.IKey): Record<string, ApplicationSecret> {
  const secret = secretsmanager.Secret.fromSecretAttributes(scope, 'DatabaseSecret', { secretCompleteArn: database.secretArn, encryptionKey: key });
  return {
    ...names.user ? { [names.user]: { secret, jsonKey: 'username' } } : {},
    ...names.password ? { [names.password]: { secret, jsonKey: 'password' } } : {},
  };
}

/**
 * One factory a stack: the names a factory derives from its stack's name (log groups, alarms, the WAF's) would collide,
 * and CloudFormation would refuse the second at deploy. Refused at synth, naming both.
 */
function assertAloneInStack(factory: ApplicationFactory, stack: Stack): void {
  const other = stack.node.findAll().find((c) => c !== factory && c instanceof ApplicationFactory);
  if (other) {
    throw new UserError(`ApplicationFactory ${factory.node.path} and ${other.node.path} are in one stack (${stack.stackName}): ` +
      'the names each derives from the stack (log groups, alarms) would collide. Give each application a stack of its ' +
      'own; to share a network and load balancer, attach them to one Platform (see docs/platform.md).');
  }
}


import {
  aws_ec2 as ec2, type aws_ecs as ecs, aws_elasticloadbalancingv2 as elbv2, aws_iam as iam, type aws_kms as kms,
  aws_route53 as route53, aws_secretsmanager as secretsmanager, type aws_servicediscovery as servicediscovery,
  type aws_sns as sns, Stack,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import type { ApplicationFactoryProps } from './application-factory-props';
import { acknowledgeGrantPolicies, RECORD_ACKNOWLEDGEMENTS } from './compliance/acknowledge';
import { complianceChecks } from './compliance/compliance-checks';
import { checkKnownVulnerabilities } from './compliance/known-vulnerabilities';
import type { Deviation } from './compliance/report-model';
import type { DeploymentContext } from './context/deployment-context';
import { factoryContext } from './context/factory-context';
import { configuredSpec } from './context/plugin-settings';
import { parseSecretReference, type SecretReference } from './context/secret-reference';
import { unusedKeyMessages } from './context/unused-keys';
import { startupSeconds } from './contract/application-size';
import type { IApplicationSpec } from './contract/application-spec';
import { AuthMode, signInOf } from './contract/auth-mode';
import { type DatabaseEnvironment, type DatabaseRequirement, databaseUrl, databaseVariables } from './contract/database-requirement';
import { Ec2Storage } from './contract/ec2-storage';
import { broadEgressProblems } from './contract/egress-rule';
import { type EphemeralWorkers, WorkerVariables } from './contract/ephemeral-workers';
import { factorySizes } from './contract/factory-limits';
import type { KnownVulnerability } from './contract/known-vulnerability';
import type { LogAlarm } from './contract/log-alarm';
import type { IOidcIntegration, OidcProviderSettings } from './contract/oidc-integration';
import { callPlugin, pluginName } from './contract/plugin-calls';
import { authModesSince, contractWarningOf, knownAt, RUNTIME_TYPES_SINCE } from './contract/plugin-contract';
import { PosixUser } from './contract/posix-user';
import { variableProblems } from './contract/reserved-variables';
import { RuntimeType } from './contract/runtime-type';
import type { SecurityProfile } from './contract/security-profile';
import { type SoftwareComponent, SoftwareComponentType } from './contract/software-component';
import { assertValidSpec } from './contract/spec-validation';
import { referenceProblems } from './contract/value-boundary';
import { UserError, withConstructPath } from './errors';
import { LogAlarms } from './infrastructure/alarms';
import type { DatabaseConnection, PluginDatabaseProps } from './infrastructure/database';
import { DockerHubCache, hasDigest, hasTagOrDigest, ImageSource, isDockerHubImage } from './infrastructure/docker-hub-cache';
import { addEcsConsistencyChecks } from './infrastructure/ecs-consistency';
import { VpcEndpoints } from './infrastructure/endpoints';
import { allowAutoScalingVolumes, purposeKey } from './infrastructure/keys';
import { certificateInStack, listenerCertificate, type ListenerCertificate } from './infrastructure/listener-certificate';
import { LoadBalancer, TlsSettings } from './infrastructure/load-balancer';
import { type ApplicationLog, applicationLogGroupName, Logging } from './infrastructure/logging';
import { computeNeedsPublicIp, Network, type NetworkAccess } from './infrastructure/network';
import { addResourceBudget } from './infrastructure/resource-budget';
import type { RotationRestart } from './infrastructure/rotation-restart';
import { type ApplicationRoute, defaultListenerPriority, HostRoute } from './infrastructure/routing';
import { type ApplicationStorage, SharedStorage } from './infrastructure/storage';
import type { Workers } from './infrastructure/workers';
import { onDemand } from './on-demand';
import { namedHosts } from './platform/named-hosts';
import type { Platform } from './platform/platform';
import { admitApplications, hostOf, propsOnPlatform } from './platform/platform-attachment';
import type { PrivateHostRouteProps } from './platform/private-routes';
import { PROFILE_SETTINGS, type ProfileSettings } from './profiles/profile-settings';
import type { Ec2Runtime } from './runtimes/ec2';
import { FargateRuntime } from './runtimes/fargate';
import type { ApplicationSecret, RuntimeProps } from './runtimes/runtime-props';
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
   * The application's file system (its own, or its platform's), undefined on EC2 with EBS storage.
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
      const plan = this.plan(runtimeType, spec, props);
      this.context = plan.context;
      const { context, settings, platform } = plan;
      const deployed = [
        ...runtimeType === RuntimeType.FARGATE ? [{ member: 'defaultContainerImage()', image: plan.spec.defaultContainerImage() }] : [],
        ...plan.workerSpec ? [{ member: 'ephemeralWorkers().image', image: plan.workerSpec.image }] : [],
      ];
      const images = this.imageSource(context, plan.plugin, platform, deployed);
      const shared = platform ? this.attachToPlatform(plan, platform, props.listenerPriority)
        : this.buildStandalone(context, plan.spec, plan.logGroupName, plan.ebs, settings, plan.database);
      this.url = shared.url;
      this.vpc = shared.network.vpc;
      this.fileSystemId = shared.storage?.fileSystemId;
      if (plan.alarms.length > 0) {
        new LogAlarms(this, 'Alarms', { log: shared.log, alarms: plan.alarms, email: context.alarmEmail, removalPolicy: settings.removalPolicy, topic: shared.alarmTopic });
      }
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
      if (shared.privateLoadBalancer) this.routePrivately(runtime, shared.privateLoadBalancer, shared.listenerPriority!, context, plan.spec);
      const restart = shared.database ? this.connectDatabase(runtime, shared.database, shared, context) : undefined;
      this.s3Endpoint = platform ? platform.s3Endpoint : this.endpointsOf(plan, shared, runtime, workers, restart);
      if (platform) admitApplications(this, platform, runtime.securityGroup, props.allowFrom ?? [], context);
      this.checkCompliance(plan, [...deployedComponents(runtimeType, deployed.map((d) => images.pinned(d.image))),
        ...callPlugin(plan.plugin, 'softwareComponents', () => plan.spec.softwareComponents())]);
      addResourceBudget(this, () => [], 'Ask for less of the plugin (workers, alarms, secrets), or split the application.');
    } catch (e) {
      throw withConstructPath(e, this);
    }
  }

  /**
   * The validated context, the configured plugin and what it asks for, each refused with a message naming it: the
   * platform's settings where it attaches to one, the plugin's settings, sizes, auth modes, alarms, database and secrets.
   */
  private plan(runtimeType: RuntimeType, given: IApplicationSpec, props: ApplicationFactoryProps): FactoryPlan {
    const plugin = pluginName(given);
    assertValidSpec(given, plugin);
    const stack = Stack.of(this);
    assertAloneInStack(this, stack);
    const { platform } = props;
    if (!platform && (props.listenerPriority !== undefined || props.allowFrom !== undefined)) {
      throw new UserError(`ApplicationFactory ${this.node.path}: listenerPriority and allowFrom place an application on a ` +
        'platform\'s shared listener and network; without platform they do not apply. Remove them, or set platform.', this);
    }
    // The context keys of the construct tree and the factory's settings, read by the deployment app's reader, with what
    // the plugin's alarms require of them: every problem at once.
    const raised = callPlugin(plugin, 'logAlarms', () => given.logAlarms()).map((a) => a.name);
    const context = factoryContext(this, runtimeType, given.applicationId(), platform ? propsOnPlatform(this, stack, platform, props) : props,
      (v) => (raised.length > 0 && PROFILE_SETTINGS[v.securityProfile as SecurityProfile]?.alarmRecipientRequired && !v.alarmEmail
        ? [`${plugin} raises alarms (${raised.join(', ')}), and in ${v.securityProfile} someone must receive them: set alarmEmail ` +
          `(for example security@example.com)${platform ? ' on the platform' : ''}.`] : []));
    // From here on the plugin is the one configured with its settings (the plugin itself when it declares none).
    const spec = configuredSpec(plugin, given, context.pluginSettings);
    if (spec !== given) assertValidSpec(spec, plugin);
    const declaredSize = callPlugin(plugin, 'defaultSize', () => spec.defaultSize());
    const secrets = secretsOf(plugin, spec, context.secrets ?? {});
    assertAuthMode(plugin, spec, context, given);
    if (knownAt(given, [runtimeType], RUNTIME_TYPES_SINCE).length === 0) {
      throw new UserError(`${plugin} (applicationId ${given.applicationId()}) was built against a plugin contract that has no runtimeType ` +
        `${runtimeType}: rebuild it against this framework's (npx projen upgrade-fw), or deploy it on another runtime.`, this);
    }
    const unrecorded = contractWarningOf(given);
    if (unrecorded) warn(this, 'pluginContractNotRecorded', unrecorded);
    const settings = PROFILE_SETTINGS[context.securityProfile];
    // Before any child exists (context can only be set then): acknowledgements only where the packs read them.
    this.node.setContext(RECORD_ACKNOWLEDGEMENTS, settings.complianceChecks);
    const alarms = spec.logAlarms();
    const database = databaseOf(plugin, spec, secrets);
    const integration = signInOf(context.authMode) === 'application' ? spec.oidcIntegration() : undefined;
    const provider = integration ? providerOf(context) : undefined;
    assertVariablesOnce(this, plugin, spec, context, integration, provider, database);
    if (integration && provider) secrets[integration.clientSecretVariable()] = { secretArn: provider.clientSecretArn };
    if (integration && !context.fqdn) this.warnLocalAddress(plugin, runtimeType, spec.applicationPort(), integration.callbackPath());
    for (const message of unusedKeyMessages(context, database !== undefined)) warn(this, 'keyNotUsed', message);
    // containerImage is the deployment app's (npx fw-deploy): a factory made in code deploys the plugin it is given.
    const described = this.node.tryGetContext('containerImage')?.image;
    if (described !== undefined && described !== spec.defaultContainerImage()) {
      warn(this, 'keyNotUsed', `containerImage (image ${described}) is not used: ${plugin} (image ${spec.defaultContainerImage()}) is ` +
        'deployed, as given to ApplicationFactory; only the deployment app (npx fw-deploy) makes a plugin from containerImage.');
    }
    if (settings.broadEgressRefused) {
      const broad = [...broadEgressProblems(spec.egressRules(), `${plugin}.egressRules()`),
        ...broadEgressProblems(spec.ephemeralWorkers()?.egress ?? [], `${plugin}.ephemeralWorkers().egress`)];
      if (broad.length > 0) throw new UserError(`${context.securityProfile} refuses egress this broad: ${broad.join('; ')}.`, this);
    }
    if (runtimeType === RuntimeType.FARGATE && settings.rootContainerRefused && Number(PosixUser.parse(spec.containerUser()).uid) === 0) {
      throw new UserError(`${plugin}.containerUser() is '${spec.containerUser()}': uid 0 is root, which ${context.securityProfile} does not ` +
        'run (as EC2 never does); give the image\'s own user, for example \'1000:1000\'.', this);
    }
    const knownVulnerabilities = callPlugin(plugin, 'knownVulnerabilities', () => spec.knownVulnerabilities());
    checkKnownVulnerabilities(this, plugin, knownVulnerabilities, context.acceptedAdvisories ?? {}, settings.knownVulnerabilitiesRefused,
      context.securityProfile);
    return {
      plugin,
      spec,
      runtimeType,
      context,
      settings,
      platform,
      stack,
      secrets,
      database,
      integration,
      provider,
      alarms,
      knownVulnerabilities,
      sizes: factorySizes(runtimeType, context, declaredSize, plugin),
      startup: startupSeconds(declaredSize, plugin),
      ebs: runtimeType === RuntimeType.EC2 && context.ec2Storage === Ec2Storage.EBS,
      logGroupName: applicationLogGroupName(context.stackName, runtimeType, context.securityProfile),
      workerSpec: spec.ephemeralWorkers(),
    };
  }

  /**
   * The platform's part for this application (its rule, access point, secrets' and database's parameters), then its
   * shared parts as this stack reads them. The platform's parameters exist once the platform is deployed: `cdk deploy
   * <application>` and `cdk deploy --all` deploy the platform first.
   */
  private attachToPlatform(plan: FactoryPlan, platform: Platform, priority: number | undefined): SharedParts {
    const { context, spec, runtimeType, stack, ebs } = plan;
    const listenerPriority = priority ?? defaultListenerPriority(hostOf(context));
    const certificate = listenerCertificate(platform.context, context, hostOf(context));
    const rolePath = platform._attach({
      stackName: context.stackName,
      applicationId: spec.applicationId(),
      host: hostOf(context),
      listenerPriority,
      accessPoint: ebs ? undefined : { path: spec.efsDataPath(), owner: PosixUser.parse(spec.containerUser()), permissions: spec.efsPermissions() },
      secrets: Object.fromEntries(Object.entries(plan.secrets).map(([name, { secretArn }]) => [name, secretArn])),
      requestBodyLimits: spec.requestBodyLimits(),
      blockedRequests: spec.blockedRequests(),
      amazonLinuxRepositories: runtimeType === RuntimeType.EC2,
      signInByLoadBalancer: signInOf(context.authMode) === 'load-balancer',
      tokenPaths: context.tokenPaths,
      namedHosts: namedHosts(context.pluginSettings),
      certificate,
      database: plan.database !== undefined,
      stack,
    });
    stack.addStackDependency(Stack.of(platform), 'reads the platform\'s parameters');
    return this.attachTo(platform, context, spec, {
      rolePath, listenerPriority, logGroupName: plan.logGroupName, ebs, settings: plan.settings, certificate, databaseRequirement: plan.database,
    });
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
      storage: shared.storage,
      rolePath: shared.rolePath,
      startupSeconds: plan.startup,
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
      if (!shared.storage) throw new Error('Fargate always keeps its data on EFS, but no file system was created');
      return new FargateRuntime(this, 'Fargate', { ...runtimeProps, storage: shared.storage, cpu: plan.sizes.cpu, memoryLimitMiB: plan.sizes.memoryLimitMiB });
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
    if (!plan.settings.vpcEndpoints) return undefined;
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
  private checkCompliance(plan: FactoryPlan, components: SoftwareComponent[]): void {
    const { context, plugin, spec } = plan;
    acknowledgeGrantPolicies(this);
    addEcsConsistencyChecks(this);
    if (context.pciConformancePack) onDemand.pciConformancePack().addPciConformancePack(this, 'PciConformancePack');
    if (context.securityHubPciDss) onDemand.securityHubStandard().addSecurityHubPciDss(this, 'SecurityHubPciDss');
    if (plan.settings.complianceChecks) {
      const accepted = context.acceptedAdvisories ?? {};
      complianceChecks().requireCompliance(this, plan.stack, callPlugin(plugin, 'complianceControls', () => spec.complianceControls()).map((c) => ({ ...c, source: plugin })), {
        scope: context.pciDssScope,
        multiTenantProvider: context.pciDssMultiTenantProvider,
        knownVulnerabilities: plan.knownVulnerabilities.map((v) => ({ ...v, ...accepted[v.id] ? { accepted: accepted[v.id] } : {} })),
        conformancePackElsewhere: plan.platform?.context.pciConformancePack === true,
        components,
        resolvedContext: context,
        statedDeviations: tokenPathDeviations(plugin, context),
      });
    }
  }

  /**
   * Without a domain the application's address is `http://localhost:<port>`, which is where the identity
   * provider sends a browser back: reachable through a Session Manager port forward (`sessionManager`, DEV only: the
   * context reader refuses a missing domain wherever TLS is required).
   */
  private warnLocalAddress(plugin: string, runtimeType: RuntimeType, port: number, callbackPath: string): void {
    const forward = `--document-name AWS-StartPortForwardingSession --parameters portNumber=${port},localPortNumber=${port}`;
    const target = runtimeType === RuntimeType.FARGATE ? 'ecs:<cluster name>_<task id>_<container runtime id>' : '<instance id>';
    warn(this, 'localAddress', `No domain: ${plugin}'s address is http://localhost:${port}. Register ` +
      `http://localhost:${port}${callbackPath} as a redirect URI at the identity provider, and reach the application ` +
      `through a port forward: aws ssm start-session --target ${target} ${forward}, then open http://localhost:${port}.`);
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
    context: DeploymentContext): RotationRestart {
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
        : { kind: 'asg', groupName: runtime.autoScalingGroup.autoScalingGroupName },
    });
  }

  /**
   * The plugin's database, in the application's stack whether standalone or on a platform (in the platform's isolated
   * subnets then, under its data and logs keys): the platform's stack does not grow with databases, and the database
   * has one lifecycle wherever it runs (docs/data-and-restore.md, "The database").
   */
  private database(requirement: DatabaseRequirement, where: Pick<PluginDatabaseProps, 'vpc' | 'subnets' | 'key' | 'logging'>,
    context: DeploymentContext, settings: ProfileSettings): DatabaseConnection {
    const { PluginDatabase, profileDatabaseSettings } = onDemand.database();
    return new PluginDatabase(this, 'Database', {
      requirement,
      ...where,
      stackName: context.stackName,
      ...profileDatabaseSettings(settings),
      instanceType: context.databaseInstanceType,
      storageGiB: context.databaseStorageGiB,
    }).connection;
  }

  /**
   * Whether the application gets a private route (`PrivateHostRoute`): with TLS, unless the load balancer signs its
   * users in (a browser flow, which a client inside the VPC does not go through), and unless it is at a domain's apex:
   * a private zone for the whole domain would answer NXDOMAIN inside the VPC for every other name under it, the
   * identity provider's included (Route 53, "Considerations when working with a private hosted zone").
   */
  private routedPrivately(context: DeploymentContext): boolean {
    if (!context.sslEnabled) return false;
    if (signInOf(context.authMode) === 'load-balancer') {
      warn(this, 'noPrivateRoute', `${context.stackName} signs its users in at the load balancer (alb-oidc): it gets no ` +
        `private route, and inside the VPC https://${context.fqdn} is the internet-facing load balancer, whose sign-in ` +
        (context.tokenPaths
          ? `a machine client (a build agent, another application) passes only on its tokenPaths (${context.tokenPaths.join(', ')}).`
          : 'a machine client (a build agent, another application) cannot pass. Use authMode application-oidc or none for an ' +
            'application others call, or give it tokenPaths.'));
      return false;
    }
    if (context.subdomain === undefined) {
      warn(this, 'noPrivateRoute', `${context.stackName} is at the apex of ${context.domain}: it gets no private route, since a ` +
        `private zone named ${context.domain} would hide every other name under it inside the VPC (the identity provider's ` +
        'included). Inside the VPC it is reached through the internet-facing load balancer; give it a subdomain to route it privately.');
      return false;
    }
    return true;
  }

  /** A self-contained deployment's own network, load balancer, file system and keys. */
  private buildStandalone(context: DeploymentContext, spec: IApplicationSpec, logGroupName: string, ebs: boolean,
    settings: ProfileSettings, databaseRequirement?: DatabaseRequirement): SharedParts {
    const logging = new Logging(this, 'Logging', { retention: settings.logRetention, removalPolicy: settings.removalPolicy });
    const log = logging.applicationLog(logGroupName);
    const dataKey = purposeKey(this, 'DataKey', 'application data (file system, data volume, backups)', settings.removalPolicy);
    if (context.runtimeType === RuntimeType.EC2) allowAutoScalingVolumes(dataKey);
    const network = new Network(this, 'Network', {
      natGateways: settings.natGateways,
      flowLogs: settings.flowLogs,
      logging,
      cidr: context.vpcCidr,
      dataSubnets: databaseRequirement !== undefined,
      existingVpc: context.existingVpc,
    });
    const database = databaseRequirement
      ? this.database(databaseRequirement, { vpc: network.vpc, subnets: network.dataSubnets!, key: dataKey, logging }, context, settings) : undefined;
    const storage = ebs ? undefined : new SharedStorage(this, 'Storage', {
      network,
      key: dataKey,
      removalPolicy: settings.removalPolicy,
      path: spec.efsDataPath(),
      owner: PosixUser.parse(spec.containerUser()),
      permissions: spec.efsPermissions(),
    });
    const loadBalancer = new LoadBalancer(this, 'LoadBalancer', {
      network,
      applicationPort: spec.applicationPort(),
      healthCheckPath: spec.healthCheckPath(),
      tls: tlsOf(context),
      oidc: signInOf(context.authMode) === 'load-balancer' ? context.oidc : undefined,
      tokenPaths: context.tokenPaths,
      deletionProtection: settings.deletionProtection,
      waf: settings.waf,
      accessLogs: settings.accessLogs,
      removalPolicy: settings.removalPolicy,
      logging,
    });
    loadBalancer.addApplicationRules({ requestBodyLimits: spec.requestBodyLimits(), blockedRequests: spec.blockedRequests() });
    return { log, dataKey, network, storage, loadBalancer, url: loadBalancer.url, database };
  }

  /** The platform's parts, read from its parameters, and what the application adds to them in its own stack. */
  private attachTo(platform: Platform, context: DeploymentContext, spec: IApplicationSpec, on: AttachSettings): SharedParts {
    const { settings } = on;
    const attached = new (onDemand.attachedPlatform().AttachedPlatform)(this, 'Platform', {
      platformStackName: platform.context.stackName,
      applicationStackName: context.stackName,
      computeNeedsPublicIp: computeNeedsPublicIp(settings.natGateways, platform.context.existingVpc),
      singleZone: on.ebs,
    });
    const logging = new Logging(this, 'Logging', { retention: settings.logRetention, removalPolicy: settings.removalPolicy, key: attached.logsKey });
    const log = logging.applicationLog(on.logGroupName);
    const host = hostOf(context);
    const zone = context.hostedZoneId && context.domain
      ? route53.HostedZone.fromHostedZoneAttributes(this, 'Zone', { hostedZoneId: context.hostedZoneId, zoneName: context.domain })
      : undefined;
    const certificate = certificateInStack(this, on.certificate, host, zone);
    const loadBalancer = new HostRoute(this, 'Route', {
      vpc: attached.network.vpc,
      listener: attached.listener,
      securityGroup: attached.loadBalancerSecurityGroup,
      applicationPort: spec.applicationPort(),
      healthCheckPath: spec.healthCheckPath(),
      host,
      priority: on.listenerPriority,
      oidc: signInOf(context.authMode) === 'load-balancer' ? context.oidc : undefined,
      tokenPaths: context.tokenPaths,
      certificate,
      record: zone ? { zone, ...attached.loadBalancerAlias } : undefined,
    });
    // Getters: the platform's parts are imported only when the runtime uses them (AttachedPlatform).
    return {
      log,
      get dataKey() { return attached.dataKey; },
      network: attached.network,
      storage: on.ebs ? undefined : attached.storage(),
      loadBalancer,
      url: `${context.sslEnabled ? 'https' : 'http'}://${host}`,
      rolePath: on.rolePath,
      get cluster() { return attached.cluster; },
      get namespace() { return attached.namespace; },
      get alarmTopic() { return attached.alarmTopic; },
      database: on.databaseRequirement
        ? this.database(on.databaseRequirement, { vpc: attached.network.vpc, subnets: attached.dataSubnets, key: attached.dataKey, logging },
          context, settings)
        : undefined,
      listenerPriority: on.listenerPriority,
      privateLoadBalancer: this.routedPrivately(context) ? { ...attached.privateLoadBalancer, certificate } : undefined,
    };
  }
}

/** What the factory has decided before it attaches an application to its platform. */
interface AttachSettings {
  readonly rolePath: string;
  readonly listenerPriority: number;
  readonly logGroupName: string;
  readonly ebs: boolean;
  readonly settings: ProfileSettings;
  readonly certificate: ListenerCertificate;
  readonly databaseRequirement?: DatabaseRequirement;
}

/** What the runtimes build on: the platform's parts, or a standalone deployment's own (some only where the runtime needs them). */
/** What the factory decided before building anything (`ApplicationFactory.plan`). */
interface FactoryPlan {
  readonly plugin: string;
  /** The plugin as configured with its settings. */
  readonly spec: IApplicationSpec;
  readonly runtimeType: RuntimeType;
  readonly context: DeploymentContext;
  readonly settings: ProfileSettings;
  readonly platform?: Platform;
  readonly stack: Stack;
  readonly sizes: ReturnType<typeof factorySizes>;
  readonly startup: number;
  /** Every secret of the application by variable, the identity provider's client secret included. */
  readonly secrets: Record<string, SecretReference>;
  readonly database?: DatabaseRequirement;
  readonly ebs: boolean;
  readonly logGroupName: string;
  readonly integration?: IOidcIntegration;
  readonly provider?: OidcProviderSettings;
  readonly alarms: LogAlarm[];
  /** What the plugin installs under published advisories (checked against `acceptedAdvisories`). */
  readonly knownVulnerabilities: KnownVulnerability[];
  readonly workerSpec?: EphemeralWorkers;
}

/**
 * The deployment's authMode must be one the plugin supports and its contract version knew (`admitted`, the plugin as
 * discovery admitted it: its settings may have made another object of it); application-oidc one whose plugin signs
 * users in.
 */
function assertAuthMode(plugin: string, spec: IApplicationSpec, context: DeploymentContext, admitted: IApplicationSpec): void {
  if (signInOf(context.authMode) === 'application' && !spec.supportsOidcIntegration()) {
    const others = AuthMode.ALL.filter((mode) => signInOf(mode) !== 'application').map((mode) => JSON.stringify(mode));
    throw new UserError(`authMode ${JSON.stringify(context.authMode)} needs a plugin that signs users in itself, but ${plugin} ` +
      `(applicationId ${spec.applicationId()}) does not support OIDC; use ${others.join(' or ')}.`);
  }
  const modes = knownAt(admitted, spec.supportedAuthModes(), authModesSince());
  if (!modes.includes(context.authMode)) {
    throw new UserError(`${plugin} (applicationId ${spec.applicationId()}) cannot be deployed with authMode ` +
      `${JSON.stringify(context.authMode)}; allowed: ${modes.map((m) => JSON.stringify(m)).join(', ')}.`);
  }
}

/**
 * What the framework itself deploys of the bill of materials: each container image, pinned as the tasks run it (its
 * tag, and its digest when one is given), and on EC2 the operating system, whose release the AMI parameter resolves
 * at deploy.
 */
function deployedComponents(runtimeType: RuntimeType, images: string[]): SoftwareComponent[] {
  return [
    ...images.map((image) => {
      const [name, digest] = image.split('@');
      const slash = name.lastIndexOf('/');
      const colon = name.lastIndexOf(':');
      const [repository, tag] = colon > slash ? [name.slice(0, colon), name.slice(colon + 1)] : [name, 'latest'];
      return { name: repository, version: digest ? `${tag}@${digest}` : tag, type: SoftwareComponentType.CONTAINER };
    }),
    ...runtimeType === RuntimeType.EC2 ? [{
      name: 'amazon-linux-2023',
      version: 'resolved at deploy (the latest AMI of the parameter /aws/service/ami-amazon-linux-latest)',
      type: SoftwareComponentType.OPERATING_SYSTEM,
    }] : [],
  ];
}

/**
 * Each variable the application gets is set once: its environment, its secrets (the plugin's and the deployment's),
 * the OIDC integration's, the database's and the workers' (`variableProblems`), on both runtimes alike.
 */
function assertVariablesOnce(scope: Construct, plugin: string, spec: IApplicationSpec, context: DeploymentContext,
  integration: IOidcIntegration | undefined, provider: OidcProviderSettings | undefined, database: DatabaseRequirement | undefined): void {
  const environment = callPlugin(plugin, 'containerEnvironmentVariables',
    () => spec.containerEnvironmentVariables(context.fqdn ?? '', context.sslEnabled, context.authMode));
  const problems = variableProblems([
    { setBy: `${plugin}.containerEnvironmentVariables()`, names: Object.keys(environment) },
    { setBy: `${plugin}.secrets()`, names: Object.keys(callPlugin(plugin, 'secrets', () => spec.secrets())) },
    ...integration && provider ? [{ setBy: 'the OIDC integration', names: [...Object.keys(integration.environment(provider)), integration.clientSecretVariable()] }] : [],
    ...database ? [{ setBy: `${plugin}.database().environment`, names: databaseVariables(database.environment) }] : [],
    ...spec.ephemeralWorkers() ? [{ setBy: 'the framework for the workers', names: Object.values(WorkerVariables).filter((v) => typeof v === 'string') }] : [],
    // The deployment's last: it is the one to rename.
    { setBy: 'the secrets key', names: Object.keys(context.secrets ?? {}) },
  ]);
  problems.push(...referenceProblems(`${plugin}.containerEnvironmentVariables()`, environment, 'code', true));
  if (problems.length > 0) throw new UserError(`${plugin}: the application's variables:\n  - ${problems.join('\n  - ')}`, scope);
}

/** The plugin's database, whose connection's variables may not be a secret's. */
function databaseOf(plugin: string, spec: IApplicationSpec, secrets: Record<string, SecretReference>): DatabaseRequirement | undefined {
  const requirement = callPlugin(plugin, 'database', () => spec.database()) ?? undefined;
  const clashing = requirement ? databaseVariables(requirement.environment).filter((name) => secrets[name] !== undefined) : [];
  if (clashing.length > 0) {
    throw new UserError(`${plugin}.database().environment names ${clashing.join(', ')}, which ${clashing.length > 1 ? 'are' : 'is'} ` +
      'also a secret (the plugin\'s secrets() or the secrets key); give the database\'s connection other variable names.');
  }
  return requirement;
}

interface SharedParts {
  readonly log: ApplicationLog;
  readonly dataKey: kms.IKey;
  readonly network: NetworkAccess;
  readonly storage?: ApplicationStorage;
  readonly loadBalancer: ApplicationRoute;
  readonly url: string;
  readonly rolePath?: string;
  readonly cluster?: ecs.ICluster;
  readonly namespace?: servicediscovery.IPrivateDnsNamespace;
  readonly alarmTopic?: sns.ITopic;
  /** The plugin's database, when it declares one: always in the application's stack. */
  readonly database?: DatabaseConnection;
  /** On a platform: the application's listener-rule priority, the same on the private listener. */
  readonly listenerPriority?: number;
  /** On a platform with TLS, for an application not signed in by the load balancer: the private load balancer. */
  readonly privateLoadBalancer?: Pick<PrivateHostRouteProps, 'listener' | 'securityGroup' | 'alias' | 'certificate'>;
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

/** TLS settings when TLS is on; the context reader has made sure a domain comes with it. */
function tlsOf(context: DeploymentContext): TlsSettings | undefined {
  if (!context.sslEnabled) return undefined;
  if (!context.domain || !context.fqdn) throw new Error('sslEnabled true without a domain passed the context reader');
  return { fqdn: context.fqdn, domain: context.domain, hostedZoneId: context.hostedZoneId, certificateArn: context.certificateArn };
}

/** The identity provider of an auth mode that needs one; the context reader has made sure its keys are set. */
function providerOf(context: DeploymentContext): OidcProviderSettings {
  if (!context.oidc) throw new Error(`authMode ${context.authMode} without an identity provider passed the context reader`);
  return context.oidc;
}

/**
 * The application's secrets, the plugin's (`secrets()`) and the deployment's (the `secrets` prop or context key), each
 * checked (every refused form has its own message) and given once.
 */
function secretsOf(plugin: string, spec: IApplicationSpec, given: Record<string, string>): Record<string, SecretReference> {
  const declared = callPlugin(plugin, 'secrets', () => spec.secrets());
  const problems: string[] = [];
  const read = (where: string, secrets: Record<string, string>) => Object.entries(secrets).map(([name, value]) => {
    const parsed = parseSecretReference(`${where}.${name}`, name, value);
    if ('problem' in parsed) problems.push(parsed.problem);
    return [name, parsed] as const;
  });
  const references = [...read(`${plugin}.secrets()`, declared), ...read(`secrets (for ${plugin})`, given)];
  problems.push(...Object.keys(given).filter((name) => name in declared)
    .map((name) => `secrets.${name} is also declared by ${plugin}.secrets(): give the application each variable once.`));
  if (problems.length > 0) throw new UserError(`Invalid ApplicationFactory secrets:\n  - ${problems.join('\n  - ')}`);
  return Object.fromEntries(references) as Record<string, SecretReference>;
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

/**
 * Under alb-oidc, `tokenPaths` skip the load balancer's sign-in: a deviation from 8.3.1 and 8.4.2 the report lists,
 * since the identity provider's authentication and MFA do not reach those requests; the application's tokens do.
 */
function tokenPathDeviations(plugin: string, context: DeploymentContext): Deviation[] {
  // The context reader refuses tokenPaths without alb-oidc.
  if (!context.tokenPaths) return [];
  const reason = `Requests to ${context.tokenPaths.join(', ')} skip the load balancer's sign-in (tokenPaths): ${plugin} ` +
    'authenticates them itself, with its own tokens; the identity provider\'s sign-in and multi-factor authentication do not reach them.';
  return ['8.3.1', '8.4.2'].map((requirement) => ({ requirement, rule: 'tokenPaths', resource: `${context.stackName}: the listener rule TokenPathsRule`, reason }));
}

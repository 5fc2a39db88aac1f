import { Annotations, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as ecs from 'aws-cdk-lib/aws-ecs';
import * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as route53 from 'aws-cdk-lib/aws-route53';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as servicediscovery from 'aws-cdk-lib/aws-servicediscovery';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { addPciConformancePack } from './compliance/pci-conformance-pack';
import { addSecurityHubPciDss } from './compliance/security-hub-standard';
import type { DeploymentContext } from './context/deployment-context';
import { factoryContext } from './context/factory-context';
import { factorySizes } from './context/factory-limits';
import { configuredSpec } from './context/plugin-settings';
import { startupSeconds } from './contract/application-size';
import type { IApplicationSpec } from './contract/application-spec';
import { AuthMode } from './contract/auth-mode';
import { type DatabaseEnvironment, type DatabaseRequirement, databaseUrl, databaseVariables } from './contract/database-requirement';
import { Ec2Storage } from './contract/ec2-storage';
import type { OidcProviderSettings } from './contract/oidc-integration';
import type { PciDssScope } from './contract/pci-dss-scope';
import { callPlugin, pluginName } from './contract/plugin-calls';
import { PosixUser } from './contract/posix-user';
import { RuntimeType } from './contract/runtime-type';
import { SecurityProfile } from './contract/security-profile';
import { assertValidSpec } from './contract/spec-validation';
import { UserError } from './errors';
import { LogAlarms } from './platform/alarms';
import { AttachedPlatform } from './platform/attached-platform';
import { type DatabaseConnection, PluginDatabase, POSTGRES_PORT, profileDatabaseSettings } from './platform/database';
import { DockerHubCache, hasDigest, hasTagOrDigest, ImageSource, isDockerHubImage } from './platform/docker-hub-cache';
import { addEcsConsistencyChecks } from './platform/ecs-consistency';
import { VpcEndpoints } from './platform/endpoints';
import { allowAutoScalingVolumes, purposeKey } from './platform/keys';
import { certificateInStack, listenerCertificate, type ListenerCertificate } from './platform/listener-certificate';
import { LoadBalancer, TlsSettings } from './platform/load-balancer';
import { type ApplicationLog, applicationLogGroupName, Logging } from './platform/logging';
import { Network, type NetworkAccess } from './platform/network';
import type { Platform } from './platform/platform';
import { admitApplications, hostOf, propsOnPlatform } from './platform/platform-attachment';
import { PrivateHostRoute, type PrivateHostRouteProps } from './platform/private-routes';
import { RotationRestart } from './platform/rotation-restart';
import { type ApplicationRoute, defaultListenerPriority, HostRoute } from './platform/routing';
import { parseSecretReference, type SecretReference } from './platform/secret-reference';
import { type ApplicationStorage, SharedStorage } from './platform/storage';
import { Workers } from './platform/workers';
import { acknowledgeGrantPolicies, RECORD_ACKNOWLEDGEMENTS, requireCompliance } from './profiles/compliance';
import { PROFILE_SETTINGS, type ProfileSettings } from './profiles/profile-settings';
import { Ec2Runtime } from './runtimes/ec2';
import { FargateRuntime } from './runtimes/fargate';
import type { ApplicationSecret } from './runtimes/runtime-props';

/**
 * How to deploy. Each field is the context key of the same name (docs/context-keys.md), which the factory also reads from
 * the construct tree (`cdk.json`, `-c`): a field set here and a key with another value is an error; a field left out
 * takes the key's value; without either, the defaults make a DEV deployment without a domain.
 */
export interface ApplicationFactoryProps {
  /** How hardened the deployment is: `DEV`, `STAGING` or `PRODUCTION` (docs/security-profiles.md). @default SecurityProfile.DEV */
  readonly securityProfile?: SecurityProfile;
  /** The domain the application is reached under, for example `example.com`. @default - no domain: the load balancer's own DNS name */
  readonly domain?: string;
  /** The label before `domain`: the application's FQDN is `<subdomain>.<domain>`. @default - the FQDN is the domain itself */
  readonly subdomain?: string;
  /** Whether users reach the application over HTTPS (TLS ends at the load balancer). @default false */
  readonly sslEnabled?: boolean;
  /** The Route 53 hosted zone of `domain`: the alias record, and the certificate's DNS validation. @default - no DNS record; the certificate comes from `certificateArn` */
  readonly hostedZoneId?: string;
  /** An existing ACM certificate for the FQDN, in the stack's region. @default - a DNS-validated certificate is created in `hostedZoneId` */
  readonly certificateArn?: string;
  /** `none`, `application-oidc` or `alb-oidc` (`AuthMode`). @default AuthMode.NONE */
  readonly authMode?: string;
  /** The identity provider; required when `authMode` is not `none`. @default - none */
  readonly oidc?: OidcProviderSettings;
  /** EC2 data volume. @default Ec2Storage.EFS */
  readonly ec2Storage?: Ec2Storage;
  /**
   * EC2 with `ebs` storage: the EBS snapshot the data volume is created from (restore). Changing it replaces the volume.
   * @default - an empty volume
   */
  readonly dataVolumeSnapshotId?: string;
  /**
   * Secrets the application needs, by environment variable name. Each value is a Secrets Manager secret's complete
   * ARN, the `secretArn` of a secret in the same app, or either followed by `:<json-key>:<version-stage>:<version-id>`
   * (ECS's form for one key of a JSON secret; see docs/writing-a-plugin.md, "Secrets"). Fargate injects them as
   * container secrets; EC2 reads them at boot with the instance role. Only references ever reach the template.
   * @default - none
   */
  readonly secrets?: Record<string, string>;
  /**
   * E-mail address subscribed to the alarm topic that receives the plugin's log alarms. Required in PRODUCTION when
   * the plugin declares alarms.
   * @default - no subscription
   */
  readonly alarmEmail?: string;
  /**
   * A Secrets Manager secret named `ecr-pullthroughcache/...` holding a Docker Hub account's credential: Docker Hub
   * images (the application's and its workers') are pulled through an ECR pull-through cache of the stack's (on a
   * platform: the platform's).
   * @default - pulled from Docker Hub; refused in STAGING and PRODUCTION when an image comes from Docker Hub
   */
  readonly dockerHubCredentialArn?: string;
  /**
   * The digest of each image the plugin names by tag (image reference -> `sha256:` and 64 hex digits): the task runs
   * exactly that image. PRODUCTION refuses an image pinned by tag only.
   * @default - none
   */
  readonly imageDigests?: Record<string, string>;
  /**
   * Deploys AWS's own PCI DSS 4.0 conformance pack (`AWS::Config::ConformancePack`) with the stack, so AWS Config
   * checks the deployed account and region against it. Needs an AWS Config configuration recorder recording there:
   * without one the deployment fails (AWS Config's `NoAvailableConfigurationRecorderException`). Deploy it once per
   * account and region.
   * @default false
   */
  readonly pciConformancePack?: boolean;
  /**
   * Enables Security Hub's PCI DSS v4.0.1 standard (`AWS::SecurityHub::Standard`) with the stack, so its controls
   * evaluate the deployed account and region. Needs Security Hub enabled there; enable it once per account and region.
   * @default false
   */
  readonly securityHubPciDss?: boolean;
  /**
   * The application's role toward the cardholder data environment, as your PCI DSS scoping decided; the evidence
   * report states it and what follows from it.
   * @default - not stated (the report says so)
   */
  readonly pciDssScope?: PciDssScope;
  /**
   * Whether you are a multi-tenant service provider (you host other entities' card-data environments): only then
   * does the evidence report hold appendix A1's requirements.
   * @default false
   */
  readonly pciDssMultiTenantProvider?: boolean;
  /** Fargate task CPU units. @default - the plugin's `defaultSize().cpu`, else `FACTORY_SIZE_DEFAULTS.cpu` */
  readonly cpu?: number;
  /** Fargate task memory in MiB. @default - the plugin's `defaultSize().memoryLimitMiB`, else `FACTORY_SIZE_DEFAULTS.memoryLimitMiB` */
  readonly memoryLimitMiB?: number;
  /** EC2 instance type. @default - the plugin's `defaultSize().instanceType`, else `FACTORY_SIZE_DEFAULTS.instanceType` */
  readonly instanceType?: string;
  /** EBS data volume size in GiB (EC2 with `ebs` storage). @default - `FACTORY_SIZE_DEFAULTS.dataVolumeGiB` */
  readonly dataVolumeGiB?: number;
  /** The instance class of the plugin's database (`database()`), for example `db.t4g.medium`. @default - `DATABASE_DEFAULTS.instanceType` */
  readonly databaseInstanceType?: string;
  /** The storage of the plugin's database in GiB, 20 to 65536. @default - `DATABASE_DEFAULTS.storageGiB` */
  readonly databaseStorageGiB?: number;
  /**
   * The plugin's own settings by name, each one its `settings()` declares; the plugin deployed is what its
   * `withSettings()` returns for them (see docs/writing-a-plugin.md, "Settings by configuration").
   * @default - none: the declared defaults
   */
  readonly pluginSettings?: Record<string, string>;
  /**
   * The VPC's address range (standalone; on a platform the platform's `vpcCidr` decides).
   * @default - the CDK's default range (`Vpc.DEFAULT_CIDR_RANGE`)
   */
  readonly vpcCidr?: string;
  /**
   * The platform to attach to, in another stack of the same CDK app: the application uses its network, load balancer
   * (a rule for its host name), cluster, file system (an access point of its own), keys, alarm topic and private
   * namespace instead of building its own. Its security profile, and unless given its domain and hosted zone, are
   * the platform's.
   * @default - a self-contained deployment with its own network, load balancer, file system and monitoring
   */
  readonly platform?: Platform;
  /**
   * On a platform: the priority of the application's rule on the shared listener, unique on the platform.
   * @default - derived from the host name (`defaultListenerPriority`); a clash is refused at synth
   */
  readonly listenerPriority?: number;
  /**
   * On a platform: other applications of the platform that may connect to this one, each on one port. Nothing else
   * reaches the application but the load balancer. Each source must be attached to the platform before this one.
   * @default - none
   */
  readonly allowFrom?: AllowFrom[];
}

/** Another application of the same platform that may connect to this one (`ApplicationFactoryProps.allowFrom`). */
export interface AllowFrom {
  /** The other application's `applicationId()`. */
  readonly applicationId: string;
  /** The TCP port it may connect to. */
  readonly port: number;
}

/**
 * Deploys an application described by a plugin on one runtime, with the framework's network, load balancer, shared
 * file system and logging (the spec's ApplicationFactory).
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
   * @param props the deployment's settings; each may come from the context key of the same name instead
   */
  constructor(scope: Construct, id: string, runtimeType: RuntimeType, spec: IApplicationSpec, props: ApplicationFactoryProps = {}) {
    super(scope, id);
    const plugin = pluginName(spec);
    assertValidSpec(spec, plugin);
    const stack = Stack.of(this);
    assertAloneInStack(this, stack);
    const { platform } = props;
    if (!platform && (props.listenerPriority !== undefined || props.allowFrom !== undefined)) {
      throw new UserError(`ApplicationFactory ${this.node.path}: listenerPriority and allowFrom place an application on a ` +
        'platform\'s shared listener and network; without platform they do not apply. Remove them, or set platform.');
    }
    // The context keys of the construct tree and the factory's settings, read by the deployment app's reader.
    const context = factoryContext(this, runtimeType, spec.applicationId(), platform ? propsOnPlatform(this, stack, platform, props) : props);
    this.context = context;
    // From here on the plugin is the one configured with its settings (the plugin itself when it declares none).
    const configured = configuredSpec(plugin, spec, context.pluginSettings);
    if (configured !== spec) assertValidSpec(configured, plugin);
    spec = configured;
    const declaredSize = callPlugin(plugin, 'defaultSize', () => spec.defaultSize());
    const sizes = factorySizes(runtimeType, context, declaredSize, plugin);
    const startup = startupSeconds(declaredSize, plugin);
    const secrets = secretsOf(plugin, spec, context.secrets ?? {});
    const modes = spec.supportedAuthModes();
    if (!modes.includes(context.authMode)) {
      throw new UserError(`${plugin} (applicationId ${spec.applicationId()}) cannot be deployed with authMode ` +
        `${JSON.stringify(context.authMode)}; allowed: ${modes.map((m) => JSON.stringify(m)).join(', ')}.`);
    }
    if (context.authMode === AuthMode.APPLICATION_OIDC && !spec.supportsOidcIntegration()) {
      throw new UserError(`authMode "application-oidc" needs a plugin that signs users in itself, but ${plugin} ` +
        `(applicationId ${spec.applicationId()}) does not support OIDC; use "alb-oidc" or "none".`);
    }
    const settings = PROFILE_SETTINGS[context.securityProfile];
    // Before any child exists (context can only be set then): acknowledgements only where the packs read them.
    this.node.setContext(RECORD_ACKNOWLEDGEMENTS, settings.complianceChecks);
    const alarms = spec.logAlarms();
    if (alarms.length > 0 && settings.alarmRecipientRequired && !context.alarmEmail) {
      throw new UserError(`${plugin} raises alarms (${alarms.map((a) => a.name).join(', ')}), and in ${context.securityProfile} ` +
        `someone must receive them: set alarmEmail (for example security@example.com)${platform ? ' on the platform' : ''}.`);
    }
    const ebs = runtimeType === RuntimeType.EC2 && context.ec2Storage === Ec2Storage.EBS;
    const databaseRequirement = callPlugin(plugin, 'database', () => spec.database()) ?? undefined;
    const clashing = databaseRequirement ? databaseVariables(databaseRequirement.environment).filter((name) => secrets[name] !== undefined) : [];
    if (clashing.length > 0) {
      throw new UserError(`${plugin}.database().environment names ${clashing.join(', ')}, which ${clashing.length > 1 ? 'are' : 'is'} ` +
        'also a secret (the plugin\'s secrets() or the secrets key); give the database\'s connection other variable names.');
    }
    const logGroupName = applicationLogGroupName(context.stackName, runtimeType, context.securityProfile);
    const integration = context.authMode === AuthMode.APPLICATION_OIDC ? spec.oidcIntegration() : undefined;
    const provider = integration ? providerOf(context) : undefined;
    if (integration && provider) secrets[integration.clientSecretVariable()] = { secretArn: provider.clientSecretArn };
    const secretArns = [...new Set(Object.values(secrets).map((s) => s.secretArn))];

    // Refused images stop synth before anything is built.
    const workerSpec = spec.ephemeralWorkers();
    const images = this.imageSource(context, plugin, platform, [
      ...runtimeType === RuntimeType.FARGATE ? [{ member: 'defaultContainerImage()', image: spec.defaultContainerImage() }] : [],
      ...workerSpec ? [{ member: 'ephemeralWorkers().image', image: workerSpec.image }] : [],
    ]);
    let shared: SharedParts;
    if (platform) {
      const listenerPriority = props.listenerPriority ?? defaultListenerPriority(hostOf(context));
      const certificate = listenerCertificate(platform.context, context, hostOf(context));
      const rolePath = platform._attach({
        stackName: context.stackName,
        applicationId: spec.applicationId(),
        host: hostOf(context),
        listenerPriority,
        accessPoint: ebs ? undefined : { path: spec.efsDataPath(), owner: PosixUser.parse(spec.containerUser()), permissions: spec.efsPermissions() },
        secrets: Object.fromEntries(Object.entries(secrets).map(([name, { secretArn }]) => [name, secretArn])),
        requestBodyLimits: spec.requestBodyLimits(),
        amazonLinuxRepositories: runtimeType === RuntimeType.EC2,
        signInByLoadBalancer: context.authMode === AuthMode.ALB_OIDC,
        certificate,
        database: databaseRequirement,
        databaseSize: { instanceType: context.databaseInstanceType, storageGiB: context.databaseStorageGiB },
        stack,
      });
      // The platform's parameters exist once the platform is deployed: `cdk deploy <application>` and `cdk deploy --all`
      // deploy the platform first.
      stack.addStackDependency(Stack.of(platform), 'reads the platform\'s parameters');
      shared = this.attachTo(platform, context, spec, { rolePath, listenerPriority, logGroupName, ebs, settings, certificate, databaseRequirement });
    } else {
      shared = this.buildStandalone(context, spec, logGroupName, ebs, settings, databaseRequirement);
    }
    const { log, network, storage, loadBalancer, database } = shared;
    this.url = shared.url;
    this.vpc = network.vpc;
    this.fileSystemId = storage?.fileSystemId;
    if (alarms.length > 0) {
      new LogAlarms(this, 'Alarms', { log, alarms, email: context.alarmEmail, removalPolicy: settings.removalPolicy, topic: shared.alarmTopic });
    }

    const workers = workerSpec
      ? new Workers(this, 'Workers', { network, log, applicationId: spec.applicationId(), workers: workerSpec, images })
      : undefined;
    this.workerTaskRole = workers?.taskRole;
    const runtimeProps = {
      spec,
      images,
      pluginName: plugin,
      workers,
      context,
      dataKey: runtimeType === RuntimeType.EC2 ? shared.dataKey : undefined,
      network,
      loadBalancer,
      log,
      storage,
      rolePath: shared.rolePath,
      startupSeconds: startup,
      cluster: runtimeType === RuntimeType.FARGATE ? shared.cluster : undefined,
      namespace: runtimeType === RuntimeType.FARGATE ? shared.namespace : undefined,
      environment: {
        ...integration && provider ? callPlugin(plugin, 'oidcIntegration().environment', () => integration.environment(provider)) : {},
        ...database ? databaseEnvironment(databaseRequirement!.environment, database) : {},
      },
      secrets: {
        ...Object.fromEntries(Object.entries(secrets).map(([name, { secretArn, ...field }]) =>
          [name, { secret: secretsmanager.Secret.fromSecretCompleteArn(this, `Secret-${name}`, secretArn), ...field }])),
        ...database ? databaseSecrets(this, databaseRequirement!.environment, database, shared.dataKey) : {},
      },
    };
    let runtime: FargateRuntime | Ec2Runtime;
    if (runtimeType === RuntimeType.FARGATE) {
      if (!storage) throw new Error('Fargate always keeps its data on EFS, but no file system was created');
      runtime = new FargateRuntime(this, 'Fargate', {
        ...runtimeProps,
        storage,
        cpu: sizes.cpu,
        memoryLimitMiB: sizes.memoryLimitMiB,
      });
    } else {
      runtime = new Ec2Runtime(this, 'Ec2', {
        ...runtimeProps,
        instanceType: new ec2.InstanceType(sizes.instanceType),
        dataVolumeGiB: sizes.dataVolumeGiB,
        dataVolumeBackupDays: settings.dataVolumeBackupDays,
        dataVolumeRemovalPolicy: settings.removalPolicy,
      });
    }
    this.securityGroup = runtime.securityGroup;
    if (shared.privateLoadBalancer) this.routePrivately(runtime, shared.privateLoadBalancer, shared.listenerPriority!, context, spec);
    if (database) this.connectDatabase(runtime, database, network, log, context);
    if (platform) {
      this.s3Endpoint = platform.s3Endpoint;
      admitApplications(this, platform, runtime.securityGroup, props.allowFrom ?? [], context);
    } else if (settings.vpcEndpoints) {
      const endpoints = new VpcEndpoints(this, 'Endpoints', {
        network,
        clients: [runtime.securityGroup, ...workers ? [workers.securityGroup] : []],
        logGroupArns: [log.group.logGroupArn],
        secretArns,
        workers,
        amazonLinuxRepositories: runtimeType === RuntimeType.EC2,
      });
      this.s3Endpoint = endpoints.s3;
    }
    acknowledgeGrantPolicies(this);
    addEcsConsistencyChecks(this);
    // The whole stack: resources the CDK adds at stack level (custom-resource providers) are ours too.
    if (context.pciConformancePack) addPciConformancePack(this, 'PciConformancePack');
    if (context.securityHubPciDss) addSecurityHubPciDss(this, 'SecurityHubPciDss');
    if (settings.complianceChecks) {
      requireCompliance(this, stack, callPlugin(plugin, 'complianceControls', () => spec.complianceControls()).map((c) => ({ ...c, source: plugin })),
        { scope: context.pciDssScope, multiTenantProvider: context.pciDssMultiTenantProvider });
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
      Annotations.of(this).addWarningV2('@fw/core:image-without-tag', `${plugin}.${member} is ${JSON.stringify(image)}, ` +
        'with neither a tag nor a digest: every task runs whatever latest is when it starts. Pin a version, for example ' +
        `${JSON.stringify(`${image}:1.2.3`)}.`);
    }
    const byTag = images.filter((i) => !hasDigest(digests.pinned(i.image)));
    if (settings.imageDigestRequired && byTag.length > 0) {
      throw new UserError(`${plugin}: ${byTag.map((i) => `${i.member} is ${JSON.stringify(i.image)}`).join(', and ')}, pinned by tag ` +
        `only; in ${context.securityProfile} every image is pinned by digest, so that what runs is the image that was ` +
        'reviewed (a tag can be moved). Give each digest in the context key imageDigests, for example ' +
        `{${byTag.map((i) => `"${i.image}": "sha256:<64 hex digits>"`).join(', ')}} (read it with: docker buildx imagetools ` +
        `inspect ${byTag[0].image}), or let the plugin name the image with its digest (<image>@sha256:<64 hex digits>).`);
    }
    const fromDockerHub = images.filter((i) => isDockerHubImage(i.image));
    if (fromDockerHub.length === 0) return digests;
    const prefix = platform ? platform._dockerHubCachePrefix()
      : context.dockerHubCredentialArn
        ? new DockerHubCache(this, 'DockerHubCache', { credentialArn: context.dockerHubCredentialArn, removalPolicy: settings.removalPolicy }).prefix
        : undefined;
    if (!prefix && settings.imageCacheRequired) {
      throw new UserError(`${plugin}: ${fromDockerHub.map((i) => `${i.member} is the Docker Hub image ${JSON.stringify(i.image)}`).join(', and ')}; ` +
        `in ${context.securityProfile} every task would pull from Docker Hub, which allows 100 anonymous pulls in 6 hours per ` +
        'address, shared by everything behind the NAT gateways. Set dockerHubCredentialArn' +
        `${platform ? ' on the platform' : ''} to a Secrets Manager secret named ecr-pullthroughcache/... holding a Docker Hub ` +
        'account\'s {"username": ..., "accessToken": ...} (for example arn:aws:secretsmanager:eu-west-1:123456789012:secret:' +
        'ecr-pullthroughcache/docker-hub-AbCdEf): images are then pulled through an ECR pull-through cache.');
    }
    return new ImageSource(prefix, context.imageDigests);
  }

  /**
   * On a platform with TLS: the application's own host name reaches it from inside the VPC through the private load
   * balancer (not for alb-oidc: the private listener signs nobody in).
   */
  private routePrivately(runtime: FargateRuntime | Ec2Runtime, privateLoadBalancer: NonNullable<SharedParts['privateLoadBalancer']>,
    priority: number, context: DeploymentContext, spec: IApplicationSpec): void {
    const route = new PrivateHostRoute(this, 'PrivateRoute', {
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
  private connectDatabase(runtime: FargateRuntime | Ec2Runtime, database: DatabaseConnection, network: NetworkAccess, log: ApplicationLog,
    context: DeploymentContext): void {
    database.securityGroup.addIngressRule(runtime.securityGroup, ec2.Port.tcp(POSTGRES_PORT), `PostgreSQL from ${context.applicationId}`);
    runtime.securityGroup.addEgressRule(database.securityGroup, ec2.Port.tcp(POSTGRES_PORT), 'PostgreSQL to its database');
    new RotationRestart(this, 'RestartOnRotation', {
      secretArn: database.secretArn,
      network,
      logGroup: log.group,
      target: runtime instanceof FargateRuntime
        ? { kind: 'ecs', clusterName: runtime.service.cluster.clusterName, serviceName: runtime.service.serviceName, serviceArn: runtime.service.serviceArn }
        : { kind: 'asg', groupName: runtime.autoScalingGroup.autoScalingGroupName },
    });
  }

  /** A self-contained deployment's own network, load balancer, file system and keys. */
  private buildStandalone(context: DeploymentContext, spec: IApplicationSpec, logGroupName: string, ebs: boolean,
    settings: ProfileSettings, databaseRequirement?: DatabaseRequirement): SharedParts {
    const logging = new Logging(this, 'Logging', { retention: settings.logRetention, removalPolicy: settings.removalPolicy });
    const log = logging.applicationLog(logGroupName);
    const dataKey = purposeKey(this, 'DataKey', 'application data (file system, data volume, backups)', settings.removalPolicy);
    if (context.runtimeType === RuntimeType.EC2) allowAutoScalingVolumes(dataKey);
    const network = new Network(this, 'Network', {
      natGateways: settings.natGateways, flowLogs: settings.flowLogs, logging, cidr: context.vpcCidr, dataSubnets: databaseRequirement !== undefined,
    });
    const database = databaseRequirement ? new PluginDatabase(this, 'Database', {
      requirement: databaseRequirement,
      vpc: network.vpc,
      subnets: network.dataSubnets!,
      key: dataKey,
      logging,
      stackName: context.stackName,
      ...profileDatabaseSettings(settings),
      instanceType: context.databaseInstanceType,
      storageGiB: context.databaseStorageGiB,
    }).connection : undefined;
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
      oidc: context.authMode === AuthMode.ALB_OIDC ? context.oidc : undefined,
      deletionProtection: settings.deletionProtection,
      waf: settings.waf,
      accessLogs: settings.accessLogs,
      removalPolicy: settings.removalPolicy,
      logging,
    });
    loadBalancer.allowLargeBodies({ limits: spec.requestBodyLimits() });
    return { log, dataKey, network, storage, loadBalancer, url: loadBalancer.url, database };
  }

  /** The platform's parts, read from its parameters, and what the application adds to them in its own stack. */
  private attachTo(platform: Platform, context: DeploymentContext, spec: IApplicationSpec, on: AttachSettings): SharedParts {
    const { settings } = on;
    const attached = new AttachedPlatform(this, 'Platform', {
      platformStackName: platform.context.stackName,
      applicationStackName: context.stackName,
      computeNeedsPublicIp: settings.natGateways === 0,
      singleZone: on.ebs,
    });
    const logging = new Logging(this, 'Logging', { retention: settings.logRetention, removalPolicy: settings.removalPolicy, key: attached.logsKey });
    const log = logging.applicationLog(on.logGroupName);
    const host = hostOf(context);
    const zone = context.hostedZoneId && context.domain
      ? route53.HostedZone.fromHostedZoneAttributes(this, 'Zone', { hostedZoneId: context.hostedZoneId, zoneName: context.domain })
      : undefined;
    const loadBalancer = new HostRoute(this, 'Route', {
      vpc: attached.network.vpc,
      listener: attached.listener,
      securityGroup: attached.loadBalancerSecurityGroup,
      applicationPort: spec.applicationPort(),
      healthCheckPath: spec.healthCheckPath(),
      host,
      priority: on.listenerPriority,
      oidc: context.authMode === AuthMode.ALB_OIDC ? context.oidc : undefined,
      certificate: certificateInStack(this, on.certificate, host, zone),
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
      database: on.databaseRequirement ? attached.database(on.databaseRequirement.databaseName) : undefined,
      listenerPriority: on.listenerPriority,
      privateLoadBalancer: context.sslEnabled && context.authMode !== AuthMode.ALB_OIDC ? attached.privateLoadBalancer : undefined,
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
  /** The plugin's database, when it declares one: in the stack standalone, the platform's on a platform. */
  readonly database?: DatabaseConnection;
  /** On a platform: the application's listener-rule priority, the same on the private listener. */
  readonly listenerPriority?: number;
  /** On a platform with TLS, for an application not signed in by the load balancer: the private load balancer. */
  readonly privateLoadBalancer?: Pick<PrivateHostRouteProps, 'listener' | 'securityGroup' | 'alias'>;
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

import {
  type aws_ecs as ecs, type aws_kms as kms, aws_route53 as route53, type aws_servicediscovery as servicediscovery, type aws_sns as sns, Stack,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import type { DeploymentContext } from '../context/deployment-context';
import { type ExistingVpc, privateRoutesOn } from '../context/existing-vpc';
import type { IApplicationSpec } from '../contract/application-spec';
import { signInOf } from '../contract/auth-mode';
import type { DatabaseRequirement } from '../contract/database-requirement';
import { separateHealthCheckPort } from '../contract/plugin-calls';
import { PosixUser } from '../contract/posix-user';
import { RuntimeType } from '../contract/runtime-type';
import type { DatabaseConnection, PluginDatabaseProps } from '../infrastructure/database';
import { allowAutoScalingVolumes, purposeKey } from '../infrastructure/keys';
import { certificateInStack, listenerCertificate, type ListenerCertificate } from '../infrastructure/listener-certificate';
import { LoadBalancer } from '../infrastructure/load-balancer';
import { type ApplicationLog, Logging } from '../infrastructure/logging';
import { computeNeedsPublicIp, Network, type NetworkAccess } from '../infrastructure/network';
import { type ApplicationRoute, defaultListenerPriority, HostRoute } from '../infrastructure/routing';
import { type ApplicationStorage, SharedStorage } from '../infrastructure/storage';
import { onDemand } from '../on-demand';
import { namedHosts } from '../platform/named-hosts';
import type { Platform } from '../platform/platform';
import { hostOf } from '../platform/platform-attachment';
import type { PrivateHostRouteProps } from '../platform/private-routes';
import type { ProfileSettings } from '../profiles/profile-settings';
import { warn } from '../warnings';
import { type FactoryPlan, tlsOf } from './factory-plan';

// A deployment's shared parts: a standalone one's own network, load balancer, file system and keys, or a platform's,
// read from its parameters, with what the application adds to them in its own stack.

/** What the runtimes build on: the platform's parts, or a standalone deployment's own (some only where the runtime needs them). */
export interface SharedParts {
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

/** What the factory has decided before it attaches an application to its platform. */
export interface AttachSettings {
  readonly rolePath: string;
  readonly listenerPriority: number;
  readonly logGroupName: string;
  readonly dataOn: FactoryPlan['dataOn'];
  readonly settings: ProfileSettings;
  readonly certificate: ListenerCertificate;
  readonly databaseRequirement?: DatabaseRequirement;
}

/**
 * The platform's part for this application (its rule, access point, secrets' and database's parameters), then its
 * shared parts as this stack reads them. The platform's parameters exist once the platform is deployed: `cdk deploy
 * <application>` and `cdk deploy --all` deploy the platform first.
 */
export function attachToPlatform(factory: Construct, plan: FactoryPlan, platform: Platform, priority: number | undefined): SharedParts {
  const { context, spec, runtimeType, stack, dataOn } = plan;
  const listenerPriority = priority ?? defaultListenerPriority(hostOf(context));
  const certificate = listenerCertificate(platform.context, context, hostOf(context));
  const rolePath = platform._attach({
    stackName: context.stackName,
    applicationId: spec.applicationId(),
    host: hostOf(context),
    listenerPriority,
    accessPoint: dataOn !== 'efs' ? undefined : { path: spec.efsDataPath(), owner: PosixUser.parse(spec.containerUser()), permissions: spec.efsPermissions() },
    secrets: Object.fromEntries(Object.entries(plan.secrets).map(([name, { secretArn }]) => [name, secretArn])),
    requestBodyLimits: spec.requestBodyLimits(),
    blockedRequests: spec.blockedRequests(),
    amazonLinuxRepositories: runtimeType === RuntimeType.EC2,
    signInByLoadBalancer: signInOf(context.authMode) === 'load-balancer',
    tokenPaths: context.tokenPaths,
    rateLimit: context.rateLimit,
    namedHosts: namedHosts(context.pluginSettings),
    certificate,
    database: plan.database !== undefined,
    stack,
  });
  stack.addStackDependency(Stack.of(platform), 'reads the platform\'s parameters');
  return attachTo(factory, platform, context, spec, {
    rolePath, listenerPriority, logGroupName: plan.logGroupName, dataOn, settings: plan.settings, certificate, databaseRequirement: plan.database,
  });
}

/**
 * The plugin's database, in the application's stack whether standalone or on a platform (in the platform's isolated
 * subnets then, under its data and logs keys): the platform's stack does not grow with databases, and the database
 * has one lifecycle wherever it runs (docs/data-and-restore.md, "The database").
 */
export function pluginDatabase(factory: Construct, requirement: DatabaseRequirement, where: Pick<PluginDatabaseProps, 'vpc' | 'subnets' | 'key' | 'logging'>,
  context: DeploymentContext, settings: ProfileSettings): DatabaseConnection {
  const { PluginDatabase, profileDatabaseSettings } = onDemand.database();
  return new PluginDatabase(factory, 'Database', {
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
export function routedPrivately(factory: Construct, context: DeploymentContext, existingVpc?: ExistingVpc): boolean {
  if (!context.sslEnabled) return false;
  if (!privateRoutesOn(existingVpc)) {
    warn(factory, 'noPrivateRoute', `${context.stackName} gets no private route: its platform's existingVpc.privateRouteFrom is [], so ` +
      `inside the VPC https://${context.fqdn} is the internet-facing load balancer, reached through the VPC's way out.`);
    return false;
  }
  if (signInOf(context.authMode) === 'load-balancer') {
    warn(factory, 'noPrivateRoute', `${context.stackName} signs its users in at the load balancer (alb-oidc): it gets no ` +
      `private route, and inside the VPC https://${context.fqdn} is the internet-facing load balancer, whose sign-in ` +
      (context.tokenPaths
        ? `a machine client (a build agent, another application) passes only on its tokenPaths (${context.tokenPaths.join(', ')}).`
        : 'a machine client (a build agent, another application) cannot pass. Use authMode application-oidc or none for an ' +
          'application others call, or give it tokenPaths.'));
    return false;
  }
  if (context.subdomain === undefined) {
    warn(factory, 'noPrivateRoute', `${context.stackName} is at the apex of ${context.domain}: it gets no private route, since a ` +
      `private zone named ${context.domain} would hide every other name under it inside the VPC (the identity provider's ` +
      'included). Inside the VPC it is reached through the internet-facing load balancer; give it a subdomain to route it privately.');
    return false;
  }
  return true;
}

/** A self-contained deployment's own network, load balancer, file system and keys. */
export function buildStandalone(factory: Construct, context: DeploymentContext, spec: IApplicationSpec, logGroupName: string,
  dataOn: FactoryPlan['dataOn'], settings: ProfileSettings, databaseRequirement?: DatabaseRequirement): SharedParts {
  const logging = new Logging(factory, 'Logging', { retention: settings.logRetention, removalPolicy: settings.removalPolicy });
  const log = logging.applicationLog(logGroupName);
  const dataKey = purposeKey(factory, 'DataKey', 'application data (file system, data volume, backups)', settings.removalPolicy);
  if (context.runtimeType === RuntimeType.EC2) allowAutoScalingVolumes(dataKey);
  const network = new Network(factory, 'Network', {
    natGateways: settings.natGateways,
    flowLogs: settings.flowLogs,
    logging,
    cidr: context.vpcCidr,
    dataSubnets: databaseRequirement !== undefined,
    existingVpc: context.existingVpc,
  });
  const database = databaseRequirement
    ? pluginDatabase(factory, databaseRequirement, { vpc: network.vpc, subnets: network.dataSubnets!, key: dataKey, logging }, context, settings)
    : undefined;
  const storage = dataOn !== 'efs' ? undefined : new SharedStorage(factory, 'Storage', {
    network,
    key: dataKey,
    removalPolicy: settings.removalPolicy,
    path: spec.efsDataPath(),
    owner: PosixUser.parse(spec.containerUser()),
    permissions: spec.efsPermissions(),
  });
  const loadBalancer = new LoadBalancer(factory, 'LoadBalancer', {
    network,
    applicationPort: spec.applicationPort(),
    healthCheckPath: spec.healthCheckPath(),
    healthCheckPort: separateHealthCheckPort(spec),
    tls: tlsOf(context),
    oidc: signInOf(context.authMode) === 'load-balancer' ? context.oidc : undefined,
    tokenPaths: context.tokenPaths,
    deletionProtection: settings.deletionProtection,
    waf: settings.waf,
    rateLimit: context.rateLimit,
    accessLogs: settings.accessLogs,
    removalPolicy: settings.removalPolicy,
    logging,
  });
  loadBalancer.addApplicationRules({ requestBodyLimits: spec.requestBodyLimits(), blockedRequests: spec.blockedRequests() });
  return { log, dataKey, network, storage, loadBalancer, url: loadBalancer.url, database };
}

/** The platform's parts, read from its parameters, and what the application adds to them in its own stack. */
export function attachTo(factory: Construct, platform: Platform, context: DeploymentContext, spec: IApplicationSpec,
  on: AttachSettings): SharedParts {
  const { settings } = on;
  const attached = new (onDemand.attachedPlatform().AttachedPlatform)(factory, 'Platform', {
    platformStackName: platform.context.stackName,
    applicationStackName: context.stackName,
    computeNeedsPublicIp: computeNeedsPublicIp(settings.natGateways, platform.context.existingVpc),
    singleZone: on.dataOn === 'ebs',
  });
  const logging = new Logging(factory, 'Logging', { retention: settings.logRetention, removalPolicy: settings.removalPolicy, key: attached.logsKey });
  const log = logging.applicationLog(on.logGroupName);
  const host = hostOf(context);
  const zone = context.hostedZoneId && context.domain
    ? route53.HostedZone.fromHostedZoneAttributes(factory, 'Zone', { hostedZoneId: context.hostedZoneId, zoneName: context.domain })
    : undefined;
  const certificate = certificateInStack(factory, on.certificate, host, zone);
  const loadBalancer = new HostRoute(factory, 'Route', {
    vpc: attached.network.vpc,
    listener: attached.listener,
    securityGroup: attached.loadBalancerSecurityGroup,
    applicationPort: spec.applicationPort(),
    healthCheckPath: spec.healthCheckPath(),
    healthCheckPort: separateHealthCheckPort(spec),
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
    storage: on.dataOn === 'efs' ? attached.storage() : undefined,
    loadBalancer,
    url: `${context.sslEnabled ? 'https' : 'http'}://${host}`,
    rolePath: on.rolePath,
    get cluster() { return attached.cluster; },
    get namespace() { return attached.namespace; },
    get alarmTopic() { return attached.alarmTopic; },
    database: on.databaseRequirement
      ? pluginDatabase(factory, on.databaseRequirement, { vpc: attached.network.vpc, subnets: attached.dataSubnets, key: attached.dataKey, logging },
        context, settings)
      : undefined,
    listenerPriority: on.listenerPriority,
    privateLoadBalancer: routedPrivately(factory, context, platform.context.existingVpc)
      ? { ...attached.privateLoadBalancer, certificate } : undefined,
  };
}

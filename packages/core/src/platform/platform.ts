import {
  type aws_certificatemanager as acm, aws_ec2 as ec2, aws_ecs as ecs, type aws_efs as efs,
  type aws_elasticloadbalancingv2 as elbv2, type aws_kms as kms, aws_servicediscovery as servicediscovery,
  aws_ssm as ssm, Stack, Token,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { checkQuota, LOAD_BALANCER_QUOTAS } from './load-balancer-quotas';
import { unreachableHostProblems } from './named-hosts';
import {
  accessPointParameter, applicationRolePath, PLATFORM_PARAMETERS, type PlatformParameter,
  platformParameterPrefix, platformRolePath, PRIVATE_NAMESPACE, PRIVATE_ROUTE_PARAMETERS, type PrivateRouteParameter,
} from './platform-parameters';
import { PrivateLoadBalancer } from './private-routes';
import { acknowledgeGrantPolicies, RECORD_ACKNOWLEDGEMENTS } from '../compliance/acknowledge';
import { complianceChecks } from '../compliance/compliance-checks';
import { addPciConformancePack } from '../compliance/pci-conformance-pack';
import { addSecurityHubPciDss } from '../compliance/security-hub-standard';
import { createsEndpoints, privateRouteFrom, privateRoutesOn } from '../context/existing-vpc';
import { platformContext, type PlatformContext } from '../context/platform-context';
import type { PlatformProps } from '../context/platform-props';
import { SECRET_ARN_EXAMPLE } from '../context/secret-reference';
import type { BlockedRequest } from '../contract/blocked-request';
import type { RequestBodyLimit } from '../contract/request-body-limit';
import { RuntimeType } from '../contract/runtime-type';
import { UserError, withConstructPath } from '../errors';
import { AlarmTopic } from '../infrastructure/alarms';
import { ecsCluster } from '../infrastructure/cluster';
import { DATABASE_IDENTIFIER_PREFIX, databaseLogGroupName } from '../infrastructure/database';
import { DockerHubCache } from '../infrastructure/docker-hub-cache';
import { addEcsConsistencyChecks } from '../infrastructure/ecs-consistency';
import { HTTPS_PORT } from '../infrastructure/egress';
import { VpcEndpoints } from '../infrastructure/endpoints';
import { allowAutoScalingVolumes, purposeKey } from '../infrastructure/keys';
import type { ListenerCertificate } from '../infrastructure/listener-certificate';
import { LoadBalancer } from '../infrastructure/load-balancer';
import { applicationLogGroupName, Logging } from '../infrastructure/logging';
import { Network } from '../infrastructure/network';
import { addResourceBudget } from '../infrastructure/resource-budget';
import { LISTENER_PRIORITY, listenerRulePriorities } from '../infrastructure/routing';
import { type AccessPointSettings, PlatformFileSystem } from '../infrastructure/storage';
import { PROFILE_SETTINGS, type ProfileSettings } from '../profiles/profile-settings';


/** The load balancer's egress to the identity providers of the applications it signs users in for. */
export const IDENTITY_PROVIDER_EGRESS = 'HTTPS to the identity providers of alb-oidc applications';

/**
 * What an application tells the platform it attaches to: known when the application's factory starts, so the platform
 * can refuse a clash before either is built.
 * @internal
 */
export interface PlatformApplication {
  /** The application's stack: what names it, here and in messages. */
  readonly stackName: string;
  readonly applicationId: string;
  /** The host name its listener rule matches. */
  readonly host: string;
  readonly listenerPriority: number;
  /** Where its data lives on the file system; absent when it keeps none there (EC2 with EBS). */
  readonly accessPoint?: AccessPointSettings;
  /** The secrets it reads, each secret's ARN by the environment variable it fills: the Secrets Manager endpoint allows these. */
  readonly secrets: Record<string, string>;
  /** Paths of its host whose requests carry bodies over the WAF's `WAF_BODY_SIZE_LIMIT`. */
  readonly requestBodyLimits: RequestBodyLimit[];
  /** Requests to its host the WAF blocks from outside. */
  readonly blockedRequests: BlockedRequest[];
  /** Whether it installs packages from Amazon Linux 2023's repositories (EC2 does at boot). */
  readonly amazonLinuxRepositories: boolean;
  /** Whether the load balancer signs its users in (`alb-oidc`), calling the identity provider over HTTPS. */
  readonly signInByLoadBalancer: boolean;
  /** Requests one address may send to its host in 5 minutes (`rateLimit`). @default - the platform's, `WAF_RATE_LIMIT` */
  readonly rateLimit?: number;
  /** Under alb-oidc, the paths that skip the sign-in: a second listener rule, at `listenerPriority - 1`. @default - none */
  readonly tokenPaths?: string[];
  /** The host names its settings name (`namedHosts`): another application's, which must then be reachable. @default - none */
  readonly namedHosts?: string[];
  /** Where the certificate for its host on the listener comes from: the platform adds those named by ARN. */
  readonly certificate: ListenerCertificate;
  /**
   * Whether it has a database (in its own stack): the Secrets Manager endpoint lets its roles read the password's
   * secret, which RDS creates and names.
   */
  readonly database: boolean;
  /** The application's stack itself, which another application's `allowFrom` makes wait for it. */
  readonly stack: Stack;
}

/**
 * The shared infrastructure several applications attach to (`ApplicationFactoryProps.platform`), in a stack of its
 * own: the VPC, one internet-facing load balancer (HTTPS listener, HTTP redirect, WAF, access logs, deletion protection
 * per profile), one ECS cluster, one encrypted EFS file system, the per-purpose keys, the alarm topic and the private
 * DNS namespace. Everything an application needs is published as an SSM parameter under `parameterPrefix`; nothing is
 * a CloudFormation export. Each application's access point is kept here, so deleting an application's stack deletes
 * none of its data.
 */
export class Platform extends Construct {
  /** The validated settings. */
  public readonly context: PlatformContext;
  /** The VPC: put what the framework does not provide (a database) here. */
  public readonly vpc: ec2.IVpc;
  /** Where compute goes in the VPC. */
  public readonly computeSubnets: ec2.SubnetSelection;
  /** The cluster the applications' tasks run in. */
  public readonly cluster: ecs.ICluster;
  /** The shared file system. */
  public readonly fileSystem: efs.IFileSystem;
  /** The file system's mount targets' security group: admit a client on NFS (2049) here. */
  public readonly fileSystemSecurityGroup: ec2.ISecurityGroup;
  /** The load balancer's security group. */
  public readonly loadBalancerSecurityGroup: ec2.ISecurityGroup;
  /** The S3 gateway endpoint of STAGING and PRODUCTION (see `ApplicationFactory.s3Endpoint`). */
  public readonly s3Endpoint?: ec2.GatewayVpcEndpoint;
  /** Where the platform's SSM parameters are: `/fw/<platform stack name>/`. */
  public readonly parameterPrefix: string;

  private readonly stack: Stack;
  private readonly logging: Logging;
  private readonly storage: PlatformFileSystem;
  private readonly alarmTopic: AlarmTopic;
  private readonly endpoints?: VpcEndpoints;
  private readonly loadBalancer: LoadBalancer;
  private readonly dockerHubCache?: DockerHubCache;
  private readonly applications: PlatformApplication[] = [];
  private privateListener?: elbv2.IApplicationListener;

  /**
   * @param scope the platform's own stack (no application may be deployed in it)
   * @param id the construct's id
   * @param props the platform's settings, named and validated as the context keys of the same names
   */
  constructor(scope: Construct, id: string, props: PlatformProps) {
    super(scope, id);
    // Every mistake found while building it names this construct (UserError.constructPath).
    try {
      this.stack = Stack.of(this);
      const context = platformContext(this.stack, props);
      this.context = context;
      const settings = PROFILE_SETTINGS[context.securityProfile];
      this.node.setContext(RECORD_ACKNOWLEDGEMENTS, settings.complianceChecks);
      if (settings.platformTerminationProtection) this.stack.terminationProtection = true;
      this.parameterPrefix = platformParameterPrefix(this.stack.stackName);

      // Every application's log group, and every database's, by the pattern its name follows: the key's policy does not
      // change as they come and go.
      const applicationLogGroups = Object.values(RuntimeType).map((runtime) => applicationLogGroupName('*', runtime, context.securityProfile));
      this.logging = new Logging(this, 'Logging', {
        retention: settings.logRetention,
        removalPolicy: settings.removalPolicy,
        otherLogGroups: [...applicationLogGroups, databaseLogGroupName(`${DATABASE_IDENTIFIER_PREFIX}*`, '*')],
      });
      const dataKey = purposeKey(this, 'DataKey', 'application data (file system, data volumes, databases, backups)', settings.removalPolicy);
      // Any application may run on EC2, whose root and data volumes this key encrypts.
      allowAutoScalingVolumes(dataKey);
      const network = new Network(this, 'Network', {
        natGateways: settings.natGateways,
        flowLogs: settings.flowLogs,
        logging: this.logging,
        cidr: context.vpcCidr,
        dataSubnets: true,
        existingVpc: context.existingVpc,
      });
      this.vpc = network.vpc;
      this.computeSubnets = network.computeSubnets;
      const storage = new PlatformFileSystem(this, 'Storage', {
        network,
        key: dataKey,
        removalPolicy: settings.removalPolicy,
        rolePath: platformRolePath(this.stack.stackName),
        logGroup: network.customResourceLogGroup,
      });
      this.storage = storage;
      this.fileSystem = storage.fileSystem;
      this.fileSystemSecurityGroup = storage.securityGroup;
      const loadBalancer = this.sharedLoadBalancer(context, settings, network);
      this.loadBalancerSecurityGroup = loadBalancer.securityGroup;
      this.loadBalancer = loadBalancer;
      const cluster = ecsCluster(this, network.vpc, context.containerInsights);
      this.cluster = cluster;
      const namespace = new servicediscovery.PrivateDnsNamespace(this, 'PrivateNames', {
        name: PRIVATE_NAMESPACE,
        vpc: network.vpc,
        description: 'Private names of the platform\'s applications',
      });
      this.dockerHubCache = context.dockerHubCredentialArn ? new DockerHubCache(this, 'DockerHubCache', {
        credentialArn: context.dockerHubCredentialArn, removalPolicy: settings.removalPolicy,
      }) : undefined;
      this.alarmTopic = new AlarmTopic(new Construct(this, 'Alarms'), context.alarmEmail, settings.removalPolicy);
      this.alarmTopic.allowAccountAlarms();
      if (settings.vpcEndpoints && createsEndpoints(context.existingVpc)) {
        this.endpoints = new VpcEndpoints(this, 'Endpoints', {
          network, logGroupArns: applicationLogGroups.map((name) => `${this.logging.logGroupArn(name)}:*`),
        });
        this.s3Endpoint = this.endpoints.s3;
      }

      const parameters = this.publishShared({ network, loadBalancer, cluster, storage, namespace, dataKey });
      if (loadBalancer.certificate && privateRoutesOn(context.existingVpc)) {
        this.addPrivateLoadBalancer(network, loadBalancer, loadBalancer.certificate, parameters);
      }
      this.checkCompliance(context, settings);
      this.node.addValidation({ validate: () => unreachableHostProblems(this.applications.map((a) => ({ ...a, namedHosts: a.namedHosts ?? [] }))) });
      addResourceBudget(this, () => this.applications.flatMap((a) => {
        const own = this.node.tryFindChild(`Application-${a.stackName}`);
        return own ? [[a.stackName, own] as [string, Construct]] : [];
      }), 'Attach the other applications to another platform.');
    } catch (e) {
      throw withConstructPath(e, this);
    }
  }


  /** The shared internet-facing load balancer, with TLS for `<domain>` and `*.<domain>` when the platform has it. */
  private sharedLoadBalancer(context: PlatformContext, settings: ProfileSettings, network: Network): LoadBalancer {
    return new LoadBalancer(this, 'LoadBalancer', {
      network,
      tls: context.sslEnabled ? {
        fqdn: context.domain, domain: context.domain, hostedZoneId: context.hostedZoneId, certificateArn: context.certificateArn, shared: true,
      } : undefined,
      deletionProtection: settings.deletionProtection,
      waf: settings.waf,
      accessLogs: settings.accessLogs,
      removalPolicy: settings.removalPolicy,
      logging: this.logging,
    });
  }

  /** What an application's stack reads of the platform, published as its parameters (`PLATFORM_PARAMETERS`). */
  private publishShared(parts: {
    readonly network: Network;
    readonly loadBalancer: LoadBalancer;
    readonly cluster: ecs.Cluster;
    readonly storage: PlatformFileSystem;
    readonly namespace: servicediscovery.PrivateDnsNamespace;
    readonly dataKey: kms.IKey;
  }): Construct {
    const { network, loadBalancer, cluster, storage, namespace, dataKey } = parts;
    const subnets = network.vpc.selectSubnets(network.computeSubnets).subnets;
    const dataSubnets = network.vpc.selectSubnets(network.dataSubnets).subnets;
    const values: Record<PlatformParameter, string> = {
      'vpc-id': network.vpc.vpcId,
      'availability-zone-1': subnets[0].availabilityZone,
      'compute-subnet-1': subnets[0].subnetId,
      'compute-subnet-2': subnets[1].subnetId,
      'data-subnet-1': dataSubnets[0].subnetId,
      'data-subnet-2': dataSubnets[1].subnetId,
      'listener-arn': loadBalancer.listener.listenerArn,
      'load-balancer-security-group-id': loadBalancer.securityGroup.securityGroupId,
      'load-balancer-dns-name': loadBalancer.alb.loadBalancerDnsName,
      'load-balancer-hosted-zone-id': loadBalancer.alb.loadBalancerCanonicalHostedZoneId,
      'cluster-name': cluster.clusterName,
      'file-system-id': storage.fileSystem.fileSystemId,
      'file-system-security-group-id': storage.securityGroup.securityGroupId,
      'logs-key-arn': this.logging.key.keyArn,
      'data-key-arn': dataKey.keyArn,
      'alarm-topic-arn': this.alarmTopic.topic.topicArn,
      'namespace-id': namespace.namespaceId,
    };
    const parameters = new Construct(this, 'Parameters');
    this.publish(parameters, values, PLATFORM_PARAMETERS);
    return parameters;
  }

  /** AWS's conformance pack and Security Hub's standard when set, and the stack under the profile's packs. */
  private checkCompliance(context: PlatformContext, settings: ProfileSettings): void {
    if (context.pciConformancePack) addPciConformancePack(this, 'PciConformancePack');
    if (context.securityHubPciDss) addSecurityHubPciDss(this, 'SecurityHubPciDss');
    acknowledgeGrantPolicies(this);
    addEcsConsistencyChecks(this);
    if (settings.complianceChecks) complianceChecks().requireCompliance(this, this.stack, [], { resolvedContext: context });
  }

  /**
   * The application attached with this applicationId, if any.
   * @internal
   */
  public _application(applicationId: string): PlatformApplication | undefined {
    return this.applications.find((a) => a.applicationId === applicationId);
  }

  /**
   * The repository prefix of the platform's pull-through cache of Docker Hub, if it has one.
   * @internal
   */
  public _dockerHubCachePrefix(): string | undefined {
    return this.dockerHubCache?.prefix;
  }

  /**
   * The applicationIds attached so far, in order.
   * @internal
   */
  public _applicationIds(): string[] {
    return this.applications.map((a) => a.applicationId);
  }

  /** The private load balancer of a platform with TLS (`PrivateLoadBalancer`), published as `PRIVATE_ROUTE_PARAMETERS`. */
  private addPrivateLoadBalancer(network: Network, loadBalancer: LoadBalancer, certificate: acm.ICertificate, parameters: Construct): void {
    const settings = PROFILE_SETTINGS[this.context.securityProfile];
    const internal = new PrivateLoadBalancer(this, 'PrivateLoadBalancer', {
      network,
      certificate,
      deletionProtection: settings.deletionProtection,
      logAccessLogs: settings.accessLogs ? (alb) => loadBalancer.logAccessLogs(alb) : undefined,
      protect: (alb) => loadBalancer.protect(alb, 'PrivateWebAclAssociation'),
      admit: privateRouteFrom(this.context.existingVpc),
    });
    this.privateListener = internal.listener;
    const values: Record<PrivateRouteParameter, string> = {
      'private-listener-arn': internal.listener.listenerArn,
      'private-load-balancer-security-group-id': internal.securityGroup.securityGroupId,
      'private-load-balancer-dns-name': internal.alb.loadBalancerDnsName,
      'private-load-balancer-hosted-zone-id': internal.alb.loadBalancerCanonicalHostedZoneId,
    };
    this.publish(parameters, values, PRIVATE_ROUTE_PARAMETERS);
  }

  /** Each value as the SSM parameter `<parameterPrefix><name>`, described as `descriptions` says. */
  private publish<K extends string>(parameters: Construct, values: Record<K, string>, descriptions: Record<K, string>): void {
    for (const [name, value] of Object.entries(values) as Array<[K, string]>) {
      new ssm.StringParameter(parameters, name, { parameterName: `${this.parameterPrefix}${name}`, stringValue: value, description: descriptions[name] });
    }
  }

  /** The platform's part for one application (its access point, its database), made on first use. */
  private applicationScope(stackName: string): Construct {
    return this.node.tryFindChild(`Application-${stackName}`) as Construct ?? new Construct(this, `Application-${stackName}`);
  }

  /** Each application takes a target group and a listener rule, and some a certificate on the listener. */
  private checkLoadBalancerQuotas(): void {
    const stacks = this.applications.map((a) => a.stackName);
    checkQuota(this, LOAD_BALANCER_QUOTAS.targetGroups, stacks, this.stack.stackName);
    // Each application's host rule, and its token-paths rule when it has one.
    checkQuota(this, LOAD_BALANCER_QUOTAS.rules, [...stacks, ...this.applications.filter((a) => a.tokenPaths).map((a) => `${a.stackName}'s tokenPaths`)],
      this.stack.stackName);
    const signIn = this.applications.some((a) => a.signInByLoadBalancer) ? ['the identity provider of alb-oidc'] : [];
    checkQuota(this, LOAD_BALANCER_QUOTAS.securityGroupRules, [...stacks, ...signIn], this.stack.stackName);
    // Certificates the platform adds count once however many applications name them.
    const certificates = new Map<string, string[]>();
    for (const { stackName, certificate } of this.applications) {
      if (certificate.source === 'covered') continue;
      const key = certificate.source === 'platform' ? certificate.arn : stackName;
      certificates.set(key, [...certificates.get(key) ?? [], stackName]);
    }
    checkQuota(this, LOAD_BALANCER_QUOTAS.certificates, [...certificates.values()].map((users) => users.join(' and ')), this.stack.stackName);
  }

  /**
   * Attaches an application: refuses a clash with one attached before (host name, listener-rule priority,
   * applicationId, which names it in the private namespace) and a load-balancer quota it would pass, then adds what only
   * the platform may own for it: its access point and the file-system policy's statements, the Secrets Manager
   * endpoint's statement for its secrets, its large-body paths on the WAF, the egress to its identity provider, a
   * certificate it names by ARN. The keys and the alarm topic need nothing: their policies do not name applications.
   * Returns the IAM path its roles must have, by which the file-system policy knows them.
   * @internal
   */
  public _attach(application: PlatformApplication): string {
    const clash = (what: string, same: (other: PlatformApplication) => boolean, advice: string) => {
      const other = this.applications.find(same);
      if (other) {
        throw new UserError(`Applications ${other.stackName} (${other.applicationId}) and ${application.stackName} ` +
          `(${application.applicationId}) on platform ${this.stack.stackName} have the same ${what}; ${advice}`, this);
      }
    };
    clash(`host name ${JSON.stringify(application.host)}`, (o) => o.host === application.host,
      'give each its own subdomain.');
    const mine = listenerRulePriorities(application.listenerPriority, application.tokenPaths);
    if (mine[0] < LISTENER_PRIORITY.min) {
      throw new UserError(`Application ${application.stackName} (${application.applicationId}) has tokenPaths, whose listener ` +
        `rule takes the priority before its own (${application.listenerPriority}); set listenerPriority to ${LISTENER_PRIORITY.min + 1} or more.`, this);
    }
    const shared = (o: PlatformApplication) => listenerRulePriorities(o.listenerPriority, o.tokenPaths).find((p) => mine.includes(p));
    const first = this.applications.find((o) => shared(o) !== undefined);
    const withTokens = application.tokenPaths || first?.tokenPaths;
    clash(`listener-rule priority ${first && shared(first)}`, (o) => o === first,
      `set listenerPriority on one of them to a free value${withTokens ? ' (an application with tokenPaths takes its priority and the one before)' : ''}.`);
    clash(`applicationId (their private name would be ${application.applicationId}.${PRIVATE_NAMESPACE})`,
      (o) => o.applicationId === application.applicationId, 'a platform runs one application of each kind.');
    // The endpoint's policy names each secret. A deploy-time ARN would make the platform's stack import it from the
    // stack that creates it (and deploy after it), while every application deploys after the platform, reading its SSM
    // parameters: the first deployment would fail.
    const deployTime = Object.keys(application.secrets).filter((name) => Token.isUnresolved(application.secrets[name]));
    if (this.endpoints && deployTime.length > 0) {
      throw new UserError(`Application ${application.stackName} (${application.applicationId}) on platform ` +
        `${this.stack.stackName} reads ${deployTime.join(', ')} from a secret whose ARN is known only at deploy time (the ` +
        `secretArn of a secret the app creates). In ${this.context.securityProfile} the platform's Secrets Manager endpoint ` +
        'names each secret it serves, so the platform\'s stack would have to wait for the stack that creates it, while the ' +
        'applications wait for the platform. Give the secret\'s complete ARN instead (for example ' +
        `${SECRET_ARN_EXAMPLE}): create the secret first, with aws secretsmanager create-secret or in a stack deployed ` +
        'before the platform.', this);
    }
    this.applications.push(application);
    this.checkLoadBalancerQuotas();

    const rolePath = applicationRolePath(this.stack.stackName, application.stackName);
    if (application.accessPoint) {
      const scope = this.applicationScope(application.stackName);
      const removalPolicy = PROFILE_SETTINGS[this.context.securityProfile].removalPolicy;
      const accessPoint = this.storage.addApplication(scope, application.stackName, rolePath, application.accessPoint, removalPolicy);
      new ssm.StringParameter(scope, 'AccessPointId', {
        parameterName: accessPointParameter(this.stack.stackName, application.stackName),
        stringValue: accessPoint.accessPointId,
        description: `The access point of ${application.stackName} (${application.applicationId})`,
      });
    }
    const { requestBodyLimits, blockedRequests, host, rateLimit } = application;
    this.loadBalancer.addApplicationRules({ requestBodyLimits, blockedRequests, host, rateLimit });
    // One rule in the platform's stack for every alb-oidc application (the group keeps a rule once): in each
    // application's stack, the second would be refused as a duplicate, and deleting one would take it from the others.
    if (application.signInByLoadBalancer) {
      this.loadBalancer.securityGroup.addEgressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(HTTPS_PORT), IDENTITY_PROVIDER_EGRESS);
    }
    // On both listeners: the private route answers the same host inside the VPC.
    if (application.certificate.source === 'platform') {
      const listeners = [this.loadBalancer.listener, ...this.privateListener ? [this.privateListener] : []];
      this.loadBalancer.addSharedCertificate(application.certificate.arn, listeners);
    }
    this.endpoints?.serve({
      ...application, secretArns: [...new Set(Object.values(application.secrets))], databaseReaders: application.database ? rolePath : undefined,
    });
    return rolePath;
  }
}

import { Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { SECRET_ARN } from './context/context-keys';
import type { DeploymentContext } from './context/deployment-context';
import { factoryContext } from './context/factory-context';
import { checkFactorySizes, FACTORY_SIZE_DEFAULTS } from './context/factory-limits';
import type { IApplicationSpec } from './contract/application-spec';
import { AuthMode } from './contract/auth-mode';
import { Ec2Storage } from './contract/ec2-storage';
import type { OidcProviderSettings } from './contract/oidc-integration';
import { callPlugin, pluginName } from './contract/plugin-calls';
import { PosixUser } from './contract/posix-user';
import { RuntimeType } from './contract/runtime-type';
import { SecurityProfile } from './contract/security-profile';
import { assertValidSpec } from './contract/spec-validation';
import { UserError } from './errors';
import { LogAlarms } from './platform/alarms';
import { addEcsConsistencyChecks } from './platform/ecs-consistency';
import { VpcEndpoints } from './platform/endpoints';
import { purposeKey } from './platform/keys';
import { LoadBalancer, TlsSettings } from './platform/load-balancer';
import { Logging } from './platform/logging';
import { Network } from './platform/network';
import { SharedStorage } from './platform/storage';
import { Workers } from './platform/workers';
import { acknowledge, RECORD_ACKNOWLEDGEMENTS, requireCompliance } from './profiles/compliance';
import { PROFILE_SETTINGS } from './profiles/profile-settings';
import { Ec2Runtime } from './runtimes/ec2';
import { FargateRuntime } from './runtimes/fargate';

/**
 * How to deploy. Each field is the context key of the same name (see the README), which the factory also reads from
 * the construct tree (`cdk.json`, `-c`): a field set here and a key with another value is an error; a field left out
 * takes the key's value; without either, the defaults make a DEV deployment without a domain.
 */
export interface ApplicationFactoryProps {
  /** @default SecurityProfile.DEV */
  readonly securityProfile?: SecurityProfile;
  /** @default - no domain: the load balancer's own DNS name */
  readonly domain?: string;
  /** @default - the FQDN is the domain itself */
  readonly subdomain?: string;
  /** @default false */
  readonly sslEnabled?: boolean;
  /** @default - no DNS record; the certificate comes from `certificateArn` */
  readonly hostedZoneId?: string;
  /** @default - a DNS-validated certificate is created in `hostedZoneId` */
  readonly certificateArn?: string;
  /** `none`, `application-oidc` or `alb-oidc`. @default 'none' */
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
   * Secrets the application needs, by environment variable name: each value is a Secrets Manager secret ARN. Fargate
   * injects them as container secrets; EC2 reads them at boot with the instance role.
   * @default - none
   */
  readonly secrets?: Record<string, string>;
  /**
   * E-mail address subscribed to the alarm topic that receives the plugin's log alarms. Required in PRODUCTION when
   * the plugin declares alarms.
   * @default - no subscription
   */
  readonly alarmEmail?: string;
  /** Fargate task CPU units. @default 1024 */
  readonly cpu?: number;
  /** Fargate task memory in MiB. @default 2048 */
  readonly memoryLimitMiB?: number;
  /** EC2 instance type. @default t3.medium */
  readonly instanceType?: string;
  /** EBS data volume size in GiB (EC2 with `ebs` storage). @default 50 */
  readonly dataVolumeGiB?: number;
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

  constructor(scope: Construct, id: string, runtimeType: RuntimeType, spec: IApplicationSpec, props: ApplicationFactoryProps = {}) {
    super(scope, id);
    const plugin = pluginName(spec);
    assertValidSpec(spec, plugin);
    checkFactorySizes(runtimeType, props);
    const context = contextOf(this, runtimeType, spec, props);
    this.context = context;
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
        'someone must receive them: set alarmEmail (for example security@example.com).');
    }
    const ebs = runtimeType === RuntimeType.EC2 && context.ec2Storage === Ec2Storage.EBS;

    const logging = new Logging(this, 'Logging', {
      applicationLogGroupName: `/aws/${context.stackName}/${runtimeType}/${context.securityProfile}`,
      retention: settings.logRetention,
      removalPolicy: settings.removalPolicy,
    });
    const dataKey = purposeKey(this, 'DataKey', 'application data (file system, data volume, backups)', settings.removalPolicy);
    const network = new Network(this, 'Network', { natGateways: settings.natGateways, flowLogs: settings.flowLogs, logging });
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
    this.url = loadBalancer.url;
    if (alarms.length > 0) new LogAlarms(this, 'Alarms', { logging, alarms, email: context.alarmEmail, removalPolicy: settings.removalPolicy });

    const integration = context.authMode === AuthMode.APPLICATION_OIDC ? spec.oidcIntegration() : undefined;
    const provider = integration ? providerOf(context) : undefined;
    const secretArns: Record<string, string> = { ...props.secrets };
    if (integration && provider) secretArns[integration.clientSecretVariable()] = provider.clientSecretArn;
    const workerSpec = spec.ephemeralWorkers();
    const workers = workerSpec
      ? new Workers(this, 'Workers', { network, logging, applicationId: spec.applicationId(), workers: workerSpec })
      : undefined;
    this.workerTaskRole = workers?.taskRole;
    const runtimeProps = {
      spec,
      pluginName: plugin,
      workers,
      context,
      dataKey,
      network,
      loadBalancer,
      logging,
      storage,
      oidcEnvironment: integration && provider ? callPlugin(plugin, 'oidcIntegration().environment', () => integration.environment(provider)) : {},
      secrets: Object.fromEntries(Object.entries(secretArns).map(([name, arn]) =>
        [name, secretsmanager.Secret.fromSecretCompleteArn(this, `Secret-${name}`, arn)])),
    };
    let runtime: FargateRuntime | Ec2Runtime;
    if (runtimeType === RuntimeType.FARGATE) {
      if (!storage) throw new Error('Fargate always keeps its data on EFS, but no file system was created');
      runtime = new FargateRuntime(this, 'Fargate', {
        ...runtimeProps,
        storage,
        cpu: props.cpu ?? FACTORY_SIZE_DEFAULTS.cpu,
        memoryLimitMiB: props.memoryLimitMiB ?? FACTORY_SIZE_DEFAULTS.memoryLimitMiB,
      });
    } else {
      runtime = new Ec2Runtime(this, 'Ec2', {
        ...runtimeProps,
        instanceType: new ec2.InstanceType(props.instanceType ?? FACTORY_SIZE_DEFAULTS.instanceType),
        dataVolumeGiB: props.dataVolumeGiB ?? FACTORY_SIZE_DEFAULTS.dataVolumeGiB,
        dataVolumeBackupDays: settings.dataVolumeBackupDays,
        dataVolumeRemovalPolicy: settings.removalPolicy,
      });
    }
    if (settings.vpcEndpoints) {
      const endpoints = new VpcEndpoints(this, 'Endpoints', {
        network,
        clients: [runtime.securityGroup, ...workers ? [workers.securityGroup] : []],
        logGroup: logging.applicationLogGroup,
        secretArns: Object.values(secretArns),
        workers,
        amazonLinuxRepositories: runtimeType === RuntimeType.EC2,
      });
      this.s3Endpoint = endpoints.s3;
    }
    acknowledgeGrantPolicies(this);
    addEcsConsistencyChecks(this);
    // The whole stack: resources the CDK adds at stack level (custom-resource providers) are ours too.
    if (settings.complianceChecks) requireCompliance(this, Stack.of(this));
  }
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

/** CDK's grants write each role's statements into a DefaultPolicy, which the packs count as an inline policy. */
function acknowledgeGrantPolicies(scope: Construct): void {
  for (const policy of scope.node.findAll().filter((c): c is iam.Policy => c instanceof iam.Policy && c.node.id === 'DefaultPolicy')) {
    acknowledge(policy, 'IAMNoInlinePolicy', 'Generated by CDK grants: least-privilege statements on this stack\'s own ' +
      'resources, attached to one role; a customer-managed policy would hold the same statements.');
  }
}

/**
 * The deployment context: the context keys of the construct tree and the factory's settings, read once by the same
 * reader as the deployment app's (see `factoryContext`). Secrets are checked here: they are props, never context keys.
 */
function contextOf(scope: Construct, runtimeType: RuntimeType, spec: IApplicationSpec, props: ApplicationFactoryProps): DeploymentContext {
  const secretProblems = Object.entries(props.secrets ?? {})
    .filter(([name, arn]) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || !SECRET_ARN.test(arn))
    .map(([name]) => `secrets.${name} must be an environment variable name mapped to a Secrets Manager secret ARN (the value is not shown).`);
  if (secretProblems.length > 0) throw new UserError(`Invalid ApplicationFactory secrets:\n  - ${secretProblems.join('\n  - ')}`);
  return factoryContext(scope, runtimeType, spec.applicationId(), props);
}

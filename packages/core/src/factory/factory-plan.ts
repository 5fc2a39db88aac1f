import { Stack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { ApplicationFactoryProps } from '../application-factory-props';
import { rolloutOf } from './rollout';
import { RECORD_ACKNOWLEDGEMENTS } from '../compliance/acknowledge';
import { checkKnownVulnerabilities } from '../compliance/known-vulnerabilities';
import type { Deviation } from '../compliance/report-model';
import { SOURCE_REVISION_VARIABLE, sourceRevision } from '../compliance/source-revision';
import type { DeploymentContext } from '../context/deployment-context';
import { factoryContext } from '../context/factory-context';
import { configuredSpec } from '../context/plugin-settings';
import { parseSecretReference, type SecretReference } from '../context/secret-reference';
import { unusedKeyMessages } from '../context/unused-keys';
import { startupSeconds } from '../contract/application-size';
import type { IApplicationSpec } from '../contract/application-spec';
import { AuthMode, signInOf } from '../contract/auth-mode';
import { type DatabaseRequirement, databaseVariables } from '../contract/database-requirement';
import type { Rollout } from '../contract/deployment-strategy';
import { Ec2Storage } from '../contract/ec2-storage';
import { broadEgressProblems } from '../contract/egress-rule';
import { type EphemeralWorkers, WorkerVariables } from '../contract/ephemeral-workers';
import { factorySizes } from '../contract/factory-limits';
import type { KnownVulnerability } from '../contract/known-vulnerability';
import { frameworkAlarmNames, type LogAlarm } from '../contract/log-alarm';
import type { IOidcIntegration, OidcProviderSettings } from '../contract/oidc-integration';
import { callPlugin, keepsData, pluginName } from '../contract/plugin-calls';
import { authModesSince, contractWarningOf, knownAt, RUNTIME_TYPES_SINCE } from '../contract/plugin-contract';
import { PosixUser } from '../contract/posix-user';
import { variableProblems } from '../contract/reserved-variables';
import { RuntimeType } from '../contract/runtime-type';
import { SECRET_NAME_ENDINGS, secretNames } from '../contract/secret-names';
import type { SecurityProfile } from '../contract/security-profile';
import { assertValidSpec } from '../contract/spec-validation';
import { referenceProblems } from '../contract/value-boundary';
import { UserError } from '../errors';
import type { TlsSettings } from '../infrastructure/load-balancer';
import { applicationLogGroupName } from '../infrastructure/logging';
import type { Platform } from '../platform/platform';
import { propsOnPlatform } from '../platform/platform-attachment';
import { PROFILE_SETTINGS, type ProfileSettings } from '../profiles/profile-settings';
import { warn } from '../warnings';

// The factory's plan: everything read and checked before the first resource, so that a refused deployment leaves
// nothing half-made. `ApplicationFactory` builds from what it decides.

/** What the factory decided before building anything (`planFactory`). */
export interface FactoryPlan {
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
  /** How a deployment replaces the application, and how many tasks or instances serve it. */
  readonly rollout: Rollout;
  /** Every secret of the application by variable, the identity provider's client secret included. */
  readonly secrets: Record<string, SecretReference>;
  readonly database?: DatabaseRequirement;
  /**
   * Where its data is: a file system's access point, an EBS volume (EC2 with `ec2Storage` `ebs`), or nowhere when it
   * keeps none (`keepsData()`).
   */
  readonly dataOn?: 'efs' | 'ebs';
  readonly logGroupName: string;
  readonly integration?: IOidcIntegration;
  readonly provider?: OidcProviderSettings;
  readonly alarms: LogAlarm[];
  /** What the plugin installs under published advisories (checked against `acceptedAdvisories`). */
  readonly knownVulnerabilities: KnownVulnerability[];
  readonly workerSpec?: EphemeralWorkers;
}

/**
 * The validated context, the configured plugin and what it asks for, each refused with a message naming it: the
 * platform's settings where it attaches to one, the plugin's settings, sizes, auth modes, alarms, database and secrets.
 */
export function planFactory(scope: Construct, runtimeType: RuntimeType, given: IApplicationSpec, props: ApplicationFactoryProps): FactoryPlan {
  const plugin = pluginName(given);
  assertValidSpec(given, plugin);
  const stack = Stack.of(scope);
  const { platform } = props;
  if (!platform && (props.listenerPriority !== undefined || props.allowFrom !== undefined)) {
    throw new UserError(`ApplicationFactory ${scope.node.path}: listenerPriority and allowFrom place an application on a ` +
      'platform\'s shared listener and network; without platform they do not apply. Remove them, or set platform.', scope);
  }
  // The context keys of the construct tree and the factory's settings, read by the deployment app's reader, with what
  // the alarms (the framework's on the application's health, and the plugin's) require of them: every problem at once.
  const raised = [...frameworkAlarmNames(runtimeType), ...callPlugin(plugin, 'logAlarms', () => given.logAlarms()).map((a) => a.name)];
  const context = factoryContext(scope, runtimeType, given.applicationId(), platform ? propsOnPlatform(scope, stack, platform, props) : props,
    (v) => (PROFILE_SETTINGS[v.securityProfile as SecurityProfile]?.alarmRecipientRequired && !v.alarmEmail
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
      `${runtimeType}: rebuild it against this framework's (npx projen upgrade-fw), or deploy it on another runtime.`, scope);
  }
  const unrecorded = contractWarningOf(given);
  if (unrecorded) warn(scope, 'pluginContractNotRecorded', unrecorded);
  const settings = PROFILE_SETTINGS[context.securityProfile];
  // Before any child exists (context can only be set then): acknowledgements only where the packs read them.
  scope.node.setContext(RECORD_ACKNOWLEDGEMENTS, settings.complianceChecks);
  const alarms = spec.logAlarms();
  const database = databaseOf(plugin, spec, secrets);
  const integration = signInOf(context.authMode) === 'application' ? spec.oidcIntegration() : undefined;
  const provider = integration ? providerOf(context) : undefined;
  const environment = callPlugin(plugin, 'containerEnvironmentVariables',
    () => spec.containerEnvironmentVariables(context.fqdn ?? '', context.sslEnabled, context.authMode));
  assertVariablesOnce(scope, plugin, spec, context, environment, integration, provider, database);
  if (integration && provider) secrets[integration.clientSecretVariable()] = { secretArn: provider.clientSecretArn };
  if (integration && !context.fqdn) warnLocalAddress(scope, plugin, runtimeType, spec.applicationPort(), integration.callbackPath());
  const data = keepsData(spec);
  for (const message of unusedKeyMessages(context, database !== undefined, data)) warn(scope, 'keyNotUsed', message);
  const fromContainerImage = isDescribedImage(scope, plugin, spec);
  if (settings.broadEgressRefused) {
    const broad = [...broadEgressProblems(spec.egressRules(), `${plugin}.egressRules()`),
      ...broadEgressProblems(spec.ephemeralWorkers()?.egress ?? [], `${plugin}.ephemeralWorkers().egress`)];
    if (broad.length > 0) throw new UserError(`${context.securityProfile} refuses egress this broad: ${broad.join('; ')}.`, scope);
  }
  checkSecretsInEnvironment(scope, plugin, spec, context, environment, fromContainerImage ? 'containerImage.environment' : `${plugin}.containerEnvironmentVariables()`);
  if (runtimeType === RuntimeType.FARGATE && settings.rootContainerRefused && Number(PosixUser.parse(spec.containerUser()).uid) === 0) {
    throw new UserError(`${plugin}.containerUser() is '${spec.containerUser()}': uid 0 is root, which ${context.securityProfile} does not ` +
      'run (as EC2 never does); give the image\'s own user, for example \'1000:1000\'.', scope);
  }
  assertSourceRevision(scope, context.securityProfile, settings);
  const knownVulnerabilities = callPlugin(plugin, 'knownVulnerabilities', () => spec.knownVulnerabilities());
  checkKnownVulnerabilities(scope, plugin, knownVulnerabilities, context.acceptedAdvisories ?? {}, settings.knownVulnerabilitiesRefused,
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
    rollout: rolloutOf(plugin, context, data),
    dataOn: !data ? undefined : runtimeType === RuntimeType.EC2 && context.ec2Storage === Ec2Storage.EBS ? 'ebs' : 'efs',
    logGroupName: applicationLogGroupName(context.stackName, runtimeType, context.securityProfile),
    workerSpec: spec.ephemeralWorkers(),
  };
}

/** The evidence report identifies what it describes: a profile that requires the source revision refuses without one. */
function assertSourceRevision(scope: Construct, profile: SecurityProfile, settings: ProfileSettings): void {
  if (!settings.sourceRevisionRequired || sourceRevision() !== undefined) return;
  throw new UserError(`${profile}'s evidence report names the source revision it was synthesised from, and none is known: ` +
    `set ${SOURCE_REVISION_VARIABLE} to the commit your pipeline synthesises, or synthesise in the deployment project's git ` +
    'repository once it has a commit.', scope);
}

/**
 * Without a domain the application's address is `http://localhost:<port>`, which is where the identity
 * provider sends a browser back: reachable through a Session Manager port forward (`sessionManager`, DEV only: the
 * context reader refuses a missing domain wherever TLS is required).
 */
function warnLocalAddress(scope: Construct, plugin: string, runtimeType: RuntimeType, port: number, callbackPath: string): void {
  const forward = `--document-name AWS-StartPortForwardingSession --parameters portNumber=${port},localPortNumber=${port}`;
  const target = runtimeType === RuntimeType.FARGATE ? 'ecs:<cluster name>_<task id>_<container runtime id>' : '<instance id>';
  warn(scope, 'localAddress', `No domain: ${plugin}'s address is http://localhost:${port}. Register ` +
    `http://localhost:${port}${callbackPath} as a redirect URI at the identity provider, and reach the application ` +
    `through a port forward: aws ssm start-session --target ${target} ${forward}, then open http://localhost:${port}.`);
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
 * Each variable the application gets is set once: its environment, its secrets (the plugin's and the deployment's),
 * the OIDC integration's, the database's and the workers' (`variableProblems`), on both runtimes alike.
 */
function assertVariablesOnce(scope: Construct, plugin: string, spec: IApplicationSpec, context: DeploymentContext,
  environment: Record<string, string>, integration: IOidcIntegration | undefined, provider: OidcProviderSettings | undefined,
  database: DatabaseRequirement | undefined): void {
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

/**
 * Whether `spec` is the application the `containerImage` key describes (the deployment app's ContainerImageSpec, whose
 * fields a message then names). A factory made in code deploys the plugin it is given: the key is then unused.
 */
function isDescribedImage(scope: Construct, plugin: string, spec: IApplicationSpec): boolean {
  const described = scope.node.tryGetContext('containerImage')?.image;
  if (described !== undefined && described !== spec.defaultContainerImage()) {
    warn(scope, 'keyNotUsed', `containerImage (image ${described}) is not used: ${plugin} (image ${spec.defaultContainerImage()}) is ` +
      'deployed, as given to ApplicationFactory; only the deployment app (npx fw-deploy) makes a plugin from containerImage.');
  }
  return described !== undefined && described === spec.defaultContainerImage();
}

/**
 * A variable whose name says it holds a secret (`secretNames`) would be written in clear wherever the environment goes:
 * the task definition on Fargate, the launch template's user data on EC2. Refused where the profile says so, on both
 * runtimes and before the compliance packs (whose findings name no variable); a warning otherwise.
 */
function checkSecretsInEnvironment(scope: Construct, plugin: string, spec: IApplicationSpec, context: DeploymentContext,
  environment: Record<string, string>, source: string): void {
  const found = [
    ...secretNames(environment).map((name) => `${name} (${source})`),
    ...secretNames(spec.ephemeralWorkers()?.environment).map((name) => `${name} (${plugin}.ephemeralWorkers().environment)`),
  ];
  if (found.length === 0) return;
  const example = found[0].split(' ')[0];
  const message = `${found.join(', ')}: the name says it holds a secret (it ends in one of ${SECRET_NAME_ENDINGS.join(', ')}), and ` +
    'a container\'s environment is written in clear into the template (the task definition on Fargate, the user data on ' +
    'EC2). Pass the secret by reference instead: the secrets key or the plugin\'s secrets() (a Secrets Manager ARN, given ' +
    `to the container at start), or a variable the application reads the secret through (${example}_FILE, ${example}_ARN).`;
  const refusing = (Object.keys(PROFILE_SETTINGS) as SecurityProfile[]).filter((p) => PROFILE_SETTINGS[p].secretInEnvironmentRefused);
  if (PROFILE_SETTINGS[context.securityProfile].secretInEnvironmentRefused) {
    throw new UserError(`${context.securityProfile} refuses a secret in a container's environment: ${message}`, scope);
  }
  warn(scope, 'secretInEnvironment', `${message} ${refusing.join(' and ')} refuse${refusing.length === 1 ? 's' : ''} it.`);
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

/** TLS settings when TLS is on; the context reader has made sure a domain comes with it. */
export function tlsOf(context: DeploymentContext): TlsSettings | undefined {
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
 * Under alb-oidc, `tokenPaths` skip the load balancer's sign-in: a deviation from 8.3.1 and 8.4.2 the report lists,
 * since the identity provider's authentication and MFA do not reach those requests; the application's tokens do.
 */
export function tokenPathDeviations(plugin: string, context: DeploymentContext): Deviation[] {
  // The context reader refuses tokenPaths without alb-oidc.
  if (!context.tokenPaths) return [];
  const reason = `Requests to ${context.tokenPaths.join(', ')} skip the load balancer's sign-in (tokenPaths): ${plugin} ` +
    'authenticates them itself, with its own tokens; the identity provider\'s sign-in and multi-factor authentication do not reach them.';
  return ['8.3.1', '8.4.2'].map((requirement) => ({ requirement, rule: 'tokenPaths', resource: `${context.stackName}: the listener rule TokenPathsRule`, reason }));
}

import { App, Stack } from 'aws-cdk-lib';
import { ApplicationFactory } from './application-factory';
import { containerImageProps } from './container-image/container-image-config';
import { ContainerImageSpec } from './container-image/container-image-spec';
import { ScoreWorkloadSpec } from './container-image/score-workload-spec';
import { PLATFORM_CONFIGURATION_KEYS } from './context/context-keys';
import type { DeploymentContext } from './context/deployment-context';
import { DeploymentContextReader } from './context/deployment-context-reader';
import type { FactorySettings } from './context/factory-settings';
import { readPlatformConfiguration } from './context/platform-configuration';
import type { IApplicationSpec } from './contract/application-spec';
import { SecurityProfile } from './contract/security-profile';
import { assertValidSpec } from './contract/spec-validation';
import { UserError } from './errors';
import { onDemand } from './on-demand';
import { PROFILE_SETTINGS } from './profiles/profile-settings';
import { PluginRegistry } from './registry/plugin-registry';
import { warn } from './warnings';

/** Where the deployment app looks. */
export interface DeploymentAppOptions {
  /**
   * Directory from which installed plugin packages are searched.
   * @default process.cwd()
   */
  readonly searchFrom?: string;
  /**
   * Plugins the host language found itself (Java's `ServiceLoader`, Python's entry points, as docs/deploying.md says), added to
   * those the registry finds. An applicationId both declare is refused.
   * @default - only the registry's
   */
  readonly plugins?: IApplicationSpec[];
}

/**
 * The deployment app that a `cdk.json` names (`"app": "npx fw-deploy"`): read the context keys, find the plugin,
 * create the stack, call the factory, which reads the same keys.
 */
export class DeploymentApp {
  /**
   * Builds the stack the context keys describe in `app`, with the plugin for `applicationId` among those the registry
   * finds (the built-in ones and every installed npm package's) and those handed in (`options.plugins`).
   * The region comes from the `region` key, else, in a profile that does not require the key (DEV), from
   * `CDK_DEFAULT_REGION` with a warning. The account is left open, so
   * availability zones resolve at deploy time and synth never needs an AWS lookup. A platform configuration (the
   * `platform` and `applications` keys) builds the platform's stack and one stack an application, and returns the
   * platform's (see docs/deploying.md, "Use by configuration"). An application with `containerImage` gets the plugin
   * those values describe (`ContainerImageSpec`) instead of an installed one.
   */
  public static addTo(app: App, options: DeploymentAppOptions = {}): Stack {
    const registry = PluginRegistry.discover({ searchFrom: options.searchFrom }).withPlugins(options.plugins ?? []);
    const find: FindPlugin = (context, described) =>
      describedSpec(context, described, registry.applicationIds().includes(context.applicationId)) ?? registry.get(context.applicationId);
    if (isPlatformConfiguration(app)) return addPlatform(app, find);
    const { context, cliRegion } = readContext(app);
    return addStack(app, context, find(context, describedIn(app)), cliRegion);
  }

  /**
   * The same with exactly these plugins and no discovery: for a deployment that configures a plugin itself (a
   * `JenkinsSpec` with its own props, which would otherwise clash with the registered one), and for languages without
   * a plugin convention of their own (Go, .NET). Takes the plugin whose `applicationId()` the `applicationId` key names.
   */
  public static addToWithPlugins(app: App, plugins: IApplicationSpec[]): Stack {
    const find: FindPlugin = (context, described) => {
      const { applicationId } = context;
      const fromValues = describedSpec(context, described, plugins.some((p) => p.applicationId() === applicationId));
      if (fromValues) return fromValues;
      const spec = plugins.find((p) => p.applicationId() === applicationId);
      if (!spec) {
        throw new UserError(`No plugin given has applicationId '${applicationId}'. Available: ` +
          `${plugins.map((p) => p.applicationId()).join(', ') || 'none'}.`);
      }
      return spec;
    };
    if (isPlatformConfiguration(app)) return addPlatform(app, find);
    const { context, cliRegion } = readContext(app);
    return addStack(app, context, find(context, describedIn(app)), cliRegion);
  }

  private constructor() {}
}

/**
 * The context keys, with the CDK CLI's default region (`CDK_DEFAULT_REGION`, from the AWS configuration) where the
 * `region` key is absent, for a profile that does not require one (DEV): STAGING and PRODUCTION are placed on purpose,
 * so their reader refuses a missing key instead (a CLI default of us-east-1 would otherwise go unnoticed).
 */
function readContext(app: App): { readonly context: DeploymentContext; readonly cliRegion?: string } {
  const values = { ...app.node.getAllContext() };
  const cliRegion = values.region === undefined ? cliDefaultRegion(values.securityProfile) : undefined;
  return { context: DeploymentContextReader.fromValues({ ...values, region: values.region ?? cliRegion }), cliRegion };
}

/** `CDK_DEFAULT_REGION`, unless the profile named by `securityProfile` (DEV when absent) requires the region key. */
function cliDefaultRegion(securityProfile: unknown): string | undefined {
  const settings = PROFILE_SETTINGS[(securityProfile ?? SecurityProfile.DEV) as SecurityProfile];
  return settings?.regionRequired ? undefined : process.env.CDK_DEFAULT_REGION || undefined;
}

/** One stack named after the context, in its region, with one factory that takes every setting from the context. */
function addStack(app: App, context: DeploymentContext, spec: IApplicationSpec, cliRegion?: string): Stack {
  const stack = new Stack(app, context.stackName, {
    stackName: context.stackName,
    env: { region: context.region },
    description: `${context.applicationId} on ${context.runtimeType} (${context.securityProfile}), deployed by @fw/core`,
  });
  if (cliRegion) {
    warn(stack, 'cliDefaultRegion', `No region key: deployed to ${cliRegion}, the CDK ` +
      'CLI\'s default region (CDK_DEFAULT_REGION, from the AWS configuration). Set the region key to choose it; ' +
      `${Object.values(SecurityProfile).filter((p) => PROFILE_SETTINGS[p].regionRequired).join(' and ')} require it.`);
  }
  warnMapped(stack, spec);
  new ApplicationFactory(stack, 'Application', context.runtimeType, spec);
  return stack;
}

function isPlatformConfiguration(app: App): boolean {
  return PLATFORM_CONFIGURATION_KEYS.some((key) => app.node.tryGetContext(key) !== undefined);
}

/**
 * A platform configuration (`platform`, `applications`): the platform's stack, then one stack an application, in the
 * order listed, each attached to the platform. Returns the platform's stack.
 */
/** What an application describes besides its keys: an image's values, or a Score workload file. */
interface Described {
  readonly containerImage?: unknown;
  readonly scoreWorkload?: unknown;
}

/** The plugin of an application: the one its values describe, else the installed one with its applicationId. */
type FindPlugin = (context: DeploymentContext, described: Described) => IApplicationSpec;

function describedIn(app: App): Described {
  return { containerImage: app.node.tryGetContext('containerImage'), scoreWorkload: app.node.tryGetContext('scoreWorkload') };
}

/**
 * The plugin an application's `containerImage` or `scoreWorkload` describes, or undefined when it has neither; refused
 * where an installed plugin has the same applicationId, or where both are given.
 */
function describedSpec(context: DeploymentContext, { containerImage, scoreWorkload }: Described, installed: boolean): IApplicationSpec | undefined {
  const { applicationId } = context;
  const key = containerImage !== undefined ? 'containerImage' : scoreWorkload !== undefined ? 'scoreWorkload' : undefined;
  if (key === undefined) return undefined;
  if (containerImage !== undefined && scoreWorkload !== undefined) {
    throw new UserError(`applicationId '${applicationId}' has both containerImage and scoreWorkload; each describes the whole application: keep one.`);
  }
  if (installed) {
    throw new UserError(`${key} describes applicationId '${applicationId}', which an installed plugin has too: give the ` +
      `${key === 'containerImage' ? 'image' : 'workload'} its own applicationId, or remove ${key} to deploy the plugin.`);
  }
  const spec = key === 'containerImage' ? new ContainerImageSpec(containerImageProps(applicationId, containerImage))
    : scoreWorkloadModule().scoreWorkloadSpec(applicationId, scoreWorkload, context.runtimeType);
  assertValidSpec(spec, key === 'containerImage' ? `containerImage (applicationId ${applicationId})` : `scoreWorkload ${scoreWorkload} (applicationId ${applicationId})`);
  return spec;
}

/** The Score reader, loaded only by a deployment that has a Score file: it brings a YAML parser and a schema validator. */
function scoreWorkloadModule(): typeof import('./container-image/score-workload') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./container-image/score-workload');
}

/** What a Score workload's mapping changed, as the stack's warnings. */
function warnMapped(stack: Stack, spec: IApplicationSpec): void {
  if (spec instanceof ScoreWorkloadSpec) spec.notes.forEach((note) => warn(stack, 'scoreWorkloadMapped', note));
}

/**
 * What an application entry of a platform configuration hands its factory: every key an application decides, by the
 * name it has in both (the platform decides the rest; `test/deployment-app.test.ts` checks none is left out).
 */
export const APPLICATION_PROPS = [
  'domain', 'subdomain', 'hostedZoneId', 'certificateArn', 'authMode', 'tokenPaths', 'rateLimit', 'oidc', 'ec2Storage',
  'dataVolumeSnapshotId', 'ec2ImageId', 'deploymentStrategy', 'desiredCount', 'maintenanceWindow', 'imageDigests', 'acceptedAdvisories', 'secrets', 'secretKeyArns', 'pluginSettings', 'cpu',
  'memoryLimitMiB', 'instanceType', 'dataVolumeGiB', 'databaseInstanceType', 'databaseStorageGiB', 'pciDssScope',
  'pciDssMultiTenantProvider',
] as const satisfies ReadonlyArray<keyof FactorySettings & keyof DeploymentContext>;

function addPlatform(app: App, plugin: FindPlugin): Stack {
  const values = app.node.getAllContext();
  const configuration = readPlatformConfiguration(values, cliDefaultRegion(values.platform?.securityProfile));
  const { stackName, region, props } = configuration.platform;
  // Every plugin is found before anything is built: a missing one is reported alone, with what is installed.
  const specs = configuration.applications.map(({ context, containerImage, scoreWorkload }) => plugin(context, { containerImage, scoreWorkload }));
  const platformStack = new Stack(app, stackName, {
    stackName,
    env: { region },
    description: `The platform ${stackName} (${props.securityProfile ?? SecurityProfile.DEV}) its applications share, deployed by @fw/core`,
  });
  const platform = new (onDemand.platform().Platform)(platformStack, 'Platform', props);
  configuration.applications.forEach(({ context, listenerPriority, allowFrom }, i) => {
    const stack = new Stack(app, context.stackName, {
      stackName: context.stackName,
      env: { region },
      description: `${context.applicationId} on ${context.runtimeType} (${context.securityProfile}) on the platform ${stackName}, deployed by @fw/core`,
    });
    warnMapped(stack, specs[i]);
    new ApplicationFactory(stack, 'Application', context.runtimeType, specs[i], {
      platform,
      ...Object.fromEntries(APPLICATION_PROPS.map((prop) => [prop, context[prop]])),
      listenerPriority,
      allowFrom,
    });
  });
  return platformStack;
}

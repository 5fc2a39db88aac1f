import { App, Stack } from 'aws-cdk-lib';
import { ApplicationFactory } from './application-factory';
import type { DeploymentContext } from './context/deployment-context';
import { DeploymentContextReader } from './context/deployment-context';
import type { IApplicationSpec } from './contract/application-spec';
import { UserError } from './errors';
import { PluginRegistry } from './registry/plugin-registry';

/** Where the deployment app looks. */
export interface DeploymentAppOptions {
  /**
   * Directory from which installed plugin packages are searched.
   * @default process.cwd()
   */
  readonly searchFrom?: string;
  /**
   * Plugins the host language found itself (Java's `ServiceLoader`, Python's entry points; see the README), added to
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
   * The region comes from the `region` key, else from `CDK_DEFAULT_REGION`. The account is left open, so
   * availability zones resolve at deploy time and synth never needs an AWS lookup.
   */
  public static addTo(app: App, options: DeploymentAppOptions = {}): Stack {
    const context = readContext(app);
    const registry = PluginRegistry.discover({ searchFrom: options.searchFrom }).withPlugins(options.plugins ?? []);
    return addStack(app, context, registry.get(context.applicationId));
  }

  /**
   * The same with exactly these plugins and no discovery: for a deployment that configures a plugin itself (a
   * `JenkinsSpec` with its own props, which would otherwise clash with the registered one), and for languages without
   * a plugin convention of their own (Go, .NET). Takes the plugin whose `applicationId()` the `applicationId` key names.
   */
  public static addToWithPlugins(app: App, plugins: IApplicationSpec[]): Stack {
    const context = readContext(app);
    const spec = plugins.find((p) => p.applicationId() === context.applicationId);
    if (!spec) {
      throw new UserError(`No plugin given has applicationId '${context.applicationId}'. Available: ` +
        `${plugins.map((p) => p.applicationId()).join(', ') || 'none'}.`);
    }
    return addStack(app, context, spec);
  }

  private constructor() {}
}

function readContext(app: App): DeploymentContext {
  const values = { ...app.node.getAllContext() };
  values.region ??= process.env.CDK_DEFAULT_REGION;
  return DeploymentContextReader.fromValues(values);
}

/** One stack named after the context, in its region, with one factory that takes every setting from the context. */
function addStack(app: App, context: DeploymentContext, spec: IApplicationSpec): Stack {
  const stack = new Stack(app, context.stackName, {
    stackName: context.stackName,
    env: { region: context.region },
    description: `${context.applicationId} on ${context.runtimeType} (${context.securityProfile}), deployed by @fw/core`,
  });
  new ApplicationFactory(stack, 'Application', context.runtimeType, spec);
  return stack;
}

import { App, Stack } from 'aws-cdk-lib';
import { ApplicationFactory } from './application-factory';
import { DeploymentContextReader } from './context/deployment-context';
import { PluginRegistry } from './registry/plugin-registry';

/** Where the deployment app looks. */
export interface DeploymentAppOptions {
  /**
   * Directory from which installed plugin packages are searched.
   * @default process.cwd()
   */
  readonly searchFrom?: string;
}

/**
 * The deployment app that a `cdk.json` names (`"app": "npx fw-deploy"`): context keys -> validated context -> the
 * plugin from the registry -> one stack with one ApplicationFactory.
 */
export class DeploymentApp {
  /**
   * Builds the stack the context keys describe in `app`. The region comes from the `region` key, else from
   * `CDK_DEFAULT_REGION`. The account is left open, so availability zones resolve at deploy time and synth never needs
   * an AWS lookup.
   */
  public static addTo(app: App, options: DeploymentAppOptions = {}): Stack {
    const values = { ...app.node.getAllContext() };
    values.region ??= process.env.CDK_DEFAULT_REGION;
    const context = DeploymentContextReader.fromValues(values);
    const spec = PluginRegistry.discover({ searchFrom: options.searchFrom }).get(context.applicationId);
    const stack = new Stack(app, context.stackName, {
      stackName: context.stackName,
      env: { region: context.region },
      description: `${context.applicationId} on ${context.runtimeType} (${context.securityProfile}), deployed by @fw/core`,
    });
    new ApplicationFactory(stack, 'Application', context.runtimeType, spec, {
      securityProfile: context.securityProfile,
      domain: context.domain,
      subdomain: context.subdomain,
      sslEnabled: context.sslEnabled,
      hostedZoneId: context.hostedZoneId,
      certificateArn: context.certificateArn,
      authMode: context.authMode,
      oidc: context.oidc,
      ec2Storage: context.ec2Storage,
      alarmEmail: context.alarmEmail,
    });
    return stack;
  }

  private constructor() {}
}

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
   * Builds the stack the context keys describe in `app`. The region and account come from the `region` and `account`
   * keys, else from `CDK_DEFAULT_REGION` and `CDK_DEFAULT_ACCOUNT`.
   */
  public static addTo(app: App, options: DeploymentAppOptions = {}): Stack {
    const values = { ...app.node.getAllContext() };
    values.region ??= process.env.CDK_DEFAULT_REGION;
    values.account ??= process.env.CDK_DEFAULT_ACCOUNT;
    const context = DeploymentContextReader.fromValues(values);
    const spec = PluginRegistry.discover({ searchFrom: options.searchFrom }).get(context.applicationId);
    const stack = new Stack(app, context.stackName, {
      stackName: context.stackName,
      env: { region: context.region, account: context.account },
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
    });
    return stack;
  }

  private constructor() {}
}

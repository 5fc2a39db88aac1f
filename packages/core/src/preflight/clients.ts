/**
 * The AWS SDK for JavaScript v3 clients `fw-deploy preflight` calls, pinned. They are not dependencies of @fw/core
 * (a jsii package bundles its runtime dependencies, and these have dependencies of their own): a deployment project
 * that runs preflight installs them as development dependencies, with the command `PREFLIGHT_INSTALL` gives; the
 * workspace installs them from this list (.projenrc.ts). No import here: .projenrc.ts reads this file.
 */
export const PREFLIGHT_CLIENTS = {
  '@aws-sdk/client-acm': '3.1178.0',
  '@aws-sdk/client-cloudformation': '3.1178.0',
  '@aws-sdk/client-config-service': '3.1124.0',
  '@aws-sdk/client-ec2': '3.1178.0',
  '@aws-sdk/client-ecr': '3.1178.0',
  '@aws-sdk/client-elastic-load-balancing-v2': '3.1142.0',
  '@aws-sdk/client-kms': '3.1178.0',
  '@aws-sdk/client-route-53': '3.1178.0',
  '@aws-sdk/client-secrets-manager': '3.1178.0',
  '@aws-sdk/client-securityhub': '3.1108.0',
  '@aws-sdk/client-service-quotas': '3.1138.0',
  '@aws-sdk/client-sts': '3.1178.0',
} as const;

/** A client package's name. */
export type PreflightClient = keyof typeof PREFLIGHT_CLIENTS;

/** The command that installs every client at its pin, in a deployment project. */
export const PREFLIGHT_INSTALL = `npm install --save-dev --save-exact ${Object.entries(PREFLIGHT_CLIENTS).map(([n, v]) => `${n}@${v}`).join(' ')}`;

/** The client class each package exports. */
export const CLIENT_CLASS: Record<PreflightClient, string> = {
  '@aws-sdk/client-acm': 'ACMClient',
  '@aws-sdk/client-cloudformation': 'CloudFormationClient',
  '@aws-sdk/client-config-service': 'ConfigServiceClient',
  '@aws-sdk/client-ec2': 'EC2Client',
  '@aws-sdk/client-ecr': 'ECRClient',
  '@aws-sdk/client-elastic-load-balancing-v2': 'ElasticLoadBalancingV2Client',
  '@aws-sdk/client-kms': 'KMSClient',
  '@aws-sdk/client-route-53': 'Route53Client',
  '@aws-sdk/client-secrets-manager': 'SecretsManagerClient',
  '@aws-sdk/client-securityhub': 'SecurityHubClient',
  '@aws-sdk/client-service-quotas': 'ServiceQuotasClient',
  '@aws-sdk/client-sts': 'STSClient',
};

/**
 * Read-only calls to AWS through the pinned clients, loaded from the deployment project (`cwd`) when first used.
 * `call` sends `<Operation>Command` with the input and returns the response as the service's model shapes it.
 */
export class AwsCalls {
  private readonly clients = new Map<PreflightClient, { send(command: unknown): Promise<any> }>();
  private readonly modules = new Map<PreflightClient, Record<string, any>>();

  constructor(public readonly region: string, private readonly cwd: string) {}

  /** Sends one operation of one service. */
  public async call(client: PreflightClient, operation: string, input: object = {}): Promise<any> {
    const module = this.module(client);
    if (!this.clients.has(client)) this.clients.set(client, new module[CLIENT_CLASS[client]]({ region: this.region }));
    return this.clients.get(client)!.send(new module[`${operation}Command`](input));
  }

  private module(client: PreflightClient): Record<string, any> {
    if (!this.modules.has(client)) {
      let resolved: string;
      try {
        resolved = require.resolve(client, { paths: [this.cwd, __dirname] });
      } catch {
        throw new MissingClient(client);
      }
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      this.modules.set(client, require(resolved));
    }
    return this.modules.get(client)!;
  }
}

/** Each client installed in the project (`cwd`) at another version than its pin: `name installed pin`. */
export function unpinnedClients(cwd: string): { readonly name: PreflightClient; readonly installed: string; readonly pin: string }[] {
  return (Object.entries(PREFLIGHT_CLIENTS) as [PreflightClient, string][]).flatMap(([name, pin]) => {
    let installed: string;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      installed = require(require.resolve(`${name}/package.json`, { paths: [cwd, __dirname] })).version;
    } catch {
      return []; // not installed: MissingClient says so when the client is called
    }
    return installed === pin ? [] : [{ name, installed, pin }];
  });
}

/** A client the deployment project has not installed. */
export class MissingClient extends Error {
  constructor(public readonly client: PreflightClient) {
    super(`preflight: ${client} is not installed in this project; install the clients preflight calls, at their pins: ${PREFLIGHT_INSTALL}`);
  }
}

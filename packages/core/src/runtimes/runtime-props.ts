import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { DeploymentContext } from '../context/deployment-context';
import type { IApplicationSpec } from '../contract/application-spec';
import type { LoadBalancer } from '../platform/load-balancer';
import type { Logging } from '../platform/logging';
import type { Network } from '../platform/network';
import type { SharedStorage } from '../platform/storage';
import type { Workers } from '../platform/workers';

/** What the factory hands a runtime: the plugin, the validated context and the shared platform. */
export interface RuntimeProps {
  readonly spec: IApplicationSpec;
  /** What messages call the plugin (`pluginName`). */
  readonly pluginName: string;
  readonly context: DeploymentContext;
  readonly network: Network;
  readonly loadBalancer: LoadBalancer;
  readonly logging: Logging;
  /** Encrypts the application's data: the file system, the EC2 data volume and its backups. */
  readonly dataKey: kms.IKey;
  /** The shared file system; absent only on EC2 with EBS storage. */
  readonly storage?: SharedStorage;
  /** The OIDC integration's entries in `application-oidc` mode (container, or the EC2 environment file). */
  readonly oidcEnvironment: Record<string, string>;
  /** Secrets by environment variable name, only ever passed on as references. */
  readonly secrets: Record<string, secretsmanager.ISecret>;
  /** The workers the application starts (`ephemeralWorkers()`); absent when it declares none. */
  readonly workers?: Workers;
}

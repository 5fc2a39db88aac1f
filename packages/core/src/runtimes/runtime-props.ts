import type {
  aws_ecs as ecs, aws_kms as kms, aws_secretsmanager as secretsmanager, aws_servicediscovery as servicediscovery,
} from 'aws-cdk-lib';
import type { DeploymentContext } from '../context/deployment-context';
import type { IApplicationSpec } from '../contract/application-spec';
import type { Rollout } from '../contract/deployment-strategy';
import type { ImageSource } from '../infrastructure/docker-hub-cache';
import type { ApplicationLog } from '../infrastructure/logging';
import type { NetworkAccess } from '../infrastructure/network';
import type { ApplicationRoute } from '../infrastructure/routing';
import type { ApplicationStorage } from '../infrastructure/storage';
import type { Workers } from '../infrastructure/workers';

/** What the factory hands a runtime: the plugin, the validated context and the shared platform. */
export interface RuntimeProps {
  /** The plugin, as configured with its settings. */
  readonly spec: IApplicationSpec;
  /** What messages call the plugin (`pluginName`). */
  readonly pluginName: string;
  /** The validated deployment context. */
  readonly context: DeploymentContext;
  /** The plugin's `defaultSize().startupSeconds` (or its default): how long a first start may take. */
  readonly startupSeconds: number;
  /** How a deployment replaces the application, and how many tasks or instances serve it. */
  readonly rollout: Rollout;
  /** The VPC and the compute subnets the application runs in. */
  readonly network: NetworkAccess;
  /** How the load balancer reaches the application: its default action standalone, a host rule on a platform. */
  readonly loadBalancer: ApplicationRoute;
  /** The application's log group and its name. */
  readonly log: ApplicationLog;
  /** Encrypts the EC2 root and data volumes and the data volume's backups (EC2 only). */
  readonly dataKey?: kms.IKey;
  /** Whether the application keeps data (`keepsData()`): on `storage`, or without it on EC2 an EBS data volume. */
  readonly keepsData: boolean;
  /** The shared file system; absent on EC2 with EBS storage, and for an application that keeps no data. */
  readonly storage?: ApplicationStorage;
  /**
   * What the framework adds to the application's environment (container, or the EC2 environment file): the OIDC
   * integration's entries in `application-oidc` mode, the database's connection.
   */
  readonly environment: Record<string, string>;
  /** Secrets by environment variable name, only ever passed on as references. */
  readonly secrets: Record<string, ApplicationSecret>;
  /** Where the tasks pull their images from (Docker Hub's through the pull-through cache, when there is one). */
  readonly images: ImageSource;
  /**
   * EC2: the plugin's image, which it runs (`IUserDataBuilder.runImage`), checked by the rules the tasks' images are
   * (its digest where the profile requires one, the cache), and where it is pulled from.
   */
  readonly admitImage: (member: string, image: string) => ImageSource;
  /** The workers the application starts (`ephemeralWorkers()`); absent when it declares none. */
  readonly workers?: Workers;
  /** On a platform: the IAM path of the application's roles, by which the file-system policy knows them. */
  readonly rolePath?: string;
  /** On a platform: the cluster the application's task runs in (Fargate). Standalone: a cluster of its own. */
  readonly cluster?: ecs.ICluster;
  /**
   * On a platform: the namespace the application is registered in (Fargate). Standalone: one of its own, only when
   * it has workers (they find it by it).
   */
  readonly namespace?: servicediscovery.IPrivateDnsNamespace;
}

/** A secret one environment variable gets: the whole SecretString, or one key of its JSON, of a version if named. */
export interface ApplicationSecret {
  readonly secret: secretsmanager.ISecret;
  readonly jsonKey?: string;
  readonly versionStage?: string;
  readonly versionId?: string;
}

/** How messages and the checks name the plugin's image when the EC2 boot pulls it (`runImage`), not a task. */
export const EC2_IMAGE_MEMBER = 'defaultContainerImage() (run on EC2 by runImage)';

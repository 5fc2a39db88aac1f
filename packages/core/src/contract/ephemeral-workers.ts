import type { EgressRule } from './egress-rule';

/**
 * Short-lived ECS Fargate tasks that the application starts itself, one per unit of work, and stops when it is done
 * (for example build agents). The framework defines the task and its roles, gives the workers a security group that
 * admits nothing, lets them reach the application on `applicationPorts` only, and allows the application's role to
 * run, describe and stop tasks of that one task definition in the workers' own cluster. It tells the application
 * where everything is through the environment variables of `WorkerVariables`, on both runtimes.
 */
export interface EphemeralWorkers {
  /** The worker's container image, pinned to a version (for example `jenkins/inbound-agent:3355.v388858a_47b_33-5-jdk21`). */
  readonly image: string;
  /** Task CPU units. With `memoryLimitMiB` one of Fargate's task sizes. */
  readonly cpu: number;
  /** Task memory in MiB. */
  readonly memoryLimitMiB: number;
  /**
   * The application's ports that workers connect to. The application admits them on these ports from the workers'
   * security group only; on Fargate they are also mapped in the application's container.
   */
  readonly applicationPorts: number[];
  /**
   * Environment of the worker container. Plain configuration only: it is stored in the task definition.
   * @default - none
   */
  readonly environment?: Record<string, string>;
  /**
   * Traffic the workers send beyond HTTPS to anywhere and the application's ports (for example SSH to a Git server).
   * @default - nothing more
   */
  readonly egress?: EgressRule[];
}

/**
 * The environment variables with which the framework tells an application that declares `ephemeralWorkers()` about
 * its workers: in the container's environment on Fargate, in `Ec2Files.APPLICATION_ENVIRONMENT_FILE` on EC2.
 */
export class WorkerVariables {
  /** ARN of the ECS cluster the workers run in (it holds nothing else). */
  public static readonly CLUSTER_ARN = 'FW_WORKERS_CLUSTER_ARN';
  /** Family of the workers' task definition. Run its latest revision. */
  public static readonly TASK_DEFINITION = 'FW_WORKERS_TASK_DEFINITION';
  /** Comma-separated ids of the subnets to run workers in. */
  public static readonly SUBNETS = 'FW_WORKERS_SUBNETS';
  /** Id of the workers' security group. */
  public static readonly SECURITY_GROUP = 'FW_WORKERS_SECURITY_GROUP';
  /** `true` when workers need a public IP to reach the internet (a network without NAT gateway), else `false`. */
  public static readonly ASSIGN_PUBLIC_IP = 'FW_WORKERS_ASSIGN_PUBLIC_IP';
  /** ARN of the workers' execution role (pulls the image, writes the log). */
  public static readonly EXECUTION_ROLE_ARN = 'FW_WORKERS_EXECUTION_ROLE_ARN';
  /** ARN of the workers' task role (no permissions unless the deployment grants some). */
  public static readonly TASK_ROLE_ARN = 'FW_WORKERS_TASK_ROLE_ARN';
  /** The log group the workers' containers write to (the application's). */
  public static readonly LOG_GROUP = 'FW_WORKERS_LOG_GROUP';
  /** The AWS region of the deployment. */
  public static readonly REGION = 'FW_WORKERS_REGION';
  /**
   * The application's private DNS name, which resolves inside the VPC only: workers reach the application at
   * `<this>:<port>`. Fargate: the service's Cloud Map name. EC2: the instance's own private DNS name, read at boot.
   */
  public static readonly PRIVATE_HOST = 'FW_PRIVATE_HOST';

  private constructor() {}
}

/**
 * How a deployment replaces an application's running tasks or instances (the `deploymentStrategy` key).
 *
 * An application that keeps data (`keepsData()`) has one writer of its file system or volume, which never runs twice:
 * it is always `STOP_FIRST`. One without data of its own defaults to `ROLLING`.
 */
export enum DeploymentStrategy {
  /**
   * New tasks (Fargate) or instances (EC2) start beside the running ones, which stop only once the new ones are
   * healthy: no downtime. Only for an application that keeps no data.
   */
  ROLLING = 'rolling',
  /** The running task or instance stops first, then the new one starts: the load balancer answers 503 meanwhile. */
  STOP_FIRST = 'stop-first',
}

/** The most tasks or instances an application runs (`desiredCount`): a fixed count, with no scaling policy. */
export const DESIRED_COUNT_MAX = 10;

/** How the application's tasks or instances are replaced, and how many there are (the factory's plan). */
export interface Rollout {
  readonly strategy: DeploymentStrategy;
  readonly desiredCount: number;
}

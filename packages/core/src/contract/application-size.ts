import { UserError } from '../errors';

/**
 * The size a plugin's application needs (`IApplicationSpec.defaultSize()`), where the framework's defaults
 * (`FACTORY_SIZE_DEFAULTS`) are too small. The factory's props and context keys of the same names override it.
 */
export interface ApplicationSize {
  /**
   * Fargate task CPU units (a Fargate task size).
   * @default - the framework's (`FACTORY_SIZE_DEFAULTS.cpu`)
   */
  readonly cpu?: number;
  /**
   * Fargate task memory in MiB, one Fargate allows with `cpu`.
   * @default - the framework's (`FACTORY_SIZE_DEFAULTS.memoryLimitMiB`)
   */
  readonly memoryLimitMiB?: number;
  /**
   * EC2 instance type (x86_64).
   * @default - the framework's (`FACTORY_SIZE_DEFAULTS.instanceType`)
   */
  readonly instanceType?: string;
  /**
   * Seconds a first start may take, from the moment the application's own installation begins (on EC2 after the system
   * update and the framework's agents, on Fargate when the task starts, init containers included) until it answers its
   * health check. The load balancer's health checks are ignored that long, so a slow first start is not replaced
   * before it can finish. From 60 to 3600 (`STARTUP_SECONDS_MIN`, `STARTUP_SECONDS_MAX`).
   * @default - 300 (`STARTUP_SECONDS_DEFAULT`)
   */
  readonly startupSeconds?: number;
}

/** The default `startupSeconds`, and the range allowed. */
export const STARTUP_SECONDS_DEFAULT = 300;
export const STARTUP_SECONDS_MIN = 60;
export const STARTUP_SECONDS_MAX = 3600;

/** The plugin's `startupSeconds`, or the default; refused, naming the plugin, outside the range. */
export function startupSeconds(size: ApplicationSize, plugin: string): number {
  const seconds = size.startupSeconds ?? STARTUP_SECONDS_DEFAULT;
  if (!Number.isInteger(seconds) || seconds < STARTUP_SECONDS_MIN || seconds > STARTUP_SECONDS_MAX) {
    throw new UserError(`${plugin}.defaultSize().startupSeconds ${JSON.stringify(seconds)}; allowed: an integer from ` +
      `${STARTUP_SECONDS_MIN} to ${STARTUP_SECONDS_MAX}.`);
  }
  return seconds;
}

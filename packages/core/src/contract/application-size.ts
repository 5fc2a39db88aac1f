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
}

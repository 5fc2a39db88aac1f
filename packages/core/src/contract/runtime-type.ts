/**
 * Where an application runs. The value is also the `runtimeType` context key.
 */
export enum RuntimeType {
  /** ECS on Fargate: the container from `defaultContainerImage()`. */
  FARGATE = 'FARGATE',
  /** An EC2 instance built by the plugin's `configureUserData`. */
  EC2 = 'EC2',
}

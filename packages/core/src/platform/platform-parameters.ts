/**
 * The private DNS namespace applications are registered in, `<applicationId>.fw.internal`: a platform's, or a
 * standalone application's own when it has workers.
 */
export const PRIVATE_NAMESPACE = 'fw.internal';

/**
 * What a `Platform` publishes for its applications, each as an SSM parameter `<prefix><name>` (`platformParameterPrefix`),
 * and what an application's stack reads back at deploy time. Never a CloudFormation export: an export in use cannot be
 * updated (copilot-cli #2133, #3947), a parameter can.
 */
export const PLATFORM_PARAMETERS = {
  'vpc-id': 'The VPC',
  'availability-zone-1': 'The availability zone of the first compute subnet',
  'compute-subnet-1': 'The compute subnet in the first availability zone',
  'compute-subnet-2': 'The compute subnet in the second availability zone',
  'data-subnet-1': 'The isolated subnet in the first availability zone, where applications\' databases go',
  'data-subnet-2': 'The isolated subnet in the second availability zone, where applications\' databases go',
  'listener-arn': 'The load balancer\'s listener that carries application traffic',
  'load-balancer-security-group-id': 'The load balancer\'s security group',
  'load-balancer-dns-name': 'The load balancer\'s DNS name (alias target of the applications\' records)',
  'load-balancer-hosted-zone-id': 'The load balancer\'s canonical hosted zone (alias target of the applications\' records)',
  'cluster-name': 'The ECS cluster the applications\' tasks run in',
  'file-system-id': 'The shared EFS file system',
  'file-system-security-group-id': 'The security group of the file system\'s mount targets',
  'logs-key-arn': 'The key that encrypts the applications\' log groups',
  'data-key-arn': 'The key that encrypts the applications\' data (EBS data volumes and their backups)',
  'alarm-topic-arn': 'The topic the applications\' alarms notify',
  'namespace-id': 'The private DNS namespace the applications are registered in',
} as const;

export type PlatformParameter = keyof typeof PLATFORM_PARAMETERS;

/** What a platform with TLS publishes of its private load balancer (`PrivateLoadBalancer`), beside `PLATFORM_PARAMETERS`. */
export const PRIVATE_ROUTE_PARAMETERS = {
  'private-listener-arn': 'The private load balancer\'s HTTPS listener, for applications inside the VPC',
  'private-load-balancer-security-group-id': 'The private load balancer\'s security group',
  'private-load-balancer-dns-name': 'The private load balancer\'s DNS name (alias target of the applications\' private zones)',
  'private-load-balancer-hosted-zone-id': 'The private load balancer\'s canonical hosted zone',
} as const;

export type PrivateRouteParameter = keyof typeof PRIVATE_ROUTE_PARAMETERS;

/** `/fw/<platform stack name>/`: every parameter of one platform, and nothing else, under one path. */
export function platformParameterPrefix(platformStackName: string): string {
  return `/fw/${platformStackName}/`;
}

/** The parameter of an application's access point, published by the platform that keeps it. */
export function accessPointParameter(platformStackName: string, applicationStackName: string): string {
  return `${platformParameterPrefix(platformStackName)}applications/${applicationStackName}/access-point-id`;
}

/** The parameter of an application's security group, published by the application's stack (for `allowFrom`). */
export function securityGroupParameter(platformStackName: string, applicationStackName: string): string {
  return `${platformParameterPrefix(platformStackName)}applications/${applicationStackName}/security-group-id`;
}

/**
 * The IAM path under which every application's roles on a platform are: the platform's file-system policy admits only
 * these (`aws:PrincipalArn` like `role/<path>*`). A role's ARN holds its path, which is known before the role exists.
 */
export function platformRolePath(platformStackName: string): string {
  return `/fw/${platformStackName}/`;
}

/** The IAM path of one application's roles on a platform: below `platformRolePath`. */
export function applicationRolePath(platformStackName: string, applicationStackName: string): string {
  return `${platformRolePath(platformStackName)}${applicationStackName}/`;
}

import type { Construct } from 'constructs';
import { UserError } from '../errors';
import { warn } from '../warnings';

/** One quota of the load balancer the platform's applications share. */
export interface LoadBalancerQuota {
  /** As the Service Quotas console names it. */
  readonly name: string;
  /** The default value. */
  readonly value: number;
  /** Whether Service Quotas can raise it: a raised quota is unknown here, so passing one warns instead of refusing. */
  readonly adjustable: boolean;
}

/**
 * The Application Load Balancer quotas an application on a platform uses: one target group and one listener rule
 * each, and a certificate on the listener when the platform's does not cover its host name.
 * @see https://docs.aws.amazon.com/elasticloadbalancing/latest/application/load-balancer-limits.html
 */
export const LOAD_BALANCER_QUOTAS = {
  targetGroups: { name: 'Target Groups per Application Load Balancer', value: 100, adjustable: false },
  rules: { name: 'Rules per Application Load Balancer (excluding default rules)', value: 100, adjustable: true },
  certificates: { name: 'Certificates per Application Load Balancer (excluding default certificates)', value: 25, adjustable: true },
  /**
   * Each application's stack adds an outbound rule to the load balancers' security groups (to its port), and the
   * platform one to the public one's for the identity provider of `alb-oidc` applications (Amazon VPC quotas:
   * https://docs.aws.amazon.com/vpc/latest/userguide/amazon-vpc-limits.html#vpc-limits-security-groups).
   */
  securityGroupRules: { name: 'Inbound or outbound rules per security group', value: 60, adjustable: true },
} as const satisfies Record<string, LoadBalancerQuota>;

/**
 * Refuses `used` over a quota that cannot be raised, and warns once, when it first passes one that can (before
 * deploying, raise it in Service Quotas), naming the quota, the platform and what uses it. Called at each attach.
 */
export function checkQuota(scope: Construct, quota: LoadBalancerQuota, used: string[], platformStackName: string): void {
  if (used.length <= quota.value || (quota.adjustable && used.length > quota.value + 1)) return;
  const what = `Platform ${platformStackName}'s load balancer would need ${used.length} of "${quota.name}" (${used.join(', ')}); ` +
    `the quota is ${quota.value}`;
  if (!quota.adjustable) {
    throw new UserError(`${what}, and it cannot be raised. Attach the other applications to another platform.`);
  }
  warn(scope, 'loadBalancerQuota', `${what} unless raised, and so are all attached after them: raise ` +
    'it in Service Quotas (Elastic Load Balancing) before deploying, or attach the other applications to another platform.');
}

import { aws_elasticloadbalancingv2 as elasticloadbalancingv2, type CfnResource, Stack } from 'aws-cdk-lib';
import { NagRuleCompliance } from 'cdk-nag';

/**
 * An application load balancer drops HTTP headers with invalid fields before they reach the application (Security
 * Hub ELB.4): a common security parameter set (PCI DSS 2.2.6), and one defence against request smuggling (6.2.4).
 */
export function LoadBalancerDropsInvalidHeaders(node: CfnResource): NagRuleCompliance {
  if (!(node instanceof elasticloadbalancingv2.CfnLoadBalancer)) return NagRuleCompliance.NOT_APPLICABLE;
  const stack = Stack.of(node);
  if ((stack.resolve(node.type) ?? 'application') !== 'application') return NagRuleCompliance.NOT_APPLICABLE;
  const attributes = (stack.resolve(node.loadBalancerAttributes) ?? []) as Array<{ key?: string; value?: string }>;
  const drops = attributes.some((a) => a.key === 'routing.http.drop_invalid_header_fields.enabled' && a.value === 'true');
  return drops ? NagRuleCompliance.COMPLIANT : NagRuleCompliance.NON_COMPLIANT;
}

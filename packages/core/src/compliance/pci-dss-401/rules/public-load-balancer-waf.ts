import {
  aws_elasticloadbalancingv2 as elasticloadbalancingv2, aws_wafv2 as wafv2, type CfnResource, Stack,
} from 'aws-cdk-lib';
import { NagRuleCompliance } from 'cdk-nag';
import { referencedInStack } from './referenced-in-stack';

/**
 * An internet-facing application load balancer has a WAF web ACL associated in its stack (PCI DSS 6.4.2: an automated
 * technical solution in front of public-facing web applications that detects and prevents web-based attacks). An
 * internal one (`Scheme: internal`) and a network load balancer are not in scope of this rule.
 */
export function PublicLoadBalancerWaf(node: CfnResource): NagRuleCompliance {
  if (!(node instanceof elasticloadbalancingv2.CfnLoadBalancer)) return NagRuleCompliance.NOT_APPLICABLE;
  const stack = Stack.of(node);
  if (stack.resolve(node.scheme) === 'internal' || (node.type !== undefined && stack.resolve(node.type) !== 'application')) {
    return NagRuleCompliance.NOT_APPLICABLE;
  }
  const associated = referencedInStack(node, node.ref, wafv2.CfnWebACLAssociation, (c) => c.resourceArn);
  return associated ? NagRuleCompliance.COMPLIANT : NagRuleCompliance.NON_COMPLIANT;
}

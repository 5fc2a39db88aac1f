import { Stack, type CfnResource } from 'aws-cdk-lib';
import { CfnLoadBalancer } from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import { CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { NagRuleCompliance } from 'cdk-nag';
import { referencedInStack } from './referenced-in-stack';

/**
 * An internet-facing application load balancer has a WAF web ACL associated in its stack (PCI DSS 6.4.2: an automated
 * technical solution in front of public-facing web applications that detects and prevents web-based attacks). An
 * internal one (`Scheme: internal`) and a network load balancer are not in scope of this rule.
 */
export function PublicLoadBalancerWaf(node: CfnResource): NagRuleCompliance {
  if (!(node instanceof CfnLoadBalancer)) return NagRuleCompliance.NOT_APPLICABLE;
  const stack = Stack.of(node);
  if (stack.resolve(node.scheme) === 'internal' || (node.type !== undefined && stack.resolve(node.type) !== 'application')) {
    return NagRuleCompliance.NOT_APPLICABLE;
  }
  const associated = referencedInStack(node, node.ref, CfnWebACLAssociation, (c) => c.resourceArn);
  return associated ? NagRuleCompliance.COMPLIANT : NagRuleCompliance.NON_COMPLIANT;
}

import { aws_elasticloadbalancingv2 as elasticloadbalancingv2, type CfnResource, Stack } from 'aws-cdk-lib';
import { NagRuleCompliance } from 'cdk-nag';

/**
 * A plain-HTTP listener of a load balancer only redirects to HTTPS (PCI DSS 4.2.1: nothing reaches the application
 * unencrypted over a public network); HTTPS and TLS listeners are `ListenerTls12`'s.
 */
export function ListenerHttpsOnly(node: CfnResource): NagRuleCompliance {
  if (!(node instanceof elasticloadbalancingv2.CfnListener)) return NagRuleCompliance.NOT_APPLICABLE;
  const stack = Stack.of(node);
  if (stack.resolve(node.protocol) !== 'HTTP') return NagRuleCompliance.NOT_APPLICABLE;
  const actions = stack.resolve(node.defaultActions) as Array<Record<string, any>>;
  const redirects = Array.isArray(actions) && actions.length > 0 &&
    actions.every((a) => a.type === 'redirect' && a.redirectConfig?.protocol === 'HTTPS');
  return redirects ? NagRuleCompliance.COMPLIANT : NagRuleCompliance.NON_COMPLIANT;
}

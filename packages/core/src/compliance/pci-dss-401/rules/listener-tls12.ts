import { aws_elasticloadbalancingv2 as elasticloadbalancingv2, type CfnResource, Stack } from 'aws-cdk-lib';
import { NagRuleCompliance } from 'cdk-nag';

/**
 * The security policies that offer TLS 1.2 or later only. Elastic Load Balancing names each policy after its lowest
 * protocol version (TLS13-1-2: TLS 1.3 and 1.2; TLS-1-2 and FS-1-2: TLS 1.2), as aws-cdk-lib's `SslPolicy` documents
 * each member; a listener without a policy gets ELBSecurityPolicy-2016-08, which offers TLS 1.0.
 */
export const TLS12_POLICY = /^ELBSecurityPolicy-(TLS13-1-[23]|TLS-1-2|FS-1-2)-/;

/** An HTTPS or TLS listener offers TLS 1.2 or later only (PCI DSS 4.2.1: strong cryptography in transit). */
export function ListenerTls12(node: CfnResource): NagRuleCompliance {
  if (!(node instanceof elasticloadbalancingv2.CfnListener)) return NagRuleCompliance.NOT_APPLICABLE;
  const protocol = Stack.of(node).resolve(node.protocol);
  if (protocol !== 'HTTPS' && protocol !== 'TLS') return NagRuleCompliance.NOT_APPLICABLE;
  const policy = Stack.of(node).resolve(node.sslPolicy);
  return typeof policy === 'string' && TLS12_POLICY.test(policy) ? NagRuleCompliance.COMPLIANT : NagRuleCompliance.NON_COMPLIANT;
}

import { Stack, type CfnResource } from 'aws-cdk-lib';
import { CfnLoggingConfiguration, CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { NagRuleCompliance } from 'cdk-nag';

/** A WAF web ACL logs its requests (a logging configuration in its stack): PCI DSS 10.2.1, audit logs of access. */
export function WebAclLogging(node: CfnResource): NagRuleCompliance {
  if (!(node instanceof CfnWebACL)) return NagRuleCompliance.NOT_APPLICABLE;
  const stack = Stack.of(node);
  const self = JSON.stringify(stack.resolve(node.attrArn));
  const logged = stack.node.findAll().some((c) => c instanceof CfnLoggingConfiguration && JSON.stringify(stack.resolve(c.resourceArn)) === self);
  return logged ? NagRuleCompliance.COMPLIANT : NagRuleCompliance.NON_COMPLIANT;
}

import { aws_wafv2 as wafv2, type CfnResource } from 'aws-cdk-lib';
import { NagRuleCompliance } from 'cdk-nag';
import { referencedInStack } from './referenced-in-stack';

/** A WAF web ACL logs its requests (a logging configuration in its stack): PCI DSS 10.2.1, audit logs of access. */
export function WebAclLogging(node: CfnResource): NagRuleCompliance {
  if (!(node instanceof wafv2.CfnWebACL)) return NagRuleCompliance.NOT_APPLICABLE;
  const logged = referencedInStack(node, node.attrArn, wafv2.CfnLoggingConfiguration, (c) => c.resourceArn);
  return logged ? NagRuleCompliance.COMPLIANT : NagRuleCompliance.NON_COMPLIANT;
}

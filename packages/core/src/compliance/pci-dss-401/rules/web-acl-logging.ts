import type { CfnResource } from 'aws-cdk-lib';
import { CfnLoggingConfiguration, CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { NagRuleCompliance } from 'cdk-nag';
import { referencedInStack } from './referenced-in-stack';

/** A WAF web ACL logs its requests (a logging configuration in its stack): PCI DSS 10.2.1, audit logs of access. */
export function WebAclLogging(node: CfnResource): NagRuleCompliance {
  if (!(node instanceof CfnWebACL)) return NagRuleCompliance.NOT_APPLICABLE;
  const logged = referencedInStack(node, node.attrArn, CfnLoggingConfiguration, (c) => c.resourceArn);
  return logged ? NagRuleCompliance.COMPLIANT : NagRuleCompliance.NON_COMPLIANT;
}

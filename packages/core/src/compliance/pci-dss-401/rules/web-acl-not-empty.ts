import { aws_wafv2 as wafv2, type CfnResource, Stack } from 'aws-cdk-lib';
import { NagRuleCompliance } from 'cdk-nag';

/** A WAF web ACL has at least one rule (AWS Config's `wafv2-webacl-not-empty`): an empty one inspects nothing. */
export function WebAclNotEmpty(node: CfnResource): NagRuleCompliance {
  if (!(node instanceof wafv2.CfnWebACL)) return NagRuleCompliance.NOT_APPLICABLE;
  const rules = Stack.of(node).resolve(node.rules);
  return Array.isArray(rules) && rules.length > 0 ? NagRuleCompliance.COMPLIANT : NagRuleCompliance.NON_COMPLIANT;
}

import { aws_logs as logs, type CfnResource, Stack } from 'aws-cdk-lib';
import { NagRuleCompliance } from 'cdk-nag';

/**
 * A log group has a data protection policy that masks card numbers (CloudWatch Logs' managed data identifier
 * `CreditCardNumber`, de-identified): a PAN written to a log by mistake is not shown in it (PCI DSS 3.4.1, 3.5.1).
 */
export function LogGroupCardDataMasked(node: CfnResource): NagRuleCompliance {
  if (!(node instanceof logs.CfnLogGroup)) return NagRuleCompliance.NOT_APPLICABLE;
  const policy = JSON.stringify(Stack.of(node).resolve(node.dataProtectionPolicy) ?? {});
  return policy.includes('data-identifier/CreditCardNumber') && policy.includes('"Deidentify"')
    ? NagRuleCompliance.COMPLIANT : NagRuleCompliance.NON_COMPLIANT;
}

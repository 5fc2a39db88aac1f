import { aws_kms as kms, type CfnResource, Stack } from 'aws-cdk-lib';
import { NagRuleCompliance } from 'cdk-nag';

/**
 * A customer-managed symmetric KMS key rotates its key material every year (Security Hub KMS.4): the key protecting
 * stored data changes at the end of a cryptoperiod (PCI DSS 3.7.4), though the cryptoperiod itself is the entity's.
 */
export function CustomerKeyRotated(node: CfnResource): NagRuleCompliance {
  if (!(node instanceof kms.CfnKey)) return NagRuleCompliance.NOT_APPLICABLE;
  const stack = Stack.of(node);
  if ((stack.resolve(node.keySpec) ?? 'SYMMETRIC_DEFAULT') !== 'SYMMETRIC_DEFAULT') return NagRuleCompliance.NOT_APPLICABLE;
  return stack.resolve(node.enableKeyRotation) === true ? NagRuleCompliance.COMPLIANT : NagRuleCompliance.NON_COMPLIANT;
}

import { aws_securityhub as securityhub, Stack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { UserError } from '../errors';
import { warn } from '../warnings';

/**
 * Security Hub's PCI DSS v4.0.1 standard, by the ARN's resource part (Security Hub's standards reference names it
 * `arn:<partition>:securityhub:<region>::standards/pci-dss/v/4.0.1`).
 */
export const SECURITY_HUB_PCI_DSS_STANDARD = 'standards/pci-dss/v/4.0.1';

/**
 * Enables Security Hub's PCI DSS v4.0.1 standard in the stack's account and region (`securityHubPciDss`), so its
 * controls evaluate the deployed resources. It needs Security Hub enabled there, and AWS Config recording, both
 * account-wide choices the stack does not own; the synth warns of them. One stack per account and region enables it.
 */
export function addSecurityHubPciDss(scope: Construct, id: string): securityhub.CfnStandard {
  const stack = Stack.of(scope);
  const environment = (s: Stack) => `${s.account}/${s.region}`;
  const other = stack.node.root.node.findAll().find((c): c is securityhub.CfnStandard => c instanceof securityhub.CfnStandard &&
    JSON.stringify(Stack.of(c).resolve(c.standardsArn)).includes(SECURITY_HUB_PCI_DSS_STANDARD) && environment(Stack.of(c)) === environment(stack));
  if (other) {
    throw new UserError(`securityHubPciDss on ${stack.stackName}: ${Stack.of(other).stackName} enables it in the same account ` +
      'and region already; an account and region has it once. Set it on one stack only (on a platform, the platform\'s).');
  }
  warn(scope, 'securityHubPciDssNeedsHub', 'securityHubPciDss enables Security Hub\'s PCI DSS ' +
    'v4.0.1 standard, which needs Security Hub enabled in this account and region (`aws securityhub describe-hub`) and ' +
    'AWS Config recording the resource types its controls check; without Security Hub the deployment fails.');
  return new securityhub.CfnStandard(scope, id, {
    standardsArn: `arn:${stack.partition}:securityhub:${stack.region}::${SECURITY_HUB_PCI_DSS_STANDARD}`,
  });
}

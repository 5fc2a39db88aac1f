import { aws_ec2 as ec2, type CfnResource, Stack } from 'aws-cdk-lib';
import { NagRuleCompliance } from 'cdk-nag';

/**
 * No network interface of a launch template asks for a public address (AWS Config's
 * ec2-launch-template-public-ip-disabled): an instance it launches is not reachable from the internet directly.
 */
export function LaunchTemplatePublicIpDisabled(node: CfnResource): NagRuleCompliance {
  if (!(node instanceof ec2.CfnLaunchTemplate)) return NagRuleCompliance.NOT_APPLICABLE;
  const data = Stack.of(node).resolve(node.launchTemplateData) ?? {};
  const interfaces: any[] = data.networkInterfaces ?? data.NetworkInterfaces ?? [];
  return interfaces.some((i) => (i.associatePublicIpAddress ?? i.AssociatePublicIpAddress) === true)
    ? NagRuleCompliance.NON_COMPLIANT : NagRuleCompliance.COMPLIANT;
}

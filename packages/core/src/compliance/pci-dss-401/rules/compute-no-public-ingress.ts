import { aws_ec2 as ec2, aws_ecs as ecs, aws_lambda as lambda, type CfnResource, Stack } from 'aws-cdk-lib';
import { NagRuleCompliance } from 'cdk-nag';

const ANYWHERE = new Set(['0.0.0.0/0', '::/0']);

/**
 * No security group that compute runs in (a task, an instance, a launch template, a function in a VPC) admits
 * traffic from anywhere (PCI DSS 1.3.1, 1.4.1: inbound traffic to the cardholder-data environment is restricted to
 * what is necessary; only the load balancer faces the internet). A group of this stack is known by its logical id.
 */
export function ComputeNoPublicIngress(node: CfnResource): NagRuleCompliance {
  const stack = Stack.of(node);
  if (node instanceof ec2.CfnSecurityGroup) {
    if (!computeGroups(stack).has(stack.resolve(node.logicalId))) return NagRuleCompliance.NOT_APPLICABLE;
    const rules: any[] = stack.resolve(node.securityGroupIngress) ?? [];
    return rules.some((r) => ANYWHERE.has(r.cidrIp ?? r.cidrIpv6)) ? NagRuleCompliance.NON_COMPLIANT : NagRuleCompliance.COMPLIANT;
  }
  if (node instanceof ec2.CfnSecurityGroupIngress) {
    const group = logicalIdOf(stack.resolve(node.groupId));
    if (!group || !computeGroups(stack).has(group)) return NagRuleCompliance.NOT_APPLICABLE;
    return ANYWHERE.has(stack.resolve(node.cidrIp) ?? stack.resolve(node.cidrIpv6)) ? NagRuleCompliance.NON_COMPLIANT : NagRuleCompliance.COMPLIANT;
  }
  return NagRuleCompliance.NOT_APPLICABLE;
}

/** The logical ids of this stack's groups that compute is placed in. */
function computeGroups(stack: Stack): Set<string> {
  const references: unknown[] = [];
  for (const c of stack.node.findAll()) {
    if (c instanceof ecs.CfnService) references.push(stack.resolve(c.networkConfiguration)?.awsvpcConfiguration?.securityGroups);
    if (c instanceof ec2.CfnInstance) references.push(stack.resolve(c.securityGroupIds), stack.resolve(c.securityGroups));
    if (c instanceof lambda.CfnFunction) references.push(stack.resolve(c.vpcConfig)?.securityGroupIds);
    if (c instanceof ec2.CfnLaunchTemplate) {
      const data = stack.resolve(c.launchTemplateData) ?? {};
      references.push(data.securityGroupIds, ...(data.networkInterfaces ?? []).map((i: any) => i.groups));
    }
  }
  return new Set(references.flatMap((list) => (Array.isArray(list) ? list : [])).map(logicalIdOf).filter((id): id is string => !!id));
}

function logicalIdOf(reference: any): string | undefined {
  return reference?.['Fn::GetAtt']?.[0] ?? reference?.Ref;
}

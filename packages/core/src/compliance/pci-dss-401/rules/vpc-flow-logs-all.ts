import { aws_ec2 as ec2, type CfnResource } from 'aws-cdk-lib';
import { NagRuleCompliance } from 'cdk-nag';
import { referencedInStack } from './referenced-in-stack';

/** A VPC has a flow log in its stack that records all its traffic, accepted and rejected: PCI DSS 10.2.1. */
export function VpcFlowLogsAll(node: CfnResource): NagRuleCompliance {
  if (!(node instanceof ec2.CfnVPC)) return NagRuleCompliance.NOT_APPLICABLE;
  const logged = referencedInStack(node, node.ref, ec2.CfnFlowLog, (f) => (f.trafficType === 'ALL' ? f.resourceId : undefined));
  return logged ? NagRuleCompliance.COMPLIANT : NagRuleCompliance.NON_COMPLIANT;
}

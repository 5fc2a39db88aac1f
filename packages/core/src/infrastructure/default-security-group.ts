import { type aws_ec2 as ec2, aws_iam as iam, type aws_logs as logs, custom_resources as cr, Stack } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { acknowledgeCustomResourceFunction } from './custom-resource-function';
import { acknowledge } from '../compliance/acknowledge';

export interface ClosedDefaultSecurityGroupProps {
  /** The VPC whose default security group loses its rules. */
  readonly vpc: ec2.Vpc;
  /** Where the function that closes it logs. */
  readonly logGroup: logs.ILogGroup;
}

/**
 * Removes the VPC's default security group's rules (all traffic from itself, all traffic out), so that anything
 * placed in it by mistake can neither receive nor send. CloudFormation cannot change that group, so a function does it
 * once per deployment; it makes the same two calls as aws-cdk-lib's `restrictDefaultSecurityGroup`
 * (custom-resource-handlers/aws-ec2/restrict-default-security-group-handler), but as constructs whose function and
 * role the compliance packs check: CDK's own provider is a raw CfnResource the packs skip.
 */
export class ClosedDefaultSecurityGroup extends Construct {
  constructor(scope: Construct, id: string, props: ClosedDefaultSecurityGroupProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const groupId = props.vpc.vpcDefaultSecurityGroup;
    const groupArn = stack.formatArn({ service: 'ec2', resource: 'security-group', resourceName: groupId });
    const revoke = (name: string, action: 'revokeSecurityGroupIngress' | 'revokeSecurityGroupEgress', permission: object) => {
      const call: cr.AwsSdkCall = {
        service: 'EC2',
        action,
        parameters: { GroupId: groupId, IpPermissions: [{ IpProtocol: '-1', ...permission }] },
        physicalResourceId: cr.PhysicalResourceId.of(`${groupId}-${name}`),
        // Already gone (a repeated deployment): nothing to do.
        ignoreErrorCodesMatching: 'InvalidPermission.NotFound',
      };
      return new cr.AwsCustomResource(this, name, {
        onCreate: call,
        onUpdate: call,
        policy: cr.AwsCustomResourcePolicy.fromStatements([new iam.PolicyStatement({
          actions: [`ec2:${action[0].toUpperCase()}${action.slice(1)}`],
          resources: [groupArn],
        })]),
        logGroup: props.logGroup,
        installLatestAwsSdk: false,
      });
    };
    const ingress = revoke('Ingress', 'revokeSecurityGroupIngress', { UserIdGroupPairs: [{ GroupId: groupId, UserId: stack.account }] });
    const egress = revoke('Egress', 'revokeSecurityGroupEgress', { IpRanges: [{ CidrIp: '0.0.0.0/0' }] });
    for (const resource of [ingress, egress]) {
      acknowledge(resource.node.findChild('CustomResourcePolicy'), 'IAMNoInlinePolicy', 'One statement for the one call ' +
        'this function makes on the VPC\'s default security group; a customer-managed policy would hold the same.');
    }
    acknowledge(props.vpc, 'VPCDefaultSecurityGroupClosed', 'Closed by ClosedDefaultSecurityGroup (platform/' +
      'default-security-group.ts), which revokes the same two rules as CDK\'s restrictDefaultSecurityGroup, which this rule looks for.');
    acknowledgeCustomResourceFunction(this, ingress);
  }
}

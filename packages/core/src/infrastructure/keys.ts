import { aws_iam as iam, aws_kms as kms, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

/**
 * A customer-managed key for one purpose (logs, data, notifications), so a grant or a key policy statement for one
 * purpose opens nothing of another. Rotated yearly; deleted only after 30 days' notice. Its policy keeps KMS's default
 * statement for the account, so IAM decides who administers it (docs/security-profiles.md).
 */
export function purposeKey(scope: Construct, id: string, purpose: string, removalPolicy: RemovalPolicy): kms.Key {
  return new kms.Key(scope, id, {
    description: `Encrypts the ${purpose} of ${Stack.of(scope).stackName}`,
    enableKeyRotation: true,
    removalPolicy,
    pendingWindow: Duration.days(30),
  });
}

/** EC2 Auto Scaling's service-linked role, which creates the instances' volumes. */
const AUTO_SCALING_ROLE = 'role/aws-service-role/autoscaling.amazonaws.com/AWSServiceRoleForAutoScaling';

/**
 * Lets EC2 Auto Scaling launch instances whose volumes `key` encrypts: its service-linked role has no access to
 * customer-managed keys unless their policy grants it (EC2 Auto Scaling User Guide, "Required AWS KMS key policy for
 * use with encrypted volumes": the two statements below). The role is named by condition, not as the principal: KMS
 * refuses a policy naming a role that does not exist yet, and a new account's first Auto Scaling group creates it.
 */
export function allowAutoScalingVolumes(key: kms.Key): void {
  const stack = Stack.of(key);
  const role = { ArnEquals: { 'aws:PrincipalArn': `arn:${stack.partition}:iam::${stack.account}:${AUTO_SCALING_ROLE}` } };
  key.addToResourcePolicy(new iam.PolicyStatement({
    sid: 'AutoScalingVolumes',
    principals: [new iam.AnyPrincipal()],
    actions: ['kms:Encrypt', 'kms:Decrypt', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:DescribeKey'],
    resources: ['*'],
    conditions: role,
  }));
  key.addToResourcePolicy(new iam.PolicyStatement({
    sid: 'AutoScalingVolumeGrants',
    principals: [new iam.AnyPrincipal()],
    actions: ['kms:CreateGrant'],
    resources: ['*'],
    conditions: { ...role, Bool: { 'kms:GrantIsForAWSResource': true } },
  }));
}

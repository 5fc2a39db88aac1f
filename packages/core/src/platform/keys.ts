import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
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

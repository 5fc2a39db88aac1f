import { aws_iam as iam, Stack } from 'aws-cdk-lib';
import type { ApplicationSecret } from './runtime-props';

/**
 * Lets `role` decrypt, through Secrets Manager only, the secrets encrypted under a key of the account's (a plugin's
 * database secret, under the data key) and under the keys the deployment names (`secretKeyArns`). `grantRead` of a
 * secret imported with its key writes no statement when the key is imported too (a platform's, read from its
 * parameters), so the statement is written here, once per key.
 */
export function grantSecretKeys(role: iam.IRole, secrets: ApplicationSecret[], keyArns: string[] = []): void {
  const keys = [...new Set([...secrets.flatMap(({ secret }) => secret.encryptionKey ? [secret.encryptionKey.keyArn] : []),
    ...secrets.length > 0 ? keyArns : []])];
  if (keys.length === 0) return;
  role.addToPrincipalPolicy(new iam.PolicyStatement({
    actions: ['kms:Decrypt'],
    resources: keys,
    conditions: { StringEquals: { 'kms:ViaService': `secretsmanager.${Stack.of(role).region}.amazonaws.com` } },
  }));
}

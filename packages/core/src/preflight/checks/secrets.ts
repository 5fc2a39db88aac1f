import type { AwsCalls } from '../clients';
import type { DeploymentFacts } from '../facts';
import { errorName, fail, type Finding, ok, warn } from '../finding';

/**
 * Each secret the deployment names: that it exists and is not scheduled for deletion (DescribeSecret), and, where a
 * customer managed KMS key encrypts it, that the key is enabled and its key policy lets the account's IAM policies
 * grant its use (GetKeyPolicy): the framework grants its roles `kms:Decrypt` through IAM, which a key policy without
 * the account as principal leaves without effect (AWS KMS developer guide, "Default key policy").
 */
export async function secretChecks(facts: DeploymentFacts, aws: AwsCalls, account: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const arn of facts.secretArns) {
    const key = keyOf(facts.context, arn) ?? 'a secret the templates name';
    let secret: any;
    try {
      secret = await aws.call('@aws-sdk/client-secrets-manager', 'DescribeSecret', { SecretId: arn });
    } catch (e) {
      findings.push(errorName(e) === 'ResourceNotFoundException'
        ? fail('secrets', key, `${arn} does not exist`, 'create it, or give the ARN of the one that does (Secrets Manager adds 6 characters to the name)')
        : warn('secrets', key, `${arn}: ${errorName(e)}`, 'the deployer cannot read it: check with its owner that it exists and that the framework\'s roles may read it'));
      continue;
    }
    if (secret.DeletedDate) {
      findings.push(fail('secrets', key, `${arn} is scheduled for deletion (${String(secret.DeletedDate)})`, `restore it: aws secretsmanager restore-secret --secret-id ${arn}`));
      continue;
    }
    findings.push(secret.KmsKeyId ? await keyCheck(arn, key, secret.KmsKeyId, aws, account) : ok('secrets', key, `${arn} exists, encrypted with aws/secretsmanager`));
  }
  return findings;
}

async function keyCheck(arn: string, key: string, kmsKeyId: string, aws: AwsCalls, account: string): Promise<Finding> {
  const KMS = '@aws-sdk/client-kms';
  try {
    const metadata = (await aws.call(KMS, 'DescribeKey', { KeyId: kmsKeyId })).KeyMetadata ?? {};
    if (metadata.KeyState !== 'Enabled') {
      return fail('secrets', key, `${arn} is encrypted with ${kmsKeyId}, which is ${metadata.KeyState}`, 'enable the key, or re-encrypt the secret with one that is');
    }
    if (metadata.KeyManager === 'AWS') return ok('secrets', key, `${arn} exists, encrypted with an AWS managed key`);
    const policy = JSON.parse((await aws.call(KMS, 'GetKeyPolicy', { KeyId: kmsKeyId, PolicyName: 'default' })).Policy ?? '{}');
    return delegatesToAccount(policy, account)
      ? ok('secrets', key, `${arn} exists; its key ${kmsKeyId} lets IAM policies in ${account} grant decryption`)
      : fail('secrets', key, `${arn}'s key ${kmsKeyId} has a key policy that does not let ${account}'s IAM policies grant kms:Decrypt: the framework's roles cannot read it`,
        `add to the key policy a statement allowing kms:Decrypt (or kms:*) to arn:aws:iam::${account}:root, or re-encrypt the secret with a key that has one`);
  } catch (e) {
    return warn('secrets', key, `${arn}'s key ${kmsKeyId}: ${errorName(e)}`, 'the deployer cannot read the key: check with its owner that the framework\'s roles may decrypt with it');
  }
}

/** Whether a key policy allows the account's principals (its IAM policies) kms:Decrypt. */
function delegatesToAccount(policy: any, account: string): boolean {
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
  return list(policy.Statement).some((s: any) => s.Effect === 'Allow' && !s.Condition
    && list(s.Principal?.AWS ?? s.Principal).some((p) => p === account || p === `arn:aws:iam::${account}:root`)
    && list(s.Action).some((a) => a === 'kms:*' || a === 'kms:Decrypt' || a === '*'));
}

/** The context key (a path such as `secrets.DB_PASSWORD`) whose value is the ARN, if any. */
export function keyOf(value: unknown, arn: string, path = ''): string | undefined {
  if (value === arn) return path;
  if (typeof value === 'string' && value.startsWith('{')) {
    try {
      return keyOf(JSON.parse(value), arn, path);
    } catch {
      return undefined;
    }
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const found = keyOf(v, arn, path ? `${path}.${k}` : k);
      if (found) return found;
    }
  }
  return undefined;
}

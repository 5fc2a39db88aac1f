import { Token } from 'aws-cdk-lib';

/** Where a configuration value comes from: the context (`cdk.json`, `-c`: data only) or the props given in code. */
export type ValueSource = 'context' | 'code';

/**
 * The one boundary every user value crosses before it is read: a value stays data. Two forms would not:
 * - `{{` starts a CloudFormation dynamic reference (`{{resolve:secretsmanager|ssm|ssm-secure:...}}`), which CloudFormation
 *   resolves at deploy with the deploying role's rights, not the application's, and puts in clear wherever the value
 *   goes (a task definition, a security group, a web ACL, an alarm address; in the EC2 boot after quoting);
 * - `${Token[` is a CDK token marker, which synth reads as a reference to another value of the app.
 * Both are refused in every string and every object key, at any depth, naming the key path and never the value. Code
 * may give a deploy-time value (a token) only where the key takes one (`deployTime`: a secret's ARN); the framework's
 * own references are made after this check.
 */
export function referenceProblems(path: string, value: unknown, source: ValueSource, deployTime = false): string[] {
  if (typeof value === 'string') return stringProblems(path, value, source === 'code' && deployTime);
  if (Array.isArray(value)) return value.flatMap((item, i) => referenceProblems(`${path}[${i}]`, item, source, deployTime));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([name, item]) => [
      ...stringProblems(`${path} (a name in it)`, name, false),
      ...referenceProblems(`${path}.${name}`, item, source, deployTime),
    ]);
  }
  return [];
}

function stringProblems(path: string, text: string, tokenAllowed: boolean): string[] {
  const problems: string[] = [];
  if (text.includes('{{')) {
    problems.push(`${path} holds "{{", the start of a CloudFormation dynamic reference, which CloudFormation would resolve ` +
      'at deploy with the deploying role\'s rights and put in clear where the value goes (the value is not shown); allowed: ' +
      'the value itself, or a secret by its ARN in secrets.');
  }
  if (!tokenAllowed && (text.includes('${Token[') || Token.isUnresolved(text))) {
    problems.push(`${path} holds "\${Token[", a CDK token marker, which synth would read as a reference to another value ` +
      'of the app (the value is not shown); allowed: the value itself.');
  }
  return problems;
}

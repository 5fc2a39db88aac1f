import type { aws_ecs as ecs } from 'aws-cdk-lib';
import { acknowledge } from '../compliance/acknowledge';
import { SECRET_NAME_ENDINGS, secretNames } from '../contract/secret-names';
import { warn } from '../warnings';

/**
 * Acknowledges AwsSolutions-ECS2 (a container's environment set directly) on `taskDefinition` only when no variable's
 * name says it holds a secret. Otherwise the finding stands, so PRODUCTION's compliance check fails, and a warning in
 * every profile names the variables and `source`, the plugin member they came from.
 */
export function acknowledgeEnvironment(taskDefinition: ecs.TaskDefinition, environment: Record<string, string> | undefined, source: string): void {
  const secrets = secretNames(environment);
  if (secrets.length > 0) {
    warn(taskDefinition, 'secretInEnvironment', `${source} sets ${secrets.join(', ')}, whose ` +
      `name says it holds a secret (names ending in ${SECRET_NAME_ENDINGS.join(', ')}); a container's environment is ` +
      'written into the template in clear. Pass a reference instead (a Secrets Manager ARN, a file path; for example ' +
      `${secrets[0]}_ARN) and read the secret at run time. PRODUCTION refuses it (AwsSolutions-ECS2, PCI.DSS.401-TaskSecretsNotInEnvironment).`);
    return;
  }
  if (Object.keys(environment ?? {}).length > 0) {
    acknowledge(taskDefinition, 'AwsSolutions-ECS2', `The environment holds only non-secret configuration from ${source} ` +
      '(no name ends in a word that marks a secret); every secret is a reference, or a container secret read from ' +
      'Secrets Manager at start.');
  }
}

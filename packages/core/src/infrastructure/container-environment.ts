import type { aws_ecs as ecs } from 'aws-cdk-lib';
import { acknowledge } from '../compliance/acknowledge';
import { secretNames } from '../contract/secret-names';

/**
 * Acknowledges AwsSolutions-ECS2 (a container's environment set directly) on `taskDefinition` only when no variable's
 * name says it holds a secret: otherwise the finding stands, beside the factory's own refusal or warning (its plan's
 * `checkSecretsInEnvironment`, which names the variables), so the packs never pass what the factory let through.
 */
export function acknowledgeEnvironment(taskDefinition: ecs.TaskDefinition, environment: Record<string, string> | undefined, source: string): void {
  if (secretNames(environment).length > 0 || Object.keys(environment ?? {}).length === 0) return;
  acknowledge(taskDefinition, 'AwsSolutions-ECS2', `The environment holds only non-secret configuration from ${source} ` +
    '(no name ends in a word that marks a secret); every secret is a reference, or a container secret read from ' +
    'Secrets Manager at start.');
}

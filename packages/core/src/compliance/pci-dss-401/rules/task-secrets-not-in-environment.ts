import { aws_ecs as ecs, type CfnResource, Stack } from 'aws-cdk-lib';
import { NagRuleCompliance } from 'cdk-nag';
import { secretNames } from '../../../contract/secret-names';

/**
 * No container of a task definition carries a secret in its plain environment, by `SECRET_NAME_ENDINGS`: secrets
 * arrive as `Secrets`, references resolved by ECS at start (Security Hub ECS.8; PCI DSS 8.6.2, passwords not in
 * configuration files).
 */
export function TaskSecretsNotInEnvironment(node: CfnResource): NagRuleCompliance {
  if (!(node instanceof ecs.CfnTaskDefinition)) return NagRuleCompliance.NOT_APPLICABLE;
  const containers = (Stack.of(node).resolve(node.containerDefinitions) ?? []) as Array<{ environment?: Array<{ name?: string }> }>;
  const names = containers.flatMap((c) => c.environment ?? []).map((e) => [e.name ?? '', '']);
  return secretNames(Object.fromEntries(names)).length ? NagRuleCompliance.NON_COMPLIANT : NagRuleCompliance.COMPLIANT;
}

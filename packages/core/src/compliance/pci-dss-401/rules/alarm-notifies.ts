import { aws_cloudwatch as cloudwatch, type CfnResource, Stack } from 'aws-cdk-lib';
import { NagRuleCompliance } from 'cdk-nag';

/**
 * An alarm tells someone when it fires (PCI DSS 12.10.5: the alerts of security monitoring systems are part of the
 * incident response plan): its actions are enabled and it names at least one action for the ALARM state, as AWS
 * Config's cloudwatch-alarm-action-check asks with its default `alarmActionRequired`. Who receives it is the topic's.
 */
export function AlarmNotifies(node: CfnResource): NagRuleCompliance {
  if (!(node instanceof cloudwatch.CfnAlarm)) return NagRuleCompliance.NOT_APPLICABLE;
  const stack = Stack.of(node);
  const enabled = stack.resolve(node.actionsEnabled) !== false;
  const actions = stack.resolve(node.alarmActions) ?? [];
  return enabled && Array.isArray(actions) && actions.length > 0 ? NagRuleCompliance.COMPLIANT : NagRuleCompliance.NON_COMPLIANT;
}

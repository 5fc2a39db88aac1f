import { aws_autoscaling as autoscaling, aws_ecs as ecs, type CfnResource, Stack } from 'aws-cdk-lib';
import { NagRuleCompliance } from 'cdk-nag';

/**
 * A change to the running application is backed out by itself when the new version fails (PCI DSS 6.5.1's procedures
 * to return to a secure state): an ECS service rolls back on its circuit breaker and on named CloudWatch alarms; an
 * Auto Scaling group's creation and rolling update wait for each instance's signal, so a boot that fails, or sends
 * none, fails the creation or rolls the update back.
 */
export function DeploymentBacksOut(node: CfnResource): NagRuleCompliance {
  if (node instanceof ecs.CfnService) {
    const deployment = Stack.of(node).resolve(node.deploymentConfiguration) ?? {};
    const breaker = deployment.deploymentCircuitBreaker ?? deployment.DeploymentCircuitBreaker ?? {};
    const alarms = deployment.alarms ?? deployment.Alarms ?? {};
    const backsOut = (breaker.enable ?? breaker.Enable) === true && (breaker.rollback ?? breaker.Rollback) === true
      && (alarms.enable ?? alarms.Enable) === true && (alarms.rollback ?? alarms.Rollback) === true
      && (alarms.alarmNames ?? alarms.AlarmNames ?? []).length > 0;
    return backsOut ? NagRuleCompliance.COMPLIANT : NagRuleCompliance.NON_COMPLIANT;
  }
  if (node instanceof autoscaling.CfnAutoScalingGroup) {
    const { creationPolicy, updatePolicy } = node.cfnOptions;
    const signalled = (creationPolicy?.resourceSignal?.count ?? 0) >= 1
      && updatePolicy?.autoScalingRollingUpdate?.waitOnResourceSignals === true;
    return signalled ? NagRuleCompliance.COMPLIANT : NagRuleCompliance.NON_COMPLIANT;
  }
  return NagRuleCompliance.NOT_APPLICABLE;
}

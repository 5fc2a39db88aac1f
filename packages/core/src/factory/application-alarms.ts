import { aws_ecs as ecs } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { FactoryPlan } from './factory-plan';
import type { SharedParts } from './shared-parts';
import { LogAlarms } from '../infrastructure/alarms';
import { HealthAlarms } from '../infrastructure/health-alarms';
import type { Ec2Runtime } from '../runtimes/ec2';
import type { FargateRuntime } from '../runtimes/fargate';

/**
 * The application's alarms: the plugin's log alarms and the framework's health alarms, to the platform's topic or to
 * one of the application's own, which lets CloudWatch publish for exactly these alarms. Where the profile says so
 * (`deploymentAlarmRollback`), the health alarms also roll a Fargate deployment back: ECS watches them while it
 * deploys and returns to the previous task definition when one goes off.
 */
export function addApplicationAlarms(factory: Construct, plan: FactoryPlan, shared: SharedParts, runtime: FargateRuntime | Ec2Runtime): void {
  const { context, settings } = plan;
  const alarms = new LogAlarms(factory, 'Alarms', {
    log: shared.log, alarms: plan.alarms, email: context.alarmEmail, removalPolicy: settings.removalPolicy, topic: shared.alarmTopic,
  });
  const health = new HealthAlarms(alarms, 'Health', {
    topic: alarms.topic,
    targetGroup: runtime.targetGroup,
    loadBalancerFullName: shared.loadBalancer.loadBalancerFullName,
    startupSeconds: plan.startup,
    logGroupName: plan.logGroupName,
    ...'service' in runtime ? { service: runtime.service } : { autoScalingGroup: runtime.autoScalingGroup },
  });
  alarms.ownTopic?.allowAlarms([...alarms.alarmNames, ...health.alarmNames]);
  if ('service' in runtime && settings.deploymentAlarmRollback) {
    runtime.service.enableDeploymentAlarms(health.alarmNames, { behavior: ecs.AlarmBehavior.ROLLBACK_ON_ALARM });
  }
}

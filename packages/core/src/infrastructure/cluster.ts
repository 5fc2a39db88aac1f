import { aws_ecs as ecs, type aws_ec2 as ec2 } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

/**
 * The ECS cluster `Cluster` of `scope`, in `vpc`, with CloudWatch Container Insights as the `containerInsights` key
 * says: an application's own, its workers', the platform's.
 */
export function ecsCluster(scope: Construct, vpc: ec2.IVpc, containerInsights: boolean): ecs.Cluster {
  return new ecs.Cluster(scope, 'Cluster', {
    vpc, containerInsightsV2: containerInsights ? ecs.ContainerInsights.ENABLED : ecs.ContainerInsights.DISABLED,
  });
}

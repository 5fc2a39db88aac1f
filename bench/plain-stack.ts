/**
 * The plain baseline of the whole-process synth benchmark: the stack a CDK user writes first for a container with a
 * file system behind a load balancer (aws-ecs-patterns' load-balanced Fargate service, an EFS volume), none of the
 * framework's hardening. The same-shape baseline (`hand-written-stack.ts`) is the fair one; this says what the
 * framework's extra resources and checks cost over the simplest thing that runs.
 */
import { Stack, StackProps } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as ecsPatterns from 'aws-cdk-lib/aws-ecs-patterns';
import * as efs from 'aws-cdk-lib/aws-efs';
import { Construct } from 'constructs';

export class PlainStack extends Stack {
  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const vpc = new ec2.Vpc(this, 'Vpc', { maxAzs: 2, natGateways: 0, subnetConfiguration: [{ name: 'Public', subnetType: ec2.SubnetType.PUBLIC }] });
    const fileSystem = new efs.FileSystem(this, 'Fs', { vpc, vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC }, encrypted: true });
    const service = new ecsPatterns.ApplicationLoadBalancedFargateService(this, 'Service', {
      vpc, cpu: 1024, memoryLimitMiB: 2048, desiredCount: 1, assignPublicIp: true, taskSubnets: { subnetType: ec2.SubnetType.PUBLIC },
      taskImageOptions: { image: ecs.ContainerImage.fromRegistry('example/app:1.0.0'), containerPort: 8080, environment: { APP_URL: 'http://localhost:8080' } },
    });
    service.taskDefinition.addVolume({ name: 'data', efsVolumeConfiguration: { fileSystemId: fileSystem.fileSystemId, transitEncryption: 'ENABLED' } });
    service.taskDefinition.defaultContainer!.addMountPoints({ sourceVolume: 'data', containerPath: '/data', readOnly: false });
    fileSystem.connections.allowDefaultPortFrom(service.service);
  }
}

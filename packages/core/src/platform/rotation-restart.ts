import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { HTTPS_PORT } from './egress';
import type { NetworkAccess } from './network';
import { acknowledge } from '../profiles/acknowledge';

/** What restarts: an ECS service (new tasks read the secret again), or an Auto Scaling group (new instances do). */
export type RestartTarget =
  | { readonly kind: 'ecs'; readonly clusterName: string; readonly serviceName: string; readonly serviceArn: string }
  | { readonly kind: 'asg'; readonly groupName: string };

export interface RotationRestartProps {
  /** The secret whose rotation restarts the application (the database's master password, which RDS rotates). */
  readonly secretArn: string;
  /** What restarts: the ECS service (a new deployment) or the Auto Scaling group (an instance refresh). */
  readonly target: RestartTarget;
  /** The VPC and the compute subnets the function runs in. */
  readonly network: NetworkAccess;
  /** Where the function logs: the application's own log group (its key's policy admits it). */
  readonly logGroup: logs.ILogGroup;
}

/** The function's code: one call, to the service or the group, and a line in the application's log. */
const HANDLER = `import os, boto3
def handler(event, context):
    secret = event.get("detail", {}).get("additionalEventData", {}).get("SecretId")
    if os.environ["KIND"] == "ecs":
        boto3.client("ecs").update_service(cluster=os.environ["CLUSTER"], service=os.environ["SERVICE"], forceNewDeployment=True)
        print("new tasks started: the secret " + str(secret) + " was rotated")
    else:
        boto3.client("autoscaling").start_instance_refresh(AutoScalingGroupName=os.environ["GROUP"], Preferences={"MinHealthyPercentage": 0})
        print("instance refresh started: the secret " + str(secret) + " was rotated")
`;

/**
 * Restarts the application when RDS rotates its database's master password (every 7 days): a running task or instance
 * read the password when it started, and would open no new connection after the rotation. Secrets Manager records a
 * rotation as the CloudTrail event `RotationSucceeded` (source `aws.secretsmanager`, detail type "AWS Service Event
 * via CloudTrail", the secret in `additionalEventData.SecretId`: Secrets Manager user guide, "Match events with
 * EventBridge" and "CloudTrail entries"); a rule on it calls a function that forces a new deployment of the service,
 * or an instance refresh of the group. Connections opened before the rotation keep working until then.
 */
export class RotationRestart extends Construct {
  public readonly function: lambda.Function;

  constructor(scope: Construct, id: string, props: RotationRestartProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const inVpc = !props.network.computeNeedsPublicIp;
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'Restarts the application when its database password is rotated',
    });
    const securityGroup = inVpc ? new ec2.SecurityGroup(this, 'SecurityGroup', {
      vpc: props.network.vpc,
      description: 'Restart on rotation: HTTPS to the ECS or Auto Scaling API only',
      allowAllOutbound: false,
    }) : undefined;
    securityGroup?.addEgressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(HTTPS_PORT), 'HTTPS to the AWS APIs');
    this.function = new lambda.Function(this, 'Function', {
      runtime: lambda.Runtime.PYTHON_3_14,
      handler: 'index.handler',
      code: lambda.Code.fromInline(HANDLER),
      role,
      timeout: Duration.seconds(30),
      reservedConcurrentExecutions: 1,
      logGroup: props.logGroup,
      environment: props.target.kind === 'ecs'
        ? { KIND: 'ecs', CLUSTER: props.target.clusterName, SERVICE: props.target.serviceName }
        : { KIND: 'asg', GROUP: props.target.groupName },
      description: 'Restarts the application when RDS rotates its database password',
      ...inVpc ? { vpc: props.network.vpc, vpcSubnets: props.network.computeSubnets, securityGroups: [securityGroup!] } : {},
    });
    const statements = [
      props.target.kind === 'ecs'
        ? new iam.PolicyStatement({ actions: ['ecs:UpdateService'], resources: [props.target.serviceArn] })
        : new iam.PolicyStatement({
          actions: ['autoscaling:StartInstanceRefresh'],
          resources: [stack.formatArn({
            service: 'autoscaling',
            resource: 'autoScalingGroup',
            resourceName: `*:autoScalingGroupName/${props.target.groupName}`,
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          })],
        }),
      new iam.PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [`${props.logGroup.logGroupArn}`] }),
      // A function in a VPC makes its network interfaces itself (AWSLambdaVPCAccessExecutionRole's actions).
      ...inVpc ? [new iam.PolicyStatement({
        actions: ['ec2:CreateNetworkInterface', 'ec2:DescribeNetworkInterfaces', 'ec2:DeleteNetworkInterface', 'ec2:AssignPrivateIpAddresses', 'ec2:UnassignPrivateIpAddresses'],
        resources: ['*'],
      })] : [],
    ];
    const policy = new iam.Policy(this, 'Policy', { roles: [role], statements });
    this.function.node.addDependency(policy);
    acknowledge(policy, 'AwsSolutions-IAM5', 'The group\'s ARN holds an id known only once it exists (matched by its name); a ' +
      'function\'s network interfaces take no resource-level permission for these actions; the log streams are named by Lambda.');
    acknowledge(policy, 'IAMNoInlinePolicy', 'The one policy of the restart function\'s role; a customer-managed policy would hold the same.');
    acknowledge(this.function, 'LambdaDLQ', 'A failed restart is retried by EventBridge and logged in the application\'s log; ' +
      'the application keeps its open connections, and its next start reads the current password anyway.');
    new events.Rule(this, 'OnRotation', {
      description: 'RDS rotated the database password: restart the application',
      eventPattern: {
        source: ['aws.secretsmanager'],
        detailType: ['AWS Service Event via CloudTrail'],
        detail: { eventSource: ['secretsmanager.amazonaws.com'], eventName: ['RotationSucceeded'], additionalEventData: { SecretId: [props.secretArn] } },
      },
      targets: [new targets.LambdaFunction(this.function, { retryAttempts: 2 })],
    });
  }
}

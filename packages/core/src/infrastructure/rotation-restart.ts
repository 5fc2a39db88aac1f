import {
  ArnFormat, aws_ec2 as ec2, aws_events as events, aws_events_targets as targets, aws_iam as iam,
  aws_lambda as lambda, type aws_logs as logs, custom_resources as cr, Duration, Stack,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { acknowledgeCustomResourceFunction } from './custom-resource-function';
import { HTTPS_PORT } from './egress';
import type { NetworkAccess } from './network';
import { acknowledge } from '../compliance/acknowledge';

/**
 * What restarts: an ECS service (new tasks read the secret again: a new deployment, which follows the service's own
 * deployment configuration), or an Auto Scaling group (new instances do: an instance refresh, which keeps every
 * instance in service while its successor starts when `rolling`, and replaces first otherwise, as the group's rolling
 * update does).
 */
export type RestartTarget =
  | { readonly kind: 'ecs'; readonly clusterName: string; readonly serviceName: string; readonly serviceArn: string }
  | { readonly kind: 'asg'; readonly groupName: string; readonly rolling: boolean };

/** How long the rotation's window stays open once its schedule opens it (Secrets Manager's `Duration`). */
export const ROTATION_WINDOW_HOURS = 3;

export interface RotationRestartProps {
  /** The secret whose rotation restarts the application (the database's master password, which RDS rotates). */
  readonly secretArn: string;
  /** What restarts: the ECS service (a new deployment) or the Auto Scaling group (an instance refresh). */
  readonly target: RestartTarget;
  /** The VPC and the compute subnets the function runs in. */
  readonly network: NetworkAccess;
  /** Where the function logs: the application's own log group (its key's policy admits it). */
  readonly logGroup: logs.ILogGroup;
  /**
   * The IAM path of its role: on a platform, the application's, by which the platform's Secrets Manager endpoint lets it
   * describe the database's secret. @default - no path
   */
  readonly rolePath?: string;
  /**
   * The schedule (a Secrets Manager cron expression, UTC) on which the secret rotates, so that the restart falls in a
   * maintenance window. @default - the managing service's own schedule
   */
  readonly window?: string;
}

/** How often the function also checks, in case the rotation's event never came (`RotationRestart`). */
export const ROTATION_CHECK_HOURS = 6;

/**
 * The function's code. Called by the rotation's event, it restarts at once; called by the schedule, it restarts only
 * when the secret was rotated after the application last started (the service's newest deployment, or the group's
 * creation and newest instance refresh): a missed event costs at most `ROTATION_CHECK_HOURS`. One line in the
 * application's log either way. (rotation-restart.test.ts runs it against a stand-in boto3.)
 */
export const HANDLER = `import os, boto3
def last_start():
    if os.environ["KIND"] == "ecs":
        service = boto3.client("ecs").describe_services(cluster=os.environ["CLUSTER"], services=[os.environ["SERVICE"]])["services"][0]
        return max(d["createdAt"] for d in service["deployments"])
    client = boto3.client("autoscaling")
    group = client.describe_auto_scaling_groups(AutoScalingGroupNames=[os.environ["GROUP"]])["AutoScalingGroups"][0]
    refreshes = client.describe_instance_refreshes(AutoScalingGroupName=os.environ["GROUP"]).get("InstanceRefreshes", [])
    return max([group["CreatedTime"]] + [r["StartTime"] for r in refreshes if "StartTime" in r])
def handler(event, context):
    secret = os.environ["SECRET"]
    if event.get("source") == "aws.events":
        rotated = boto3.client("secretsmanager").describe_secret(SecretId=secret).get("LastRotatedDate")
        if rotated is None or rotated <= last_start():
            print("checked: the application started after the last rotation of " + secret)
            return
    if os.environ["KIND"] == "ecs":
        boto3.client("ecs").update_service(cluster=os.environ["CLUSTER"], service=os.environ["SERVICE"], forceNewDeployment=True)
        print("new tasks started: the secret " + secret + " was rotated")
    else:
        healthy = int(os.environ["MIN_HEALTHY"])
        boto3.client("autoscaling").start_instance_refresh(AutoScalingGroupName=os.environ["GROUP"],
            Preferences={"MinHealthyPercentage": healthy, "MaxHealthyPercentage": healthy + 100})
        print("instance refresh started: the secret " + secret + " was rotated")
`;

/**
 * Restarts the application when RDS rotates its database's master password (every 7 days): a running task or instance
 * read the password when it started, and would open no new connection after the rotation. Secrets Manager records a
 * rotation as the CloudTrail event `RotationSucceeded` (source `aws.secretsmanager`, detail type "AWS Service Event
 * via CloudTrail", the secret in `additionalEventData.SecretId`: Secrets Manager user guide, "Match events with
 * EventBridge" and "CloudTrail entries"); a rule on it calls a function that forces a new deployment of the service,
 * or an instance refresh of the group. AWS documents that event for Secrets Manager's rotation, not for the rotation
 * RDS manages, and delivers CloudTrail events on a best-effort basis: a schedule also calls the function every
 * `ROTATION_CHECK_HOURS`, which restarts only when the secret's `LastRotatedDate` is after the application's last start.
 * Connections opened before the rotation keep working until then.
 */
export class RotationRestart extends Construct {
  public readonly function: lambda.Function;
  /** The function's group, in a VPC: an interface endpoint it calls must admit it. */
  public readonly securityGroup?: ec2.SecurityGroup;
  private readonly props: RotationRestartProps;

  constructor(scope: Construct, id: string, props: RotationRestartProps) {
    super(scope, id);
    this.props = props;
    const inVpc = !props.network.computeNeedsPublicIp;
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'Restarts the application when its database password is rotated',
      path: props.rolePath,
    });
    const securityGroup = this.securityGroup = inVpc ? new ec2.SecurityGroup(this, 'SecurityGroup', {
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
      // No reserved concurrency: Lambda refuses a reservation that leaves fewer than 100 unreserved executions in the
      // account (PutFunctionConcurrency), which new accounts' quota of 10 does; at most a call per rotation and check.
      logGroup: props.logGroup,
      environment: {
        SECRET: props.secretArn,
        ...props.target.kind === 'ecs'
          ? { KIND: 'ecs', CLUSTER: props.target.clusterName, SERVICE: props.target.serviceName }
          : { KIND: 'asg', GROUP: props.target.groupName, MIN_HEALTHY: props.target.rolling ? '100' : '0' },
      },
      description: 'Restarts the application when RDS rotates its database password',
      ...inVpc ? { vpc: props.network.vpc, vpcSubnets: props.network.computeSubnets, securityGroups: [securityGroup!] } : {},
    });
    const policy = new iam.Policy(this, 'Policy', { roles: [role], statements: this.statements(inVpc) });
    this.function.node.addDependency(policy);
    this.acknowledgeFindings(policy);
    this.addRules();
    if (props.window) this.scheduleRotation(props.window);
  }

  /**
   * Moves the secret's rotation into the window: Secrets Manager's RotateSecret with rotation rules only, as its user
   * guide changes the schedule of a managed rotation ("Managed rotation for AWS Secrets Manager secrets": a schedule
   * expression in UTC and a window's duration); RDS still rotates it. Set again on each change of the window.
   */
  private scheduleRotation(schedule: string): void {
    const call: cr.AwsSdkCall = {
      service: 'SecretsManager',
      action: 'rotateSecret',
      parameters: {
        SecretId: this.props.secretArn,
        RotationRules: { ScheduleExpression: schedule, Duration: `${ROTATION_WINDOW_HOURS}h` },
        RotateImmediately: false,
      },
      physicalResourceId: cr.PhysicalResourceId.of(`${schedule} ${ROTATION_WINDOW_HOURS}h`),
    };
    const window = new cr.AwsCustomResource(this, 'RotationWindow', {
      onCreate: call,
      onUpdate: call,
      policy: cr.AwsCustomResourcePolicy.fromStatements([
        new iam.PolicyStatement({ actions: ['secretsmanager:RotateSecret'], resources: [this.props.secretArn] }),
      ]),
      logGroup: this.props.logGroup,
      installLatestAwsSdk: false,
    });
    acknowledge(window.node.findChild('CustomResourcePolicy'), 'IAMNoInlinePolicy', 'One statement for the one call this ' +
      'function makes on the database\'s secret; a customer-managed policy would hold the same.');
    acknowledgeCustomResourceFunction(this, window);
  }

  /** What the function may do: restart and describe its target, describe the secret, log, and (in a VPC) its interfaces. */
  private statements(inVpc: boolean): iam.PolicyStatement[] {
    const props = this.props;
    const stack = Stack.of(this);
    return [
      ...props.target.kind === 'ecs'
        ? [new iam.PolicyStatement({ actions: ['ecs:UpdateService', 'ecs:DescribeServices'], resources: [props.target.serviceArn] })]
        : [new iam.PolicyStatement({
          actions: ['autoscaling:StartInstanceRefresh'],
          resources: [stack.formatArn({
            service: 'autoscaling',
            resource: 'autoScalingGroup',
            resourceName: `*:autoScalingGroupName/${props.target.groupName}`,
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          })],
        }), new iam.PolicyStatement({
          // Neither takes a resource-level permission (Service Authorization Reference, Amazon EC2 Auto Scaling).
          actions: ['autoscaling:DescribeAutoScalingGroups', 'autoscaling:DescribeInstanceRefreshes'],
          resources: ['*'],
        })],
      new iam.PolicyStatement({ actions: ['secretsmanager:DescribeSecret'], resources: [props.secretArn] }),
      new iam.PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [`${props.logGroup.logGroupArn}`] }),
      // A function in a VPC makes its network interfaces itself (AWSLambdaVPCAccessExecutionRole's actions).
      ...inVpc ? [new iam.PolicyStatement({
        actions: ['ec2:CreateNetworkInterface', 'ec2:DescribeNetworkInterfaces', 'ec2:DeleteNetworkInterface', 'ec2:AssignPrivateIpAddresses', 'ec2:UnassignPrivateIpAddresses'],
        resources: ['*'],
      })] : [],
    ];
  }

  private acknowledgeFindings(policy: iam.Policy): void {
    acknowledge(policy, 'AwsSolutions-IAM5', 'The group\'s ARN holds an id known only once it exists (matched by its name); a ' +
      'function\'s network interfaces and Auto Scaling\'s Describe calls take no resource-level permission; the log streams ' +
      'are named by Lambda.');
    acknowledge(this.function, 'LambdaConcurrency', 'No reserved concurrency: Lambda refuses one in accounts whose ' +
      'concurrency quota is under 101 (new accounts have 10); the function runs once per rotation and per check.');
    acknowledge(policy, 'IAMNoInlinePolicy', 'The one policy of the restart function\'s role; a customer-managed policy would hold the same.');
    acknowledge(this.function, 'LambdaDLQ', 'A failed restart is retried by EventBridge and logged in the application\'s log; ' +
      'the application keeps its open connections, and its next start reads the current password anyway.');
  }

  /** The rotation's event, and the schedule of the check in case that event never comes. */
  private addRules(): void {
    const props = this.props;
    new events.Rule(this, 'OnRotation', {
      description: 'RDS rotated the database password: restart the application',
      eventPattern: {
        source: ['aws.secretsmanager'],
        detailType: ['AWS Service Event via CloudTrail'],
        detail: { eventSource: ['secretsmanager.amazonaws.com'], eventName: ['RotationSucceeded'], additionalEventData: { SecretId: [props.secretArn] } },
      },
      targets: [new targets.LambdaFunction(this.function, { retryAttempts: 2 })],
    });
    new events.Rule(this, 'Check', {
      description: 'Restart the application if its database password was rotated since it started (a missed event)',
      schedule: events.Schedule.rate(Duration.hours(ROTATION_CHECK_HOURS)),
      targets: [new targets.LambdaFunction(this.function, { retryAttempts: 2 })],
    });
  }

  /**
   * What the ECS interface endpoint (a standalone deployment's, with workers) must allow the function: without it, the
   * restart would be refused by the endpoint's policy.
   */
  public ecsEndpointStatements(fromAccount: Record<string, unknown>): iam.PolicyStatement[] {
    const target = this.props.target;
    return target.kind !== 'ecs' ? [] : [new iam.PolicyStatement({
      principals: [new iam.AnyPrincipal()], actions: ['ecs:UpdateService', 'ecs:DescribeServices'], resources: [target.serviceArn], conditions: fromAccount,
    })];
  }
}

import { Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { HTTPS_PORT } from './egress';
import type { Network } from './network';
import type { Workers } from './workers';

export interface VpcEndpointsProps {
  readonly network: Network;
  /** The security groups of the compute that calls AWS: the application's, its workers'. */
  readonly clients: ec2.ISecurityGroup[];
  /** The log group the compute writes to. */
  readonly logGroup: logs.ILogGroup;
  /** The secrets the compute reads; no Secrets Manager endpoint without any. */
  readonly secretArns: string[];
  /** The workers the application starts; no ECS endpoint without them. */
  readonly workers?: Workers;
  /** Whether the compute installs packages from Amazon Linux 2023's repositories (EC2 does at boot). */
  readonly amazonLinuxRepositories: boolean;
}

/**
 * Private endpoints for the AWS APIs the compute calls, in the compute subnets (STAGING, PRODUCTION). Each endpoint's
 * policy allows, to principals of this account, only the calls the stack's roles make on the stack's resources (the
 * same statements as the roles' grants): a credential stolen inside the VPC reaches nothing else through them. Calls
 * to services without an endpoint here (SSM, EC2, STS) leave through the NAT gateway as before.
 */
export class VpcEndpoints extends Construct {
  /** The S3 gateway endpoint: add a statement here for buckets of other accounts your jobs need (see the README). */
  public readonly s3: ec2.GatewayVpcEndpoint;

  constructor(scope: Construct, id: string, props: VpcEndpointsProps) {
    super(scope, id);
    const { network } = props;
    const stack = Stack.of(this);
    const anyone = [new iam.AnyPrincipal()];
    const fromAccount = { StringEquals: { 'aws:PrincipalAccount': stack.account } };
    const securityGroup = new ec2.SecurityGroup(this, 'SecurityGroup', {
      vpc: network.vpc,
      description: 'VPC interface endpoints: HTTPS from the application and its workers',
      allowAllOutbound: false,
    });
    props.clients.forEach((client) => securityGroup.addIngressRule(client, ec2.Port.tcp(HTTPS_PORT), 'HTTPS from the compute'));
    const endpoint = (name: string, service: ec2.InterfaceVpcEndpointAwsService, statements: iam.PolicyStatement[]) => {
      const created = network.vpc.addInterfaceEndpoint(name, {
        service, subnets: network.computeSubnets, securityGroups: [securityGroup], open: false, privateDnsEnabled: true,
      });
      statements.forEach((statement) => created.addToPolicy(statement));
    };

    endpoint('Logs', ec2.InterfaceVpcEndpointAwsService.CLOUDWATCH_LOGS, [new iam.PolicyStatement({
      principals: anyone,
      actions: ['logs:CreateLogStream', 'logs:PutLogEvents', 'logs:DescribeLogStreams'],
      resources: [props.logGroup.logGroupArn],
      conditions: fromAccount,
    })]);
    if (props.secretArns.length > 0) {
      endpoint('SecretsManager', ec2.InterfaceVpcEndpointAwsService.SECRETS_MANAGER, [new iam.PolicyStatement({
        principals: anyone,
        actions: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'],
        resources: props.secretArns,
        conditions: fromAccount,
      })]);
    }
    if (props.workers) endpoint('Ecs', ec2.InterfaceVpcEndpointAwsService.ECS, props.workers.ecsStatements(anyone, fromAccount));

    this.s3 = network.vpc.addGatewayEndpoint('S3', {
      service: ec2.GatewayVpcEndpointAwsService.S3,
      subnets: [network.computeSubnets],
    });
    // The account's own buckets (the resource side of a data perimeter), and the AWS-owned bucket Amazon Linux 2023
    // serves its packages from, by the name AWS's Amazon Linux 2023 documentation gives (not checkable here: README).
    this.s3.addToPolicy(new iam.PolicyStatement({
      principals: anyone,
      actions: ['s3:*'],
      resources: ['*'],
      conditions: { StringEquals: { 'aws:PrincipalAccount': stack.account, 's3:ResourceAccount': stack.account } },
    }));
    if (props.amazonLinuxRepositories) {
      this.s3.addToPolicy(new iam.PolicyStatement({
        principals: anyone, actions: ['s3:GetObject'], resources: [`arn:${stack.partition}:s3:::al2023-repos-${stack.region}-de612dc2/*`],
      }));
    }
  }
}

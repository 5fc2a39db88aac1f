import { aws_ec2 as ec2, aws_iam as iam, Stack, Token } from 'aws-cdk-lib';
import { Construct, type IConstruct } from 'constructs';
import { deployedLengthAtMost } from './deployed-length';
import { HTTPS_PORT } from './egress';
import { admitHttpsFromComputeSubnets, type NetworkAccess } from './network';
import type { RotationRestart } from './rotation-restart';
import type { Workers } from './workers';
import { UserError } from '../errors';

export interface VpcEndpointsProps {
  /** The VPC and the compute subnets the endpoints serve. */
  readonly network: NetworkAccess;
  /**
   * The security groups of the compute that calls AWS: the application's, its workers'.
   * @default - every address of the compute subnets (a platform's: its applications' groups live in their own stacks,
   * and come and go)
   */
  readonly clients?: ec2.ISecurityGroup[];
  /**
   * The ARNs of the log groups' streams the compute writes to (`...:log-group:<name>:*`), or patterns of them (a
   * platform's: every application's log group). @default - none
   */
  readonly logGroupArns?: string[];
  /** The secrets the compute reads; no Secrets Manager endpoint without any. @default - none yet (`serve`) */
  readonly secretArns?: string[];
  /** The workers the application starts; no ECS endpoint without them. @default - none */
  readonly workers?: Workers;
  /** Whether the compute installs packages from Amazon Linux 2023's repositories (EC2 does at boot). @default false */
  readonly amazonLinuxRepositories?: boolean;
  /** The function that restarts the application on a rotation: the ECS endpoint lets it restart the service. @default - none */
  readonly restart?: RotationRestart;
}

/** What a platform's application needs of the endpoints (`serve`); its log groups are the platform's pattern's. */
export interface EndpointClient {
  readonly secretArns: string[];
  readonly amazonLinuxRepositories: boolean;
  /**
   * The IAM path of the roles that read the password of the database in the application's stack, whose ARN RDS
   * chooses when it creates it (`rdsManagedSecretArns`). @default - no database
   */
  readonly databaseReaders?: string;
}

/**
 * The ARNs of the master-password secrets RDS creates and names (`rds!db-<id>`, as every RDS-managed secret's ARN
 * reads: `arn:<partition>:secretsmanager:<region>:<account>:secret:rds!db-<uuid>-<6 characters>`): a platform's
 * endpoint cannot name one created in an application's stack, so it names these, for that application's roles only.
 */
export function rdsManagedSecretArns(stack: Stack): string {
  return `arn:${stack.partition}:secretsmanager:${stack.region}:${stack.account}:secret:rds!db-*`;
}

/**
 * The most characters an endpoint policy may have, white space included
 * (https://docs.aws.amazon.com/vpc/latest/privatelink/vpc-endpoints-access.html, "Considerations").
 */
export const ENDPOINT_POLICY_MAX = 20480;

/** The AWS-owned bucket ECR serves image layers from, in a region. */
export function ecrLayerBucket(region: string): string {
  return `prod-${region}-starport-layer-bucket`;
}

/**
 * Private endpoints for the AWS APIs the compute calls, in the compute subnets (STAGING, PRODUCTION). Each endpoint's
 * policy allows, to principals of this account, only the calls the stack's roles make on the stack's resources (the
 * same statements as the roles' grants): a credential stolen inside the VPC reaches nothing else through them. Calls
 * to services without an endpoint here (SSM, EC2, STS) leave through the NAT gateway as before. An interface endpoint
 * is made when the first statement needs it: one without a policy statement would allow everything.
 */
export class VpcEndpoints extends Construct {
  /** The S3 gateway endpoint: add a statement here for buckets of other accounts your jobs need (docs/security-profiles.md). */
  public readonly s3: ec2.GatewayVpcEndpoint;
  private readonly props: VpcEndpointsProps;
  private readonly securityGroup: ec2.SecurityGroup;
  private readonly interfaces = new Map<string, ec2.InterfaceVpcEndpoint>();
  private amazonLinuxRepositories = false;

  constructor(scope: Construct, id: string, props: VpcEndpointsProps) {
    super(scope, id);
    this.props = props;
    const { network } = props;
    const stack = Stack.of(this);
    oneSetPerVpc(this, network.vpc.vpcId);
    this.securityGroup = new ec2.SecurityGroup(this, 'SecurityGroup', {
      vpc: network.vpc,
      description: 'VPC interface endpoints: HTTPS from the application and its workers',
      allowAllOutbound: false,
    });
    if (props.clients) {
      props.clients.forEach((client) => this.securityGroup.addIngressRule(client, ec2.Port.tcp(HTTPS_PORT), 'HTTPS from the compute'));
    } else {
      admitHttpsFromComputeSubnets(this.securityGroup, network);
    }
    if (props.logGroupArns?.length) this.allowLogs(props.logGroupArns);
    if (props.secretArns?.length) this.allowSecrets(props.secretArns);
    if (props.workers) {
      this.endpoint('Ecs', ec2.InterfaceVpcEndpointAwsService.ECS, [
        ...props.workers.ecsStatements(anyone(), this.fromAccount()),
        ...props.restart?.ecsEndpointStatements(this.fromAccount()) ?? [],
      ]);
    }

    this.s3 = network.vpc.addGatewayEndpoint('S3', {
      service: ec2.GatewayVpcEndpointAwsService.S3,
      subnets: [network.computeSubnets],
    });
    // The account's own buckets (the resource side of a data perimeter), and the AWS-owned bucket Amazon Linux 2023
    // serves its packages from, by the name AWS's Amazon Linux 2023 documentation gives (not checkable here: docs/security-profiles.md).
    this.s3.addToPolicy(new iam.PolicyStatement({
      principals: anyone(),
      actions: ['s3:*'],
      resources: ['*'],
      conditions: { StringEquals: { 'aws:PrincipalAccount': stack.account, 's3:ResourceAccount': stack.account } },
    }));
    if (props.amazonLinuxRepositories) this.allowAmazonLinuxRepositories();
    // The Secrets Manager endpoint's policy names each secret a platform's applications read, and grows with them:
    // refused at synth before EC2 would refuse it at deploy.
    this.node.addValidation({ validate: () => this.oversizedPolicies() });
    // Image layers from ECR (the pull-through cache's, or any repository of the account's) are served from an
    // AWS-owned bucket that the policy above would refuse (ECR user guide, "Amazon ECR interface VPC endpoints":
    // `arn:aws:s3:::prod-<region>-starport-layer-bucket/*`, s3:GetObject).
    this.s3.addToPolicy(new iam.PolicyStatement({
      principals: anyone(), actions: ['s3:GetObject'], resources: [`arn:${stack.partition}:s3:::${ecrLayerBucket(stack.region)}/*`],
    }));
  }

  /** Lets one more application (of a platform) through: its secrets, its package repositories. */
  public serve(client: EndpointClient): void {
    if (client.secretArns.length > 0) this.allowSecrets(client.secretArns);
    if (client.databaseReaders) {
      const stack = Stack.of(this);
      this.allowSecrets([rdsManagedSecretArns(stack)], {
        ...this.fromAccount(),
        ArnLike: { 'aws:PrincipalArn': `arn:${stack.partition}:iam::${stack.account}:role${client.databaseReaders}*` },
      });
    }
    if (client.amazonLinuxRepositories) this.allowAmazonLinuxRepositories();
  }

  /** The endpoints whose policy could pass `ENDPOINT_POLICY_MAX` once deployed, with what to do. */
  public oversizedPolicies(): string[] {
    const stack = Stack.of(this);
    return [...this.interfaces.entries()].flatMap(([name, endpoint]) => {
      const length = deployedLengthAtMost(stack, stack.toJsonString((endpoint.node.defaultChild as ec2.CfnVPCEndpoint).policyDocument));
      return length <= ENDPOINT_POLICY_MAX ? [] : [`The policy of the ${name} VPC endpoint would hold up to ${length} characters; an ` +
        `endpoint policy takes at most ${ENDPOINT_POLICY_MAX}. It names each secret the applications read: have fewer ` +
        'applications on this platform, or let them share secrets.'];
    });
  }

  private fromAccount() {
    return { StringEquals: { 'aws:PrincipalAccount': Stack.of(this).account } };
  }

  private allowLogs(logGroupArns: string[]): void {
    this.endpoint('Logs', ec2.InterfaceVpcEndpointAwsService.CLOUDWATCH_LOGS, [new iam.PolicyStatement({
      principals: anyone(),
      actions: ['logs:CreateLogStream', 'logs:PutLogEvents', 'logs:DescribeLogStreams'],
      resources: logGroupArns,
      conditions: this.fromAccount(),
    })]);
  }

  private allowSecrets(secretArns: string[], conditions: Record<string, unknown> = this.fromAccount()): void {
    this.endpoint('SecretsManager', ec2.InterfaceVpcEndpointAwsService.SECRETS_MANAGER, [new iam.PolicyStatement({
      principals: anyone(),
      actions: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'],
      resources: secretArns,
      conditions,
    })]);
  }

  private allowAmazonLinuxRepositories(): void {
    if (this.amazonLinuxRepositories) return;
    this.amazonLinuxRepositories = true;
    const stack = Stack.of(this);
    this.s3.addToPolicy(new iam.PolicyStatement({
      principals: anyone(), actions: ['s3:GetObject'], resources: [`arn:${stack.partition}:s3:::al2023-repos-${stack.region}-de612dc2/*`],
    }));
  }

  /** The endpoint of `service`, made on first use, with `statements` added to its policy. */
  private endpoint(name: string, service: ec2.InterfaceVpcEndpointAwsService, statements: iam.PolicyStatement[]): void {
    let created = this.interfaces.get(name);
    if (!created) {
      created = this.props.network.vpc.addInterfaceEndpoint(name, {
        service, subnets: this.props.network.computeSubnets, securityGroups: [this.securityGroup], open: false, privateDnsEnabled: true,
      });
      this.interfaces.set(name, created);
    }
    statements.forEach((statement) => created.addToPolicy(statement));
  }
}

function anyone(): iam.IPrincipal[] {
  return [new iam.AnyPrincipal()];
}

/** The endpoint sets of each given VPC in an app, by VPC id: their construct paths. */
const SETS = new WeakMap<IConstruct, Map<string, string>>();

/**
 * A given VPC (its id known at synth) holds one set of the framework's endpoints: EC2 refuses a second interface
 * endpoint with private DNS for a service in a VPC, and a second S3 route on a route table (cfn-lint E3064; the VPC
 * user guide's gateway endpoints). Refused at synth for two stacks of one app; across apps, docs/platform.md says so.
 */
function oneSetPerVpc(endpoints: Construct, vpcId: string): void {
  if (Token.isUnresolved(vpcId)) return;
  const root = endpoints.node.root;
  const sets = SETS.get(root) ?? new Map<string, string>();
  SETS.set(root, sets);
  const other = sets.get(vpcId);
  if (other) {
    throw new UserError(`${endpoints.node.path} and ${other} would both create the framework's VPC endpoints in ${vpcId}, and EC2 ` +
      'refuses a second interface endpoint with private DNS for a service in one VPC. Let one of them create them ' +
      '(existingVpc.endpoints "create") and the others use them ("existing", the default), or attach the applications to one platform.', endpoints);
  }
  sets.set(vpcId, endpoints.node.path);
}

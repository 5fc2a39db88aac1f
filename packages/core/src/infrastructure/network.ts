import { Annotations, aws_ec2 as ec2, aws_iam as iam, type aws_logs as logs, Stack } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { ClosedDefaultSecurityGroup } from './default-security-group';
import { HTTPS_PORT } from './egress';
import type { Logging } from './logging';
import { acknowledge } from '../compliance/acknowledge';
import type { ExistingSubnet, ExistingVpc } from '../context/existing-vpc';
import { UserError } from '../errors';

/** What compute needs of a network: the VPC and where in it compute goes. */
export interface NetworkAccess {
  readonly vpc: ec2.IVpc;
  /** Where tasks, instances and the file system's mount targets go. */
  readonly computeSubnets: ec2.SubnetSelection;
  /** Whether compute needs a public IP to reach the internet (no NAT gateway). */
  readonly computeNeedsPublicIp: boolean;
}

/**
 * Admits HTTPS from each compute subnet's address range: for what every application and worker of a platform calls,
 * whose security groups live in stacks that come and go.
 */
export function admitHttpsFromComputeSubnets(securityGroup: ec2.ISecurityGroup, network: NetworkAccess): void {
  for (const subnet of network.vpc.selectSubnets(network.computeSubnets).subnets) {
    securityGroup.addIngressRule(ec2.Peer.ipv4(subnet.ipv4CidrBlock), ec2.Port.tcp(HTTPS_PORT), `HTTPS from compute subnet ${subnet.node.id}`);
  }
}

export interface NetworkProps {
  /** 0 puts compute in public subnets, reachable only from the load balancer. */
  readonly natGateways: number;
  /** A flow log of all the VPC's traffic, accepted and rejected, to an encrypted log group (the profile's). */
  readonly flowLogs: boolean;
  /** Where the flow log's and the custom-resource function's log groups are created. */
  readonly logging: Logging;
  /** @default - the CDK's default range (`Vpc.DEFAULT_CIDR_RANGE`) */
  readonly cidr?: string;
  /** Isolated subnets for databases (no route out of the VPC). @default false */
  readonly dataSubnets?: boolean;
  /**
   * A VPC you are given, used instead of creating one (`cidr` and `natGateways` then say nothing: its ranges and routes
   * are the network team's). @default - a VPC is created
   */
  readonly existingVpc?: ExistingVpc;
}

/**
 * Whether compute goes in the public subnets with a public IP: only in a VPC created without a NAT gateway. A VPC you
 * are given has compute subnets of its own, routed out by the network team.
 */
export function computeNeedsPublicIp(natGateways: number, existingVpc?: ExistingVpc): boolean {
  return natGateways === 0 && !existingVpc;
}

/** The subnet groups' names: a created VPC's and an imported one's alike, so that selections by name find both. */
const SUBNET_GROUPS = { loadBalancer: 'LoadBalancer', compute: 'Compute', data: 'Data' } as const;

/** The VPC the network team gave, by its ids (no lookup); `dataSubnets` when the network's user needs them. */
function importedVpc(scope: Construct, given: ExistingVpc, dataSubnets: boolean): ec2.IVpc {
  if (dataSubnets && !given.dataSubnets) {
    throw new UserError('existingVpc has no dataSubnets, and the plugin asks for a database: give one isolated subnet a zone ' +
      '(no route out of the VPC), where the database goes.', scope);
  }
  // fromVpcAttributes pairs the subnets of a tier with availabilityZones by position.
  const byZone = (subnets: ExistingSubnet[]) => given.availabilityZones.map((zone) => subnets.find((s) => s.availabilityZone === zone)!);
  const [loadBalancer, compute, data] = [given.loadBalancerSubnets, given.computeSubnets, given.dataSubnets ?? []].map(byZone);
  // A tier's route tables, where every subnet of it names one: only the S3 gateway endpoint routes (endpoints create).
  const routeTables = (subnets: ExistingSubnet[]) => (subnets.every((s) => s.routeTableId) ? subnets.map((s) => s.routeTableId!) : undefined);
  const vpc = ec2.Vpc.fromVpcAttributes(scope, 'Vpc', {
    vpcId: given.vpcId,
    vpcCidrBlock: given.cidr,
    availabilityZones: given.availabilityZones,
    publicSubnetIds: loadBalancer.map((s) => s.subnetId),
    publicSubnetIpv4CidrBlocks: loadBalancer.map((s) => s.cidr),
    publicSubnetRouteTableIds: routeTables(loadBalancer),
    publicSubnetNames: [SUBNET_GROUPS.loadBalancer],
    privateSubnetIds: compute.map((s) => s.subnetId),
    privateSubnetIpv4CidrBlocks: compute.map((s) => s.cidr),
    privateSubnetRouteTableIds: routeTables(compute),
    privateSubnetNames: [SUBNET_GROUPS.compute],
    ...given.dataSubnets ? {
      isolatedSubnetIds: data.map((s) => s.subnetId),
      isolatedSubnetIpv4CidrBlocks: data.map((s) => s.cidr),
      isolatedSubnetRouteTableIds: routeTables(data),
      isolatedSubnetNames: [SUBNET_GROUPS.data],
    } : {},
  });
  // The routes are the network team's: the framework adds one only with endpoints create, on the compute tier's.
  Annotations.of(vpc).acknowledgeWarning('@aws-cdk/aws-ec2:noSubnetRouteTableId', 'The network team owns the route tables; the framework routes nothing there.');
  return vpc;
}

/** A VPC of its own: two zones, the tiers below, the default route of each public subnet acknowledged. */
function createdVpc(scope: Construct, props: NetworkProps, isolated: boolean): ec2.Vpc {
  const vpc = new ec2.Vpc(scope, 'Vpc', {
    ipAddresses: props.cidr ? ec2.IpAddresses.cidr(props.cidr) : undefined,
    maxAzs: 2,
    natGateways: props.natGateways,
    subnetConfiguration: [
      // Nothing gets a public IP by accident: compute that needs one (no NAT) asks for it explicitly.
      { name: SUBNET_GROUPS.loadBalancer, subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24, mapPublicIpOnLaunch: false },
      ...(isolated ? [] : [{ name: SUBNET_GROUPS.compute, subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 22 }]),
      // Last, so that the ranges of the groups above stay what they were.
      ...(props.dataSubnets ? [{ name: SUBNET_GROUPS.data, subnetType: ec2.SubnetType.PRIVATE_ISOLATED, cidrMask: 24 }] : []),
    ],
    // Closed by a function the compliance packs can see (ClosedDefaultSecurityGroup).
    restrictDefaultSecurityGroup: false,
  });
  for (const subnet of vpc.publicSubnets) {
    const route = subnet.node.findChild('DefaultRoute');
    acknowledge(route, 'VPCNoUnrestrictedRouteToIGW', 'The public subnets hold the internet-facing load balancer, ' +
      'which needs a route to the internet gateway; compute sits in private subnets (or, in DEV, has no public ingress).');
  }
  return vpc;
}

/**
 * A VPC over two availability zones: public subnets for the load balancer only, private subnets for compute (or, with
 * no NAT gateway, compute in the public subnets with no public ingress).
 */
export class Network extends Construct implements NetworkAccess {
  public readonly vpc: ec2.IVpc;
  /** Where tasks, instances and the file system's mount targets go. */
  public readonly computeSubnets: ec2.SubnetSelection;
  /** Whether compute needs a public IP to reach the internet (no NAT gateway). */
  public readonly computeNeedsPublicIp: boolean;
  /**
   * Where the stack's custom-resource function logs: `AwsCustomResource` makes one function a stack, and it logs where
   * its first user says: the closed default security group of a VPC created here, else the file-system policy.
   */
  public readonly customResourceLogGroup: logs.ILogGroup;
  /** Where databases go: isolated subnets, when `dataSubnets`. */
  public readonly dataSubnets?: ec2.SubnetSelection;

  constructor(scope: Construct, id: string, props: NetworkProps) {
    super(scope, id);
    const isolated = computeNeedsPublicIp(props.natGateways, props.existingVpc);
    const stack = Stack.of(this);
    this.customResourceLogGroup = props.logging.logGroup('DefaultSecurityGroupLogs', `/aws/${stack.stackName}/default-security-group`);
    if (props.existingVpc) {
      this.vpc = importedVpc(this, props.existingVpc, props.dataSubnets === true);
    } else {
      const vpc = createdVpc(this, props, isolated);
      new ClosedDefaultSecurityGroup(this, 'DefaultSecurityGroup', { vpc, logGroup: this.customResourceLogGroup });
      this.vpc = vpc;
    }
    if (props.flowLogs) {
      // The service may assume the role only for this account's flow logs (the confused-deputy conditions).
      const role = new iam.Role(this, 'FlowLogRole', {
        assumedBy: new iam.ServicePrincipal('vpc-flow-logs.amazonaws.com').withConditions({
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: { 'aws:SourceArn': stack.formatArn({ service: 'ec2', resource: 'vpc-flow-log', resourceName: '*' }) },
        }),
        description: 'VPC flow logs: write to the stack\'s flow-log group',
      });
      this.vpc.addFlowLog('FlowLog', {
        destination: ec2.FlowLogDestination.toCloudWatchLogs(props.logging.logGroup('FlowLogs', `/aws/${stack.stackName}/vpc-flow-logs`), role),
        trafficType: ec2.FlowLogTrafficType.ALL,
      });
    }
    this.computeSubnets = { subnetType: isolated ? ec2.SubnetType.PUBLIC : ec2.SubnetType.PRIVATE_WITH_EGRESS };
    this.computeNeedsPublicIp = isolated;
    this.dataSubnets = props.dataSubnets ? { subnetGroupName: SUBNET_GROUPS.data } : undefined;
  }
}

import {
  Annotations, aws_ec2 as ec2, aws_ecs as ecs, aws_efs as efs, aws_elasticloadbalancingv2 as elbv2, aws_kms as kms,
  aws_servicediscovery as servicediscovery, aws_sns as sns, aws_ssm as ssm, Fn, Stack,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import {
  accessPointParameter, type PlatformParameter, platformParameterPrefix, PRIVATE_NAMESPACE,
  type PrivateRouteParameter,
} from './platform-parameters';
import type { NetworkAccess } from '../infrastructure/network';
import { type ApplicationStorage, AttachedStorage } from '../infrastructure/storage';

export interface AttachedPlatformProps {
  /** The platform's stack: its parameters are under `/fw/<name>/`. */
  readonly platformStackName: string;
  /** The application's stack, which names its access point's parameter. */
  readonly applicationStackName: string;
  /** Whether the platform's compute subnets are public (DEV: no NAT gateway). */
  readonly computeNeedsPublicIp: boolean;
  /**
   * The application lives in the first compute subnet only, and needs its zone (EC2 with EBS: the instance and its
   * volume are in one zone). Otherwise it uses both subnets and never their zones.
   */
  readonly singleZone: boolean;
}

/**
 * A platform as an application's stack sees it: every id read from the platform's SSM parameters at deploy time
 * (CloudFormation parameters of type `AWS::SSM::Parameter::Value<String>`), so the two stacks share no export and
 * either can be updated without the other. Each part is imported on first use: the template holds only the
 * parameters it uses (an unused one is a warning, W2001).
 */
export class AttachedPlatform extends Construct {
  private readonly props: AttachedPlatformProps;
  private readonly imported = new Map<string, unknown>();

  constructor(scope: Construct, id: string, props: AttachedPlatformProps) {
    super(scope, id);
    this.props = props;
  }

  public get network(): NetworkAccess {
    return this.once('network', () => {
      // Only what is used is read: a parameter the template does not use is a warning (W2001). Zones that are not read
      // are placeholders nothing renders (the platform test says so).
      const subnetIds = this.props.singleZone ? [this.parameter('compute-subnet-1')]
        : [this.parameter('compute-subnet-1'), this.parameter('compute-subnet-2')];
      const vpc = ec2.Vpc.fromVpcAttributes(this, 'Vpc', {
        vpcId: this.parameter('vpc-id'),
        availabilityZones: this.props.singleZone ? [this.parameter('availability-zone-1')]
          : [Fn.select(0, Fn.getAzs()), Fn.select(1, Fn.getAzs())],
        ...this.props.computeNeedsPublicIp ? { publicSubnetIds: subnetIds } : { privateSubnetIds: subnetIds },
      });
      // Nothing here routes: the platform's stack owns the route tables.
      Annotations.of(vpc).acknowledgeWarning('@aws-cdk/aws-ec2:noSubnetRouteTableId', 'The platform owns the route tables; the application adds no route.');
      return {
        vpc,
        computeSubnets: { subnetType: this.props.computeNeedsPublicIp ? ec2.SubnetType.PUBLIC : ec2.SubnetType.PRIVATE_WITH_EGRESS },
        computeNeedsPublicIp: this.props.computeNeedsPublicIp,
      };
    });
  }

  public get cluster(): ecs.ICluster {
    return this.once('cluster', () =>
      ecs.Cluster.fromClusterAttributes(this, 'Cluster', { clusterName: this.parameter('cluster-name'), vpc: this.network.vpc, securityGroups: [] }));
  }

  /** The load balancer's security group. Not allowAllOutbound: the load balancer reaches each application only through the rule its stack adds. */
  public get loadBalancerSecurityGroup(): ec2.ISecurityGroup {
    return this.once('loadBalancerSecurityGroup', () => ec2.SecurityGroup.fromSecurityGroupId(this, 'LoadBalancerSecurityGroup',
      this.parameter('load-balancer-security-group-id'), { allowAllOutbound: false }));
  }

  public get listener(): elbv2.IApplicationListener {
    return this.once('listener', () => elbv2.ApplicationListener.fromApplicationListenerAttributes(this, 'Listener', {
      listenerArn: this.parameter('listener-arn'),
      securityGroup: this.loadBalancerSecurityGroup,
    }));
  }

  /** The load balancer as an alias target. */
  public get loadBalancerAlias(): { readonly dnsName: string; readonly hostedZoneId: string } {
    return this.once('alias', () => ({ dnsName: this.parameter('load-balancer-dns-name'), hostedZoneId: this.parameter('load-balancer-hosted-zone-id') }));
  }

  public get logsKey(): kms.IKey {
    return this.once('logsKey', () => kms.Key.fromKeyArn(this, 'LogsKey', this.parameter('logs-key-arn')));
  }

  public get dataKey(): kms.IKey {
    return this.once('dataKey', () => kms.Key.fromKeyArn(this, 'DataKey', this.parameter('data-key-arn')));
  }

  public get alarmTopic(): sns.ITopic {
    return this.once('alarmTopic', () => sns.Topic.fromTopicArn(this, 'AlarmTopic', this.parameter('alarm-topic-arn')));
  }

  public get namespace(): servicediscovery.IPrivateDnsNamespace {
    return this.once('namespace', () => servicediscovery.PrivateDnsNamespace.fromPrivateDnsNamespaceAttributes(this, 'Namespace', {
      namespaceName: PRIVATE_NAMESPACE,
      namespaceId: this.parameter('namespace-id'),
      // Its ARN follows from its id (Cloud Map's ARN format); nothing here renders it.
      namespaceArn: Stack.of(this).formatArn({ service: 'servicediscovery', resource: 'namespace', resourceName: this.parameter('namespace-id') }),
    }));
  }

  /**
   * The application's storage: its access point, kept by the platform, whose file-system policy admits the
   * application's roles through it only. Only for an application that keeps its data on EFS: the access point's
   * parameter exists only then.
   */
  public storage(): ApplicationStorage {
    const securityGroup = ec2.SecurityGroup.fromSecurityGroupId(this, 'FileSystemSecurityGroup',
      this.parameter('file-system-security-group-id'), { allowAllOutbound: false });
    const fileSystem = efs.FileSystem.fromFileSystemAttributes(this, 'FileSystem', { fileSystemId: this.parameter('file-system-id'), securityGroup });
    const accessPointId = ssm.StringParameter.valueForStringParameter(this,
      accessPointParameter(this.props.platformStackName, this.props.applicationStackName));
    return new AttachedStorage(fileSystem, securityGroup, accessPointId);
  }

  /** The platform's private load balancer (with TLS): its listener, its security group and its alias target. */
  public get privateLoadBalancer() {
    return this.once('privateLoadBalancer', () => {
      const securityGroup = ec2.SecurityGroup.fromSecurityGroupId(this, 'PrivateLoadBalancerSecurityGroup', this.parameter('private-load-balancer-security-group-id'),
        { allowAllOutbound: false });
      return {
        securityGroup,
        listener: elbv2.ApplicationListener.fromApplicationListenerAttributes(this, 'PrivateListener', { listenerArn: this.parameter('private-listener-arn'), securityGroup }),
        alias: { dnsName: this.parameter('private-load-balancer-dns-name'), hostedZoneId: this.parameter('private-load-balancer-hosted-zone-id') },
      };
    });
  }

  /** The platform's isolated subnets, where the application's database goes (in the application's stack). */
  public get dataSubnets(): ec2.SubnetSelection {
    return this.once('dataSubnets', () => ({
      subnets: (['data-subnet-1', 'data-subnet-2'] as const).map((name) => {
        const subnet = ec2.Subnet.fromSubnetId(this, `Subnet-${name}`, this.parameter(name));
        // As the VPC's above: the database's subnet group names the subnets and routes nothing.
        Annotations.of(subnet).acknowledgeWarning('@aws-cdk/aws-ec2:noSubnetRouteTableId', 'The platform owns the route tables; the application adds no route.');
        return subnet;
      }),
    }));
  }

  /** A platform parameter's value, resolved by CloudFormation at deploy time. */
  private parameter(name: PlatformParameter | PrivateRouteParameter): string {
    return ssm.StringParameter.valueForStringParameter(this, `${platformParameterPrefix(this.props.platformStackName)}${name}`);
  }

  private once<T>(name: string, make: () => T): T {
    if (!this.imported.has(name)) this.imported.set(name, make());
    return this.imported.get(name) as T;
  }
}

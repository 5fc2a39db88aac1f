import {
  type aws_certificatemanager as acm, aws_ec2 as ec2, aws_elasticloadbalancingv2 as elbv2, aws_route53 as route53,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { acknowledge } from '../compliance/acknowledge';
import { HTTPS_PORT } from '../infrastructure/egress';
import { hardenedLoadBalancer, LISTENER_TLS_POLICY, noApplication } from '../infrastructure/load-balancer';
import { admitHttpsFromComputeSubnets, type NetworkAccess } from '../infrastructure/network';
import { applicationTargetGroup, forwardAction } from '../infrastructure/routing';

export interface PrivateLoadBalancerProps {
  /** The VPC and the compute subnets the internal load balancer is placed in. */
  readonly network: NetworkAccess;
  /** The platform's certificate (`<domain>` and `*.<domain>`): the same names answer inside the VPC. */
  readonly certificate: acm.ICertificate;
  /** Refuse deleting the load balancer until this is turned off (the profile's). */
  readonly deletionProtection: boolean;
  /** Turns its access logs on, into the public load balancer's bucket. @default - no access logs */
  readonly logAccessLogs?: (alb: elbv2.ApplicationLoadBalancer) => void;
  /** Puts it behind the public load balancer's web ACL; returns whether there is one (the profile's `waf`). */
  readonly protect: (alb: elbv2.ApplicationLoadBalancer) => boolean;
  /** Ranges of the VPC whose HTTPS it admits besides the compute subnets' (`privateRouteFrom`). @default - none */
  readonly admit?: string[];
}

/**
 * The platform's internal load balancer: one application reaches another over HTTPS, with the certificate it trusts
 * outside, without leaving the VPC. In the compute subnets, admitting HTTPS from them only (applications and their
 * workers alike); its listener answers 404 but for the host names of the applications routed to it
 * (`PrivateHostRoute`). Behind the same web ACL as the public one where the profile has a WAF: build agents run
 * pipeline code in those subnets, and meet the same rules as a request from the internet.
 */
export class PrivateLoadBalancer extends Construct {
  public readonly alb: elbv2.ApplicationLoadBalancer;
  public readonly securityGroup: ec2.SecurityGroup;
  public readonly listener: elbv2.ApplicationListener;

  constructor(scope: Construct, id: string, props: PrivateLoadBalancerProps) {
    super(scope, id);
    const { network } = props;
    this.securityGroup = new ec2.SecurityGroup(this, 'SecurityGroup', {
      vpc: network.vpc,
      description: 'Private load balancer: HTTPS from the compute subnets',
      allowAllOutbound: false,
    });
    admitHttpsFromComputeSubnets(this.securityGroup, network);
    for (const range of props.admit ?? []) {
      this.securityGroup.addIngressRule(ec2.Peer.ipv4(range), ec2.Port.tcp(HTTPS_PORT), `HTTPS from ${range} (existingVpc.privateRouteFrom)`);
    }
    this.alb = hardenedLoadBalancer(this, 'Alb', {
      vpc: network.vpc,
      vpcSubnets: network.computeSubnets,
      internetFacing: false,
      securityGroup: this.securityGroup,
      deletionProtection: props.deletionProtection,
    });
    props.logAccessLogs?.(this.alb);
    this.listener = this.alb.addListener('Https', {
      port: HTTPS_PORT,
      protocol: elbv2.ApplicationProtocol.HTTPS,
      certificates: [props.certificate],
      sslPolicy: LISTENER_TLS_POLICY,
      open: false,
      defaultAction: noApplication(),
    });
    if (!props.protect(this.alb)) {
      acknowledge(this.alb, 'ALBWAFEnabled', 'Internal, in a profile without a WAF: only the compute subnets reach it (its ' +
        'security group), so no request from the internet does.');
    }
  }
}

export interface PrivateHostRouteProps {
  /** The VPC the private zone answers in. */
  readonly vpc: ec2.IVpc;
  /** The private load balancer's listener and security group, and its alias target. */
  readonly listener: elbv2.IApplicationListener;
  /** The private load balancer's security group: it may reach the application's port. */
  readonly securityGroup: ec2.ISecurityGroup;
  /** The private load balancer's DNS name and canonical hosted zone, the private record's alias target. */
  readonly alias: { readonly dnsName: string; readonly hostedZoneId: string };
  /** The application's host name: a private zone of that name answers it inside the VPC. */
  readonly host: string;
  /** The rule's priority on the private listener: the application's listener priority, unique on the platform. */
  readonly priority: number;
  /** The port the target group sends to. */
  readonly applicationPort: number;
  /** The target group's health check path. */
  readonly healthCheckPath: string;
  /** The port the health check calls. @default - the application port */
  readonly healthCheckPort?: number;
  /** The application's group: it admits the private load balancer on its port. */
  readonly applicationSecurityGroup: ec2.ISecurityGroup;
  /**
   * The certificate of a host the platform's does not cover, which its stack adds to the public listener: added here
   * too, or HTTPS to the host inside the VPC would meet the platform's certificate. @default - the platform's covers it
   */
  readonly certificate?: acm.ICertificate;
}

/**
 * An application's private route, in its own stack: a target group on the private load balancer, a listener rule for
 * its host name, and a private hosted zone of exactly that name in the VPC with its apex aliased to the private load
 * balancer. Inside the VPC `https://<host>` then reaches the application without leaving it; every other name
 * (the domain's other hosts, the identity provider) resolves as before. `register` attaches the application's targets.
 */
export class PrivateHostRoute extends Construct {
  private readonly props: PrivateHostRouteProps;

  constructor(scope: Construct, id: string, props: PrivateHostRouteProps) {
    super(scope, id);
    this.props = props;
    for (const port of props.healthCheckPort === undefined ? [props.applicationPort] : [props.applicationPort, props.healthCheckPort]) {
      props.applicationSecurityGroup.addIngressRule(props.securityGroup, ec2.Port.tcp(port), 'From the private load balancer');
      props.securityGroup.addEgressRule(props.applicationSecurityGroup, ec2.Port.tcp(port), `To ${props.host}`);
    }
    const zone = new route53.PrivateHostedZone(this, 'Zone', {
      zoneName: props.host,
      vpc: props.vpc,
      comment: `${props.host} inside the VPC: the platform's private load balancer`,
    });
    const { dnsName, hostedZoneId } = props.alias;
    new route53.ARecord(this, 'Dns', { zone, target: route53.RecordTarget.fromAlias({ bind: () => ({ dnsName, hostedZoneId }) }) });
    if (props.certificate) props.listener.addCertificates('Certificate', [elbv2.ListenerCertificate.fromCertificateManager(props.certificate)]);
  }

  /** A target group for the application, routed from the private listener by its host name. */
  public targetGroup(targetType: elbv2.TargetType): elbv2.ApplicationTargetGroup {
    const { vpc, applicationPort, healthCheckPath, healthCheckPort } = this.props;
    const targetGroup = applicationTargetGroup(this, vpc, applicationPort, healthCheckPath, targetType, healthCheckPort);
    new elbv2.ApplicationListenerRule(this, 'Rule', {
      listener: this.props.listener,
      priority: this.props.priority,
      conditions: [elbv2.ListenerCondition.hostHeaders([this.props.host])],
      action: forwardAction(targetGroup, undefined, false),
    });
    return targetGroup;
  }
}

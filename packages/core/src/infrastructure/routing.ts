import { createHash } from 'node:crypto';
import {
  aws_certificatemanager as acm, type aws_ec2 as ec2, aws_elasticloadbalancingv2 as elbv2, aws_route53 as route53,
  Duration, Fn, SecretValue,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { OIDC_DEFAULT_SCOPES } from '../context/context-keys';
import type { OidcProviderSettings } from '../contract/oidc-integration';

/** How the load balancer reaches an application: the runtimes build on this, standalone or on a platform. */
export interface ApplicationRoute {
  /** The load balancer's security group: the application admits it on its port, and nothing else from the internet. */
  readonly securityGroup: ec2.ISecurityGroup;
  /** The load balancer's `app/<name>/<id>`: with the target group's, the dimensions of its CloudWatch metrics. */
  readonly loadBalancerFullName: string;
  /** A target group for the application's port and health check. */
  targetGroup(targetType: elbv2.TargetType): elbv2.ApplicationTargetGroup;
  /** Sends the application's requests to `targetGroup`, behind OIDC sign-in when the load balancer authenticates. */
  route(targetGroup: elbv2.ApplicationTargetGroup): void;
}

/** The statuses the load balancer's health check takes as healthy; the EC2 boot asks the same before it signals. */
export const HEALTHY_HTTP_CODES = { low: 200, high: 399 } as const;

/** A target group for an application's port and health check. */
export function applicationTargetGroup(scope: Construct, vpc: ec2.IVpc, port: number, healthCheckPath: string,
  targetType: elbv2.TargetType, healthCheckPort?: number): elbv2.ApplicationTargetGroup {
  return new elbv2.ApplicationTargetGroup(scope, 'Targets', {
    vpc,
    port,
    protocol: elbv2.ApplicationProtocol.HTTP,
    targetType,
    deregistrationDelay: Duration.seconds(30),
    healthCheck: {
      path: healthCheckPath, // a query string is sent as part of the path
      port: healthCheckPort === undefined ? undefined : String(healthCheckPort), // undefined: the traffic port
      healthyHttpCodes: `${HEALTHY_HTTP_CODES.low}-${HEALTHY_HTTP_CODES.high}`,
      interval: Duration.seconds(30),
      healthyThresholdCount: 2,
      unhealthyThresholdCount: 5,
    },
  });
}

/**
 * Forward to `targetGroup`, after OIDC sign-in by the load balancer when `oidc` is given (the client secret by
 * reference). The load balancer then calls the identity provider over HTTPS: `idpEgress` lets this rule add that egress
 * to the load balancer's group; on a platform the platform adds it once instead, as an alb-oidc application attaches.
 */
export function forwardAction(targetGroup: elbv2.ApplicationTargetGroup, oidc?: OidcProviderSettings, idpEgress = true): elbv2.ListenerAction {
  const forward = elbv2.ListenerAction.forward([targetGroup]);
  return oidc ? elbv2.ListenerAction.authenticateOidc({
    issuer: oidc.issuer,
    authorizationEndpoint: oidc.authorizationEndpoint,
    tokenEndpoint: oidc.tokenEndpoint,
    userInfoEndpoint: oidc.userInfoEndpoint,
    clientId: oidc.clientId,
    clientSecret: SecretValue.secretsManager(oidc.clientSecretArn),
    scope: (oidc.scopes ?? OIDC_DEFAULT_SCOPES).join(' '),
    onUnauthenticatedRequest: elbv2.UnauthenticatedAction.AUTHENTICATE,
    allowHttpsOutbound: idpEgress,
    next: forward,
  }) : forward;
}

/**
 * Under alb-oidc, the listener rule that lets `tokenPaths` skip the sign-in: requests to them reach the application,
 * which authenticates them itself (API tokens). `hostHeaders` narrows it to one host on a platform's listener.
 */
export function tokenPathsRule(scope: Construct, listener: elbv2.IApplicationListener, targetGroup: elbv2.ApplicationTargetGroup,
  tokenPaths: string[], priority: number, hostHeaders?: string[]): elbv2.ApplicationListenerRule {
  return new elbv2.ApplicationListenerRule(scope, 'TokenPathsRule', {
    listener,
    priority,
    conditions: [...hostHeaders ? [elbv2.ListenerCondition.hostHeaders(hostHeaders)] : [], elbv2.ListenerCondition.pathPatterns(tokenPaths)],
    action: elbv2.ListenerAction.forward([targetGroup]),
  });
}

/**
 * The listener-rule priorities an application takes on a platform's listener: its own, and the one before for its
 * token paths, which the load balancer must evaluate first (the lower number wins).
 */
export function listenerRulePriorities(priority: number, tokenPaths?: string[]): number[] {
  return tokenPaths ? [priority - 1, priority] : [priority];
}

/** Listener-rule priorities an application load balancer accepts. */
export const LISTENER_PRIORITY = {
  /**
   * 1 to 50000, each at most once per listener.
   * @see https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-elasticloadbalancingv2-listenerrule.html#cfn-elasticloadbalancingv2-listenerrule-priority
   */
  min: 1,
  max: 50000,
} as const;

/**
 * A host name's listener-rule priority, the same on every synth: its SHA-256 mapped onto `LISTENER_PRIORITY`. Host
 * rules never overlap, so their order does not matter; two host names that map to one priority are refused at synth
 * (`Platform`), and `listenerPriority` settles it.
 */
export function defaultListenerPriority(host: string): number {
  const hash = createHash('sha256').update(host).digest().readUInt32BE(0);
  return LISTENER_PRIORITY.min + (hash % (LISTENER_PRIORITY.max - LISTENER_PRIORITY.min + 1));
}

export interface HostRouteProps {
  /** The VPC of the target group. */
  readonly vpc: ec2.IVpc;
  /** The platform's listener and its load balancer's security group. */
  readonly listener: elbv2.IApplicationListener;
  /** The load balancer's security group: it may reach the application's port. */
  readonly securityGroup: ec2.ISecurityGroup;
  /** The port the target group sends to. */
  readonly applicationPort: number;
  /** The target group's health check path. */
  readonly healthCheckPath: string;
  /** The port the health check calls. @default - the application port */
  readonly healthCheckPort?: number;
  /** The application's host name: requests for it, and only those, reach the application. */
  readonly host: string;
  /** The rule's priority on the listener, unique on it (`defaultListenerPriority`, or `listenerPriority`). */
  readonly priority: number;
  /** `alb-oidc`: the load balancer signs users in on this rule only. @default - no sign-in by the load balancer */
  readonly oidc?: OidcProviderSettings;
  /** Under `oidc`, paths that skip the sign-in, on a rule of priority `priority - 1`. @default - none */
  readonly tokenPaths?: string[];
  /** A certificate for `host` the listener's own does not cover, added to it (SNI). @default - the listener's covers it */
  readonly certificate?: acm.ICertificate;
  /** An alias record for `host` in this zone, to the load balancer. @default - no record */
  readonly record?: { readonly zone: route53.IHostedZone; readonly dnsName: string; readonly hostedZoneId: string };
}

/**
 * An application on a platform's load balancer, all in the application's stack: its target group, a listener rule that
 * matches its host name, its certificate on the listener when the listener's does not cover it, its DNS record.
 * Deleting the stack removes exactly these.
 */
export class HostRoute extends Construct implements ApplicationRoute {
  public readonly securityGroup: ec2.ISecurityGroup;
  public readonly loadBalancerFullName: string;
  private readonly props: HostRouteProps;

  constructor(scope: Construct, id: string, props: HostRouteProps) {
    super(scope, id);
    this.props = props;
    this.securityGroup = props.securityGroup;
    // A listener's ARN is `arn:...:listener/app/<name>/<id>/<listener id>`: the load balancer's full name is its middle.
    const parts = Fn.split('/', props.listener.listenerArn);
    this.loadBalancerFullName = Fn.join('/', [Fn.select(1, parts), Fn.select(2, parts), Fn.select(3, parts)]);
    if (props.certificate) props.listener.addCertificates('Certificate', [elbv2.ListenerCertificate.fromCertificateManager(props.certificate)]);
    if (props.record) {
      const { dnsName, hostedZoneId } = props.record;
      new route53.ARecord(this, 'Dns', {
        zone: props.record.zone,
        recordName: props.host,
        target: route53.RecordTarget.fromAlias({ bind: () => ({ dnsName, hostedZoneId }) }),
      });
    }
  }

  public targetGroup(targetType: elbv2.TargetType): elbv2.ApplicationTargetGroup {
    const { vpc, applicationPort, healthCheckPath, healthCheckPort } = this.props;
    return applicationTargetGroup(this, vpc, applicationPort, healthCheckPath, targetType, healthCheckPort);
  }

  public route(targetGroup: elbv2.ApplicationTargetGroup): void {
    new elbv2.ApplicationListenerRule(this, 'Rule', {
      listener: this.props.listener,
      priority: this.props.priority,
      conditions: [elbv2.ListenerCondition.hostHeaders([this.props.host])],
      // The egress to the identity provider is the platform's: one rule for every alb-oidc application. Each stack
      // adding the same rule to the shared group would be refused as a duplicate, and deleting one would remove it for all.
      action: forwardAction(targetGroup, this.props.oidc, false),
    });
    if (this.props.oidc && this.props.tokenPaths) {
      const [tokenPriority] = listenerRulePriorities(this.props.priority, this.props.tokenPaths);
      tokenPathsRule(this, this.props.listener, targetGroup, this.props.tokenPaths, tokenPriority, [this.props.host]);
    }
  }
}

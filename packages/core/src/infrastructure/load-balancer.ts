import {
  aws_certificatemanager as acm, aws_ec2 as ec2, aws_elasticloadbalancingv2 as elbv2, aws_iam as iam,
  aws_route53 as route53, aws_route53_targets as targets, aws_s3 as s3, aws_wafv2 as wafv2, CfnResource, Duration,
  Lazy, region_info as regionInfo, RemovalPolicy, Stack, Token,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import type { Logging } from './logging';
import { boundedName, NAME_LIMITS, shortHash } from './names';
import type { NetworkAccess } from './network';
import { type ApplicationRoute, applicationTargetGroup, forwardAction, LISTENER_PRIORITY, tokenPathsRule } from './routing';
import { blockedRequestsRule, type RequestBlock } from './waf-blocked-requests';
import { type BodyAllowance, oversizedBodyRule, SIZE_RESTRICTIONS_BODY } from './waf-body-limits';
import { WEB_ACL_CAPACITY, webAclCapacity } from './waf-capacity';
import { type HostRateLimit, rateLimitRules } from './waf-rate-limits';
import { acknowledge } from '../compliance/acknowledge';
import type { BlockedRequest } from '../contract/blocked-request';
import type { OidcProviderSettings } from '../contract/oidc-integration';
import { WAF_RATE_LIMIT } from '../contract/rate-limit';
import type { RequestBodyLimit } from '../contract/request-body-limit';
import { UserError } from '../errors';
import { warn } from '../warnings';

/** TLS for the load balancer. */
export interface TlsSettings {
  readonly fqdn: string;
  /** Domain of the hosted zone (the zone's name). */
  readonly domain: string;
  readonly hostedZoneId?: string;
  readonly certificateArn?: string;
  /**
   * The created certificate also covers every name one label below `fqdn` (`*.<fqdn>`), and no record is made: a
   * platform's load balancer, whose applications make their own records.
   * @default false
   */
  readonly shared?: boolean;
}

/** Strict-Transport-Security on every HTTPS response: a year, subdomains included. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** Days the load balancer's access logs are kept: over a year (PCI DSS 10.5.1). */
export const ACCESS_LOG_DAYS = 400;
/** Days a deleted, overwritten or expired access log stays restorable as a noncurrent version. */
export const ACCESS_LOG_NONCURRENT_DAYS = 30;

/** Headers WAF's log replaces with REDACTED: the session cookie and credentials. */
export const WAF_REDACTED_HEADERS = ['cookie', 'authorization'];

/** An application's own rules in the web ACL. */
export interface ApplicationWafRules {
  /** Its paths that take bodies over `WAF_BODY_SIZE_LIMIT`, each with its largest. */
  readonly requestBodyLimits: RequestBodyLimit[];
  /** Its requests blocked from outside. */
  readonly blockedRequests: BlockedRequest[];
  /** Its host on a platform's shared load balancer. @default - every host (a standalone load balancer) */
  readonly host?: string;
  /** Requests one address may send to its host in 5 minutes (`rateLimit`), on a platform. @default - the load balancer's `rateLimit` */
  readonly rateLimit?: number;
}

export interface LoadBalancerProps {
  /** The VPC and the public subnets the load balancer is placed in. */
  readonly network: NetworkAccess;
  /**
   * The application's port and health check, for `targetGroup`.
   * @default - no application behind the listener's default action: it answers 404 (a platform's listener, whose
   * applications are routed by host name, `HostRoute`)
   */
  readonly applicationPort?: number;
  /** The application's health check path, for `targetGroup`. @default - none, as `applicationPort` */
  readonly healthCheckPath?: string;
  /** The port the health check calls. @default - the application port */
  readonly healthCheckPort?: number;
  /** @default - plain HTTP on port 80 */
  readonly tls?: TlsSettings;
  /** When set, the load balancer signs users in before any request reaches the application (needs `tls`). */
  readonly oidc?: OidcProviderSettings;
  /** Under `oidc`, paths that skip the sign-in (the application authenticates them). @default - none */
  readonly tokenPaths?: string[];
  /** Refuse deleting the load balancer until this is turned off (the profile's). */
  readonly deletionProtection: boolean;
  /** A WAF web ACL with AWS's managed rules in front of it, logged (the profile's). */
  readonly waf: boolean;
  /** Under `waf`, requests one address may send in 5 minutes, to a host without a limit of its own. @default WAF_RATE_LIMIT */
  readonly rateLimit?: number;
  /** Access logs to a bucket of the stack (the profile's). */
  readonly accessLogs: boolean;
  /** Of the access-log bucket: kept with the stack's data in STAGING and PRODUCTION. */
  readonly removalPolicy: RemovalPolicy;
  /** Where WAF logs go. */
  readonly logging: Logging;
}

/**
 * The TLS policy of every HTTPS listener: TLS 1.3, and TLS 1.2 with the restricted (AEAD-only, no AES-CBC) suites and
 * a post-quantum hybrid key exchange, the strongest policy that still serves TLS 1.2 clients (aws-cdk-lib 2.270.0
 * SslPolicy, after ELB's policy table https://docs.aws.amazon.com/elasticloadbalancing/latest/application/describe-ssl-policies.html).
 */
export const LISTENER_TLS_POLICY = elbv2.SslPolicy.TLS13_12_RES_PQ;

/** What a listener answers for a request no application is routed for. */
export function noApplication(): elbv2.ListenerAction {
  return elbv2.ListenerAction.fixedResponse(404, { contentType: 'text/plain', messageBody: 'No application answers at this address.' });
}

/**
 * An application load balancer as the framework builds every one: headers that are not valid HTTP dropped, and
 * requests that might be smuggled past the application (HTTP desync) refused, not only classified.
 */
export function hardenedLoadBalancer(scope: Construct, id: string, props: elbv2.ApplicationLoadBalancerProps): elbv2.ApplicationLoadBalancer {
  const alb = new elbv2.ApplicationLoadBalancer(scope, id, { ...props, dropInvalidHeaderFields: true });
  alb.setAttribute('routing.http.desync_mitigation_mode', 'strictest');
  return alb;
}

/**
 * The public application load balancer: HTTPS with TLS 1.2+ and HTTP redirected to it when TLS is on, a DNS record
 * for the FQDN, optional OIDC sign-in, WAF and access logs per profile.
 */
export class LoadBalancer extends Construct implements ApplicationRoute {
  public readonly alb: elbv2.ApplicationLoadBalancer;
  private webAcl?: wafv2.CfnWebACL;
  public readonly securityGroup: ec2.SecurityGroup;
  /** The listener that carries application traffic (HTTPS with TLS, HTTP without). */
  public readonly listener: elbv2.ApplicationListener;
  /** The public base address, `https://<fqdn>` or `http://<load balancer DNS name>`. */
  public readonly url: string;
  /** The listener's certificate, with TLS. */
  public readonly certificate?: acm.ICertificate;
  public get loadBalancerFullName(): string { return this.alb.loadBalancerFullName; }

  private readonly props: LoadBalancerProps;
  private accessLogs?: s3.Bucket;
  private readonly bodyAllowances: BodyAllowance[] = [];
  private readonly requestBlocks: RequestBlock[] = [];
  private readonly hostRateLimits: HostRateLimit[] = [];

  constructor(scope: Construct, id: string, props: LoadBalancerProps) {
    super(scope, id);
    this.props = props;
    this.securityGroup = new ec2.SecurityGroup(this, 'SecurityGroup', {
      vpc: props.network.vpc,
      description: 'Public load balancer',
      allowAllOutbound: false,
    });
    this.alb = hardenedLoadBalancer(this, 'Alb', {
      vpc: props.network.vpc,
      vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC },
      internetFacing: true,
      securityGroup: this.securityGroup,
      deletionProtection: props.deletionProtection,
    });
    acknowledge(this.securityGroup, 'AwsSolutions-EC23', 'Internet-facing load balancer: it admits 443 (and 80, ' +
      'which only redirects to 443) from anywhere; the application itself admits traffic from this group only.');
    if (props.accessLogs) this.logAccessLogs(this.alb);
    if (props.waf) this.addWaf();

    if (props.tls) {
      const zone = props.tls.hostedZoneId
        ? route53.HostedZone.fromHostedZoneAttributes(this, 'Zone', { hostedZoneId: props.tls.hostedZoneId, zoneName: props.tls.domain })
        : undefined;
      const certificate = props.tls.certificateArn
        ? acm.Certificate.fromCertificateArn(this, 'Certificate', props.tls.certificateArn)
        : new acm.Certificate(this, 'Certificate', {
          domainName: props.tls.fqdn,
          subjectAlternativeNames: props.tls.shared ? [`*.${props.tls.fqdn}`] : undefined,
          validation: acm.CertificateValidation.fromDns(zone),
        });
      this.certificate = certificate;
      this.listener = this.alb.addListener('Https', {
        port: 443,
        protocol: elbv2.ApplicationProtocol.HTTPS,
        certificates: [certificate],
        sslPolicy: LISTENER_TLS_POLICY,
        open: true,
      });
      // Browsers that saw the site once never try plain HTTP again for a year.
      (this.listener.node.defaultChild as elbv2.CfnListener).listenerAttributes = [
        { key: 'routing.http.response.strict_transport_security.header_value', value: HSTS },
      ];
      const redirect = this.alb.addListener('Http', {
        port: 80,
        open: true,
        defaultAction: elbv2.ListenerAction.redirect({ protocol: 'HTTPS', port: '443', permanent: true }),
      });
      acknowledge(redirect, 'ELBv2ACMCertificateRequired', 'This listener only answers with a permanent redirect to ' +
        'HTTPS on 443, which uses the ACM certificate; no application traffic is served over it.');
      if (zone && !props.tls.shared) {
        new route53.ARecord(this, 'Dns', {
          zone,
          recordName: props.tls.fqdn,
          target: route53.RecordTarget.fromAlias(new targets.LoadBalancerTarget(this.alb)),
        });
      }
      this.url = `https://${props.tls.fqdn}`;
    } else {
      this.listener = this.alb.addListener('Http', { port: 80, open: true });
      this.url = `http://${this.alb.loadBalancerDnsName}`;
    }
    if (props.applicationPort === undefined) {
      this.listener.addAction('NoApplication', { action: noApplication() });
    }
  }

  /** Routes the listener's default action to the application's targets, behind OIDC sign-in when the load balancer authenticates. */
  public route(targetGroup: elbv2.ApplicationTargetGroup): void {
    this.listener.addAction('Application', { action: forwardAction(targetGroup, this.props.oidc) });
    // The only rule of this listener besides its default action.
    if (this.props.oidc && this.props.tokenPaths) tokenPathsRule(this, this.listener, targetGroup, this.props.tokenPaths, LISTENER_PRIORITY.min);
  }

  /** A target group for the application's port and health check. */
  public targetGroup(targetType: elbv2.TargetType): elbv2.ApplicationTargetGroup {
    const { applicationPort, healthCheckPath } = this.props;
    if (applicationPort === undefined || healthCheckPath === undefined) throw new Error('targetGroup() on a load balancer without an application');
    return applicationTargetGroup(this, this.props.network.vpc, applicationPort, healthCheckPath, targetType, this.props.healthCheckPort);
  }

  /**
   * Access logs to a bucket of the stack. CDK's `logAccessLogs` also allows `delivery.logs.amazonaws.com`, which an
   * application load balancer does not use: the bucket policy here holds only ELB's own statement (the region's ELB
   * account, or the log-delivery service principal in regions opened since August 2022, as aws-cdk-lib's RegionInfo
   * says), confined to this account's prefix. AWS documents no source condition for ELB's delivery; see docs/security-profiles.md.
   */
  public logAccessLogs(alb: elbv2.ApplicationLoadBalancer): void {
    if (this.accessLogs) {
      // The bucket's policy admits ELB's delivery for the account already: every load balancer logs under its own name.
      alb.setAttribute('access_logs.s3.enabled', 'true');
      alb.setAttribute('access_logs.s3.bucket', this.accessLogs.bucketName);
      const existing = this.accessLogs.policy?.node.defaultChild as CfnResource | undefined;
      if (existing) alb.node.defaultChild?.node.addDependency(existing);
      return;
    }
    const bucket = this.accessLogBucket();
    this.accessLogs = bucket;
    const stack = Stack.of(this);
    // The profiles with access logs require a region (ProfileSettings.regionRequired).
    if (Token.isUnresolved(stack.region)) throw new Error('Access logs without a region passed the context reader');
    alb.setAttribute('access_logs.s3.enabled', 'true');
    alb.setAttribute('access_logs.s3.bucket', bucket.bucketName);
    const elbAccount = regionInfo.RegionInfo.get(stack.region).elbv2Account;
    bucket.addToResourcePolicy(new iam.PolicyStatement({
      principals: [elbAccount ? new iam.AccountPrincipal(elbAccount) : new iam.ServicePrincipal('logdelivery.elasticloadbalancing.amazonaws.com')],
      actions: ['s3:PutObject'],
      resources: [bucket.arnForObjects(`AWSLogs/${stack.account}/*`)],
    }));
    // The load balancer checks that it may write when its attributes are set.
    const policy = bucket.policy?.node.defaultChild as CfnResource | undefined;
    if (policy) alb.node.defaultChild?.node.addDependency(policy);
  }

  private accessLogBucket(): s3.Bucket {
    const bucket = new s3.Bucket(this, 'AccessLogs', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      versioned: true,
      removalPolicy: this.props.removalPolicy,
      autoDeleteObjects: false,
      // Versioned: an expired (or deleted) log stays as a noncurrent version, which must expire too, or the bucket keeps
      // every log for ever; a deleted or overwritten log can still be restored for ACCESS_LOG_NONCURRENT_DAYS.
      lifecycleRules: [
        { expiration: Duration.days(ACCESS_LOG_DAYS), noncurrentVersionExpiration: Duration.days(ACCESS_LOG_NONCURRENT_DAYS) },
        // Delete markers left once their versions are gone (S3 refuses this flag in a rule that also sets days).
        { expiredObjectDeleteMarker: true },
      ],
    });
    for (const rule of ['S3DefaultEncryptionKMS', 'EncryptedWithCustomerKey']) {
      acknowledge(bucket, rule, 'Load-balancer access logs can only be delivered to a bucket encrypted with SSE-S3 ' +
        '(AES-256), not with KMS; the bucket is private, TLS-only and versioned.');
    }
    acknowledge(bucket, 'AwsSolutions-S1', 'This bucket is the access-log destination; logging access to it would need ' +
      'another log bucket with the same finding. Object-level access is recorded by CloudTrail.');
    acknowledge(bucket, 'S3BucketLoggingEnabled', 'This bucket is the access-log destination; logging access to it ' +
      'would need another log bucket with the same finding. Object-level access is recorded by CloudTrail.');
    acknowledge(bucket, 'S3BucketReplicationEnabled', `Access logs are kept versioned for ${ACCESS_LOG_DAYS} days in one region; ` +
      'cross-region replication of logs is an organisation-wide choice made outside this stack.');
    acknowledge(bucket, 'S3BucketDefaultLockEnabled', 'No Object Lock: nothing here can confirm that Elastic Load ' +
      'Balancing delivers logs to a bucket with a default retention, and a lock would keep logs past the lifecycle rule. ' +
      `Instead the bucket is versioned: an overwritten or deleted log stays restorable for ${ACCESS_LOG_NONCURRENT_DAYS} days.`);
    return bucket;
  }

  /**
   * Adds a certificate to the listener (SNI) once, however many applications name it: its logical id is derived from
   * the ARN, so it stays while one application names it.
   */
  public addSharedCertificate(certificateArn: string, listeners: elbv2.IApplicationListener[] = [this.listener]): void {
    listeners.forEach((listener, index) => {
      const id = `Certificate-${shortHash(certificateArn)}${index === 0 ? '' : `-${index}`}`;
      if (this.node.tryFindChild(id)) return;
      new elbv2.ApplicationListenerCertificate(this, id, { listener, certificates: [elbv2.ListenerCertificate.fromArn(certificateArn)] });
    });
  }

  /**
   * An application's own WAF rules: requests with bodies over the WAF's `WAF_BODY_SIZE_LIMIT` let through to its
   * declared paths, within their limits, and the requests it wants blocked (on a platform, for the application's host
   * only). The web ACL is rendered at synth, after every application attached.
   */
  public addApplicationRules(rules: ApplicationWafRules): void {
    if (rules.requestBodyLimits.length === 0 && rules.blockedRequests.length === 0 && rules.rateLimit === undefined) return;
    if (rules.rateLimit !== undefined && rules.host === undefined) throw new Error('A rate limit of its own needs the application\'s host');
    const before = this.props.waf ? webAclCapacity(this.wafRules()) : 0;
    this.bodyAllowances.push({ limits: rules.requestBodyLimits, host: rules.host });
    this.requestBlocks.push({ requests: rules.blockedRequests, host: rules.host });
    if (rules.rateLimit !== undefined) this.hostRateLimits.push({ host: rules.host!, limit: rules.rateLimit });
    if (this.props.waf) this.checkWafCapacity(before, webAclCapacity(this.wafRules()));
  }

  /**
   * Refuses a web ACL over WAF's capacity, and warns when it passes the capacity WAF's base price includes, naming
   * the hosts whose allowances make it grow.
   */
  private checkWafCapacity(before: number, after: number): void {
    const hosts = [...new Set(this.bodyAllowances.map((a) => a.host ?? '(any host)'))].join(', ');
    const what = `The web ACL of ${Stack.of(this).stackName} would need an estimated ${after} WCUs with the large-body paths, ` +
      `blocked requests and rate limits of ${hosts}`;
    if (after > WEB_ACL_CAPACITY.max) {
      throw new UserError(`${what}; WAF takes at most ${WEB_ACL_CAPACITY.max}. Declare fewer requestBodyLimits paths or ` +
        'blockedRequests (one prefix or pattern can cover several) or rateLimit keys, or attach some applications to another platform.', this);
    }
    if (before <= WEB_ACL_CAPACITY.included && after > WEB_ACL_CAPACITY.included) {
      warn(this, 'wafCapacity', `${what}; above ${WEB_ACL_CAPACITY.included} WAF charges more for the ` +
        'web ACL\'s requests (AWS WAF pricing). Declare fewer requestBodyLimits paths or blockedRequests if that is not intended.');
    }
  }

  /** The web ACL's rules as they stand: rendered at synth, once every application has attached. */
  private wafRules(): wafv2.CfnWebACL.RuleProperty[] {
    const rule = (name: string, priority: number, countOnly: string[] = []) => ({
      name,
      priority,
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name,
          ...countOnly.length > 0 ? { ruleActionOverrides: countOnly.map((r) => ({ name: r, actionToUse: { count: {} } })) } : {},
        },
      },
      visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: name, sampledRequestsEnabled: true },
    });
    const blocking = blockedRequestsRule(5, this.requestBlocks);
    // The shared rate limit first; the hosts' own after the others (priorities 6 on).
    const [shared, ...ownLimits] = rateLimitRules(this.props.rateLimit ?? WAF_RATE_LIMIT, this.hostRateLimits, (i) => (i === 0 ? 0 : 5 + i));
    return [
      shared,
      // The body-size rule only labels what it matches; the next rule, which sees the label, blocks all of it but
      // the applications' declared paths within their limits.
      rule('AWSManagedRulesCommonRuleSet', 1, [SIZE_RESTRICTIONS_BODY.rule]),
      oversizedBodyRule(2, this.bodyAllowances),
      rule('AWSManagedRulesKnownBadInputsRuleSet', 3),
      rule('AWSManagedRulesAmazonIpReputationList', 4),
      ...blocking ? [blocking] : [],
      ...ownLimits,
    ];
  }

  /**
   * Puts another load balancer of the platform (the internal one) behind the same web ACL, when there is one: a request
   * from inside the VPC meets the same managed rules, rate limit, body-size and blocked-request rules as one from the
   * internet (WAF associates a regional web ACL with internal Application Load Balancers too).
   */
  public protect(alb: elbv2.IApplicationLoadBalancer, id: string): boolean {
    if (!this.webAcl) return false;
    new wafv2.CfnWebACLAssociation(this, id, { resourceArn: alb.loadBalancerArn, webAclArn: this.webAcl.attrArn });
    return true;
  }

  private addWaf(): void {
    const acl = this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: {
        cloudWatchMetricsEnabled: true,
        // A 125-128 character stack name would otherwise pass WAF's 128-character metric-name limit.
        metricName: boundedName(`${Stack.of(this).stackName}-waf`, NAME_LIMITS.wafMetricName),
        sampledRequestsEnabled: true,
      },
      rules: Lazy.any({ produce: () => this.wafRules() }),
    });
    // WAF writes only to log groups whose name starts with aws-waf-logs-.
    const wafLogs = this.props.logging.logGroup('WafLogs', `aws-waf-logs-${Stack.of(this).stackName}`);
    new wafv2.CfnLoggingConfiguration(this, 'WebAclLogging', {
      resourceArn: acl.attrArn,
      // The session cookie and credentials must not sit in a log kept for a year.
      redactedFields: WAF_REDACTED_HEADERS.map((name) => ({ singleHeader: { Name: name } })),
      // The group's reference, not its name as text: the logging configuration waits for the group.
      logDestinationConfigs: [this.props.logging.logGroupArn(wafLogs.logGroupName)],
    });
    new wafv2.CfnWebACLAssociation(this, 'WebAclAssociation', {
      resourceArn: this.alb.loadBalancerArn,
      webAclArn: acl.attrArn,
    });
  }
}

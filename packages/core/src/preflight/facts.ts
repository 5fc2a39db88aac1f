import type { AppState } from '../lifecycle/lifecycle-check';

/**
 * What a deployment assumes of the account and region, read from what it synthesised (every stack's template) and
 * from its context (cdk.json and the -c values): what `preflight`'s checks ask AWS about. Reading the templates sees
 * a platform configured in code as well as an application configured by keys.
 */
export interface DeploymentFacts {
  /** The deployment's context: cdk.json's `context`, then the -c values. */
  readonly context: Record<string, unknown>;
  /** Every stack's template, by stack name. */
  readonly stacks: AppState;
  /** `existingVpc` as given, when the deployment runs in a given VPC. */
  readonly existingVpc?: GivenVpc;
  /** The VPC endpoints the templates create. */
  readonly endpoints: CreatedEndpoint[];
  /** The ECR pull-through cache rules the templates create: prefix and the Docker Hub credential's secret. */
  readonly cacheRules: { readonly prefix: string; readonly credentialArn: string }[];
  /** The images pulled through a cache, pinned: `<prefix>/<repository>:<tag>@<digest>`. */
  readonly cachedImages: CachedImage[];
  /** The machine images the launch templates name by id (`ec2ImageId`), by stack; DEV's newest image is read at deployment. */
  readonly machineImages: { readonly stack: string; readonly imageId: string }[];
  /** The containers of the ECS task definitions: what each expects of its image. */
  readonly containers: TaskContainer[];
  /** Every Secrets Manager secret ARN the templates name (the ones given, not patterns). */
  readonly secretArns: string[];
  /** The record names the templates create, by the hosted zone id given for them. */
  readonly zoneRecords: { readonly zoneId: string; readonly names: string[] }[];
  /** The certificates the templates request (DNS-validated in a given zone). */
  readonly requestedCertificates: { readonly domainName: string; readonly zoneIds: string[] }[];
  /** The certificate ARNs given (`certificateArn`), with the record names their listeners serve. */
  readonly givenCertificates: { readonly arn: string; readonly names: string[] }[];
  /** Whether a template deploys the PCI DSS conformance pack (AWS Config). */
  readonly conformancePack: boolean;
  /** Whether a template enables Security Hub's PCI DSS standard. */
  readonly securityHubStandard: boolean;
  /** What the deployment adds toward the account's quotas. */
  readonly counts: QuotaCounts;
}

/** The given VPC, as `existingVpc` states it. */
export interface GivenVpc {
  readonly vpcId: string;
  readonly subnets: { readonly subnetId: string; readonly availabilityZone: string; readonly routeTableId?: string; readonly tier: string }[];
  readonly endpoints: 'existing' | 'create';
}

/** A VPC endpoint a template creates. */
export interface CreatedEndpoint {
  readonly stack: string;
  /** The service's last name part: `logs`, `secretsmanager`, `s3`, ... */
  readonly service: string;
  readonly type: string;
  readonly privateDns: boolean;
  /** The VPC id, when the template names one (a given VPC); undefined for a VPC the template creates. */
  readonly vpcId?: string;
  /** The route tables named by id (a gateway endpoint in a given VPC). */
  readonly routeTableIds: string[];
}

/** A container of an ECS task definition, as the template runs it. */
export interface TaskContainer {
  readonly stack: string;
  /** The image reference, its intrinsic functions written out as JSON. */
  readonly image: string;
  /** The user it runs as (`User`), if the template sets one. */
  readonly user?: string;
  /** The ports the load balancer or the workers send to (`PortMappings[].ContainerPort`). */
  readonly ports: number[];
  /** Where volumes are mounted (`MountPoints[].ContainerPath`). */
  readonly mounts: string[];
  /** Whether the template gives the command (`EntryPoint` or `Command`) rather than the image. */
  readonly command: boolean;
}

/** An image pulled through an ECR pull-through cache. */
export interface CachedImage {
  readonly stack: string;
  readonly prefix: string;
  /** The cache repository: `<prefix>/<upstream path>`. */
  readonly repository: string;
  readonly tag: string;
  readonly digest: string;
}

/** What the deployment adds toward the account's quotas. */
export interface QuotaCounts {
  /** Listener rules a listener gets, by the listener's reference (one load balancer may hold several listeners). */
  readonly rulesPerListener: Record<string, number>;
  readonly targetGroups: number;
  readonly elasticIps: number;
  /** The most inbound and the most outbound rules one security group gets, with that group's logical id. */
  readonly mostRules: { readonly inbound: GroupRules; readonly outbound: GroupRules };
}

/** A security group, `<stack>/<logical id>`, and how many rules of one direction it gets. */
export interface GroupRules {
  readonly group: string;
  readonly rules: number;
}

/** The facts of a synthesised deployment. */
export function deploymentFacts(stacks: AppState, context: Record<string, unknown>, region: string): DeploymentFacts {
  const resources = Object.entries(stacks).flatMap(([stack, template]) =>
    Object.entries<any>(template.Resources ?? {}).map(([id, r]) => ({ stack, id, type: r.Type as string, props: r.Properties ?? {} })));
  const of = (type: string) => resources.filter((r) => r.type === type);
  const cacheRules = of('AWS::ECR::PullThroughCacheRule').map((r) => ({ prefix: r.props.EcrRepositoryPrefix, credentialArn: r.props.CredentialArn }))
    .filter((r) => typeof r.prefix === 'string' && typeof r.credentialArn === 'string');
  const text = Object.fromEntries(Object.entries(stacks).map(([stack, template]) => [stack, JSON.stringify(template)]));
  return {
    context,
    stacks,
    existingVpc: givenVpc(context.existingVpc),
    endpoints: of('AWS::EC2::VPCEndpoint').map((r) => ({
      stack: r.stack,
      service: String(resolveRegion(r.props.ServiceName, region)).split('.').pop()!,
      type: r.props.VpcEndpointType ?? 'Gateway',
      privateDns: r.props.PrivateDnsEnabled === true,
      vpcId: typeof r.props.VpcId === 'string' ? r.props.VpcId : undefined,
      routeTableIds: (r.props.RouteTableIds ?? []).filter((id: unknown) => typeof id === 'string'),
    })),
    cacheRules,
    cachedImages: cachedImages(text, cacheRules.map((r) => r.prefix)),
    machineImages: of('AWS::EC2::LaunchTemplate').map((r) => ({ stack: r.stack, imageId: r.props.LaunchTemplateData?.ImageId }))
      .filter((m) => typeof m.imageId === 'string'),
    containers: of('AWS::ECS::TaskDefinition').flatMap((r) => (r.props.ContainerDefinitions ?? []).map((c: any) => ({
      stack: r.stack,
      image: JSON.stringify(c.Image),
      user: typeof c.User === 'string' ? c.User : undefined,
      ports: (c.PortMappings ?? []).map((p: any) => p.ContainerPort).filter((p: unknown) => typeof p === 'number'),
      mounts: (c.MountPoints ?? []).map((m: any) => m.ContainerPath).filter((p: unknown) => typeof p === 'string'),
      command: c.EntryPoint !== undefined || c.Command !== undefined,
    }))),
    secretArns: [...new Set(Object.values(text).flatMap((t) => t.match(SECRET_ARN) ?? []))].sort(),
    zoneRecords: zoneRecords(of('AWS::Route53::RecordSet').map((r) => r.props)),
    requestedCertificates: of('AWS::CertificateManager::Certificate').map((r) => ({
      domainName: r.props.DomainName,
      zoneIds: (r.props.DomainValidationOptions ?? []).map((o: any) => o.HostedZoneId).filter((z: unknown) => typeof z === 'string'),
    })),
    givenCertificates: givenCertificates(of('AWS::ElasticLoadBalancingV2::Listener').map((r) => r.props), of('AWS::Route53::RecordSet').map((r) => r.props)),
    conformancePack: of('AWS::Config::ConformancePack').length > 0,
    securityHubStandard: of('AWS::SecurityHub::Standard').length > 0,
    counts: quotaCounts(resources),
  };
}

/** A secret's ARN as given (a pattern's `*` excluded): `arn:<partition>:secretsmanager:<region>:<account>:secret:<name>`. */
const SECRET_ARN = /arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@!-]+(?![A-Za-z0-9/_+=.@!*-])/g;

/** `existingVpc`'s value (an object, or its JSON from -c), or undefined. */
function givenVpc(value: unknown): GivenVpc | undefined {
  const vpc: any = typeof value === 'string' ? JSON.parse(value) : value;
  if (!vpc || typeof vpc.vpcId !== 'string') return undefined;
  const tier = (name: string) => (vpc[name] ?? []).map((s: any) => ({ ...s, tier: name }));
  return {
    vpcId: vpc.vpcId,
    subnets: [...tier('loadBalancerSubnets'), ...tier('computeSubnets'), ...tier('dataSubnets')],
    endpoints: vpc.endpoints === 'create' ? 'create' : 'existing',
  };
}

/** A value with `{"Ref": "AWS::Region"}` inside an `Fn::Join` resolved to `region`. */
function resolveRegion(value: any, region: string): unknown {
  if (typeof value === 'string') return value;
  const join = value?.['Fn::Join'];
  if (!join) return value;
  return join[1].map((part: any) => (part?.Ref === 'AWS::Region' ? region : part)).join(join[0]);
}

function cachedImages(text: Record<string, string>, prefixes: string[]): CachedImage[] {
  const images = new Map<string, CachedImage>();
  for (const [stack, t] of Object.entries(text)) {
    for (const prefix of prefixes) {
      // The prefix is the template's value: matched as text, never as a pattern.
      const literal = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const pattern = new RegExp(`${literal}/([a-z0-9._/-]+):([A-Za-z0-9_.-]+)@(sha256:[0-9a-f]{64})`, 'g');
      for (const [, path, tag, digest] of t.matchAll(pattern)) {
        images.set(`${prefix}/${path}:${tag}@${digest}`, { stack, prefix, repository: `${prefix}/${path}`, tag, digest });
      }
    }
  }
  return [...images.values()];
}

function zoneRecords(records: any[]): DeploymentFacts['zoneRecords'] {
  const byZone = new Map<string, Set<string>>();
  for (const r of records.filter((p) => typeof p.HostedZoneId === 'string' && typeof p.Name === 'string')) {
    byZone.set(r.HostedZoneId, (byZone.get(r.HostedZoneId) ?? new Set()).add(r.Name.replace(/\.$/, '')));
  }
  return [...byZone].map(([zoneId, names]) => ({ zoneId, names: [...names].sort() }));
}

function givenCertificates(listeners: any[], records: any[]): DeploymentFacts['givenCertificates'] {
  const names = [...new Set(records.filter((r) => typeof r.Name === 'string').map((r) => r.Name.replace(/\.$/, '')))].sort();
  const arns = new Set(listeners.flatMap((l) => (l.Certificates ?? []).map((c: any) => c.CertificateArn)).filter((a: unknown) => typeof a === 'string'));
  return [...arns].map((arn) => ({ arn: arn as string, names }));
}

function quotaCounts(resources: { stack: string; id: string; type: string; props: any }[]): QuotaCounts {
  const rulesPerListener: Record<string, number> = {};
  for (const r of resources.filter((x) => x.type === 'AWS::ElasticLoadBalancingV2::ListenerRule')) {
    const listener = JSON.stringify(r.props.ListenerArn);
    rulesPerListener[listener] = (rulesPerListener[listener] ?? 0) + 1;
  }
  const rules = (direction: 'Ingress' | 'Egress') => {
    const counts = new Map<string, number>();
    for (const r of resources.filter((x) => x.type === 'AWS::EC2::SecurityGroup')) counts.set(`${r.stack}/${r.id}`, (r.props[`SecurityGroup${direction}`] ?? []).length);
    for (const r of resources.filter((x) => x.type === `AWS::EC2::SecurityGroup${direction}`)) {
      const group = `${r.stack}/${r.props.GroupId?.['Fn::GetAtt']?.[0]}`;
      if (counts.has(group)) counts.set(group, counts.get(group)! + 1);
    }
    const [group, most] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
    return { group, rules: most };
  };
  return {
    rulesPerListener,
    targetGroups: resources.filter((r) => r.type === 'AWS::ElasticLoadBalancingV2::TargetGroup').length,
    elasticIps: resources.filter((r) => r.type === 'AWS::EC2::EIP').length,
    mostRules: { inbound: rules('Ingress'), outbound: rules('Egress') },
  };
}

import type { DeploymentGraph, DiagramNode, DrawnStack, Flow, NodeKind, Rule, Tier } from './graph-model';
import { networkFacts, serviceName } from './network-facts';
import { type Located, type Ref, Templates } from './templates';
import { PciDssScope } from '../../contract/pci-dss-scope';

export type { DeploymentGraph, DiagramNode, DrawnStack, Flow, NetworkFacts, NodeKind, Rule, Tier } from './graph-model';

/** The resources that sit in security groups, and where each keeps its groups and its subnets. */
const MEMBERS: readonly { type: string; kind: NodeKind; groups: (p: any) => unknown; subnets: (m: Located, t: Templates) => unknown }[] = [
  { type: 'AWS::ElasticLoadBalancingV2::LoadBalancer', kind: 'load-balancer', groups: (p) => p.SecurityGroups, subnets: (m) => props(m).Subnets },
  {
    type: 'AWS::ECS::Service',
    kind: 'application',
    groups: (p) => p.NetworkConfiguration?.AwsvpcConfiguration?.SecurityGroups,
    subnets: (m) => props(m).NetworkConfiguration?.AwsvpcConfiguration?.Subnets,
  },
  // An EC2 application's subnets are its Auto Scaling group's, which launches from the template.
  {
    type: 'AWS::EC2::LaunchTemplate',
    kind: 'application',
    // With AssociatePublicIpAddress stated, the groups are the first network interface's.
    groups: (p) => p.LaunchTemplateData?.SecurityGroupIds ?? p.LaunchTemplateData?.NetworkInterfaces?.[0]?.Groups,
    subnets: (m, t) => t.all('AWS::AutoScaling::AutoScalingGroup').filter((g) => t.resolve(g.stack, props(g).LaunchTemplate?.LaunchTemplateId) === m.key)
      .flatMap((g) => t.resolveAll(g.stack, props(g).VPCZoneIdentifier)),
  },
  { type: 'AWS::EC2::Instance', kind: 'application', groups: (p) => p.SecurityGroupIds, subnets: (m) => [props(m).SubnetId] },
  { type: 'AWS::EFS::MountTarget', kind: 'file-system', groups: (p) => p.SecurityGroups, subnets: (m) => [props(m).SubnetId] },
  { type: 'AWS::RDS::DBCluster', kind: 'database', groups: (p) => p.VpcSecurityGroupIds, subnets: (m, t) => subnetGroup(m, t, 'DBSubnetGroupName') },
  { type: 'AWS::RDS::DBInstance', kind: 'database', groups: (p) => p.VPCSecurityGroups, subnets: (m, t) => subnetGroup(m, t, 'DBSubnetGroupName') },
  {
    type: 'AWS::ElastiCache::ReplicationGroup',
    kind: 'cache',
    groups: (p) => p.SecurityGroupIds,
    subnets: (m, t) => subnetGroup(m, t, 'CacheSubnetGroupName'),
  },
  { type: 'AWS::EC2::VPCEndpoint', kind: 'endpoints', groups: (p) => p.SecurityGroupIds, subnets: (m) => props(m).SubnetIds },
  { type: 'AWS::Lambda::Function', kind: 'function', groups: (p) => p.VpcConfig?.SecurityGroupIds, subnets: (m) => props(m).VpcConfig?.SubnetIds },
];

const props = (m: Located): Record<string, any> => m.resource.Properties ?? {};
/** The subnets of the subnet group (RDS's, ElastiCache's) a member names in `property`. */
const subnetGroup = (m: Located, t: Templates, property: string) => t.get(t.resolve(m.stack, props(m)[property]) ?? '')?.resource.Properties?.SubnetIds;

/** An address range that is every address: the internet, as clients coming in or as where traffic goes out. */
const isAnywhere = (end: string) => end === 'cidr:0.0.0.0/0' || end === 'cidr:::/0';
const INTERNET = { inbound: 'internet', outbound: 'internet_egress' } as const;

/** CDK's placeholder egress rule of a group that allows no egress: no traffic, so no flow. */
const isNoTraffic = (r: any) => r.CidrIp === '255.255.255.255/32' && r.IpProtocol === 'icmp';

/** The graph of the stacks' templates: the first is the stack the diagrams are of; the others are drawn with it. */
export function deploymentGraph(stacks: readonly DrawnStack[]): DeploymentGraph {
  const t = new Templates(stacks);
  const scopes = new Map(stacks.map((s) => [s.stack, s.scope]));
  const tiers = subnetTiers(t);
  const members = groupMembers(t);
  const rules = securityGroupRules(t);
  const groups = new Set([...t.all('AWS::EC2::SecurityGroup').map((g) => g.key), ...members.keys(), ...rules.flatMap((r) => [r.from, r.to])]);
  const nodes = [...groups].filter((g) => !g.startsWith('cidr:') && !g.startsWith('prefix-list:'))
    .map((g) => groupNode(t, g, members.get(g) ?? [], tiers, scopes));
  nodes.push(...addressNodes(rules, t, tiers));
  const nodeOf = new Map(nodes.flatMap((n) => n.securityGroups.map((g) => [g, n.id] as const)));
  const flows = flowsOf(rules, nodeOf, nodes, t);
  const drawn = markShared(nodes, flows).sort(byKindThenTitle);
  return {
    stacks: stacks.map((s) => s.stack),
    nodes: drawn,
    flows,
    network: networkFacts(t, stacks, tiers, drawn),
  };
}

/** Each security group's members: the resources that sit in it, with their subnets. */
function groupMembers(t: Templates): Map<Ref, { kind: NodeKind; member: Located; subnets: Ref[] }[]> {
  const members = new Map<Ref, { kind: NodeKind; member: Located; subnets: Ref[] }[]>();
  for (const m of MEMBERS) {
    for (const member of t.all(m.type)) {
      const subnets = t.resolveAll(member.stack, m.subnets(member, t));
      for (const g of t.resolveAll(member.stack, m.groups(props(member)))) {
        members.set(g, [...members.get(g) ?? [], { kind: m.kind, member, subnets }]);
      }
    }
  }
  return members;
}

/** Each subnet's tier, by its route table's default route (internet gateway: public; NAT: private; none: isolated). */
function subnetTiers(t: Templates): Map<Ref, { tier: Tier; cidr?: string; zone: string }> {
  const routes = t.all('AWS::EC2::Route');
  const tiers = new Map<Ref, { tier: Tier; cidr?: string; zone: string }>();
  for (const a of t.all('AWS::EC2::SubnetRouteTableAssociation')) {
    const subnet = t.resolve(a.stack, a.resource.Properties?.SubnetId);
    const table = t.resolve(a.stack, a.resource.Properties?.RouteTableId);
    if (!subnet || !table) continue;
    const defaults = routes.filter((r) => t.resolve(r.stack, r.resource.Properties?.RouteTableId) === table &&
      r.resource.Properties?.DestinationCidrBlock === '0.0.0.0/0');
    const tier: Tier = defaults.some((r) => r.resource.Properties?.GatewayId) ? 'public'
      : defaults.some((r) => r.resource.Properties?.NatGatewayId) ? 'private' : 'isolated';
    const p = t.get(subnet)?.resource.Properties ?? {};
    tiers.set(subnet, { tier, cidr: typeof p.CidrBlock === 'string' ? p.CidrBlock : undefined, zone: JSON.stringify(p.AvailabilityZone) });
  }
  return tiers;
}

/** Every security-group rule that lets traffic through, from whom to whom, inline or a resource of its own. */
function securityGroupRules(t: Templates): Rule[] {
  const rules: Rule[] = [];
  const peer = (stack: string, r: any, side: 'Source' | 'Destination') =>
    t.resolve(stack, r[`${side}SecurityGroupId`]) ?? (r[`${side}PrefixListId`] ? `prefix-list:${JSON.stringify(r[`${side}PrefixListId`])}` : undefined) ??
    (typeof r.CidrIp === 'string' ? `cidr:${r.CidrIp}` : r.CidrIp ? `cidr:${JSON.stringify(r.CidrIp)}` : undefined) ??
    (r.CidrIpv6 ? `cidr:${r.CidrIpv6}` : undefined);
  const add = (id: string, stack: string, group: Ref | undefined, r: any, direction: 'ingress' | 'egress') => {
    if (!group || isNoTraffic(r)) return;
    const other = peer(stack, r, direction === 'ingress' ? 'Source' : 'Destination');
    if (!other) return;
    const [from, to] = direction === 'ingress' ? [other, group] : [group, other];
    rules.push({ id, from, to, ports: portsOf(r), description: r.Description });
  };
  for (const g of t.all('AWS::EC2::SecurityGroup')) {
    const p = g.resource.Properties ?? {};
    (p.SecurityGroupIngress ?? []).forEach((r: any, i: number) => add(`${g.key}#ingress${i}`, g.stack, g.key, r, 'ingress'));
    (p.SecurityGroupEgress ?? []).forEach((r: any, i: number) => add(`${g.key}#egress${i}`, g.stack, g.key, r, 'egress'));
  }
  for (const r of t.all('AWS::EC2::SecurityGroupIngress')) add(r.key, r.stack, t.resolve(r.stack, r.resource.Properties?.GroupId), r.resource.Properties, 'ingress');
  for (const r of t.all('AWS::EC2::SecurityGroupEgress')) add(r.key, r.stack, t.resolve(r.stack, r.resource.Properties?.GroupId), r.resource.Properties, 'egress');
  return rules;
}

/** A rule's protocol and ports, as the diagrams label them. */
function portsOf(r: { IpProtocol?: unknown; FromPort?: unknown; ToPort?: unknown }): string {
  const protocol = String(r.IpProtocol);
  if (protocol === '-1') return 'all traffic';
  const name = ({ 6: 'tcp', 17: 'udp', 1: 'icmp' } as Record<string, string>)[protocol] ?? protocol;
  if (name === 'icmp') return 'icmp';
  return r.FromPort === r.ToPort ? `${name} ${r.FromPort}` : `${name} ${r.FromPort}-${r.ToPort}`;
}

/** A node for a security group, named after its members (or its description when nothing in the templates uses it). */
function groupNode(t: Templates, group: Ref, members: { kind: NodeKind; member: Located; subnets: Ref[] }[],
  tiers: Map<Ref, { tier: Tier; zone: string }>, scopes: Map<string, PciDssScope | 'not stated' | undefined>): DiagramNode {
  const located = t.get(group);
  const stack = located?.stack ?? members[0]?.member.stack;
  const kind: NodeKind = members[0]?.kind ?? (/worker/i.test(located?.resource.Properties?.GroupDescription ?? '') ? 'workers' : 'group');
  const placed = members.flatMap((m) => m.subnets).map((s) => tiers.get(s) ?? (s.startsWith('ssm:') ? tierOfParameter(s) : undefined))
    .filter((x): x is { tier: Tier; zone: string } => !!x);
  const tierSet = [...new Set(placed.map((s) => s.tier))];
  const described = describe(t, kind, group, members.map((m) => m.member), stack);
  return {
    id: nodeId(group),
    kind,
    ...described,
    tier: tierSet.length === 1 ? tierSet[0] : 'vpc',
    ...placed.length ? { zones: new Set(placed.map((s) => s.zone)).size } : {},
    ...stack ? { stack } : {},
    ...kind === 'application' && stack ? { scope: scopes.get(stack) ?? 'not stated' } : {},
    securityGroups: [group],
  };
}

/** A subnet read from a platform outside the drawn stacks: its tier by the parameter's name. */
function tierOfParameter(parameter: Ref): { tier: Tier; zone: string } | undefined {
  const m = /(compute|data)-subnet-(\d+)$/.exec(parameter);
  return m ? { tier: m[1] === 'compute' ? 'private' : 'isolated', zone: m[2] } : undefined;
}

/** A node's title and details, from what its members are. */
function describe(t: Templates, kind: NodeKind, group: Ref, members: Located[], stack?: string): { title: string; details: string[]; waf?: boolean } {
  const p = (m?: Located) => (m ? props(m) : {});
  switch (kind) {
    case 'load-balancer': return loadBalancerText(t, members[0]);
    case 'application': return applicationText(t, members, stack!);
    case 'file-system': return { title: 'EFS file system', details: [`stack ${stack}`, ...encryptedAtRest(t, members[0], 'FileSystemId')] };
    case 'database': {
      const engine = p(members[0]).Engine ?? 'database';
      return { title: `Database (${engine})`, details: [`stack ${stack}`, ...p(members[0]).StorageEncrypted ? ['encrypted at rest'] : []] };
    }
    case 'endpoints': {
      const services = members.map((m) => serviceName(p(m).ServiceName)).sort();
      return { title: 'VPC interface endpoints', details: [services.join(', ')] };
    }
    case 'cache': return { title: `Cache (${p(members[0]).Engine ?? 'redis'})`, details: [`stack ${stack}`, ...p(members[0]).AtRestEncryptionEnabled ? ['encrypted at rest'] : []] };
    case 'function': return { title: 'Lambda function in the VPC', details: [`stack ${stack}`] };
    default: {
      if (group.startsWith('ssm:')) return { title: 'A platform\'s security group', details: [group.slice(4)] };
      const description = String(p(t.get(group)).GroupDescription ?? 'Security group');
      const [title, ...rest] = description.split(': ');
      return { title, details: [...rest.length ? [rest.join(': ')] : [], `stack ${stack}`] };
    }
  }
}

/** `encrypted at rest` when the file system a mount target mounts says so. */
function encryptedAtRest(t: Templates, member: Located | undefined, property: string): string[] {
  const target = member && t.get(t.resolve(member.stack, member.resource.Properties?.[property]) ?? '');
  return target?.resource.Properties?.Encrypted ? ['encrypted at rest'] : [];
}

/** A load balancer: its scheme, listeners and where each ends TLS. */
function loadBalancerText(t: Templates, lb: Located): { title: string; details: string[]; waf?: boolean } {
  const scheme = lb.resource.Properties?.Scheme === 'internet-facing' ? 'internet-facing' : 'internal';
  const listeners = t.all('AWS::ElasticLoadBalancingV2::Listener').filter((l) => t.resolve(l.stack, l.resource.Properties?.LoadBalancerArn) === lb.key)
    .map((l) => listenerText(l.resource.Properties ?? {}));
  const waf = t.all('AWS::WAFv2::WebACLAssociation').some((a) => t.resolve(a.stack, a.resource.Properties?.ResourceArn) === lb.key);
  return { title: `Load balancer (${scheme})`, details: [`stack ${lb.stack}`, ...listeners, ...waf ? ['WAF web ACL in front'] : []], ...waf ? { waf } : {} };
}

function listenerText(p: any): string {
  const redirect = (p.DefaultActions ?? []).some((a: any) => a.Type === 'redirect');
  return p.Protocol === 'HTTPS' ? `HTTPS ${p.Port}: TLS ends here` : `${p.Protocol} ${p.Port}${redirect ? ': redirects to HTTPS' : ''}`;
}

/** An application: its stack, host names, runtime, and the EBS volumes its stack keeps for it (EC2). */
function applicationText(t: Templates, members: Located[], stack: string): { title: string; details: string[] } {
  const runtime = members.some((m) => m.resource.Type === 'AWS::ECS::Service') ? 'ECS Fargate service' : 'EC2 instance';
  const volumes = t.all('AWS::EC2::Volume').filter((v) => v.stack === stack)
    .map((v) => `EBS data volume, ${props(v).Size} GiB${props(v).Encrypted ? ', encrypted at rest' : ''}`);
  return { title: stack, details: [...hostNames(t, stack), runtime, ...volumes] };
}

/** The host names a stack routes to: its DNS records and its listener rules' host conditions. */
function hostNames(t: Templates, stack: string): string[] {
  const records = t.all('AWS::Route53::RecordSet').filter((r) => r.stack === stack && ['A', 'AAAA', 'CNAME'].includes(r.resource.Properties?.Type))
    .map((r) => String(r.resource.Properties?.Name).replace(/\.$/, ''));
  const rules = t.all('AWS::ElasticLoadBalancingV2::ListenerRule').filter((r) => r.stack === stack)
    .flatMap((r) => (r.resource.Properties?.Conditions ?? []).flatMap((c: any) => c.HostHeaderConfig?.Values ?? (c.Field === 'host-header' ? c.Values : []) ?? []));
  return [...new Set([...records, ...rules].filter((h) => typeof h === 'string' && !h.includes('{')))].sort();
}

/** The address ranges and prefix lists the rules name, each a node: the internet both ways, others by value. */
function addressNodes(rules: Rule[], t: Templates, tiers: Map<Ref, { tier: Tier; cidr?: string }>): DiagramNode[] {
  const nodes = new Map<string, DiagramNode>();
  const natGateways = t.all('AWS::EC2::NatGateway').length;
  for (const r of rules) {
    for (const [end, inbound] of [[r.from, true], [r.to, false]] as const) {
      if (!end.startsWith('cidr:') && !end.startsWith('prefix-list:')) continue;
      const anywhere = isAnywhere(end);
      const key = anywhere ? (inbound ? INTERNET.inbound : INTERNET.outbound) : end;
      // A range is what its rule names, never what its description says it is for (a description is the author's word).
      const named = anywhere ? [`any address: ${end.slice('cidr:'.length)}`] : [];
      const node = nodes.get(key) ?? {
        id: anywhere ? key : nodeId(end),
        kind: anywhere ? (inbound ? 'internet' : 'egress') : 'addresses',
        title: anywhere ? (inbound ? 'Internet (clients)' : natGateways ? 'Internet, through the NAT gateways' : 'Internet') : addressTitle(end, tiers),
        details: [],
        tier: anywhere ? 'outside' : [...tiers.values()].find((x) => `cidr:${x.cidr}` === end)?.tier ?? 'vpc',
        securityGroups: [end],
      } as DiagramNode;
      nodes.set(key, { ...node, details: [...new Set([...node.details, ...inbound ? [] : named])] });
    }
  }
  return [...nodes.values()];
}

/** What an address range is: a subnet of a tier (everything in it), the VPC, or only its value. */
function addressTitle(end: string, tiers: Map<Ref, { tier: Tier; cidr?: string }>): string {
  if (end.startsWith('prefix-list:')) return `Prefix list ${end.slice('prefix-list:'.length)}`;
  const value = end.slice('cidr:'.length);
  const subnet = [...tiers.values()].find((s) => s.cidr === value);
  if (subnet) return `Everything in the ${subnet.tier} subnet ${value}`;
  return /CidrBlock/.test(value) ? 'The VPC\'s addresses' : `Addresses ${value}`;
}

/** The rules grouped by the pair of nodes they connect, with the encryption and card data each flow shows. */
function flowsOf(rules: Rule[], nodeOf: Map<string, string>, nodes: DiagramNode[], t: Templates): Flow[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const flows = new Map<string, { from: string; to: string; ports: Set<string>; rules: string[] }>();
  for (const r of rules) {
    const from = isAnywhere(r.from) ? INTERNET.inbound : nodeOf.get(r.from);
    const to = isAnywhere(r.to) ? INTERNET.outbound : nodeOf.get(r.to);
    if (!from || !to) continue;
    const key = `${from}->${to}`;
    const flow = flows.get(key) ?? { from, to, ports: new Set<string>(), rules: [] };
    flow.ports.add(r.ports);
    flow.rules.push(r.id);
    flows.set(key, flow);
  }
  const cde = (id: string) => byId.get(id)?.scope === PciDssScope.CDE;
  const reachesCde = (id: string) => [...flows.values()].some((f) => f.from === id && cde(f.to));
  return [...flows.values()].map((f) => {
    const encryption = encryptionOf(byId.get(f.from)!, byId.get(f.to)!, [...f.ports], t);
    return {
      from: f.from,
      to: f.to,
      ports: [...f.ports].sort(),
      rules: f.rules.sort(),
      ...encryption ? { encryption: encryption.text } : {},
      encrypted: encryption?.encrypted ?? false,
      // Whoever reaches a load balancer in front of a CDE application reaches the CDE: the internet, a private subnet, a worker.
      cardData: cde(f.from) || cde(f.to) || (byId.get(f.to)?.kind === 'load-balancer' && reachesCde(f.to)),
    };
  });
}

/**
 * What the templates show of a flow's encryption in transit, read from what ends the connection: a load balancer's
 * HTTPS listener on the port, a target group's protocol, an interface endpoint (AWS's services answer HTTPS only),
 * a database's parameter group, a task's EFS transit encryption. A port number alone shows nothing.
 */
function encryptionOf(from: DiagramNode, to: DiagramNode, ports: string[], t: Templates): { text: string; encrypted: boolean } | undefined {
  const tls = (text: string) => ({ text, encrypted: true });
  if (to.kind === 'load-balancer') {
    // Each port a listener of the load balancer (its details, listenerText): TLS ends there, or it only redirects to HTTPS.
    const listener = (p: string) => to.details.find((d) => [`HTTPS ${p.replace(/^tcp /, '')}:`, `HTTP ${p.replace(/^tcp /, '')}:`].some((x) => d.startsWith(x)));
    const ends = ports.map((p) => ({ port: p, text: listener(p) ?? '' }));
    const redirects = ends.filter((e) => e.text.endsWith(': redirects to HTTPS')).map((e) => e.port);
    const https = ends.filter((e) => e.text.endsWith(': TLS ends here'));
    if (https.length === 0 || https.length + redirects.length < ends.length) return undefined;
    return tls(`TLS ends at the load balancer${redirects.length ? ` (${redirects.join(', ')} only redirects to HTTPS)` : ''}`);
  }
  if (from.kind === 'load-balancer' && to.kind === 'application') {
    const protocols = new Set(t.all('AWS::ElasticLoadBalancingV2::TargetGroup').filter((g) => g.stack === to.stack).map((g) => g.resource.Properties?.Protocol));
    return protocols.has('HTTPS') ? tls('TLS to the application') : protocols.has('HTTP') ? { text: 'plain HTTP inside the VPC', encrypted: false } : undefined;
  }
  if (to.kind === 'endpoints' && ports.every((p) => p === 'tcp 443')) return tls('TLS (AWS service endpoint)');
  if (to.kind === 'database' && databaseRequiresTls(t, to)) return tls('TLS (the database refuses plain connections)');
  if (to.kind === 'file-system') {
    const transit = t.all('AWS::ECS::TaskDefinition').filter((d) => d.stack === from.stack)
      .flatMap((d) => d.resource.Properties?.Volumes ?? []).filter((v: any) => v.EFSVolumeConfiguration)
      .map((v: any) => v.EFSVolumeConfiguration.TransitEncryption);
    return transit.length && transit.every((x) => x === 'ENABLED') ? tls('TLS (EFS transit encryption)') : undefined;
  }
  return undefined;
}

/** Each data store that applications of more than one stack reach, with their stacks: one of them may be in the CDE. */
function markShared(nodes: DiagramNode[], flows: Flow[]): DiagramNode[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  return nodes.map((n) => {
    if (!['file-system', 'database', 'cache'].includes(n.kind)) return n;
    const stacks = [...new Set(flows.filter((f) => f.to === n.id).map((f) => byId.get(f.from))
      .filter((from) => from?.kind === 'application' || from?.kind === 'workers').map((from) => from!.stack!).filter(Boolean))]
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    if (stacks.length < 2) return n;
    // Four names a line, so that thirty applications stay inside the node.
    const lines = Array.from({ length: Math.ceil(stacks.length / 4) }, (_, i) => stacks.slice(i * 4, i * 4 + 4).join(', '));
    return { ...n, sharedBy: stacks, details: [...n.details, `shared by ${lines[0]}`, ...lines.slice(1)] };
  });
}

/** Whether a database's parameter group refuses connections without TLS (PostgreSQL's rds.force_ssl, MySQL's require_secure_transport). */
function databaseRequiresTls(t: Templates, db: DiagramNode): boolean {
  const databases = [...t.all('AWS::RDS::DBCluster'), ...t.all('AWS::RDS::DBInstance')]
    .filter((d) => [d.resource.Properties?.VpcSecurityGroupIds, d.resource.Properties?.VPCSecurityGroups]
      .some((g) => t.resolveAll(d.stack, g).some((x) => db.securityGroups.includes(x))));
  return databases.length > 0 && databases.every((d) => {
    const p = d.resource.Properties ?? {};
    const group = t.get(t.resolve(d.stack, p.DBClusterParameterGroupName ?? p.DBParameterGroupName) ?? '');
    const parameters = group?.resource.Properties?.Parameters ?? {};
    return String(parameters['rds.force_ssl']) === '1' || ['1', 'ON'].includes(String(parameters.require_secure_transport).toUpperCase());
  });
}

/** A Graphviz-safe identifier for a resource key. */
function nodeId(key: string): string {
  return key.replace(/[^A-Za-z0-9]+/g, '_');
}

const KIND_ORDER: NodeKind[] = ['internet', 'load-balancer', 'application', 'workers', 'function', 'database', 'cache', 'file-system', 'endpoints', 'group', 'addresses', 'egress'];
function byKindThenTitle(a: DiagramNode, b: DiagramNode): number {
  return KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || a.title.localeCompare(b.title) || a.id.localeCompare(b.id);
}

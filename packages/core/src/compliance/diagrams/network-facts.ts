import type { DiagramNode, DrawnStack, NetworkFacts, Tier } from './graph-model';
import { type Located, type Ref, Templates } from './templates';
import { ConnectionSource } from '../../contract/outbound-connection';

const props = (m: Located): Record<string, any> => m.resource.Properties ?? {};

/** The actions the SSM agent needs for a Session Manager shell (ec2.ts's SESSION_MANAGER_ACTIONS names them all). */
const SESSION_CHANNEL = /^ssmmessages:(CreateControlChannel|\*)$/;

/**
 * What the diagrams draw besides security groups, read from the templates (and what a deployment states that they do
 * not show: the issuer of an application that signs its users in itself, the connections it declares): subnets and
 * gateways, the alarm topic and who it notifies, DNS names, where images come from, each identity provider, the
 * administrators' shell path to each application, and what AWS delivers on the services' side.
 */
export function networkFacts(t: Templates, stacks: readonly DrawnStack[], tiers: Map<Ref, { tier: Tier; cidr?: string; zone: string }>,
  nodes: DiagramNode[]): NetworkFacts {
  const byTier: NetworkFacts['tiers'] = {};
  for (const tier of new Set([...tiers.values()].map((x) => x.tier))) {
    const subnets = [...tiers.values()].filter((x) => x.tier === tier);
    byTier[tier] = { cidrs: subnets.flatMap((x) => (x.cidr ? [x.cidr] : [])), zones: new Set(subnets.map((x) => x.zone)).size };
  }
  return {
    vpcCidrs: t.all('AWS::EC2::VPC').map((v) => String(v.resource.Properties?.CidrBlock)),
    tiers: byTier,
    natGateways: t.all('AWS::EC2::NatGateway').length,
    internetGateway: t.all('AWS::EC2::InternetGateway').length > 0,
    gatewayEndpoints: t.all('AWS::EC2::VPCEndpoint').filter((e) => props(e).VpcEndpointType === 'Gateway').map((e) => serviceName(props(e).ServiceName)).sort(),
    alarms: t.all('AWS::CloudWatch::Alarm').length,
    alarmTopics: t.all('AWS::SNS::Topic').length,
    alarmRecipients: t.all('AWS::SNS::Subscription').map((s) => `${props(s).Protocol} ${literal(props(s).Endpoint)}`),
    dnsNames: dnsNames(t, nodes),
    imageRegistries: t.all('AWS::ECR::PullThroughCacheRule').map((r) => ({
      stack: r.stack, prefix: literal(props(r).EcrRepositoryPrefix), upstream: literal(props(r).UpstreamRegistryUrl),
    })),
    identityProviders: [...loadBalancerSignIn(t, nodes), ...stacks.flatMap((s) => (s.issuer ? nodes.filter((n) => n.kind === 'application' && n.stack === s.stack)
      .map((n) => ({ issuer: s.issuer!, application: n.id })) : []))],
    adminAccess: nodes.filter((n) => n.kind === 'application').map((n) => ({ application: n.id, path: shellPath(t, n) })),
    serviceDeliveries: serviceDeliveries(t, nodes),
    declaredConnections: stacks.flatMap((s) => (s.connections ?? []).flatMap((c) => {
      const opener = nodes.find((n) => n.stack === s.stack && n.kind === (c.from === ConnectionSource.WORKERS ? 'workers' : 'application'))
        ?? nodes.find((n) => n.stack === s.stack && n.kind === 'application');
      return opener ? [{ ...c, node: opener.id }] : [];
    })),
  };
}

/**
 * The logs and backups AWS delivers on the services' side, as the template configures them: access logs of a load
 * balancer (its `access_logs.s3.enabled` attribute), web ACL logging, VPC flow logs, an EFS backup policy.
 */
function serviceDeliveries(t: Templates, nodes: DiagramNode[]): NetworkFacts['serviceDeliveries'] {
  const nodeOf = (m: Located, groups: unknown) => {
    const refs = t.resolveAll(m.stack, groups);
    return nodes.find((n) => n.securityGroups.some((g) => refs.includes(g)))?.id;
  };
  // A web ACL logs to one of three destinations (CloudWatch Logs, S3, Firehose), told apart by the ARN's service.
  const destination = (arn: unknown) => (/:logs:|log-group/.test(JSON.stringify(arn)) ? 'CloudWatch Logs' : /:s3:|s3:::/.test(JSON.stringify(arn)) ? 'S3' : 'Firehose');
  return [
    ...t.all('AWS::ElasticLoadBalancingV2::LoadBalancer')
      .filter((lb) => (props(lb).LoadBalancerAttributes ?? []).some((a: any) => a.Key === 'access_logs.s3.enabled' && String(a.Value) === 'true'))
      .map((lb) => ({ what: 'load balancer access logs to S3', from: nodeOf(lb, props(lb).SecurityGroups) })),
    ...t.all('AWS::WAFv2::LoggingConfiguration').map((l) => ({ what: `web ACL logs to ${destination(props(l).LogDestinationConfigs)}` })),
    ...t.all('AWS::EC2::FlowLog').map((f) => ({ what: `VPC flow logs to ${props(f).LogDestinationType === 's3' ? 'S3' : 'CloudWatch Logs'}` })),
    ...t.all('AWS::EFS::FileSystem').filter((fs) => props(fs).BackupPolicy?.Status === 'ENABLED').map((fs) => ({
      what: 'EFS automatic backups to AWS Backup',
      from: nodeOf(fs, t.all('AWS::EFS::MountTarget').filter((m) => t.resolve(m.stack, props(m).FileSystemId) === fs.key).flatMap((m) => props(m).SecurityGroups)),
    })),
  ];
}

/** A value as the template states it, or where it comes from when it is an expression. */
function literal(value: unknown): string {
  return typeof value === 'string' ? value : '(resolved at deploy)';
}

/** The DNS names the stacks publish (A, AAAA and CNAME records), each with the load balancer it aliases when drawn. */
function dnsNames(t: Templates, nodes: DiagramNode[]): NetworkFacts['dnsNames'] {
  return t.all('AWS::Route53::RecordSet').filter((r) => ['A', 'AAAA', 'CNAME'].includes(props(r).Type)).map((r) => {
    const target = JSON.stringify(props(r).AliasTarget ?? props(r).ResourceRecords ?? '');
    const lb = t.all('AWS::ElasticLoadBalancingV2::LoadBalancer').find((l) => l.stack === r.stack && target.includes(`"${l.logicalId}"`));
    const groups = lb ? t.resolveAll(lb.stack, props(lb).SecurityGroups) : [];
    const node = nodes.find((n) => n.kind === 'load-balancer' && n.securityGroups.some((g) => groups.includes(g)));
    return { name: literal(props(r).Name).replace(/\.$/, ''), ...node ? { loadBalancer: node.id } : {} };
  });
}

/**
 * How an administrator gets a shell on an application: ECS Exec where its service enables it, Session Manager where
 * its instance's role holds the agent's channel actions; none otherwise (only the application's own interface).
 */
function shellPath(t: Templates, application: DiagramNode): string | undefined {
  const inStack = (type: string) => t.all(type).filter((r) => r.stack === application.stack);
  const services = inStack('AWS::ECS::Service').filter((s) => application.securityGroups
    .some((g) => t.resolveAll(s.stack, props(s).NetworkConfiguration?.AwsvpcConfiguration?.SecurityGroups).includes(g)));
  if (services.length) return services.some((s) => props(s).EnableExecuteCommand === true) ? 'ECS Exec (Session Manager)' : undefined;
  const roles = new Set(inStack('AWS::IAM::InstanceProfile').flatMap((p) => t.resolveAll(p.stack, props(p).Roles)));
  const statements = [
    ...inStack('AWS::IAM::Policy').filter((p) => t.resolveAll(p.stack, props(p).Roles).some((r) => roles.has(r))).map((p) => props(p).PolicyDocument),
    ...[...roles].flatMap((r) => (props(t.get(r)!).Policies ?? []).map((p: any) => p.PolicyDocument)),
  ].flatMap((d) => d?.Statement ?? []);
  const actions = statements.filter((s: any) => s.Effect === 'Allow').flatMap((s: any) => [s.Action].flat());
  return actions.some((a: unknown) => typeof a === 'string' && SESSION_CHANNEL.test(a)) ? 'Session Manager (the SSM agent calls out; no inbound port)' : undefined;
}

/** The issuers of the listeners' and listener rules' `authenticate-oidc` actions, with the load balancer's node. */
function loadBalancerSignIn(t: Templates, nodes: DiagramNode[]): { issuer: string; loadBalancer: string }[] {
  const listeners = t.all('AWS::ElasticLoadBalancingV2::Listener');
  const actions = [
    ...listeners.map((l) => ({ listener: l, actions: props(l).DefaultActions })),
    ...t.all('AWS::ElasticLoadBalancingV2::ListenerRule')
      .map((r) => ({ listener: listeners.find((l) => l.key === t.resolve(r.stack, props(r).ListenerArn)), actions: props(r).Actions })),
  ];
  const found = new Map<string, { issuer: string; loadBalancer: string }>();
  for (const { listener, actions: list } of actions) {
    const lb = listener && t.get(t.resolve(listener.stack, props(listener).LoadBalancerArn) ?? '');
    const groups = lb ? t.resolveAll(lb.stack, props(lb).SecurityGroups) : [];
    const node = nodes.find((n) => n.securityGroups.some((g) => groups.includes(g)));
    for (const a of Array.isArray(list) ? list : []) {
      const issuer = a.AuthenticateOidcConfig?.Issuer;
      if (node && typeof issuer === 'string') found.set(`${issuer} ${node.id}`, { issuer, loadBalancer: node.id });
    }
  }
  return [...found.values()];
}

/** An endpoint's service by its last word: `com.amazonaws.eu-west-1.logs` and `Fn::Join` of `…, '.s3'` alike. */
export function serviceName(name: unknown): string {
  const text = typeof name === 'string' ? name : JSON.stringify(name);
  return /([a-z0-9-]+)[^a-z0-9-]*$/.exec(text)?.[1] ?? text;
}

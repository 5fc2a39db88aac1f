import type { DeploymentGraph, DiagramNode, Flow, Tier } from './graph-model';
import { PciDssScope } from '../../contract/pci-dss-scope';

/**
 * The two diagrams as Graphviz text, the source a reviewer diffs; render-svg.ts draws them. Every node's `id` is its
 * node id and its tooltip lists its security groups; every flow's `id` is `flow_<from>__<to>` and its tooltip lists its
 * rules, so a test (and an assessor) can check the drawing against the template.
 */

/** Metric-compatible with Helvetica, which Graphviz measures text with: Liberation Sans in the browser. */
const FONT = 'Helvetica,Arial,Liberation Sans,sans-serif';

/** The fill of an application by its stated scope, and the legend's words for it. */
export const SCOPE_STYLE: Record<PciDssScope | 'not stated', { fill: string; legend: string }> = {
  [PciDssScope.CDE]: { fill: '#f4c7c3', legend: 'CDE: stores, processes or transmits account data' },
  [PciDssScope.CONNECTED]: { fill: '#fce8b2', legend: 'Connected to the CDE, or can affect its security' },
  [PciDssScope.OUT_OF_SCOPE]: { fill: '#d9ead3', legend: 'Out of scope: segmented from the CDE' },
  'not stated': { fill: '#ffffff', legend: 'Scope not stated (pciDssScope)' },
};

const CARD_DATA_COLOUR = '#c5221f';
/** The lines read from DNS, ECR, SNS, IAM and the identity provider rather than from a security-group rule. */
const OUTSIDE_COLOUR = '#1967d2';
/** The border of a data store applications of several stacks reach. */
const SHARED_COLOUR = '#e37400';

/** Drawn as cylinders, on grey. */
const DATA_STORES = new Set<DiagramNode['kind']>(['database', 'cache', 'file-system']);

const TIER_TITLE: Record<Exclude<Tier, 'outside' | 'vpc'>, string> = {
  public: 'Public subnets (default route to the internet gateway)',
  private: 'Private subnets (outbound through NAT only)',
  isolated: 'Isolated subnets (no route out of the VPC)',
};

/** The network diagram (PCI DSS 1.2.3): the internet, the VPC's tiers and zones, what sits in each, and the way out. */
export function networkDot(graph: DeploymentGraph, title: string): string {
  const { network } = graph;
  const lines = header('network', `${title}: network diagram (PCI DSS 1.2.3), drawn from the templates of ${graph.stacks.join(', ')}`);
  const outside = graph.nodes.filter((n) => n.tier === 'outside');
  lines.push(...outside.map((n) => `  ${nodeStatement(n)}`));
  lines.push('  subgraph cluster_vpc {', `    label=${quote(`VPC ${network.vpcCidrs.join(', ') || '(read from a platform)'}`)}; style=rounded; color="#5f6368";`);
  for (const tier of ['public', 'private', 'isolated'] as const) {
    const inTier = graph.nodes.filter((n) => n.tier === tier);
    const facts = network.tiers[tier];
    const extra = tier === 'public' && network.natGateways ? [`    ${structure('nat', `${network.natGateways} NAT gateway${network.natGateways > 1 ? 's' : ''}`)}`] : [];
    if (!inTier.length && !extra.length) continue;
    const label = `${TIER_TITLE[tier]}${facts ? `\n${facts.zones} zone${facts.zones === 1 ? '' : 's'}: ${facts.cidrs.join(', ')}` : ''}`;
    lines.push(`    subgraph cluster_${tier} {`, `      label=${padded(label)}; style="rounded,dashed"; color="#9aa0a6";`, ...extra.map((e) => `  ${e}`));
    lines.push(...inTier.map((n) => `      ${nodeStatement(n)}`), '    }');
  }
  lines.push(...graph.nodes.filter((n) => n.tier === 'vpc').map((n) => `    ${nodeStatement(n)}`));
  if (network.gatewayEndpoints.length) lines.push(`    ${structure('gateway_endpoints', `Gateway endpoints (by route): ${network.gatewayEndpoints.join(', ')}`)}`);
  lines.push('  }');
  if (network.internetGateway) lines.push(`  ${structure('igw', 'Internet gateway')}`);
  lines.push(...graph.flows.map((f) => `  ${f.from} -> ${f.to} [${attributes(flowAttributes(f, false))}];`));
  lines.push(...outsideConnections(graph));
  if (network.internetGateway && graph.nodes.some((n) => n.kind === 'internet')) lines.push('  internet -> igw [class="structure", style=dashed, arrowhead=none];');
  if (network.natGateways && graph.nodes.some((n) => n.kind === 'egress')) {
    lines.push(`  nat -> ${network.internetGateway ? 'igw' : 'internet_egress'} [class="structure", style=dashed];`);
    if (network.internetGateway) lines.push('  igw -> internet_egress [class="structure", style=dashed];');
  }
  lines.push(...legend(graph, false), '}', '');
  return lines.join('\n');
}

/** The data-flow diagram (PCI DSS 1.2.4): who talks to whom, on which ports, where TLS ends, which flows carry card data. */
export function dataFlowDot(graph: DeploymentGraph, title: string): string {
  const lines = header('data_flow', `${title}: data-flow diagram (PCI DSS 1.2.4), drawn from the security-group rules in the templates of ${graph.stacks.join(', ')}`);
  lines.push(...graph.nodes.filter((n) => n.tier === 'outside').map((n) => `  ${nodeStatement(n)}`));
  lines.push('  subgraph cluster_vpc {', '    label="Inside the VPC"; style=rounded; color="#5f6368";');
  lines.push(...graph.nodes.filter((n) => n.tier !== 'outside').map((n) => `    ${nodeStatement(n)}`), '  }');
  lines.push(...graph.flows.map((f) => `  ${f.from} -> ${f.to} [${attributes(flowAttributes(f, true))}];`));
  lines.push(...outsideConnections(graph), ...legend(graph, true), '}', '');
  return lines.join('\n');
}

/**
 * What both diagrams draw beyond the security groups, each line labelled with what the template shows of it: the
 * identity providers, the administrators' path, the DNS names, where the images come from, the connections each
 * application declares it opens (red where they may carry account data), the logs and backups AWS delivers, and who the
 * alarms notify.
 * Drawn dashed with class `structure`: none of them is a security-group rule.
 */
function outsideConnections(graph: DeploymentGraph): string[] {
  const { network } = graph;
  const has = (id: string) => graph.nodes.some((n) => n.id === id);
  const edge = (from: string, to: string, label: string, colour = OUTSIDE_COLOUR) =>
    `  ${from} -> ${to} [class="structure", style=dashed, color="${colour}", fontcolor="${colour}", label=${quote(label)}];`;
  const lines: string[] = [];
  network.identityProviders.forEach(({ issuer, loadBalancer, application }, i) => {
    lines.push(`  ${structure(`idp${i}`, `Identity provider\n${issuer}`, '#e8f0fe')}`);
    if (loadBalancer) lines.push(edge(loadBalancer, `idp${i}`, 'the load balancer signs users in (OIDC)'));
    if (application) lines.push(edge(application, `idp${i}`, 'the application signs users in (OIDC back channel)'));
    if (has('internet')) lines.push(edge('internet', `idp${i}`, 'browsers sign in (redirect)'));
  });
  const shells = network.adminAccess.filter((a) => a.path);
  const entry = graph.nodes.find((n) => n.title === 'Load balancer (internet-facing)' && n.details.some((d) => d.includes('TLS ends here')));
  if (network.adminAccess.length) {
    lines.push(`  ${structure('administrators', `Administrators${shells.length < network.adminAccess.length ? '\nno shell where no line is drawn: only the application\'s own interface' : ''}`, '#e8f0fe')}`);
    shells.forEach((a) => lines.push(edge('administrators', a.application, `shell: ${a.path}`)));
    if (entry) lines.push(edge('administrators', entry.id, 'the application\'s interface, signed in as users'));
  }
  network.dnsNames.forEach(({ name, loadBalancer }, i) => {
    lines.push(`  ${structure(`dns${i}`, `DNS (Route 53): ${name}`)}`);
    if (loadBalancer) lines.push(edge(`dns${i}`, loadBalancer, 'alias'));
  });
  network.imageRegistries.forEach(({ stack, prefix, upstream }, i) => {
    lines.push(`  ${structure(`registry${i}`, `ECR pull-through cache\nrepositories ${prefix}/…`)}`, `  ${structure(`upstream${i}`, `Upstream registry\n${upstream}`, '#e8f0fe')}`);
    for (const n of graph.nodes.filter((x) => (x.kind === 'application' || x.kind === 'workers') && x.stack === stack)) lines.push(edge(n.id, `registry${i}`, 'pulls its images'));
    lines.push(edge(`registry${i}`, `upstream${i}`, 'fills the cache (credential in Secrets Manager)'));
  });
  network.declaredConnections.forEach((c, i) => lines.push(
    `  ${structure(`declared${i}`, `${c.name}\n${c.destination}\n(declared by the application)`, '#e8f0fe')}`,
    edge(c.node, `declared${i}`, c.purpose, c.carriesAccountData ? CARD_DATA_COLOUR : OUTSIDE_COLOUR)));
  if (network.serviceDeliveries.length) {
    const whats = [...new Set(network.serviceDeliveries.map((d) => d.what))];
    lines.push(`  ${structure('deliveries', `Delivered by AWS on the services' side\n${whats.join('\n')}`)}`);
    for (const from of new Set(network.serviceDeliveries.flatMap((d) => (d.from ? [d.from] : [])))) {
      lines.push(edge(from, 'deliveries', network.serviceDeliveries.filter((d) => d.from === from).map((d) => d.what.split(' to ')[0]).join(', ')));
    }
  }
  if (network.alarmTopics) {
    lines.push(`  ${structure('alarms', `Alarm topic (SNS): ${network.alarms} alarm${network.alarms === 1 ? '' : 's'}`)}`);
    network.alarmRecipients.forEach((r, i) => lines.push(`  ${structure(`recipient${i}`, `Alarm recipient\n${r}`, '#e8f0fe')}`, edge('alarms', `recipient${i}`, 'notifies')));
  }
  return lines;
}

/** A node of the network's structure (gateways, the alarm topic, the identity provider), not a security group. */
function structure(id: string, label: string, fill = '#e8eaed'): string {
  return `${id} [label=${quote(label)}, shape=box, style="rounded,filled", fillcolor="${fill}", class="structure"];`;
}

function header(name: string, label: string): string[] {
  return [
    `digraph ${name} {`,
    `  graph [fontname=${quote(FONT)}, fontsize=13, rankdir=LR, newrank=true, nodesep=0.35, ranksep=0.9, pad=0.3, labelloc=t, label=${quote(label)}];`,
    `  node [fontname=${quote(FONT)}, fontsize=11, shape=box, style="rounded,filled", fillcolor="#ffffff", color="#3c4043", margin="0.3,0.1"];`,
    `  edge [fontname=${quote(FONT)}, fontsize=10, color="#3c4043"];`,
  ];
}

function nodeStatement(n: DiagramNode): string {
  const fill = n.kind === 'application' ? SCOPE_STYLE[n.scope ?? 'not stated'].fill
    : n.kind === 'internet' || n.kind === 'egress' ? '#e8f0fe' : DATA_STORES.has(n.kind) ? '#f1f3f4' : '#ffffff';
  const label = `<<b>${html(n.title)}</b>${n.details.map((d) => `<br/>${html(d)}`).join('')}>`;
  const shape = DATA_STORES.has(n.kind) ? 'cylinder' : 'box';
  return `${n.id} [${attributes({
    id: n.id,
    label,
    shape,
    fillcolor: fill,
    class: `node-${n.kind}`,
    tooltip: `security groups: ${n.securityGroups.join(' ')}`,
    ...n.kind === 'application' && n.scope === 'not stated' ? { style: 'rounded,filled,dashed' } : {},
    ...n.waf ? { penwidth: 3 } : {},
    ...n.sharedBy ? { color: SHARED_COLOUR, penwidth: 3 } : {},
  })}];`;
}

function flowAttributes(f: Flow, labelled: boolean): Record<string, string | number> {
  const label = [f.ports.join(', '), ...f.encryption ? [f.encryption] : [], ...f.cardData ? ['may carry account data'] : []].join('\n');
  return {
    id: `flow_${f.from}__${f.to}`,
    class: 'flow',
    tooltip: `rules: ${f.rules.join(' ')}`,
    ...labelled ? { label } : {},
    ...f.cardData ? { color: CARD_DATA_COLOUR, fontcolor: CARD_DATA_COLOUR, penwidth: 2.2 } : {},
    ...f.encrypted || !labelled ? {} : { style: 'dashed' },
  };
}

/** The legend: the scopes drawn, and for the data flows, what a line's colour and dashes mean. */
function legend(graph: DeploymentGraph, flows: boolean): string[] {
  const scopes = (Object.keys(SCOPE_STYLE) as (keyof typeof SCOPE_STYLE)[]);
  const rows = scopes.map((s) => `<tr><td bgcolor="${SCOPE_STYLE[s].fill}" border="1" width="22"> </td><td align="left">${html(SCOPE_STYLE[s].legend)}</td></tr>`);
  if (flows) {
    rows.push(`<tr><td><font color="${CARD_DATA_COLOUR}"><b>━━</b></font></td><td align="left">May carry account data (to or from a CDE application)</td></tr>`);
    rows.push('<tr><td>┅┅</td><td align="left">Not shown encrypted by the template</td></tr>');
  } else {
    rows.push('<tr><td border="3" width="22"> </td><td align="left">Thick border: a WAF web ACL in front of the load balancer</td></tr>');
  }
  rows.push(`<tr><td border="3" color="${SHARED_COLOUR}" width="22"> </td><td align="left">A data store applications of several stacks reach</td></tr>`);
  rows.push(`<tr><td><font color="${OUTSIDE_COLOUR}">┅┅</font></td><td align="left">Not a security-group rule: read from DNS, ECR, SNS, IAM, the sign-in settings</td></tr>`);
  const stated = graph.nodes.filter((n) => n.kind === 'application').length;
  return [
    // A box with a margin, as the other nodes: Graphviz measures text a few per cent narrower than a browser draws it.
    `  legend [id="legend", shape=box, style="rounded", color="#9aa0a6", margin="0.4,0.1", class="legend", label=<<table border="0" cellborder="0" cellspacing="4"><tr><td colspan="2" align="left"><b>Legend</b>&#160;(${stated} application${stated === 1 ? '' : 's'}; scope as each deployment states it)</td></tr>${rows.join('')}</table>>];`,
  ];
}

function attributes(a: Record<string, string | number>): string {
  // A label that starts with `<` is Graphviz's HTML-like label, written as it is.
  return Object.entries(a).map(([k, v]) => `${k}=${typeof v === 'number' || String(v).startsWith('<') ? v : quote(String(v))}`).join(', ');
}

/**
 * A cluster's label in a padded cell: Graphviz measures text a few per cent narrower than a browser draws it, and a
 * cluster is only as wide as the wider of its label and its content.
 */
function padded(label: string): string {
  return `<<table border="0" cellpadding="4"><tr><td width="16"></td><td>${label.split('\n').map(html).join('<br/>')}</td><td width="16"></td></tr></table>>`;
}

function quote(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

function html(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

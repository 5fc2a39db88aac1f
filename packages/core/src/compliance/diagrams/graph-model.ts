import type { NamedTemplate, Ref } from './templates';
import type { OutboundConnection } from '../../contract/outbound-connection';
import type { PciDssScope } from '../../contract/pci-dss-scope';

/**
 * What the network and data-flow diagrams draw, read from the synthesised templates alone: a node for each security
 * group (named after what uses it) and for each address range a rule names; a flow for each pair of nodes that
 * security-group rules connect, with the rules, ports and what the template shows of their encryption.
 */
export interface DeploymentGraph {
  /** The stacks whose templates are drawn, the first the one the diagrams are of. */
  readonly stacks: string[];
  readonly nodes: DiagramNode[];
  readonly flows: Flow[];
  readonly network: NetworkFacts;
}

/** Where a node sits: outside AWS, in a tier of the VPC (by its subnets' routes), or in the VPC where unknown. */
export type Tier = 'outside' | 'public' | 'private' | 'isolated' | 'vpc';

export type NodeKind = 'internet' | 'egress' | 'addresses' | 'load-balancer' | 'application' | 'workers' | 'endpoints' |
'file-system' | 'database' | 'cache' | 'function' | 'group';

export interface DiagramNode {
  /** An identifier Graphviz and the SVG carry (`id`): letters, digits and underscores. */
  readonly id: string;
  readonly kind: NodeKind;
  readonly title: string;
  /** Lines under the title: host names, runtime, listeners, encryption. */
  readonly details: string[];
  readonly tier: Tier;
  /** How many availability zones its subnets span, when the template names them. */
  readonly zones?: number;
  /** The stack it is in. @default - outside every stack */
  readonly stack?: string;
  /** An application's role toward the cardholder data environment, as its deployment states it. */
  readonly scope?: PciDssScope | 'not stated';
  /** A load balancer with a WAF web ACL in front of it. @default false */
  readonly waf?: boolean;
  /** A data store that applications of more than one stack reach: their stacks. @default - not shared */
  readonly sharedBy?: string[];
  /** The security groups it stands for (`<stack>/<logical id>`, or `ssm:<name>` read from a platform elsewhere). */
  readonly securityGroups: Ref[];
}

/** A security-group rule, as the diagrams cite it: `<stack>/<logical id>`, or `…#ingress<n>` / `…#egress<n>` inline. */
export interface Rule {
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly ports: string;
  readonly description?: string;
}

export interface Flow {
  readonly from: string;
  readonly to: string;
  /** `tcp 443`, `tcp 8080-8081`, `all traffic`: every port its rules open. */
  readonly ports: string[];
  readonly rules: string[];
  /** What the template shows of encryption in transit: where TLS ends, or that the traffic is plain. @default - nothing shown */
  readonly encryption?: string;
  /** Whether the template shows the flow encrypted (read from the listener, target group, parameter group or volume). */
  readonly encrypted: boolean;
  /** A flow to or from an application stated `CDE`, or into a load balancer that reaches one: it may carry account data. */
  readonly cardData: boolean;
}

export interface NetworkFacts {
  readonly vpcCidrs: string[];
  /** The subnets' address ranges and zones by tier. */
  readonly tiers: Partial<Record<Tier, { cidrs: string[]; zones: number }>>;
  readonly natGateways: number;
  readonly internetGateway: boolean;
  /** The services of the VPC's gateway endpoints (S3, DynamoDB), reached by route rather than through a security group. */
  readonly gatewayEndpoints: string[];
  readonly alarms: number;
  readonly alarmTopics: number;
  /** Each subscription of the alarm topics: its protocol and endpoint (`email security@example.com`). */
  readonly alarmRecipients: string[];
  /** The DNS names the stacks publish, with the load balancer node each aliases. */
  readonly dnsNames: { readonly name: string; readonly loadBalancer?: string }[];
  /** Where the tasks' images come from: each ECR pull-through cache rule's stack, repository prefix and upstream registry. */
  readonly imageRegistries: { readonly stack: string; readonly prefix: string; readonly upstream: string }[];
  /**
   * The identity providers: a load balancer's (its listeners' `authenticate-oidc` actions), or an application's that
   * signs its users in itself (the issuer its deployment names): issuer and node id.
   */
  readonly identityProviders: { readonly issuer: string; readonly loadBalancer?: string; readonly application?: string }[];
  /** Each application's shell path for administrators (ECS Exec, Session Manager), none where the template gives none. */
  readonly adminAccess: { readonly application: string; readonly path?: string }[];
  /**
   * What AWS delivers on the services' side, which no security group carries: a load balancer's access logs, the web
   * ACL's and the VPC's flow logs, a file system's automatic backups; each with the node it comes from, when drawn.
   */
  readonly serviceDeliveries: { readonly what: string; readonly from?: string }[];
  /** The connections applications declare (`outboundConnections()`), each with the node that opens it. */
  readonly declaredConnections: (OutboundConnection & { readonly node: string })[];
}

/**
 * One drawn stack: its template and the SHA-256 of its file, and for an application's the scope its deployment states
 * and, when the application signs its users in itself, the identity provider's issuer.
 */
export interface DrawnStack extends NamedTemplate {
  readonly scope?: PciDssScope | 'not stated';
  /** @default - not stated */
  readonly templateSha256?: string;
  /** @default - none (no sign-in, or the load balancer's, which the template shows) */
  readonly issuer?: string;
  /** The connections its application declares it opens outside the stacks. @default - none */
  readonly connections?: OutboundConnection[];
}

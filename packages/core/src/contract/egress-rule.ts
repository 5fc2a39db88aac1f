import { ipv4Range, publicAddresses } from './ipv4-range';

/**
 * Traffic an application (or its workers) sends beyond what the framework already allows: HTTPS to anywhere (package
 * repositories, the identity provider, AWS APIs), NFS to its own file system and its workers' connections to it.
 * Every security group the framework creates sends nothing else.
 */
export interface EgressRule {
  /** Why the application needs it, shown as the rule's description: 1 to 255 characters. */
  readonly description: string;
  /** `tcp` or `udp`. */
  readonly protocol: string;
  /** Destination port, 1 to 65535. */
  readonly port: number;
  /** Destination IPv4 range in CIDR notation, for example `203.0.113.10/32`. */
  readonly cidr: string;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Whether `value` is a dotted IPv4 address (`203.0.113.10`). */
export function isIpv4(value: unknown): value is string {
  return typeof value === 'string' && IPV4.test(value);
}

/**
 * Every problem with one rule, in the words of `EgressRule`'s documentation. Security-group descriptions allow
 * `a-z A-Z 0-9 . _ - : / ( ) # , @ [ ] + = & ; { } ! $ *` and spaces (EC2 API, IpRange.Description).
 * @see https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_IpRange.html
 */
export function egressRuleProblems(rule: EgressRule): string[] {
  const shown = (v: unknown) => JSON.stringify(v);
  const problems: string[] = [];
  if (typeof rule.description !== 'string' || !/^[A-Za-z0-9 ._\-:/()#,@[\]+=&;{}!$*]{1,255}$/.test(rule.description)) {
    problems.push(`description ${shown(rule.description)}; allowed: 1 to 255 letters, digits, spaces and ._-:/()#,@[]+=&;{}!$*`);
  }
  if (rule.protocol !== 'tcp' && rule.protocol !== 'udp') problems.push(`protocol ${shown(rule.protocol)}; allowed: "tcp" or "udp"`);
  if (!Number.isInteger(rule.port) || rule.port < 1 || rule.port > 65535) problems.push(`port ${shown(rule.port)}; allowed: an integer from 1 to 65535`);
  // The context keys' own parser: host bits set (8.8.8.8/0) are refused, not read as a wider range.
  const range = ipv4Range(rule.cidr);
  if (!range || range.prefix === 0) {
    problems.push(`cidr ${shown(rule.cidr)}; allowed: an IPv4 range with no host bits set, such as 203.0.113.10/32, ` +
      'not 0.0.0.0/0 (name the destination)');
  }
  return problems;
}

/** The most public addresses one port's rules may reach together where broad egress is refused: a /8's share. */
export const EGRESS_PUBLIC_ADDRESSES_MAX = 2 ** 24;

/**
 * Rules that reach a large share of the public internet on one port, alone or together (`0.0.0.0/1` with
 * `128.0.0.0/1` is every address): each group named by its rules, where the profile refuses broad egress. Private,
 * loopback and other special-purpose ranges do not count. Rules whose range is invalid are left to
 * `egressRuleProblems`.
 */
export function broadEgressProblems(rules: readonly EgressRule[], where: string): string[] {
  const byPort = new Map<string, number[]>();
  rules.forEach((rule, i) => {
    if (!ipv4Range(rule.cidr)) return;
    const port = `${rule.protocol}/${rule.port}`;
    byPort.set(port, [...byPort.get(port) ?? [], i]);
  });
  return [...byPort].flatMap(([port, indexes]) => {
    const reached = publicAddresses(indexes.map((i) => ipv4Range(rules[i].cidr)!));
    return reached > EGRESS_PUBLIC_ADDRESSES_MAX
      ? [`${indexes.map((i) => `${where}[${i}] (${rules[i].cidr})`).join(' and ')} reach ${reached.toLocaleString('en-US')} public ` +
        `addresses on ${port} together, more than a /8 (${EGRESS_PUBLIC_ADDRESSES_MAX.toLocaleString('en-US')}); name the destinations`]
      : [];
  });
}

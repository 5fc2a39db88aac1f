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
  const [address, bits, ...rest] = typeof rule.cidr === 'string' ? rule.cidr.split('/') : [];
  if (!isIpv4(address) || !/^([0-9]|[12][0-9]|3[0-2])$/.test(bits ?? '') || rest.length > 0 || rule.cidr === '0.0.0.0/0') {
    problems.push(`cidr ${shown(rule.cidr)}; allowed: an IPv4 range such as 203.0.113.10/32, not 0.0.0.0/0 (name the destination)`);
  }
  return problems;
}

import { jsonValue, type Parsed } from './key-parsers';
import { type Ipv4Range, ipv4Range, ipv4Within } from '../contract/ipv4-range';
import { shownValue } from '../errors';

/** A subnet of a VPC you are given, by id: synth looks nothing up, so everything the template needs is stated. */
export interface ExistingSubnet {
  /** `subnet-` and 8 or 17 hex digits. */
  readonly subnetId: string;
  /** Its availability zone: one of the VPC's `availabilityZones`. */
  readonly availabilityZone: string;
  /** Its IPv4 range, inside the VPC's `cidr` (security groups admit HTTPS from the compute subnets by it). */
  readonly cidr: string;
  /**
   * Its route table, `rtb-…`: the S3 gateway endpoint adds its route there, so it is required of the compute subnets
   * with `endpoints` `create`, and not used otherwise.
   * @default - none
   */
  readonly routeTableId?: string;
}

/**
 * A VPC your network team gives you, instead of one the framework creates (`vpcCidr`): its id, range, two zones and,
 * in each zone, one subnet of each tier. The framework adds to it what the profile requires (VPC endpoints, a flow
 * log, security groups) and changes nothing else: routes, NAT, gateways and network ACLs stay the network team's.
 */
export interface ExistingVpc {
  /** `vpc-` and 8 or 17 hex digits. */
  readonly vpcId: string;
  /** Its primary IPv4 range. */
  readonly cidr: string;
  /** Exactly two zones of the stack's region, for example `eu-west-1a`, `eu-west-1b`. */
  readonly availabilityZones: string[];
  /** One public subnet a zone, routed to an internet gateway: the internet-facing load balancer goes there. */
  readonly loadBalancerSubnets: ExistingSubnet[];
  /** One private subnet a zone with a route out (NAT or transit gateway): tasks, instances and mount targets go there. */
  readonly computeSubnets: ExistingSubnet[];
  /**
   * One isolated subnet a zone, no route out of the VPC: databases go there (a platform needs them).
   * @default - none: no database (a standalone application whose plugin asks for one is refused)
   */
  readonly dataSubnets?: ExistingSubnet[];
  /**
   * `existing`: the VPC's endpoints are the network team's (docs/platform.md, "An existing VPC", lists those the
   * framework's calls need and their policies), and the framework creates none, so that it collides with neither
   * theirs nor another framework stack's. `create`: the framework creates its own in STAGING and PRODUCTION, as in a
   * VPC of its own; one stack in the VPC may.
   * @default 'existing'
   */
  readonly endpoints?: string;
  /**
   * Who else in the VPC reaches the platform's applications by their private names (with TLS): the IPv4 ranges, inside
   * the VPC's, whose HTTPS the internal load balancer admits besides the compute subnets. The private zones are the
   * VPC's, so every workload in it resolves the names. `[]` turns the private names off: no internal load balancer and
   * no private zone, and inside the VPC each application is reached through the internet-facing load balancer.
   * @default - the VPC's `cidr`: every workload in it that resolves the name reaches it
   */
  readonly privateRouteFrom?: string[];
}

/** How many ranges `privateRouteFrom` takes: each is a rule of the internal load balancer's security group. */
export const PRIVATE_ROUTE_FROM_MAX = 10;

/**
 * The ranges the internal load balancer admits besides the compute subnets: none on a VPC of the framework's own
 * (only its compute is there), the given VPC's range by default, `privateRouteFrom` as given (`[]`: no private routes).
 */
export function privateRouteFrom(given: ExistingVpc | undefined): string[] {
  return given === undefined ? [] : given.privateRouteFrom ?? [given.cidr];
}

/** Whether a platform on this network routes its applications privately (`privateRouteFrom` not `[]`). */
export function privateRoutesOn(given: ExistingVpc | undefined): boolean {
  return given?.privateRouteFrom?.length !== 0;
}

/** What `existingVpc.endpoints` takes. */
export const EXISTING_VPC_ENDPOINTS = ['existing', 'create'] as const;

/** Whether the framework creates its VPC endpoints in this network (in the profiles that have them). */
export function createsEndpoints(given: ExistingVpc | undefined): boolean {
  return given === undefined || given.endpoints === 'create';
}

/** The subnet tiers of `ExistingVpc`, by field, and whether each must be given. */
export const EXISTING_VPC_TIERS = { loadBalancerSubnets: true, computeSubnets: true, dataSubnets: false } as const;

const ID = { vpc: /^vpc-(?:[0-9a-f]{8}|[0-9a-f]{17})$/, subnet: /^subnet-(?:[0-9a-f]{8}|[0-9a-f]{17})$/, routeTable: /^rtb-(?:[0-9a-f]{8}|[0-9a-f]{17})$/ };
const ZONE = /^[a-z]{2}(?:-[a-z]+)+-\d[a-z]$/;

/** A range from /16 to /28 (what a VPC or subnet can have), with no host bits set; undefined for anything else. */
function range(cidr: unknown): Ipv4Range | undefined {
  const parsed = ipv4Range(cidr);
  return parsed && parsed.prefix >= 16 && parsed.prefix <= 28 ? parsed : undefined;
}

/** Every problem with a value given as an `ExistingVpc`, each naming the field, what was given and what is allowed. */
export function existingVpcProblems(raw: unknown): string[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return ['an object with vpcId, cidr, availabilityZones, loadBalancerSubnets, computeSubnets and dataSubnets'];
  const v = raw as Record<string, any>;
  const problems: string[] = [];
  const known = ['vpcId', 'cidr', 'availabilityZones', ...Object.keys(EXISTING_VPC_TIERS), 'endpoints', 'privateRouteFrom'];
  for (const key of Object.keys(v).filter((k) => !known.includes(k))) problems.push(`no field ${key} (known: ${known.join(', ')})`);
  if (!ID.vpc.test(String(v.vpcId))) problems.push(`vpcId as vpc- and 8 or 17 hex digits (given ${JSON.stringify(v.vpcId)})`);
  if (v.endpoints !== undefined && !(EXISTING_VPC_ENDPOINTS as readonly unknown[]).includes(v.endpoints)) {
    problems.push(`endpoints as ${EXISTING_VPC_ENDPOINTS.map((e) => JSON.stringify(e)).join(' or ')} (given ${JSON.stringify(v.endpoints)})`);
  }
  const vpcRange = range(v.cidr);
  if (!vpcRange) problems.push(`cidr as an IPv4 range from /16 to /28 with no host bits set (given ${JSON.stringify(v.cidr)})`);
  const from: unknown = v.privateRouteFrom;
  if (from !== undefined && (!Array.isArray(from) || from.length > PRIVATE_ROUTE_FROM_MAX || new Set(from).size !== from.length || from.some((r) => {
    const parsed = range(r);
    return !parsed || (vpcRange !== undefined && !ipv4Within(parsed, vpcRange.address, vpcRange.prefix));
  }))) {
    problems.push(`privateRouteFrom as a list of at most ${PRIVATE_ROUTE_FROM_MAX} IPv4 ranges inside the VPC's ${v.cidr}, each once ` +
      `([] for no private routes) (given ${JSON.stringify(from)})`);
  }
  const zones: unknown = v.availabilityZones;
  if (!Array.isArray(zones) || zones.length !== 2 || new Set(zones).size !== 2 || !zones.every((z) => ZONE.test(String(z)))) {
    problems.push(`availabilityZones as two different zones such as ["eu-west-1a", "eu-west-1b"] (given ${JSON.stringify(zones)})`);
    return problems;
  }
  const ids = new Set<string>();
  for (const [tier, required] of Object.entries(EXISTING_VPC_TIERS)) {
    const subnets: unknown = v[tier];
    if (subnets === undefined && !required) continue;
    if (!Array.isArray(subnets)) {
      problems.push(`${tier} as a list of one subnet a zone, each {subnetId, availabilityZone, cidr} (given ${JSON.stringify(subnets)})`);
      continue;
    }
    subnets.forEach((s: Record<string, unknown>, i: number) => {
      const where = `${tier}[${i}]`;
      if (!ID.subnet.test(String(s?.subnetId))) problems.push(`${where}.subnetId as subnet- and 8 or 17 hex digits (given ${JSON.stringify(s?.subnetId)})`);
      else if (ids.has(String(s.subnetId))) problems.push(`${where}.subnetId ${s.subnetId} once only: it is listed twice`);
      ids.add(String(s?.subnetId));
      if (s?.routeTableId === undefined) {
        if (tier === 'computeSubnets' && v.endpoints === 'create') {
          problems.push(`${where}.routeTableId as rtb- and 8 or 17 hex digits: with endpoints "create" the S3 gateway endpoint routes there`);
        }
      } else if (!ID.routeTable.test(String(s.routeTableId))) {
        problems.push(`${where}.routeTableId as rtb- and 8 or 17 hex digits (given ${JSON.stringify(s.routeTableId)})`);
      }
      if (!zones.includes(s?.availabilityZone)) {
        problems.push(`${where}.availabilityZone as one of availabilityZones, ${zones.join(' or ')} (given ${JSON.stringify(s?.availabilityZone)})`);
      }
      const subnetRange = range(s?.cidr);
      if (!subnetRange || (vpcRange && !ipv4Within(subnetRange, vpcRange.address, vpcRange.prefix))) {
        problems.push(`${where}.cidr as an IPv4 range inside the VPC's ${v.cidr} (given ${JSON.stringify(s?.cidr)})`);
      }
    });
    for (const zone of zones) {
      const count = subnets.filter((s: Record<string, unknown>) => s?.availabilityZone === zone).length;
      if (count !== 1) problems.push(`${tier} with one subnet in ${zone} (given ${count})`);
    }
  }
  return problems;
}

/** The `existingVpc` key's parser: the value as given (from cdk.json, or its JSON text with `-c`), or every problem. */
export function existingVpc(raw: unknown): Parsed {
  const json = jsonValue(raw);
  if (!json) return { allowed: 'a JSON object describing the VPC (docs/platform.md, "An existing VPC")' };
  const problems = existingVpcProblems(json.value);
  return problems.length ? { allowed: `${problems.join('; ')} (docs/platform.md, "An existing VPC")` } : { value: json.value };
}

/** `existingVpc` with `vpcCidr` (which must then agree) and the stack's region (its zones must be the region's). */
export function existingVpcKeyProblems(v: Record<string, any>): string[] {
  const given = v.existingVpc as ExistingVpc | undefined;
  if (!given) return [];
  const problems: string[] = [];
  if (v.vpcCidr !== undefined && v.vpcCidr !== given.cidr) {
    problems.push(`vpcCidr ${shownValue(v.vpcCidr)} differs from existingVpc.cidr ${shownValue(given.cidr)}: the VPC you are given has ` +
      'its range already. Leave vpcCidr out.');
  }
  const elsewhere = v.region ? given.availabilityZones.filter((z) => !z.startsWith(`${v.region}`)) : [];
  if (elsewhere.length) {
    problems.push(`existingVpc.availabilityZones ${shownValue(given.availabilityZones)} are not all in the region ${v.region}: a VPC ` +
      'is in one region, the stack\'s.');
  }
  return problems;
}

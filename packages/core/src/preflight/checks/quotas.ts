import type { AwsCalls, PreflightClient } from '../clients';
import type { DeploymentFacts } from '../facts';
import { fail, type Finding, ok, warn } from '../finding';

const KEY = 'the deployment';
/** The Service Quotas name of the VPC quota on one security group's rules (each direction counts on its own). */
export const SECURITY_GROUP_RULES_QUOTA = 'Inbound or outbound rules per security group';
/** At this share of a quota, a finding names it before it is met. */
const NEAR = 0.8;

/**
 * The account's quotas the deployment comes near: listener rules per load balancer and target groups per region
 * (Elastic Load Balancing's `DescribeAccountLimits`, names as its API reference lists them), Elastic IP addresses
 * (EC2's `vpc-max-elastic-ips` account attribute, and the addresses allocated), and one security group's rules (the
 * VPC quota of that name in Service Quotas). What the deployment adds is counted as new, so a stack that is deployed
 * already counts twice: a finding near a quota on an update is an upper bound.
 */
export async function quotaChecks(facts: DeploymentFacts, aws: AwsCalls): Promise<Finding[]> {
  const limits = new Map<string, number>(((await aws.call('@aws-sdk/client-elastic-load-balancing-v2', 'DescribeAccountLimits', {})).Limits ?? [])
    .map((l: any) => [l.Name, Number(l.Max)]));
  const findings: Finding[] = [];
  const mostRules = Math.max(0, ...Object.values(facts.counts.rulesPerListener));
  findings.push(against('listener rules on one load balancer\'s listener', mostRules, 0, limits.get('rules-per-application-load-balancer')));
  let targetGroups = 0;
  for await (const page of pages(aws, '@aws-sdk/client-elastic-load-balancing-v2', 'DescribeTargetGroups', {}, 'Marker', 'NextMarker')) {
    targetGroups += (page.TargetGroups ?? []).length;
  }
  findings.push(against('target groups in the region', facts.counts.targetGroups, targetGroups, limits.get('target-groups')));
  // All attributes: the model's `AttributeNames` takes only `supported-platforms` and `default-vpc`.
  const attribute = ((await aws.call('@aws-sdk/client-ec2', 'DescribeAccountAttributes', {})).AccountAttributes ?? [])
    .find((a: any) => a.AttributeName === 'vpc-max-elastic-ips');
  const addresses = ((await aws.call('@aws-sdk/client-ec2', 'DescribeAddresses', {})).Addresses ?? []).length;
  findings.push(against('Elastic IP addresses', facts.counts.elasticIps, addresses, Number(attribute?.AttributeValues?.[0]?.AttributeValue ?? NaN)));
  const quota = await serviceQuota(aws, 'vpc', SECURITY_GROUP_RULES_QUOTA);
  for (const direction of ['inbound', 'outbound'] as const) {
    const { group, rules } = facts.counts.mostRules[direction];
    findings.push(against(`${direction} rules of one security group (${group || 'none'})`, rules, 0, quota));
  }
  return findings;
}

/** A finding for `adds` more of something the account has `used` of, under `limit` (unknown: a warning). */
function against(what: string, adds: number, used: number, limit: number | undefined): Finding {
  if (limit === undefined || Number.isNaN(limit)) return warn('quotas', KEY, `${what}: the account's quota was not found`, 'check it in the Service Quotas console');
  const total = adds + used;
  const text = `${what}: ${adds} from this deployment${used ? ` and ${used} in the account` : ''}, of ${limit}`;
  if (total > limit) return fail('quotas', KEY, text, 'request a quota increase (Service Quotas) before deploying, or deploy fewer');
  if (total >= NEAR * limit) return warn('quotas', KEY, text, 'request a quota increase before the next applications');
  return ok('quotas', KEY, text);
}

/** Every page of an operation: the input, then each next page's token (`marker` in the input, `next` in the answer). */
async function* pages(aws: AwsCalls, client: PreflightClient, operation: string, input: object, marker: string, next: string): AsyncGenerator<any> {
  let token: string | undefined;
  do {
    const page = await aws.call(client, operation, token ? { ...input, [marker]: token } : input);
    yield page;
    token = page[next];
  } while (token);
}

async function serviceQuota(aws: AwsCalls, serviceCode: string, name: string): Promise<number | undefined> {
  for await (const page of pages(aws, '@aws-sdk/client-service-quotas', 'ListServiceQuotas', { ServiceCode: serviceCode }, 'NextToken', 'NextToken')) {
    const quota = (page.Quotas ?? []).find((q: any) => q.QuotaName === name);
    if (quota) return Number(quota.Value);
  }
  return undefined;
}

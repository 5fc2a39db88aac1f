import type { aws_wafv2 as wafv2 } from 'aws-cdk-lib';
import { shortHash } from './names';
import { any, hostIs } from './waf-body-limits';
import { WAF_RATE_WINDOW_SECONDS } from '../contract/rate-limit';

/** The name (and metric) of the rate-based rule every host without a limit of its own shares. */
export const RATE_LIMIT_RULE = 'RateLimitPerAddress';

/** An application's own rate limit (`rateLimit`) on a platform's shared load balancer, for its host. */
export interface HostRateLimit {
  readonly host: string;
  readonly limit: number;
}

/**
 * The rate-based rules: one for each host with a limit of its own (counting only requests to that host), and the shared
 * one at `limit` for every other host. WAF counts each rule's matching requests by client address
 * (AWS WAF API model, `RateBasedStatement`: "this limit is applied only to the requests that match" its scope-down).
 * @param priorities the shared rule's priority, then one for each host's
 */
export function rateLimitRules(limit: number, hosts: HostRateLimit[], priorities: (index: number) => number): wafv2.CfnWebACL.RuleProperty[] {
  const rule = (name: string, priority: number, ruleLimit: number, scopeDownStatement?: wafv2.CfnWebACL.StatementProperty) => ({
    name,
    priority,
    action: { block: {} },
    statement: {
      rateBasedStatement: { limit: ruleLimit, evaluationWindowSec: WAF_RATE_WINDOW_SECONDS, aggregateKeyType: 'IP', ...scopeDownStatement ? { scopeDownStatement } : {} },
    },
    visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: name, sampledRequestsEnabled: true },
  });
  const sorted = [...hosts].sort((a, b) => a.host.localeCompare(b.host));
  return [
    rule(RATE_LIMIT_RULE, priorities(0), limit,
      sorted.length > 0 ? { notStatement: { statement: any(sorted.map((h) => hostIs(h.host))) } } : undefined),
    // Named by the host's hash: a rule and its metric keep their name when other hosts come and go.
    ...sorted.map((h, i) => rule(`${RATE_LIMIT_RULE}-${shortHash(h.host)}`, priorities(i + 1), h.limit, hostIs(h.host))),
  ];
}

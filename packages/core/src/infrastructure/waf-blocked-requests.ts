import type { aws_wafv2 as wafv2 } from 'aws-cdk-lib';
import { all, any, hostIs, NONE, RESOLVED_PATH } from './waf-body-limits';

/** The content type compared lower-cased (singleHeader's key is `Name`: CDK passes the JSON through as it is). */
const LOWERCASE = [{ priority: 0, type: 'LOWERCASE' }];
import type { BlockedRequest } from '../contract/blocked-request';

/** The name of the rule that blocks the applications' `blockedRequests()`. */
export const BLOCKED_REQUESTS_RULE = 'BlockedRequests';

/** Requests an application wants blocked, with the host they belong to on a platform (any host when undefined). */
export interface RequestBlock {
  readonly requests: BlockedRequest[];
  readonly host?: string;
}

/** One blocked request: its path pattern over the resolved path, its method and content type when it names them. */
function blocked(request: BlockedRequest): wafv2.CfnWebACL.StatementProperty {
  return all([
    { regexMatchStatement: { fieldToMatch: { uriPath: {} }, regexString: request.pathPattern, textTransformations: RESOLVED_PATH } },
    ...request.method ? [{
      byteMatchStatement: { fieldToMatch: { method: {} }, positionalConstraint: 'EXACTLY', searchString: request.method, textTransformations: NONE },
    }] : [],
    ...request.contentTypePattern ? [{
      regexMatchStatement: { fieldToMatch: { singleHeader: { Name: 'content-type' } }, regexString: request.contentTypePattern, textTransformations: LOWERCASE },
    }] : [],
  ]);
}

/** Blocks every request an application declared, on its host; undefined when none declared any (WAF refuses an empty OR). */
export function blockedRequestsRule(priority: number, blocks: RequestBlock[]): wafv2.CfnWebACL.RuleProperty | undefined {
  const statements = blocks.filter((b) => b.requests.length > 0)
    .map((b) => all([...b.host ? [hostIs(b.host)] : [], any(b.requests.map(blocked))]));
  if (statements.length === 0) return undefined;
  return {
    name: BLOCKED_REQUESTS_RULE,
    priority,
    action: { block: {} },
    statement: any(statements),
    visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: BLOCKED_REQUESTS_RULE, sampledRequestsEnabled: true },
  };
}

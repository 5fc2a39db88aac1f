import type { aws_wafv2 as wafv2 } from 'aws-cdk-lib';
import type { RequestBodyLimit } from '../contract/request-body-limit';

/**
 * The core rule set's body-size rule and the label it adds to what it matches (AWS WAF Developer Guide, "Baseline rule
 * groups", `AWSManagedRulesCommonRuleSet`: `SizeRestrictions_BODY`, label
 * `awswaf:managed:aws:core-rule-set:SizeRestrictions_Body`). WAF ignores an override whose rule name does not match
 * exactly, case included (botocore 1.44.8 wafv2 model, `RuleActionOverride`).
 */
export const SIZE_RESTRICTIONS_BODY = {
  rule: 'SizeRestrictions_BODY',
  label: 'awswaf:managed:aws:core-rule-set:SizeRestrictions_Body',
} as const;

/** The name of the rule that blocks what `SIZE_RESTRICTIONS_BODY` only counts. */
export const OVERSIZED_BODY_RULE = 'OversizedBodies';

/** Paths that take large bodies, with the host they belong to on a platform (any host when undefined). */
export interface BodyAllowance {
  readonly limits: RequestBodyLimit[];
  readonly host?: string;
}

/**
 * A regular expression that matches the decimal numbers from 0 to `max` and nothing else (no sign, no leading zero):
 * shorter numbers, then those of `max`'s length digit by digit.
 */
export function decimalAtMost(max: number): string {
  const digits = String(max);
  const n = digits.length;
  const alternatives = ['0', ...n > 1 ? [n > 2 ? `[1-9][0-9]{0,${n - 2}}` : '[1-9]'] : []];
  for (let i = 0; i < n; i++) {
    const d = Number(digits[i]);
    const low = i === 0 ? 1 : 0;
    if (d > low) {
      const rest = n - i - 1;
      alternatives.push(`${digits.slice(0, i)}[${low}-${d - 1}]${rest > 0 ? `[0-9]{${rest}}` : ''}`);
    }
  }
  alternatives.push(digits);
  return `^(${[...new Set(alternatives)].join('|')})$`;
}

/** One statement, or all of several (WAF's `AndStatement` and `OrStatement` take two or more). */
export function all(statements: wafv2.CfnWebACL.StatementProperty[]): wafv2.CfnWebACL.StatementProperty {
  return statements.length === 1 ? statements[0] : { andStatement: { statements } };
}
export function any(statements: wafv2.CfnWebACL.StatementProperty[]): wafv2.CfnWebACL.StatementProperty {
  return statements.length === 1 ? statements[0] : { orStatement: { statements } };
}

/** No text transformation: the field as the request carries it. */
export const NONE = [{ priority: 0, type: 'NONE' }];
/**
 * The path as the application resolves it: percent-decoded, then without `//`, `/./` and `/x/../` (wafv2 model
 * `TextTransformationType` URL_DECODE and NORMALIZE_PATH; AWS WAF Developer Guide, "Text transformation options").
 * Matched raw, `/job/../scriptText` would start with an allowed prefix while the application serves `/scriptText`.
 */
export const RESOLVED_PATH = [{ priority: 0, type: 'URL_DECODE' }, { priority: 1, type: 'NORMALIZE_PATH' }];

/** A request to one application's host on a platform. */
export function hostIs(host: string): wafv2.CfnWebACL.StatementProperty {
  return {
    byteMatchStatement: {
      fieldToMatch: { singleHeader: { Name: 'host' } },
      positionalConstraint: 'EXACTLY',
      searchString: host,
      textTransformations: [{ priority: 0, type: 'LOWERCASE' }],
    },
  };
}

/** A request to one of the allowance's paths, of its host, with a `Content-Length` of at most its largest body. */
function allowed(allowance: BodyAllowance, limit: RequestBodyLimit): wafv2.CfnWebACL.StatementProperty {
  return all([
    ...allowance.host ? [hostIs(allowance.host)] : [],
    {
      byteMatchStatement: {
        fieldToMatch: { uriPath: {} }, positionalConstraint: 'STARTS_WITH', searchString: limit.pathPrefix, textTransformations: RESOLVED_PATH,
      },
    },
    // A missing header matches nothing: a large body of unstated size (a chunked upload) is blocked.
    {
      regexMatchStatement: {
        fieldToMatch: { singleHeader: { Name: 'content-length' } }, regexString: decimalAtMost(limit.maxBytes), textTransformations: NONE,
      },
    },
  ]);
}

/**
 * Blocks a request the body-size rule labelled (its action is overridden to count) unless it goes to a path an
 * application declared, within that path's limit: the size rule's protection stays for every other path.
 */
export function oversizedBodyRule(priority: number, allowances: BodyAllowance[]): wafv2.CfnWebACL.RuleProperty {
  const labelled = { labelMatchStatement: { scope: 'LABEL', key: SIZE_RESTRICTIONS_BODY.label } };
  const exceptions = allowances.flatMap((allowance) => allowance.limits.map((limit) => allowed(allowance, limit)));
  return {
    name: OVERSIZED_BODY_RULE,
    priority,
    action: { block: {} },
    statement: exceptions.length === 0 ? labelled : all([labelled, { notStatement: { statement: any(exceptions) } }]),
    visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: OVERSIZED_BODY_RULE, sampledRequestsEnabled: true },
  };
}

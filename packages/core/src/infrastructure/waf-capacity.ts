import type { aws_wafv2 as wafv2 } from 'aws-cdk-lib';

/**
 * Web ACL capacity units (WCUs): from 1,500 up WAF bills more per web ACL; 5,000 is the most a web ACL takes
 * (https://docs.aws.amazon.com/waf/latest/developerguide/aws-waf-capacity-units.html).
 */
export const WEB_ACL_CAPACITY = { included: 1500, max: 5000 } as const;

/**
 * The capacity of the AWS managed rule groups the web ACL uses, fixed at their creation ("AWS Managed Rules rule
 * groups list", https://docs.aws.amazon.com/waf/latest/developerguide/aws-managed-rule-groups-list.html).
 */
export const MANAGED_RULE_GROUP_CAPACITY: Record<string, number> = {
  AWSManagedRulesCommonRuleSet: 700,
  AWSManagedRulesKnownBadInputsRuleSet: 200,
  AWSManagedRulesAmazonIpReputationList: 25,
};

/** Each text transformation other than NONE adds 10 (the string and regex match statements' pages). */
function transformations(list: wafv2.CfnWebACL.TextTransformationProperty[] | undefined): number {
  return 10 * (list ?? []).filter((t) => t.type !== 'NONE').length;
}

/**
 * A statement's WCUs by WAF's documented costs: string match 2 (`CONTAINS`, `CONTAINS_WORD`: 10), regex match 3,
 * label match 1, rate-based 2, each plus 10 per text transformation; AND, OR and NOT the sum of what they hold; a
 * managed rule group its fixed capacity
 * (https://docs.aws.amazon.com/waf/latest/developerguide/waf-rule-statements-match.html and the pages it links).
 * A statement of another kind throws: the estimate is kept whole, not guessed.
 */
export function statementCapacity(statement: wafv2.CfnWebACL.StatementProperty): number {
  const s = statement as any;
  if (s.byteMatchStatement) {
    const base = ['CONTAINS', 'CONTAINS_WORD'].includes(s.byteMatchStatement.positionalConstraint) ? 10 : 2;
    return base + transformations(s.byteMatchStatement.textTransformations);
  }
  if (s.regexMatchStatement) return 3 + transformations(s.regexMatchStatement.textTransformations);
  if (s.labelMatchStatement) return 1;
  if (s.rateBasedStatement) return 2 + (s.rateBasedStatement.scopeDownStatement ? statementCapacity(s.rateBasedStatement.scopeDownStatement) : 0);
  if (s.andStatement) return s.andStatement.statements.reduce((sum: number, n: wafv2.CfnWebACL.StatementProperty) => sum + statementCapacity(n), 0);
  if (s.orStatement) return s.orStatement.statements.reduce((sum: number, n: wafv2.CfnWebACL.StatementProperty) => sum + statementCapacity(n), 0);
  if (s.notStatement) return statementCapacity(s.notStatement.statement);
  if (s.managedRuleGroupStatement) {
    const capacity = MANAGED_RULE_GROUP_CAPACITY[s.managedRuleGroupStatement.name];
    if (capacity === undefined) throw new Error(`no capacity recorded for managed rule group ${s.managedRuleGroupStatement.name}`);
    return capacity;
  }
  throw new Error(`no capacity known for WAF statement ${Object.keys(s).join(', ')}`);
}

/** The web ACL's estimated capacity: the sum of its rules'. */
export function webAclCapacity(rules: wafv2.CfnWebACL.RuleProperty[]): number {
  return rules.reduce((sum, rule) => sum + statementCapacity(rule.statement as wafv2.CfnWebACL.StatementProperty), 0);
}

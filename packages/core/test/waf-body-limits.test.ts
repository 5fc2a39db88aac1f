import { JenkinsSpec, RuntimeType, SecurityProfile, WAF_BODY_SIZE_LIMIT } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { OIDC, only, propsFor, synth } from './support/synth';
import { JENKINS_REQUEST_BODY_LIMITS } from '../src/build-server/hardening';
import { specProblems } from '../src/contract/spec-validation';
import { decimalAtMost, OVERSIZED_BODY_RULE, SIZE_RESTRICTIONS_BODY } from '../src/infrastructure/waf-body-limits';

/**
 * AWSManagedRulesCommonRuleSet's SizeRestrictions_BODY blocks every body over 8 KB (AWS WAF Developer Guide, "Baseline
 * rule groups"), Jenkins' own forms among them. The framework overrides that one rule to count and adds a rule after
 * the group that blocks what it labelled (`awswaf:managed:aws:core-rule-set:SizeRestrictions_Body`, same page) unless
 * the request goes to a path the plugin declared, within its limit. Names and shapes: botocore 1.44.8's wafv2 model
 * (RuleActionOverride, LabelMatchStatement, ByteMatchStatement, RegexMatchStatement); cfn-lint checks the templates.
 */
function webAclRules(spec = new WikiSpec(), props = propsFor(SecurityProfile.STAGING)): any[] {
  return only(synth(RuntimeType.FARGATE, props, spec).json, 'AWS::WAFv2::WebACL').Properties.Rules;
}

const named = (rules: any[], name: string) => rules.find((r) => r.Name === name);

describe('a plugin that declares no large bodies', () => {
  const rules = webAclRules();

  test('the size rule only counts, and the rule after it blocks everything it labelled', () => {
    const common = named(rules, 'AWSManagedRulesCommonRuleSet');
    expect(common.Statement.ManagedRuleGroupStatement.RuleActionOverrides).toEqual([{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }]);
    const oversized = named(rules, OVERSIZED_BODY_RULE);
    expect(oversized.Priority).toBeGreaterThan(common.Priority);
    expect(oversized.Action).toEqual({ Block: {} });
    expect(oversized.Statement).toEqual({ LabelMatchStatement: { Scope: 'LABEL', Key: 'awswaf:managed:aws:core-rule-set:SizeRestrictions_Body' } });
    expect(SIZE_RESTRICTIONS_BODY).toEqual({ rule: 'SizeRestrictions_BODY', label: 'awswaf:managed:aws:core-rule-set:SizeRestrictions_Body' });
    expect(rules.map((r) => r.Priority)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('the build server', () => {
  const rules = webAclRules(new JenkinsSpec(), { ...propsFor(SecurityProfile.STAGING), authMode: 'application-oidc', oidc: OIDC });
  const oversized = named(rules, OVERSIZED_BODY_RULE);

  test('lets its forms and uploads through, each path within its limit, and nothing else', () => {
    const [label, not] = oversized.Statement.AndStatement.Statements;
    expect(label.LabelMatchStatement.Key).toBe(SIZE_RESTRICTIONS_BODY.label);
    const exceptions = not.NotStatement.Statement.OrStatement.Statements.map((s: any) => s.AndStatement.Statements);
    expect(exceptions.map(([path, length]: any[]) => [path.ByteMatchStatement.SearchString, length.RegexMatchStatement.RegexString]))
      .toEqual(JENKINS_REQUEST_BODY_LIMITS.map((l) => [l.pathPrefix, decimalAtMost(l.maxBytes)]));
    for (const [path, length] of exceptions) {
      // Matched on the path as Jetty serves it: `/job/../scriptText` and `/job/%2e%2e/scriptText` are `/scriptText`.
      expect(path.ByteMatchStatement).toMatchObject({
        FieldToMatch: { UriPath: {} },
        PositionalConstraint: 'STARTS_WITH',
        TextTransformations: [{ Priority: 0, Type: 'URL_DECODE' }, { Priority: 1, Type: 'NORMALIZE_PATH' }],
      });
      expect(length.RegexMatchStatement.FieldToMatch).toEqual({ SingleHeader: { Name: 'content-length' } });
    }
    // Every /manage/X page is also served at /X (jenkins-2.568.2 ManageJenkinsAction.java line 98, a StaplerFallback),
    // and core's banners link the root forms; a job or view saved through a user's own views, and the credentials store.
    expect(JENKINS_REQUEST_BODY_LIMITS.map((l) => l.pathPrefix)).toEqual(['/job/', '/view/', '/manage/', '/createItem', '/configure',
      '/configSubmit', '/pluginManager/', '/credentials/', '/user/', '/me/']);
    const allowedPath = (p: string) => JENKINS_REQUEST_BODY_LIMITS.some((l) => p.startsWith(l.pathPrefix));
    // The forms core's own administrative monitors link (UpdateSiteWarningsMonitor/message.jelly lines 58-60,
    // SecurityIsOffMonitor, RootUrlNotSetMonitor) and where their pages post.
    for (const form of ['/configureSecurity/configure', '/configSubmit', '/configure', '/pluginManager/advanced', '/me/my-views/view/all/job/x/configSubmit']) {
      expect([form, allowedPath(form)]).toEqual([form, true]);
    }
    // Blocked on purpose: the script console's API and the HTTP CLI.
    for (const blocked of ['/scriptText', '/cli', '/script']) expect([blocked, allowedPath(blocked)]).toEqual([blocked, false]);
  });
});

describe('decimalAtMost: the Content-Length values a limit lets through', () => {
  test.each([8193, 65536, 1048576, 10485760, 99999999, 100000000, 2 ** 30])('%d: every number up to it and none above', (max) => {
    const re = new RegExp(decimalAtMost(max));
    const samples = new Set([0, 1, 9, 10, 99, 100, 8192, max - 1, max, max + 1, max + 9, max * 10, Math.floor(max / 10), 10 ** String(max).length]);
    for (let step = 1; step < max; step *= 7) samples.add(max - step);
    for (const n of samples) expect([n, re.test(String(n))]).toEqual([n, n <= max]);
    for (const bad of ['', '-1', '01', '1e6', ' 1', '1 ', '0x10', String(max).padStart(String(max).length + 1, '0')]) expect([bad, re.test(bad)]).toEqual([bad, false]);
    // WAF takes at most 512 characters a pattern (botocore 1.44.8 wafv2, RegexPatternString).
    expect(decimalAtMost(max).length).toBeLessThanOrEqual(512);
  });
});

test('a declared limit WAF could not hold, or one that needs no exception, is refused naming it', () => {
  class Bad extends WikiSpec {
    public requestBodyLimits() {
      return [{ pathPrefix: 'job/', maxBytes: 1e6 }, { pathPrefix: '/upload', maxBytes: WAF_BODY_SIZE_LIMIT },
        // Never matched: the WAF compares the resolved path.
        { pathPrefix: '/a/../b', maxBytes: 1e6 }, { pathPrefix: '/a//b', maxBytes: 1e6 }, { pathPrefix: '/%61', maxBytes: 1e6 }, { pathPrefix: '/a/.', maxBytes: 1e6 },
        // The whole application (injection review 6, F2): / alone, or a wildcard in the first segment.
        { pathPrefix: '/', maxBytes: 1e6 }, { pathPrefix: '/*', maxBytes: 1e6 }, { pathPrefix: '/?x/', maxBytes: 1e6 }];
    }
  }
  const allowed = 'allowed: a path starting with / and a literal first segment (not / alone, which would lift the limit everywhere; ' +
    'no * or ? before the second /), printable ASCII without spaces, %, // or . and .. segments, at most 200 bytes.';
  expect(specProblems(new Bad(), 'Bad')).toEqual([
    `Bad.requestBodyLimits()[0].pathPrefix "job/"; ${allowed}`,
    'Bad.requestBodyLimits()[1].maxBytes 8192; allowed: an integer from 8193 to 1073741824 (smaller bodies pass the WAF everywhere).',
    `Bad.requestBodyLimits()[2].pathPrefix "/a/../b"; ${allowed}`,
    `Bad.requestBodyLimits()[3].pathPrefix "/a//b"; ${allowed}`,
    `Bad.requestBodyLimits()[4].pathPrefix "/%61"; ${allowed}`,
    `Bad.requestBodyLimits()[5].pathPrefix "/a/."; ${allowed}`,
    `Bad.requestBodyLimits()[6].pathPrefix "/"; ${allowed}`,
    `Bad.requestBodyLimits()[7].pathPrefix "/*"; ${allowed}`,
    `Bad.requestBodyLimits()[8].pathPrefix "/?x/"; ${allowed}`,
  ]);
  // Dots inside a segment are a path like any other.
  class Dotted extends WikiSpec {
    public requestBodyLimits() { return [{ pathPrefix: '/static/app.v2/', maxBytes: 1e6 }]; }
  }
  expect(specProblems(new Dotted(), 'Dotted')).toEqual([]);
});

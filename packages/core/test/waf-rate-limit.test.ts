import * as fs from 'node:fs';
import * as path from 'node:path';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { ContainerImageSpec, RuntimeType, SecurityProfile } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { cfnValidateFindings } from './support/cfn-validate';
import { PLATFORM_PROPS, synthPlatform } from './support/platform';
import { only, propsFor, synth } from './support/synth';
import { matches } from './support/waf-evaluate';
import { WAF_RATE_LIMIT, WAF_RATE_LIMIT_BOUNDS, WAF_RATE_WINDOW_SECONDS } from '../src/contract/rate-limit';
import { RATE_LIMIT_RULE } from '../src/infrastructure/waf-rate-limits';

// `rateLimit`: an application's own rate limit, standalone for its load balancer, on a platform for its host only.
// The bounds are WAF's, read from its API model (aws/wafv2/rate-based-statement.json, botocore 1.44.8).

const WAF = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'aws', 'wafv2', 'rate-based-statement.json'), 'utf-8'));
const rateRules = (template: any) => (only(template, 'AWS::WAFv2::WebACL').Properties.Rules as any[]).filter((r) => r.Statement.RateBasedStatement);

const IDP = { applicationId: 'idp', image: 'example/identity:2.1.0', port: 8080, user: '1000:1000' };
const DIGESTS = { imageDigests: { [IDP.image]: `sha256:${'5'.repeat(64)}` } };
const platform = synthPlatform([
  { stackName: 'Idp', runtime: RuntimeType.FARGATE, spec: () => new ContainerImageSpec(IDP), props: { subdomain: 'login', rateLimit: 10000, ...DIGESTS } },
  { stackName: 'Wiki', runtime: RuntimeType.EC2, spec: () => new WikiSpec(), props: { subdomain: 'wiki' } },
], PLATFORM_PROPS);

test('the bounds, the window and the key type are values WAF takes', () => {
  expect(WAF.provenance.pypi_file).toBe('botocore-1.44.8-py3-none-any.whl');
  expect(WAF_RATE_LIMIT_BOUNDS).toEqual({ min: WAF.RateLimit.min, max: WAF.RateLimit.max });
  expect(WAF.EvaluationWindowSecValid).toContain(WAF_RATE_WINDOW_SECONDS);
  expect(WAF.RateBasedStatementAggregateKeyType.enum).toContain('IP');
  expect(WAF_RATE_LIMIT).toBeGreaterThanOrEqual(WAF_RATE_LIMIT_BOUNDS.min);
});

test('on a platform: the application\'s host has its own limit, every other host keeps the shared one', () => {
  const rules = rateRules(platform.templates.Platform);
  expect(rules.map((r) => [r.Name, r.Statement.RateBasedStatement.Limit])).toEqual([
    [RATE_LIMIT_RULE, WAF_RATE_LIMIT], [expect.stringMatching(new RegExp(`^${RATE_LIMIT_RULE}-[0-9a-f]{8}$`)), 10000],
  ]);
  const [shared, own] = rules.map((r) => r.Statement.RateBasedStatement.ScopeDownStatement);
  const request = (host: string) => ({ method: 'GET', path: '/', headers: { host } });
  // Each request is counted by one rule: the identity provider's by its own, the wiki's (and any other) by the shared one.
  expect([matches(shared, request('login.example.com')), matches(own, request('login.example.com'))]).toEqual([false, true]);
  expect([matches(shared, request('wiki.example.com')), matches(own, request('wiki.example.com'))]).toEqual([true, false]);
  // Every rule's priority is its own, and every limit one WAF takes.
  const all = only(platform.templates.Platform, 'AWS::WAFv2::WebACL').Properties.Rules as any[];
  expect(new Set(all.map((r) => r.Priority)).size).toBe(all.length);
  for (const r of rules) expect(r.Statement.RateBasedStatement.Limit).toBeLessThanOrEqual(WAF.RateLimit.max);
  // CloudFormation's validation (the CDK's, as cdk synth runs it) takes the web ACL.
  expect(cfnValidateFindings([path.join(platform.app.outdir, 'Platform.template.json')])).toEqual([]);
});

test('standalone: the application\'s load balancer has its limit, for every request', () => {
  const { json } = synth(RuntimeType.FARGATE, { ...propsFor(SecurityProfile.STAGING), rateLimit: 50000 });
  expect(rateRules(json).map((r) => r.Statement.RateBasedStatement)).toEqual([
    { Limit: 50000, EvaluationWindowSec: WAF_RATE_WINDOW_SECONDS, AggregateKeyType: 'IP' },
  ]);
});

test('a value WAF refuses is refused, naming the key, the value and WAF\'s bounds; in DEV, which has no WAF, it is named unused', () => {
  expect(() => synth(RuntimeType.FARGATE, { ...propsFor(SecurityProfile.STAGING), rateLimit: 5 }))
    .toThrow(/rateLimit 5 is not allowed; expected a whole number of requests from 10 to 2000000000 \(WAF's bounds\), for example 10000/);
  const dev = synth(RuntimeType.FARGATE, { rateLimit: 10000 }, new WikiSpec());
  Annotations.fromStack(dev.stack).hasWarning('*', Match.stringLikeRegexp('rateLimit 10000 is not used: securityProfile DEV puts no WAF'));
});

import { JenkinsSpec, RuntimeType, SecurityProfile } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { OIDC, only, propsFor, synth } from './support/synth';
import { matches, type WafRequest } from './support/waf-evaluate';
import { BLOCKED_PATH_PATTERN_MAX, BLOCKED_REQUESTS_MAX } from '../src/contract/blocked-request';
import { specProblems } from '../src/contract/spec-validation';
import { BLOCKED_REQUESTS_RULE } from '../src/infrastructure/waf-blocked-requests';

/**
 * What a plugin's `blockedRequests()` makes the load balancer's WAF block from outside, evaluated on the template's
 * own web ACL: the build server's script consoles, its CLI, POSTs of a `config.xml` and XML bodies, by every route the
 * review traced in jenkins-2.568.2 and stapler (docs/build-server.md; hardening.ts cites the lines). The path is
 * matched once percent-decoded and resolved (URL_DECODE, NORMALIZE_PATH), as Jetty serves it; the content type
 * lower-cased.
 */
const rules: any[] = only(synth(RuntimeType.FARGATE, { ...propsFor(SecurityProfile.STAGING), authMode: 'application-oidc', oidc: OIDC },
  new JenkinsSpec()).json, 'AWS::WAFv2::WebACL').Properties.Rules;
const rule = rules.find((r) => r.Name === BLOCKED_REQUESTS_RULE);
const blocked = (method: string, path: string, contentType?: string) =>
  matches(rule.Statement, { method, path, headers: contentType === undefined ? {} : { 'content-type': contentType } } as WafRequest);

test('the rule blocks, after the managed groups, and is counted in the metrics', () => {
  expect(rule).toMatchObject({ Priority: 5, Action: { Block: {} }, VisibilityConfig: { MetricName: BLOCKED_REQUESTS_RULE } });
  expect(rules.map((r) => r.Priority)).toEqual([0, 1, 2, 3, 4, 5]);
});

test.each([
  ['GET', '/script'], ['POST', '/script'], ['POST', '/scriptText'], ['GET', '/manage/script'], ['POST', '/manage/scriptText'],
  ['POST', '/computer/(built-in)/script'], ['POST', '/manage/computer/agent-1/scriptText'], ['GET', '/cli'], ['POST', '/cli?remoting=false'],
  ['GET', '/cli/ws'], ['POST', '/job/app/config.xml'], ['POST', '/me/my-views/view/all/config.xml'], ['POST', '/user/alice/my-views/view/x/config.xml'],
  ['POST', '/view/all/job/app/config.xml'],
  // The routes of the review (jenkins-review-6 J2, J3): the consoles and the CLI at any depth, config.xml with more segments.
  ['POST', '/computers/0/script'], ['POST', '/computers/0/scriptText'], ['POST', '/manage/computers/0/script'],
  ['POST', '/manage/manage/script'], ['POST', '/manage/manage/manage/scriptText'], ['POST', '/manage/cli?remoting=false'],
  ['POST', '/manage/manage/cli'], ['POST', '/computer/(built-in)/executors/0/owner/script'],
  ['POST', '/job/x/config.xml/y'], ['POST', '/me/my-views/view/v/config.xml/y'],
  // Encoded and roundabout forms resolve to the same paths.
  ['POST', '/job/%2e%2e/scriptText'], ['POST', '/job/x/../../cli'], ['POST', '//manage//script'], ['POST', '/job/app/config%2exml'],
  ['POST', '/job/app/config.xml/'], ['POST', '/manage/%63li'], ['POST', '/computers/0/%73cript'],
])('%s %s is blocked', (method, path) => {
  expect(blocked(method, path)).toBe(true);
});

test.each([
  ['application/xml'], ['text/xml'], ['application/xml; charset=UTF-8'], ['text/xml;charset=utf-8'], ['Application/XML'], [' application/xml'],
])('a body of type %s is blocked on any path: createView in My Views, createItem', (contentType) => {
  for (const path of ['/me/my-views/createView?name=x', '/user/alice/my-views/createView', '/createItem?name=x', '/view/all/createItem', '/job/app/build']) {
    expect([path, blocked('POST', path, contentType)]).toEqual([path, true]);
  }
});

test.each([
  ['GET', '/login'], ['GET', '/scriptApproval/'], ['POST', '/scriptApproval/approveScript'], ['GET', '/manage/'], ['POST', '/job/app/configSubmit'],
  ['GET', '/job/app/config.xml'], ['POST', '/job/app/build'], ['GET', '/scripts.js'], ['GET', '/static/abc/script.js'],
  ['POST', '/securityRealm/finishLogin'], ['GET', '/client/'], ['POST', '/job/config.xml-builder/build'], ['GET', '/job/build-scripts/'],
  ['POST', '/job/my-script/build'], ['POST', '/job/scriptText-tools/configSubmit'], ['GET', '/job/clients/'], ['GET', '/manage/computer/agent-1/'],
  ['POST', '/descriptorByName/org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition/checkScriptCompile'],
])('negative control: %s %s passes', (method, path) => {
  expect(blocked(method, path)).toBe(false);
});

test.each([
  ['application/x-www-form-urlencoded'], ['multipart/form-data; boundary=x'], ['application/json'], ['text/plain'],
])('negative control: the UI\'s form posts (%s) pass', (contentType) => {
  for (const path of ['/job/app/configSubmit', '/me/my-views/createView', '/createItem?name=x', '/configureSecurity/configure']) {
    expect([path, blocked('POST', path, contentType)]).toEqual([path, false]);
  }
});

test('a plugin that blocks nothing gets no such rule (WAF refuses an empty statement)', () => {
  const wiki = only(synth(RuntimeType.FARGATE, propsFor(SecurityProfile.STAGING), new WikiSpec()).json, 'AWS::WAFv2::WebACL').Properties.Rules;
  expect(wiki.map((r: any) => r.Name)).not.toContain(BLOCKED_REQUESTS_RULE);
});

test('a plugin\'s blocked requests are checked, naming the entry, its value and what is allowed', () => {
  const declaring = (requests: unknown) => new (class extends WikiSpec {
    public blockedRequests() { return requests as any; }
  })();
  expect(specProblems(declaring([{ pathPattern: '^/admin(' }, { pathPattern: 'x'.repeat(BLOCKED_PATH_PATTERN_MAX + 1) }, { pathPattern: '^/x', method: 'post' }]), 'Wiki'))
    .toEqual([
      `Wiki.blockedRequests()[0].pathPattern "^/admin("; allowed: a regular expression of 1 to ${BLOCKED_PATH_PATTERN_MAX} characters.`,
      `Wiki.blockedRequests()[1].pathPattern "${'x'.repeat(BLOCKED_PATH_PATTERN_MAX + 1)}"; allowed: a regular expression of 1 to ${BLOCKED_PATH_PATTERN_MAX} characters.`,
      'Wiki.blockedRequests()[2].method "post"; allowed: an HTTP method in upper case, for example POST.',
    ]);
  expect(specProblems(declaring(Array.from({ length: BLOCKED_REQUESTS_MAX + 1 }, () => ({ pathPattern: '^/x' }))), 'Wiki'))
    .toEqual([`Wiki.blockedRequests() lists ${BLOCKED_REQUESTS_MAX + 1} requests; allowed: at most ${BLOCKED_REQUESTS_MAX}.`]);
  expect(specProblems(new JenkinsSpec(), 'JenkinsSpec')).toEqual([]);
});

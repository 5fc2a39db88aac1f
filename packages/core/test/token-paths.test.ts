import * as fs from 'fs';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';
import { ApplicationFactory, AuthMode, Platform, PluginSetting, RuntimeType, SecurityProfile } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { otherWiki, PLATFORM_PROPS, synthPlatform } from './support/platform';
import { IMAGE_DIGESTS, OIDC, propsFor, REGION_ENV, resources, synth, TLS } from './support/synth';
import type { EvidenceReport } from '../src/compliance/report-model';
import { tokenPaths as parseTokenPaths } from '../src/context/key-parsers';
import { namedHosts, unreachableHostProblems } from '../src/platform/named-hosts';

// Machine clients behind alb-oidc: tokenPaths skip the load balancer's sign-in, on a rule the load balancer evaluates
// before the application's own (the lower priority number wins), forwarding without authenticate-oidc.
const TOKEN_PATHS = ['/repository/*', '/v2/*'];
const actionTypes = (rule: any) => (rule.Properties.Actions ?? rule.Properties.DefaultActions).map((a: any) => a.Type);
const conditions = (rule: any) => Object.fromEntries(rule.Properties.Conditions
  .map((c: any) => [c.Field, c.PathPatternConfig?.Values ?? c.HostHeaderConfig?.Values]));

describe('standalone, alb-oidc with tokenPaths', () => {
  const { app, stack, json } = synth(RuntimeType.FARGATE,
    { ...propsFor(SecurityProfile.PRODUCTION), authMode: AuthMode.ALB_OIDC, oidc: OIDC, tokenPaths: TOKEN_PATHS });

  test('the listener signs everyone in by default, and forwards the token paths without the sign-in on rule 1', () => {
    const [[, listener]] = resources(json, 'AWS::ElasticLoadBalancingV2::Listener').filter(([, l]) => l.Properties.Protocol === 'HTTPS');
    expect(actionTypes(listener)).toEqual(['authenticate-oidc', 'forward']);
    const [[, rule]] = resources(json, 'AWS::ElasticLoadBalancingV2::ListenerRule');
    expect([rule.Properties.Priority, actionTypes(rule), conditions(rule)]).toEqual([1, ['forward'], { 'path-pattern': TOKEN_PATHS }]);
  });

  test('the evidence report lists them as deviations under 8.3.1 and 8.4.2', () => {
    const report: EvidenceReport = JSON.parse(fs.readFileSync(path.join(app.outdir, `${stack.stackName}.pci-dss-4.0.1.json`), 'utf-8'));
    expect(report.deviations.filter((d) => d.rule === 'tokenPaths').map((d) => [d.requirement, d.reason])).toEqual(['8.3.1', '8.4.2'].map((q) =>
      [q, expect.stringMatching(/^Requests to \/repository\/\*, \/v2\/\* skip the load balancer's sign-in \(tokenPaths\): WikiSpec authenticates them itself/)]));
  });

  test('without tokenPaths, no rule: every request signs in (negative control)', () => {
    const plain = synth(RuntimeType.FARGATE, { ...TLS, authMode: AuthMode.ALB_OIDC, oidc: OIDC });
    expect(resources(plain.json, 'AWS::ElasticLoadBalancingV2::ListenerRule')).toEqual([]);
  });
});

test('tokenPaths are refused without alb-oidc, and a pattern that matches every path, naming the key and what is allowed', () => {
  expect(() => synth(RuntimeType.FARGATE, { ...TLS, authMode: AuthMode.APPLICATION_OIDC, oidc: OIDC, tokenPaths: TOKEN_PATHS }))
    .toThrow(/tokenPaths \["\/repository\/\*","\/v2\/\*"\] applies only with authMode "alb-oidc" \(given: application-oidc\)/);
  expect(() => synth(RuntimeType.FARGATE, { ...TLS, authMode: AuthMode.ALB_OIDC, oidc: OIDC, tokenPaths: ['/*'] }))
    .toThrow(/tokenPaths \["\/\*"\] is not allowed; expected a list of 1 to 4 load-balancer path patterns, each starting with \/.*each with a literal first segment/);
});

/**
 * A pattern needs a literal first segment (injection review 6, F1): `/?*` passed "not every path" and skipped sign-in
 * on every path but `/`. Each pattern is also read as the load balancer reads it (`*` any characters, `?` one, the
 * whole path: ListenerRule PathPatternConfig) over probe paths with different first segments: what is refused reaches
 * them all, what is accepted at most the one its segment names.
 */
describe('a pattern with a wildcard before the second /', () => {
  const PROBES = ['/ab', '/login', '/admin/x', '/repository/releases/x.jar', '/v2/x'];
  const reaches = (pattern: string) => PROBES.filter((p) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`).test(p));
  test.each(['/?*', '/*?', '/??*', '/*', '/**', '/*/*', '/', '/a*', '/?/*'])('%s is refused', (pattern) => {
    expect(parseTokenPaths([pattern])).toEqual({ allowed: expect.stringMatching(/each with a literal first segment/) });
  });
  test.each(['/?*', '/*?', '/??*'])('%s would reach every probe path (why it is refused)', (pattern) => {
    expect(reaches(pattern)).toEqual(PROBES);
  });
  test.each(['/repository/*', '/v2/*', '/service/rest/*', '/a', '/api/v?/*'])('negative control: %s is accepted and reaches one first segment at most', (pattern) => {
    expect(parseTokenPaths([pattern])).toEqual({ value: [pattern] });
    expect(new Set(reaches(pattern).map((p) => p.split('/')[1])).size).toBeLessThanOrEqual(1);
  });
});

describe('on a platform', () => {
  const { templates } = synthPlatform([
    {
      stackName: 'Nexus',
      runtime: RuntimeType.FARGATE,
      spec: () => otherWiki('nexus'),
      props: { subdomain: 'nexus', authMode: AuthMode.ALB_OIDC, oidc: OIDC, tokenPaths: TOKEN_PATHS, listenerPriority: 100 },
    },
  ]);

  test('the token rule matches the host and the paths, one priority before the host rule, which signs in', () => {
    const rules = resources(templates.Nexus, 'AWS::ElasticLoadBalancingV2::ListenerRule').map(([, r]) => r);
    expect(rules.map((r) => [r.Properties.Priority, actionTypes(r), conditions(r)]).sort()).toEqual([
      [100, ['authenticate-oidc', 'forward'], { 'host-header': ['nexus.example.com'] }],
      [99, ['forward'], { 'host-header': ['nexus.example.com'], 'path-pattern': TOKEN_PATHS }],
    ].sort());
  });

  test('an application whose priority is the token rule\'s of another is refused, naming both; priority 1 leaves no room', () => {
    const attach = (apps: Array<[string, number, string[] | undefined]>) => {
      const app = new App();
      const platform = new Platform(new Stack(app, 'Platform', { env: REGION_ENV }), 'Platform', PLATFORM_PROPS);
      for (const [id, listenerPriority, tokenPaths] of apps) {
        new ApplicationFactory(new Stack(app, id, { env: REGION_ENV }), 'App', RuntimeType.FARGATE, otherWiki(id.toLowerCase()), {
          platform,
          imageDigests: IMAGE_DIGESTS,
          subdomain: id.toLowerCase(),
          pciDssScope: propsFor(SecurityProfile.PRODUCTION).pciDssScope,
          listenerPriority,
          ...tokenPaths ? { authMode: AuthMode.ALB_OIDC, oidc: OIDC, tokenPaths } : {},
        });
      }
    };
    expect(() => attach([['Nexus', 100, TOKEN_PATHS], ['Docs', 99, undefined]]))
      .toThrow(/Applications Nexus \(nexus\) and Docs \(docs\) on platform Platform have the same listener-rule priority 99;/);
    expect(() => attach([['Nexus', 1, TOKEN_PATHS]])).toThrow(/has tokenPaths, whose listener rule takes the priority before its own \(1\); set listenerPriority to 2 or more/);
    expect(() => attach([['Nexus', 100, TOKEN_PATHS], ['Docs', 98, undefined]])).not.toThrow();
  });
});

/** A wiki that names another application's address in its settings (as the build server names SonarQube's). */
class Caller extends WikiSpec {
  public applicationId() { return 'caller'; }
  public efsDataPath() { return '/caller'; }
  public settings(): PluginSetting[] { return [{ name: 'upstreamUrl', description: 'The repository it calls' }]; }
  public withSettings() { return this; }
}

describe('a setting that names an alb-oidc application\'s host', () => {
  const attach = (tokenPaths?: string[], callerFirst = true) => {
    const app = new App();
    const platform = new Platform(new Stack(app, 'Platform', { env: REGION_ENV }), 'Platform', PLATFORM_PROPS);
    const on = { platform, imageDigests: IMAGE_DIGESTS, pciDssScope: propsFor(SecurityProfile.PRODUCTION).pciDssScope };
    const caller = () => new ApplicationFactory(new Stack(app, 'Caller', { env: REGION_ENV }), 'App', RuntimeType.FARGATE, new Caller(),
      { ...on, subdomain: 'caller', pluginSettings: { upstreamUrl: 'https://nexus.example.com/repository/maven' } });
    const nexus = () => new ApplicationFactory(new Stack(app, 'Nexus', { env: REGION_ENV }), 'App', RuntimeType.FARGATE, otherWiki('nexus'),
      { ...on, subdomain: 'nexus', authMode: AuthMode.ALB_OIDC, oidc: OIDC, ...tokenPaths ? { tokenPaths } : {} });
    for (const attachOne of callerFirst ? [caller, nexus] : [nexus, caller]) attachOne();
    return () => app.synth();
  };

  test('is refused at synth, naming both applications and the two ways out, whichever was attached first', () => {
    expect(attach(undefined, false)).toThrow(/Caller \(caller\) names https:\/\/nexus\.example\.com/);
    expect(attach()).toThrow(/Caller \(caller\) names https:\/\/nexus\.example\.com in its pluginSettings, the host of Nexus \(nexus\), which signs in at the load balancer \(authMode alb-oidc\): it has no private route.*Give it tokenPaths.*or authMode application-oidc/);
  });

  test('synthesises when that application declares tokenPaths (negative control)', () => {
    expect(attach(TOKEN_PATHS)).not.toThrow();
  });

  test('namedHosts reads http and https URLs only', () => {
    expect(namedHosts({ a: 'https://sonar.example.com/api', b: 'jdbc:postgresql://db:5432/x', c: 'http://h.example.com', d: 'text' }))
      .toEqual(['sonar.example.com', 'h.example.com']);
    expect(unreachableHostProblems([])).toEqual([]);
  });
});

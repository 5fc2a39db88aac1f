import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { ApplicationFactory, AuthMode, Ec2Storage, JenkinsSpec, PciDssScope, Platform, RuntimeType, SecurityProfile } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { type OnPlatform, otherWiki, PLATFORM_PROPS, synthPlatform } from './support/platform';
import { EC2_IMAGE_ID, IMAGE_DIGESTS, OIDC, REGION_ENV, resources } from './support/synth';
import { matches } from './support/waf-evaluate';
import { statementId } from '../src/infrastructure/storage';
import { BLOCKED_REQUESTS_RULE } from '../src/infrastructure/waf-blocked-requests';
import { MANAGED_RULE_GROUP_CAPACITY, WEB_ACL_CAPACITY, webAclCapacity } from '../src/infrastructure/waf-capacity';
import { SCHEMAS } from '../src/lifecycle/lifecycle-check';
import { checkQuota, LOAD_BALANCER_QUOTAS } from '../src/platform/load-balancer-quotas';
import { PLATFORM_PARAMETERS, PRIVATE_ROUTE_PARAMETERS } from '../src/platform/platform-parameters';

/**
 * What happens after a platform's first day: applications attach and leave, two name the same certificate, one comes
 * back after its stack was deleted. Each test here fails when its fix is reverted.
 */
const SHARED_CERTIFICATE = 'arn:aws:acm:eu-west-1:123456789012:certificate/11111111-2222-3333-4444-555555555555';
const onOtherDomain = { domain: 'example.org', certificateArn: SHARED_CERTIFICATE };
const WIKI: OnPlatform = { stackName: 'Wiki', runtime: RuntimeType.FARGATE, spec: () => new WikiSpec(), props: { subdomain: 'wiki', ...onOtherDomain } };
const JENKINS: OnPlatform = {
  stackName: 'Jenkins',
  runtime: RuntimeType.FARGATE,
  spec: () => new JenkinsSpec(),
  props: { subdomain: 'ci', authMode: AuthMode.APPLICATION_OIDC, oidc: OIDC, ...onOtherDomain },
};
/** The wiki alone, then the build server (which raises alarms) beside it. */
const one = synthPlatform([WIKI]);
const two = synthPlatform([WIKI, JENKINS]);

describe('the platform\'s key policies do not change as applications come and go', () => {
  const policies = (template: any) => [
    ...resources(template, 'AWS::KMS::Key').map(([id, key]) => [id, key.Properties.KeyPolicy]),
    ...resources(template, 'AWS::SNS::TopicPolicy').map(([id, policy]) => [id, policy.Properties.PolicyDocument]),
  ];

  test('byte-identical with one application and with two', () => {
    expect(policies(two.templates.Platform).length).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(policies(two.templates.Platform))).toBe(JSON.stringify(policies(one.templates.Platform)));
  });

  test('the Logs endpoint\'s policy is the same too: it names the applications\' log groups by pattern', () => {
    const endpoint = (t: any) => resources(t, 'AWS::EC2::VPCEndpoint').map(([, e]) => JSON.stringify(e.Properties.PolicyDocument ?? null))
      .filter((p) => p.includes('logs:PutLogEvents'));
    expect(endpoint(two.templates.Platform)).toEqual(endpoint(one.templates.Platform));
    expect(endpoint(one.templates.Platform)[0]).toContain(':log-group:/aws/*/FARGATE/PRODUCTION:*');
  });
});

test('the interface endpoints admit HTTPS from the compute subnets, where the applications run', () => {
  const [[, group]] = resources(one.templates.Platform, 'AWS::EC2::SecurityGroup')
    .filter(([, g]) => g.Properties.GroupDescription.startsWith('VPC interface endpoints'));
  const computeSubnets = resources(one.templates.Platform, 'AWS::EC2::Subnet')
    .filter(([id]) => id.includes('Compute')).map(([, s]) => s.Properties.CidrBlock);
  expect(computeSubnets).toHaveLength(2);
  expect(group.Properties.SecurityGroupIngress.map((r: any) => [r.CidrIp, r.FromPort, r.ToPort]))
    .toEqual(computeSubnets.map((cidr) => [cidr, 443, 443]));
});

describe('two applications naming one certificate', () => {
  const listenerCertificates = (templates: Record<string, any>) => Object.entries(templates)
    .flatMap(([stack, t]) => resources(t, 'AWS::ElasticLoadBalancingV2::ListenerCertificate').map(([id, r]) => [stack, id, r.Properties.Certificates]));

  test('the platform adds it once to each listener, the public one and the private one (R1); no application\'s stack owns it', () => {
    const cert = [{ CertificateArn: SHARED_CERTIFICATE }];
    expect(listenerCertificates(two.templates)).toEqual([
      ['Platform', expect.stringMatching(/^PlatformLoadBalancerCertificate[0-9a-f]{8}[0-9A-F]{8}$/), cert],
      ['Platform', expect.stringMatching(/^PlatformLoadBalancerCertificate[0-9a-f]{8}1[0-9A-F]{8}$/), cert],
    ]);
    const listeners = Object.values<any>(two.templates.Platform.Resources).filter((r) => r.Type === 'AWS::ElasticLoadBalancingV2::ListenerCertificate')
      .map((r) => r.Properties.ListenerArn.Ref);
    expect(listeners).toEqual([expect.stringMatching(/^PlatformLoadBalancerAlbHttps/), expect.stringMatching(/^PlatformPrivateLoadBalancerAlbHttps/)]);
  });

  test('with one of them left, it stays: the same resource, by the same logical id', () => {
    expect(listenerCertificates(one.templates)).toEqual(listenerCertificates(two.templates));
  });
});

describe('re-adding an application after its stack was deleted', () => {
  /**
   * PRODUCTION keeps the application's log group when its stack is deleted (RetainExceptOnCreate), under a fixed name.
   * Created again, the stack would fail on it (AlreadyExists); `cdk deploy --import-existing-resources` (docs/platform.md,
   * "Lifecycle") has CloudFormation adopt it instead, which requires of each such resource a static custom name, the
   * type's primary identifier in the template, and a DeletionPolicy of Retain or RetainExceptOnCreate
   * (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/import-resources-automatically.html).
   */
  test.each(['Wiki', 'Jenkins'])('%s: everything its stack keeps has a fixed name CloudFormation can adopt', (stack) => {
    const kept = Object.entries<any>(two.templates[stack].Resources).filter(([, r]) => r.DeletionPolicy && r.DeletionPolicy !== 'Delete');
    expect(kept.length).toBeGreaterThan(0);
    for (const [id, resource] of kept) {
      // The type's primary identifier, from CloudFormation's schema (aws/cloudformation/resource-schemas.json).
      const identifier = SCHEMAS[resource.Type]?.primaryIdentifier;
      expect([id, resource.Type, identifier?.length]).toEqual([id, resource.Type, 1]);
      expect([id, typeof resource.Properties[identifier[0]]]).toEqual([id, 'string']);
      expect([id, resource.DeletionPolicy]).toEqual([id, expect.stringMatching(/^(Retain|RetainExceptOnCreate)$/)]);
    }
  });
});

describe('statement ids of the file-system policy', () => {
  test('names that differ only in punctuation get different ids; names in letters and digits keep theirs', () => {
    expect(statementId('Wiki')).toBe('Wiki');
    expect(statementId('fw-wiki')).not.toBe(statementId('fwwiki'));
    expect(statementId('fw-wiki')).toMatch(/^fwwiki[0-9a-f]{8}$/);
  });

  test('both attached: every statement id of the policy is unique', () => {
    const app = new App();
    const platform = new Platform(new Stack(app, 'Platform', { env: REGION_ENV }), 'Platform', PLATFORM_PROPS);
    for (const [stackName, id] of [['fw-wiki', 'wiki'], ['fwwiki', 'docs']]) {
      new ApplicationFactory(new Stack(app, stackName, { env: REGION_ENV }), 'App', RuntimeType.FARGATE, otherWiki(id),
        { platform, imageDigests: IMAGE_DIGESTS, subdomain: id, pciDssScope: PciDssScope.CONNECTED });
    }
    const storage = platform.node.findChild('Storage') as any;
    const sids = storage.policy.toJSON().Statement.map((s: any) => s.Sid);
    expect(new Set(sids).size).toBe(sids.length);
  });
});

describe('the load balancer\'s quotas', () => {
  const warnings = (stack: Stack) => stack.node.findAll().flatMap((c) => c.node.metadata.filter((m) => m.type === 'aws:cdk:warning').map((m) => String(m.data)));

  test('the quotas are the documented defaults', () => {
    expect(LOAD_BALANCER_QUOTAS.targetGroups).toEqual({ name: 'Target Groups per Application Load Balancer', value: 100, adjustable: false });
    expect(LOAD_BALANCER_QUOTAS.certificates.value).toBe(25);
  });

  test('over one that cannot be raised: refused, naming the quota and the applications', () => {
    const stack = new Stack();
    const used = Array.from({ length: 101 }, (_, i) => `App${i}`);
    expect(() => checkQuota(stack, LOAD_BALANCER_QUOTAS.targetGroups, used, 'Platform')).toThrow(
      /^Platform Platform's load balancer would need 101 of "Target Groups per Application Load Balancer" \(App0, .*App100\); the quota is 100, and it cannot be raised\. Attach the other applications to another platform\.$/);
    expect(() => checkQuota(stack, LOAD_BALANCER_QUOTAS.targetGroups, used.slice(0, 100), 'Platform')).not.toThrow();
  });

  test('over one that can: one warning, when it is first passed', () => {
    const stack = new Stack();
    const used = Array.from({ length: 27 }, (_, i) => `App${i}`);
    for (let n = 25; n <= 27; n++) checkQuota(stack, LOAD_BALANCER_QUOTAS.certificates, used.slice(0, n), 'Platform');
    expect(warnings(stack)).toEqual([expect.stringMatching(/would need 26 of "Certificates per Application Load Balancer \(excluding default certificates\)" .*the quota is 25 unless raised.*raise it in Service Quotas/)]);
  });

  test('26 applications naming one certificate count once; 26 naming their own pass the quota', () => {
    const attach = (certificate: (i: number) => string) => {
      const app = new App();
      const platform = new Platform(new Stack(app, 'Platform', { env: REGION_ENV }), 'Platform', PLATFORM_PROPS);
      for (let i = 0; i < 26; i++) {
        new ApplicationFactory(new Stack(app, `App${i}`, { env: REGION_ENV }), 'App', RuntimeType.EC2, otherWiki(`app${i}`),
          {
            platform,
            ec2ImageId: EC2_IMAGE_ID,
            imageDigests: IMAGE_DIGESTS,
            subdomain: `app${i}`,
            domain: 'example.org',
            certificateArn: certificate(i),
            ec2Storage: Ec2Storage.EBS,
            pciDssScope: PciDssScope.CONNECTED,
          });
      }
      return warnings(Stack.of(platform)).filter((w) => w.includes('Certificates per Application Load Balancer'));
    };
    expect(attach(() => SHARED_CERTIFICATE)).toEqual([]);
    expect(attach((i) => SHARED_CERTIFICATE.replace('555555555555', String(i).padStart(12, '0')))).toEqual([
      expect.stringMatching(/^Platform Platform's load balancer would need 26 of "Certificates per Application Load Balancer \(excluding default certificates\)" \(App0, App1, .*App25\)/),
    ]);
  });
});

describe('the web ACL\'s capacity', () => {
  const acl = (templates: Record<string, any>) => resources(templates.Platform, 'AWS::WAFv2::WebACL')[0][1].Properties;
  const cfnRules = (properties: any) => properties.Rules.map(lowerKeys);

  test('the estimate: the managed groups\' capacities, the rate rule, 37 WCUs for each large-body path of a host and its blocked requests', () => {
    const managed = Object.values(MANAGED_RULE_GROUP_CAPACITY).reduce((a, b) => a + b, 0);
    const withoutPaths = webAclCapacity(cfnRules(acl(one.templates)));
    expect(withoutPaths).toBe(managed + 2 + 1);
    const paths = new JenkinsSpec().requestBodyLimits().length;
    // Blocked requests: the host match (2, and 10 for LOWERCASE), each pattern on the resolved path (3, and 10 for each of
    // the two transformations), each method match (2), each content-type pattern (3, and 10 for LOWERCASE).
    const blocked = new JenkinsSpec().blockedRequests();
    const blockedCost = 12 + 23 * blocked.length + 2 * blocked.filter((b) => b.method).length +
      13 * blocked.filter((b) => b.contentTypePattern).length;
    expect(blockedCost).toBe(96);
    expect(webAclCapacity(cfnRules(acl(two.templates)))).toBe(withoutPaths + 37 * paths + blockedCost);
  });

  test('past what WAF\'s base price includes: a warning; past its maximum: refused, naming the hosts', () => {
    const limits = Array.from({ length: 10 }, (_, i) => ({ pathPrefix: `/upload${i}/`, maxBytes: 1_000_000 }));
    const app = new App();
    const platform = new Platform(new Stack(app, 'Platform', { env: REGION_ENV }), 'Platform', PLATFORM_PROPS);
    const attach = (i: number) => new ApplicationFactory(new Stack(app, `App${i}`, { env: REGION_ENV }), 'App', RuntimeType.FARGATE,
      new (class extends WikiSpec {
        public applicationId() { return `app${i}`; }
        public efsDataPath() { return `/app${i}`; }
        public requestBodyLimits() { return limits; }
      })(), { platform, imageDigests: IMAGE_DIGESTS, subdomain: `app${i}`, pciDssScope: PciDssScope.CONNECTED });
    let i = 0;
    while (webAclCapacity(currentRules(platform)) + 370 <= WEB_ACL_CAPACITY.max) attach(i++);
    expect(i).toBeGreaterThan(2);
    const lb = platform.node.findChild('LoadBalancer');
    const found = lb.node.metadata.filter((m) => m.type === 'aws:cdk:warning').map((m) => String(m.data));
    expect(found).toEqual([expect.stringMatching(/^The web ACL of Platform would need an estimated \d+ WCUs with the large-body paths, blocked requests and rate limits of app0\.example\.com, app1\.example\.com.*; above 1500 WAF charges more/)]);
    expect(() => attach(i)).toThrow(new RegExp(`^The web ACL of Platform would need an estimated \\d+ WCUs with the large-body paths, blocked requests and rate limits of app0\\.example\\.com, .*app${i}\\.example\\.com; WAF takes at most 5000\\. Declare fewer requestBodyLimits paths`));
  });
});

describe('requests an application blocks, on a shared load balancer', () => {
  const rulesOf = (templates: Record<string, any>) => resources(templates.Platform, 'AWS::WAFv2::WebACL')[0][1].Properties.Rules;

  test('are blocked on its host only, and leave with it', () => {
    const rule = rulesOf(two.templates).find((r: any) => r.Name === BLOCKED_REQUESTS_RULE);
    const request = (host: string) => ({ method: 'POST', path: '/scriptText', headers: { host } });
    expect(matches(rule.Statement, request('ci.example.org'))).toBe(true);
    expect(matches(rule.Statement, request('CI.example.org'))).toBe(true);
    expect(matches(rule.Statement, request('wiki.example.org'))).toBe(false);
    // The platform without the build server (before it attached, or after its stack left): no rule at all.
    expect(rulesOf(one.templates).map((r: any) => r.Name)).not.toContain(BLOCKED_REQUESTS_RULE);
  });
});

/** The rules the platform's web ACL holds now (its Lazy rendered). */
function currentRules(platform: Platform): any[] {
  return (platform.node.findChild('LoadBalancer') as any).wafRules();
}

/** A template's rule with the CDK's property names (`Statement` -> `statement`), as the estimate reads them. */
function lowerKeys(value: any): any {
  if (Array.isArray(value)) return value.map(lowerKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.charAt(0).toLowerCase() + k.slice(1), lowerKeys(v)]));
}

describe('the platform\'s published resources keep their logical ids', () => {
  /**
   * Applications read these resources' ids from the platform's SSM parameters when they are deployed. A framework
   * version that changed one's logical id would have CloudFormation replace it on the platform's next deployment and
   * leave every application pointing at the old one: the pins below change only with a documented migration.
   */
  const PINNED = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'platform-published-logical-ids.json'), 'utf-8'));

  /** Each parameter the platform publishes, and the logical ids its value refers to. */
  function published(template: any): Record<string, string[]> {
    const referred = (value: any): string[] => {
      if (value === null || typeof value !== 'object') return [];
      if (value.Ref !== undefined) return String(value.Ref).startsWith('AWS::') ? [] : [value.Ref];
      if (value['Fn::GetAtt']) return [value['Fn::GetAtt'][0]];
      return Object.values(value).flatMap(referred);
    };
    return Object.fromEntries(resources(template, 'AWS::SSM::Parameter')
      .filter(([, p]) => !JSON.stringify(p.Properties.Name).includes('/applications/'))
      .map(([, p]) => [String(p.Properties.Name).replace(/^\/fw\/Platform\//, ''), [...new Set(referred(p.Properties.Value))]]));
  }

  test('as pinned (a PRODUCTION platform)', () => {
    expect(published(one.templates.Platform)).toEqual(PINNED);
    expect(Object.keys(PINNED)).toEqual([...Object.keys(PLATFORM_PARAMETERS), ...Object.keys(PRIVATE_ROUTE_PARAMETERS)]);
  });
});

describe('deleting the platform, deploying an application', () => {
  test('the platform\'s stack has termination protection in STAGING and PRODUCTION, not in DEV', () => {
    const protectedIn = (securityProfile: SecurityProfile) => {
      const stack = new Stack(new App(), 'Platform', { env: REGION_ENV });
      new Platform(stack, 'Platform', { ...PLATFORM_PROPS, securityProfile });
      return stack.terminationProtection;
    };
    expect([SecurityProfile.DEV, SecurityProfile.STAGING, SecurityProfile.PRODUCTION].map(protectedIn)).toEqual([false, true, true]);
    expect(one.app.synth().getStackByName('Platform').terminationProtection).toBe(true);
  });

  test('an application\'s stack depends on the platform\'s, so `cdk deploy <application>` deploys the platform first', () => {
    for (const stack of ['Wiki', 'Jenkins']) {
      expect(two.app.synth().getStackByName(stack).dependencies.map((d) => d.id)).toContain('Platform');
    }
  });
});

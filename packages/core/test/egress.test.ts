import { EgressRule, JenkinsSpec, RuntimeType, SecurityProfile } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { OIDC, propsFor, refTarget, resources, RUNTIMES_PROFILES_AND_STORAGE, securityGroupId, synth } from './support/synth';
import { broadEgressProblems, egressRuleProblems } from '../src/contract/egress-rule';

/** Every egress rule of the template, inline or standalone, as [group logical id, rule]. */
function egressRules(json: any): Array<[string, any]> {
  const inline = resources(json, 'AWS::EC2::SecurityGroup')
    .flatMap(([id, group]) => (group.Properties.SecurityGroupEgress ?? []).map((rule: any) => [id, rule] as [string, any]));
  const standalone = resources(json, 'AWS::EC2::SecurityGroupEgress')
    .map(([, rule]) => [refTarget(rule.Properties.GroupId), rule.Properties] as [string, any]);
  return [...inline, ...standalone];
}

/** The rule as one line: protocol, ports, destination (a CIDR or a group's logical id). */
function shown(rule: any): string {
  const destination = rule.CidrIp ?? refTarget(rule.DestinationSecurityGroupId);
  return `${rule.IpProtocol} ${rule.FromPort}-${rule.ToPort} to ${destination}`;
}

const SSH_TO_GIT: EgressRule = { description: 'SSH to the Git server', protocol: 'tcp', port: 22, cidr: '10.20.0.0/24' };
describe.each(RUNTIMES_PROFILES_AND_STORAGE)('egress of the build server on %s in %s (%s)', (runtime, profile, ec2Storage) => {
  const spec = new JenkinsSpec({ syslogHost: '10.0.5.20', egress: [SSH_TO_GIT] });
  const { json } = synth(runtime, { ...propsFor(profile), ec2Storage, authMode: 'application-oidc', oidc: OIDC, domain: 'example.com', alarmEmail: 'ops@example.com' }, spec);
  const rules = egressRules(json);
  const application = securityGroupId(json, 'Application')!;
  const workers = securityGroupId(json, 'Ephemeral workers')!;
  const storage = securityGroupId(json, 'EFS mount targets');

  if (runtime === RuntimeType.EC2) {
    test('the instance starts once its way out (NAT routes, or the internet gateway\'s in DEV) and the mount targets exist', () => {
      const [[, group]] = resources(json, 'AWS::AutoScaling::AutoScalingGroup');
      const routes = resources(json, 'AWS::EC2::Route');
      const out = routes.filter(([, r]) => r.Properties.NatGatewayId).length > 0
        ? routes.filter(([, r]) => r.Properties.NatGatewayId) : routes.filter(([, r]) => r.Properties.GatewayId);
      const mountTargets = resources(json, 'AWS::EFS::MountTarget');
      expect(out.length).toBeGreaterThan(0);
      expect(mountTargets.length).toBe(ec2Storage === 'efs' ? 2 : 0);
      expect(group.DependsOn).toEqual(expect.arrayContaining([...out, ...mountTargets].map(([id]) => id)));
    });
  }

  test('no security group sends all traffic, or anything to anywhere but HTTPS', () => {
    expect(rules.length).toBeGreaterThan(0);
    for (const [, rule] of rules) {
      expect(rule.IpProtocol).not.toBe('-1');
      if (rule.CidrIp === '0.0.0.0/0') expect(shown(rule)).toBe('tcp 443-443 to 0.0.0.0/0');
    }
    expect(rules.some(([, rule]) => rule.CidrIpv6 === '::/0')).toBe(false);
  });

  test('the application sends HTTPS, NFS to its file system only, syslog to the syslog host and what the deployment declared', () => {
    const own = rules.filter(([id]) => id === application).map(([, rule]) => shown(rule)).sort();
    expect(own).toEqual([
      'tcp 22-22 to 10.20.0.0/24',
      'tcp 443-443 to 0.0.0.0/0',
      ...storage ? [`tcp 2049-2049 to ${storage}`] : [],
      'udp 514-514 to 10.0.5.20/32',
    ].sort());
  });

  test('the agents send HTTPS, the deployment\'s declared egress, and reach the controller on its two ports only', () => {
    const own = rules.filter(([id]) => id === workers).map(([, rule]) => shown(rule)).sort();
    expect(own).toEqual([
      `tcp 50000-50000 to ${application}`, `tcp 8080-8080 to ${application}`, 'tcp 22-22 to 10.20.0.0/24', 'tcp 443-443 to 0.0.0.0/0',
    ].sort());
  });

  test('the file system and the load balancer send nothing of their own', () => {
    if (storage) expect(rules.filter(([id]) => id === storage).map(([, rule]) => shown(rule))).toEqual(['icmp 252-86 to 255.255.255.255/32']);
    const balancer = securityGroupId(json, 'Public load balancer')!;
    expect(rules.filter(([id]) => id === balancer).map(([, rule]) => shown(rule))).toEqual([`tcp 8080-8080 to ${application}`]);
  });
});

test('a plugin without declared egress sends HTTPS and NFS only', () => {
  const { json } = synth(RuntimeType.FARGATE, {}, new WikiSpec());
  const application = securityGroupId(json, 'Application')!;
  expect(egressRules(json).filter(([id]) => id === application).map(([, rule]) => shown(rule)).sort())
    .toEqual([`tcp 2049-2049 to ${securityGroupId(json, 'EFS mount targets')}`, 'tcp 443-443 to 0.0.0.0/0']);
});

test('a syslog server given by name needs its network, said before anything is built', () => {
  expect(() => new JenkinsSpec({ syslogHost: 'syslog.example.com' })).toThrow('JenkinsSpec: syslogHost "syslog.example.com" is a name, ' +
    'and the controller\'s security group sends only to addresses: set syslogNetwork to the syslog server\'s IPv4 range (for example 10.0.5.20/32).');
  const spec = new JenkinsSpec({ syslogHost: 'syslog.example.com', syslogNetwork: '10.0.5.0/28' });
  expect(spec.egressRules()).toEqual([{ description: 'Audit trail to the syslog server', protocol: 'udp', port: 514, cidr: '10.0.5.0/28' }]);
});

test('invalid egress is refused with the member, the value and what is allowed', () => {
  class Leaky extends WikiSpec {
    public egressRules(): EgressRule[] {
      return [
        { description: 'Everything', protocol: 'all', port: 0, cidr: '0.0.0.0/0' },
        { description: 'Bad "quote"', protocol: 'tcp', port: 22, cidr: '10.0.0.300/32' },
      ];
    }
  }
  expect(() => synth(RuntimeType.FARGATE, {}, new Leaky())).toThrow([
    'Plugin Leaky declares invalid values:',
    '  - Leaky.egressRules()[0].protocol "all"; allowed: "tcp" or "udp".',
    '  - Leaky.egressRules()[0].port 0; allowed: an integer from 1 to 65535.',
    '  - Leaky.egressRules()[0].cidr "0.0.0.0/0"; allowed: an IPv4 range with no host bits set, such as 203.0.113.10/32, not 0.0.0.0/0 (name the destination).',
    '  - Leaky.egressRules()[1].description "Bad \\"quote\\""; allowed: 1 to 255 letters, digits, spaces and ._-:/()#,@[]+=&;{}!$*.',
    '  - Leaky.egressRules()[1].cidr "10.0.0.300/32"; allowed: an IPv4 range with no host bits set, such as 203.0.113.10/32, not 0.0.0.0/0 (name the destination).',
  ].join('\n'));
});

/**
 * A range is a range, not a way around "not 0.0.0.0/0" (injection review 6, F3): host bits are refused as the context
 * keys refuse them, and in STAGING and PRODUCTION rules that reach more than a /8's share of the public internet on
 * one port, alone or together, are refused naming them; private and special-purpose ranges do not count.
 */
describe('egress that reaches the internet by another name', () => {
  const egressOf = (rules: EgressRule[]) => new (class extends WikiSpec {
    public egressRules(): EgressRule[] { return rules; }
  })();
  const rule = (cidr: string, port = 22, protocol = 'tcp') => ({ description: cidr, protocol, port, cidr });
  const HALVES = [rule('0.0.0.0/1'), rule('128.0.0.0/1')];

  test('host bits are refused in every profile: 8.8.8.8/0 is no range', () => {
    expect(egressRuleProblems(rule('8.8.8.8/0', 53, 'udp'))).toEqual([expect.stringMatching(/^cidr "8\.8\.8\.8\/0"; allowed: an IPv4 range with no host bits set/)]);
    expect(egressRuleProblems(rule('10.0.5.16/28'))).toEqual([]);
  });

  test.each([SecurityProfile.STAGING, SecurityProfile.PRODUCTION])('%s refuses two /1 halves on one port, naming both', (profile) => {
    expect(() => synth(RuntimeType.FARGATE, propsFor(profile), egressOf(HALVES))).toThrow(
      `${profile} refuses egress this broad: wiki.egressRules()[0] (0.0.0.0/1) and wiki.egressRules()[1] (128.0.0.0/1) ` +
      'reach 3,702,390,784 public addresses on tcp/22 together, more than a /8 (16,777,216); name the destinations.');
  });

  test('what counts: public addresses a port reaches, each once', () => {
    expect(broadEgressProblems([rule('11.0.0.0/8')], 'r')).toEqual([]);
    expect(broadEgressProblems([rule('11.0.0.0/8'), rule('12.0.0.0/8')], 'r')).toEqual([expect.stringMatching(/^r\[0\] \(11\.0\.0\.0\/8\) and r\[1\] \(12\.0\.0\.0\/8\) reach 33,554,432 public addresses on tcp\/22/)]);
    // The same /8 twice is still one /8; another port is another group; private ranges are not the internet.
    expect(broadEgressProblems([rule('11.0.0.0/8'), rule('11.0.0.0/9'), rule('12.0.0.0/8', 443)], 'r')).toEqual([]);
    expect(broadEgressProblems([rule('10.0.0.0/8'), rule('172.16.0.0/12'), rule('192.168.0.0/16'), rule('100.64.0.0/10')], 'r')).toEqual([]);
  });

  test('negative control: DEV deploys them, and a named destination passes everywhere', () => {
    expect(() => synth(RuntimeType.FARGATE, propsFor(SecurityProfile.DEV), egressOf(HALVES))).not.toThrow();
    expect(() => synth(RuntimeType.FARGATE, propsFor(SecurityProfile.STAGING), egressOf([rule('203.0.113.10/32'), rule('198.51.100.0/24')]))).not.toThrow();
  });
});

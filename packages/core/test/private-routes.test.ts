import { AuthMode, RuntimeType } from '../src';
import { type OnPlatform, otherWiki, synthPlatform, THREE } from './support/platform';
import { OIDC, resources } from './support/synth';

/**
 * One application reaching another over HTTPS without leaving the VPC (docs/platform.md, "Between applications"): the
 * platform's private load balancer, and in each application's stack a private zone of its host name and a rule.
 */
const SIGNED_IN: OnPlatform = {
  stackName: 'Notes',
  runtime: RuntimeType.FARGATE,
  spec: () => otherWiki('notes'),
  props: { subdomain: 'notes', authMode: AuthMode.ALB_OIDC, oidc: OIDC },
};
const synthesised = synthPlatform([...THREE, SIGNED_IN]);
const platform = synthesised.templates.Platform;
const dev = synthPlatform(THREE.slice(1, 2), { domain: 'example.com' });

describe('the platform\'s private load balancer', () => {
  const balancers = resources(platform, 'AWS::ElasticLoadBalancingV2::LoadBalancer');
  const [[internalId, internal]] = balancers.filter(([, lb]) => lb.Properties.Scheme === 'internal');

  test('internal, in the compute subnets, access logs and deletion protection as the public one', () => {
    expect(balancers).toHaveLength(2);
    expect(JSON.stringify(internal.Properties.Subnets)).toMatch(/ComputeSubnet1.*ComputeSubnet2/);
    const attributes = Object.fromEntries(internal.Properties.LoadBalancerAttributes.map((a: any) => [a.Key, a.Value]));
    expect(attributes).toMatchObject({ 'deletion_protection.enabled': 'true', 'access_logs.s3.enabled': 'true', 'routing.http.drop_invalid_header_fields.enabled': 'true' });
  });

  test('admits HTTPS from the compute subnets only (applications and their workers), and sends only to applications', () => {
    const [[, group]] = resources(platform, 'AWS::EC2::SecurityGroup').filter(([, g]) => g.Properties.GroupDescription.startsWith('Private load balancer'));
    const computeSubnets = resources(platform, 'AWS::EC2::Subnet').filter(([id]) => id.includes('Compute')).map(([, s]) => s.Properties.CidrBlock);
    expect(group.Properties.SecurityGroupIngress.map((r: any) => [r.CidrIp, r.FromPort])).toEqual(computeSubnets.map((c) => [c, 443]));
  });

  test('its listener: HTTPS with the platform\'s certificate and TLS policy, 404 for any other host', () => {
    const [[, listener]] = resources(platform, 'AWS::ElasticLoadBalancingV2::Listener').filter(([, l]) => l.Properties.LoadBalancerArn.Ref === internalId);
    const [[, publicListener]] = resources(platform, 'AWS::ElasticLoadBalancingV2::Listener').filter(([, l]) => l.Properties.Protocol === 'HTTPS' && l !== listener);
    expect(listener.Properties).toMatchObject({ Protocol: 'HTTPS', Port: 443, SslPolicy: publicListener.Properties.SslPolicy, Certificates: publicListener.Properties.Certificates });
    expect(listener.Properties.DefaultActions[0].FixedResponseConfig.StatusCode).toBe('404');
  });

  test('DEV without TLS has none', () => {
    expect(resources(dev.templates.Platform, 'AWS::ElasticLoadBalancingV2::LoadBalancer')).toHaveLength(1);
  });
});

describe('an application\'s private route', () => {
  test.each(['Jenkins', 'Wiki', 'Docs'])('%s: a private zone of exactly its host name, aliased to the private load balancer', (stack) => {
    const template = synthesised.templates[stack];
    const [[, zone]] = resources(template, 'AWS::Route53::HostedZone');
    const host = THREE.find((a) => a.stackName === stack)!.props.subdomain + '.example.com';
    expect(zone.Properties.Name).toBe(`${host}.`);
    expect(zone.Properties.VPCs).toEqual([{ VPCId: expect.anything(), VPCRegion: 'eu-west-1' }]);
    const records = resources(template, 'AWS::Route53::RecordSet').filter(([, r]) => JSON.stringify(r.Properties.HostedZoneId).includes('Zone') && r.Properties.AliasTarget);
    expect(records.map(([, r]) => JSON.stringify(r.Properties.AliasTarget.DNSName))).toContainEqual(expect.stringContaining('privateloadbalancerdnsname'));
    // Its rule on the private listener, by host name.
    const rules = resources(template, 'AWS::ElasticLoadBalancingV2::ListenerRule').map(([, r]) => r.Properties);
    const privateRule = rules.find((r) => JSON.stringify(r.ListenerArn).includes('privatelistenerarn'))!;
    expect(privateRule.Conditions).toEqual([{ Field: 'host-header', HostHeaderConfig: { Values: [host] } }]);
  });

  test('its targets are registered with both load balancers: the service\'s two target groups, the instances\' two', () => {
    const service = resources(synthesised.templates.Docs, 'AWS::ECS::Service')[0][1];
    expect(service.Properties.LoadBalancers).toHaveLength(2);
    const group = resources(synthesised.templates.Wiki, 'AWS::AutoScaling::AutoScalingGroup')[0][1];
    expect(group.Properties.TargetGroupARNs).toHaveLength(2);
  });

  test('alb-oidc: none (the private listener signs nobody in), and a warning says so, naming what a caller meets instead', () => {
    const template = synthesised.templates.Notes;
    expect(resources(template, 'AWS::Route53::HostedZone')).toEqual([]);
    expect(JSON.stringify(template)).not.toContain('privatelistenerarn');
    const warnings = synthesised.factories.Notes.node.findAll().flatMap((c) => c.node.metadata.filter((m) => m.type === 'aws:cdk:warning').map((m) => String(m.data)));
    expect(warnings).toContainEqual(expect.stringMatching(/^Notes signs its users in at the load balancer \(alb-oidc\): it gets no private route, and inside the VPC https:\/\/notes\.example\.com is the internet-facing load balancer/));
  });
});

describe('what the private route must not break', () => {
  /** A host two labels deep (a certificate created for it), one on another domain named by ARN, one at the apex. */
  const CERTIFICATE = 'arn:aws:acm:eu-west-1:123456789012:certificate/99999999-2222-3333-4444-555555555555';
  const others = synthPlatform([
    { stackName: 'Deep', runtime: RuntimeType.FARGATE, spec: () => otherWiki('deep'), props: { subdomain: 'a.deep', hostedZoneId: 'Z0123456789ABCDEFGHIJ' } },
    { stackName: 'Apex', runtime: RuntimeType.FARGATE, spec: () => otherWiki('apex'), props: {} },
    { stackName: 'Org', runtime: RuntimeType.FARGATE, spec: () => otherWiki('org'), props: { subdomain: 'org', domain: 'example.org', certificateArn: CERTIFICATE } },
  ]);
  const listenerCertificates = (template: any) => resources(template, 'AWS::ElasticLoadBalancingV2::ListenerCertificate')
    .map(([, r]) => [JSON.stringify(r.Properties.ListenerArn), JSON.stringify(r.Properties.Certificates)]);

  test('R1: a certificate the platform\'s does not cover is on the private listener too, where its host is routed', () => {
    const deep = listenerCertificates(others.templates.Deep);
    expect(deep.map(([listener]) => listener)).toEqual([expect.stringContaining('SsmParameterValuefwPlatformlistenerarn'), expect.stringContaining('privatelistenerarn')]);
    expect(deep[0][1]).toBe(deep[1][1]);
    expect(deep[0][1]).toContain('AppCertificate');
    expect(resources(others.templates.Deep, 'AWS::CertificateManager::Certificate').map(([, c]) => c.Properties.DomainName)).toEqual(['a.deep.example.com']);
    const org = listenerCertificates(others.templates.Platform);
    expect(org.map(([listener, certificates]) => [listener.match(/Platform(Private)?LoadBalancer/)![0], certificates])).toEqual([
      ['PlatformLoadBalancer', JSON.stringify([{ CertificateArn: CERTIFICATE }])],
      ['PlatformPrivateLoadBalancer', JSON.stringify([{ CertificateArn: CERTIFICATE }])],
    ]);
  });

  test('R2: an application at the domain\'s apex gets no private zone (it would hide the domain\'s other names), and a warning says so', () => {
    expect(resources(others.templates.Apex, 'AWS::Route53::HostedZone')).toEqual([]);
    expect(JSON.stringify(others.templates.Apex)).not.toContain('privatelistenerarn');
    const warnings = others.factories.Apex.node.findAll().flatMap((c) => c.node.metadata.filter((m) => m.type === 'aws:cdk:warning').map((m) => String(m.data)));
    expect(warnings).toContainEqual(expect.stringMatching(/Apex is at the apex of example\.com: it gets no private route.*\[ack: @fw\/core:no-private-route\]/));
    // The others keep theirs, each for its own host only.
    expect(resources(others.templates.Deep, 'AWS::Route53::HostedZone').map(([, z]) => z.Properties.Name)).toEqual(['a.deep.example.com.']);
  });

  test('S2: the private load balancer is behind the same web ACL as the public one', () => {
    const [[internalId]] = resources(platform, 'AWS::ElasticLoadBalancingV2::LoadBalancer').filter(([, lb]) => lb.Properties.Scheme === 'internal');
    const associations = resources(platform, 'AWS::WAFv2::WebACLAssociation').map(([, a]) => a.Properties);
    expect(associations).toHaveLength(2);
    expect(associations.map((a) => a.ResourceArn.Ref)).toContain(internalId);
    expect(new Set(associations.map((a) => JSON.stringify(a.WebACLArn))).size).toBe(1);
  });
});

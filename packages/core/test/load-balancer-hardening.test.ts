import * as fs from 'fs';
import * as path from 'path';
import { RuntimeType, SecurityProfile } from '../src';
import { only, propsFor, resources, RUNTIMES_AND_PROFILES, synth } from './support/synth';
import { WAF_RATE_LIMIT } from '../src/contract/rate-limit';
import { ACCESS_LOG_DAYS, ACCESS_LOG_NONCURRENT_DAYS, HSTS, WAF_REDACTED_HEADERS } from '../src/infrastructure/load-balancer';

/**
 * The load balancer's own hardening on both runtimes and every profile: HSTS and the strongest TLS policy with TLS,
 * desync mitigation, and a WAF that limits each address and keeps no session cookie or credentials in its log.
 * Attribute keys and values are checked against what Elastic Load Balancing documents in its published service model
 * (aws/elbv2-attributes/elbv2-attributes.json, derived from botocore 1.44.8's ELBv2 model).
 */
const ELB = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'aws', 'elbv2-attributes', 'elbv2-attributes.json'), 'utf-8'));

describe.each(RUNTIMES_AND_PROFILES)('%s %s', (runtime, profile) => {
  const { json } = synth(runtime, propsFor(profile));
  const attributes = (only(json, 'AWS::ElasticLoadBalancingV2::LoadBalancer').Properties.LoadBalancerAttributes as Array<{ Key: string; Value: string }>);

  test('desync mitigation is strictest (a key and value ELB documents)', () => {
    expect(attributes).toContainEqual({ Key: 'routing.http.desync_mitigation_mode', Value: 'strictest' });
    for (const { Key, Value } of attributes) {
      expect(Object.keys(ELB.loadBalancer)).toContain(Key);
      if (ELB.loadBalancer[Key]) expect(ELB.loadBalancer[Key]).toContain(Value);
    }
  });

  if (profile === SecurityProfile.PRODUCTION) {
    test('HTTPS answers with Strict-Transport-Security and the restricted TLS 1.2/1.3 policy', () => {
      const https = resources(json, 'AWS::ElasticLoadBalancingV2::Listener').map(([, l]) => l.Properties).find((l) => l.Port === 443)!;
      expect(https.SslPolicy).toBe('ELBSecurityPolicy-TLS13-1-2-Res-PQ-2025-09');
      expect(https.ListenerAttributes).toEqual([{ Key: 'routing.http.response.strict_transport_security.header_value', Value: HSTS }]);
      for (const { Key } of https.ListenerAttributes) expect(Object.keys(ELB.listener)).toContain(Key);
      expect(HSTS).toMatch(/^max-age=31536000; includeSubDomains$/);
    });
  }

  test(profile === SecurityProfile.DEV ? 'no access-log bucket' : 'access logs: the bucket lets only the region\'s ELB account write, under this account\'s prefix', () => {
    const policies = resources(json, 'AWS::S3::BucketPolicy');
    if (profile === SecurityProfile.DEV) {
      expect(policies).toEqual([]);
      return;
    }
    expect(attributes).toContainEqual({ Key: 'access_logs.s3.enabled', Value: 'true' });
    const [denyWithoutTls, elb, ...others] = only(json, 'AWS::S3::BucketPolicy').Properties.PolicyDocument.Statement;
    expect(denyWithoutTls).toMatchObject({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } });
    // eu-west-1's ELB account (aws-cdk-lib RegionInfo, after AWS's table); no delivery.logs.amazonaws.com, which ALB does not use.
    expect(elb).toMatchObject({ Effect: 'Allow', Action: 's3:PutObject', Principal: { AWS: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::156460612806:root']] } } });
    expect(elb.Resource['Fn::Join'][1].slice(1)).toEqual(['/AWSLogs/', { Ref: 'AWS::AccountId' }, '/*']);
    expect(others).toEqual([]);
  });

  if (profile !== SecurityProfile.DEV) {
    test('access logs: kept ACCESS_LOG_DAYS, and the versions an expiry or a deletion leaves expire too', () => {
      // A versioned bucket's expiration only turns the current version noncurrent (a delete marker on top); without a
      // NoncurrentVersionExpiration the logs stay for ever. ExpiredObjectDeleteMarker cannot share a rule with days
      // (S3 User Guide, "Lifecycle configuration elements"; cfn-lint checks the schema).
      const [[, bucket]] = resources(json, 'AWS::S3::Bucket');
      expect(bucket.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
      expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual([
        { ExpirationInDays: ACCESS_LOG_DAYS, NoncurrentVersionExpiration: { NoncurrentDays: ACCESS_LOG_NONCURRENT_DAYS }, Status: 'Enabled' },
        { ExpiredObjectDeleteMarker: true, Status: 'Enabled' },
      ]);
      expect(ACCESS_LOG_DAYS).toBeGreaterThanOrEqual(366); // PCI DSS 10.5.1: a year of audit history
    });
  }

  test(profile === SecurityProfile.DEV ? 'no WAF' : 'WAF: a rate limit per address first, and the log redacts cookie and authorization', () => {
    const acls = resources(json, 'AWS::WAFv2::WebACL');
    if (profile === SecurityProfile.DEV) {
      expect(acls).toEqual([]);
      return;
    }
    const [first] = acls[0][1].Properties.Rules;
    expect(first).toMatchObject({
      Name: 'RateLimitPerAddress',
      Priority: 0,
      Action: { Block: {} },
      Statement: { RateBasedStatement: { Limit: WAF_RATE_LIMIT, EvaluationWindowSec: 300, AggregateKeyType: 'IP' } },
    });
    expect(only(json, 'AWS::WAFv2::LoggingConfiguration').Properties.RedactedFields)
      .toEqual(WAF_REDACTED_HEADERS.map((name) => ({ SingleHeader: { Name: name } })));
    expect(WAF_REDACTED_HEADERS).toEqual(['cookie', 'authorization']);
  });
});

test('PRODUCTION: every acknowledgement is in the deployed template, with its reason, on the resource it concerns', () => {
  const { json } = synth(RuntimeType.EC2, { ...propsFor(SecurityProfile.PRODUCTION) });
  const acknowledged = Object.entries<any>(json.Resources).filter(([, r]) => r.Metadata?.cdk_nag);
  expect(acknowledged.length).toBeGreaterThan(5);
  for (const [, r] of acknowledged) {
    for (const rule of r.Metadata.cdk_nag.rules_to_suppress) expect(rule.reason.length).toBeGreaterThan(20);
  }
  const alb = resources(json, 'AWS::EC2::SecurityGroup').find(([, g]) => g.Properties.GroupDescription === 'Public load balancer')![1];
  expect(alb.Metadata.cdk_nag.rules_to_suppress).toContainEqual(expect.objectContaining({ id: 'AwsSolutions-EC23' }));
  // DEV and STAGING run no packs and write nothing.
  expect(Object.values<any>(synth(RuntimeType.EC2, propsFor(SecurityProfile.STAGING)).json.Resources).some((r) => r.Metadata?.cdk_nag)).toBe(false);
});

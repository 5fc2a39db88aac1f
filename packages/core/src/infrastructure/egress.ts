import { aws_ec2 as ec2 } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { EgressRule } from '../contract/egress-rule';

/** What every compute group may send: HTTPS, to package repositories, the identity provider and AWS's APIs. */
export const HTTPS_PORT = 443;

/**
 * A security group for compute (the application, its workers) that admits nothing yet and sends only HTTPS to
 * anywhere and the declared `egress`; the file system and the workers add their own rules to named groups.
 */
export function computeSecurityGroup(scope: Construct, id: string, vpc: ec2.IVpc, description: string, egress: EgressRule[] = []): ec2.SecurityGroup {
  const group = new ec2.SecurityGroup(scope, id, { vpc, description, allowAllOutbound: false });
  group.addEgressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(HTTPS_PORT), 'HTTPS: package repositories, identity provider, AWS APIs');
  for (const rule of egress) {
    const port = rule.protocol === 'udp' ? ec2.Port.udp(rule.port) : ec2.Port.tcp(rule.port);
    group.addEgressRule(ec2.Peer.ipv4(rule.cidr), port, rule.description);
  }
  return group;
}

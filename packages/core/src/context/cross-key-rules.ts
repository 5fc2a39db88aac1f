import { existingVpcKeyProblems } from './existing-vpc';
import { SecurityProfile } from '../contract/security-profile';
import { shownValue } from '../errors';
import { PROFILE_SETTINGS } from '../profiles/profile-settings';

/** Who is being checked: an application's deployment context, or a platform's props. Only the advice differs. */
export type KeysOf = 'application' | 'platform';

/**
 * The rules between keys that hold for an application and for a platform alike, written once: each reader hands the
 * valid values it read (`v`: the platform's `sslEnabled` and `region` are derived from its certificate keys and its
 * stack) and says whose they are, for the advice. `given` names the keys given rather than defaulted.
 */
export function sharedKeyProblems(v: Record<string, any>, given: ReadonlySet<string>, of: KeysOf): string[] {
  const problems: string[] = [];
  const settings = v.securityProfile ? PROFILE_SETTINGS[v.securityProfile as SecurityProfile] : undefined;
  if (settings?.tlsRequired && v.sslEnabled === false) {
    problems.push(of === 'application'
      ? `sslEnabled "false" is not allowed with securityProfile ${v.securityProfile}: card data must not travel in clear text. ` +
        'Set sslEnabled to true (with domain and hostedZoneId or certificateArn).'
      : `securityProfile ${v.securityProfile} needs TLS: card data must not travel in clear text. Set hostedZoneId ` +
        '(a certificate for <domain> and *.<domain> is created and DNS-validated there) or certificateArn.');
  }
  if (settings?.regionRequired && v.region === undefined && !given.has('region')) {
    problems.push(of === 'application'
      ? `securityProfile ${v.securityProfile} needs the stack's region (for example eu-west-1), set on purpose: ` +
        'its load-balancer access logs are delivered by a region-specific account, and card data stays in the region it is ' +
        'deployed to. Set the region key (in code: env.region on the stack); the CDK CLI\'s default region ' +
        '(CDK_DEFAULT_REGION, from the AWS configuration) is not taken for this profile.'
      : `securityProfile ${v.securityProfile} needs the stack's region (for example eu-west-1): its load-balancer ` +
        'access logs are delivered by a region-specific account. Create the platform\'s stack with env: { region }.');
  }
  // ACM certificates are regional: Elastic Load Balancing uses a certificate of its own region only.
  // https://docs.aws.amazon.com/acm/latest/userguide/acm-regions.html
  const certificateRegion = v.certificateArn ? String(v.certificateArn).split(':')[3] : undefined;
  if (certificateRegion && v.region && certificateRegion !== v.region) {
    problems.push(`certificateArn ${shownValue(v.certificateArn)} is in ${certificateRegion}, the stack in ${v.region}; ` +
      'a load balancer uses only certificates of its own region (ACM certificates are regional). Import or request the ' +
      `certificate in ${v.region}.`);
  }
  if (settings?.complianceChecks && v.containerInsights === false) {
    problems.push(`containerInsights false is not allowed with securityProfile ${v.securityProfile}: its checks require ` +
      'Container Insights on every ECS cluster (AwsSolutions-ECS4). Leave it out, or set it to true.');
  }
  problems.push(...existingVpcKeyProblems(v));
  return problems;
}

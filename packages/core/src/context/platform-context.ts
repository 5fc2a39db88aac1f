import { Stack, Token } from 'aws-cdk-lib';
import { CONTEXT_KEYS } from './context-keys';
import { type ExistingVpc, existingVpcKeyProblems } from './existing-vpc';
import { SecurityProfile } from '../contract/security-profile';
import { shownValue, UserError } from '../errors';
import type { PlatformProps } from './platform-props';
import { PROFILE_SETTINGS } from '../profiles/profile-settings';

/** A platform's validated settings: its props read as the context keys of the same names. */
export interface PlatformContext {
  /** The platform's stack. */
  readonly stackName: string;
  /** The profile every application on the platform runs at. */
  readonly securityProfile: SecurityProfile;
  /** The domain the applications' host names end in. */
  readonly domain: string;
  /** Whether the listener is HTTPS: a certificate comes from `hostedZoneId` or `certificateArn`. */
  readonly sslEnabled: boolean;
  /** The hosted zone of `domain`. @default - no DNS records */
  readonly hostedZoneId?: string;
  /** The certificate for `<domain>` and `*.<domain>`. @default - created in `hostedZoneId` when TLS is on */
  readonly certificateArn?: string;
  /** Subscribed to the alarm topic. @default - no subscription */
  readonly alarmEmail?: string;
  /** The VPC's address range. @default - the CDK's default range */
  readonly vpcCidr?: string;
  /** A VPC given by ids instead of one the platform creates. @default - none */
  readonly existingVpc?: ExistingVpc;
  /** The credential of the platform's ECR pull-through cache of Docker Hub. @default - no cache */
  readonly dockerHubCredentialArn?: string;
  /** Whether the platform deploys AWS's PCI DSS conformance pack, the one of its account and region. */
  readonly pciConformancePack: boolean;
  /** Whether the platform enables Security Hub's PCI DSS standard, the one of its account and region. */
  readonly securityHubPciDss: boolean;
  /** The platform stack's region. @default - none: the platform's stack is environment-agnostic */
  readonly region?: string;
}

/** The keys a platform takes. */
export const PLATFORM_KEYS = [
  'securityProfile', 'domain', 'hostedZoneId', 'certificateArn', 'alarmEmail', 'vpcCidr', 'existingVpc', 'dockerHubCredentialArn', 'pciConformancePack',
  'securityHubPciDss',
] as const;

/**
 * Validates a platform's props with the context keys' own parsers, and the rules between them: every problem at once,
 * in one error naming the platform's stack, each key, the value given and what is allowed.
 */
export function platformContext(stack: Stack, props: PlatformProps): PlatformContext {
  const problems: string[] = [];
  const v: Record<string, any> = {};
  const raw: Record<string, unknown> = { securityProfile: SecurityProfile.DEV, ...props };
  for (const name of PLATFORM_KEYS) {
    const key = CONTEXT_KEYS.find((k) => k.name === name)!;
    if (raw[name] === undefined || raw[name] === null || raw[name] === '') continue;
    const parsed = key.parse(raw[name]);
    if ('allowed' in parsed) problems.push(`${name} ${shownValue(raw[name])} is not allowed; expected ${parsed.allowed}.`);
    else v[name] = parsed.value;
  }
  if (raw.domain === undefined || raw.domain === null || raw.domain === '') {
    problems.push('domain is required: applications on a platform are told apart by their host names, <subdomain>.<domain>.');
  }
  const sslEnabled = v.hostedZoneId !== undefined || v.certificateArn !== undefined;
  const region = Token.isUnresolved(stack.region) ? undefined : stack.region;
  const settings = v.securityProfile ? PROFILE_SETTINGS[v.securityProfile as SecurityProfile] : undefined;
  if (settings?.tlsRequired && !sslEnabled) {
    problems.push(`securityProfile ${v.securityProfile} needs TLS: card data must not travel in clear text. Set hostedZoneId ` +
      '(a certificate for <domain> and *.<domain> is created and DNS-validated there) or certificateArn.');
  }
  if (settings?.regionRequired && !region) {
    problems.push(`securityProfile ${v.securityProfile} needs the stack's region (for example eu-west-1): its load-balancer ` +
      'access logs are delivered by a region-specific account. Create the platform\'s stack with env: { region }.');
  }
  const certificateRegion = v.certificateArn ? String(v.certificateArn).split(':')[3] : undefined;
  if (certificateRegion && region && certificateRegion !== region) {
    problems.push(`certificateArn ${shownValue(v.certificateArn)} is in ${certificateRegion}, the stack in ${region}; a load ` +
      'balancer uses only certificates of its own region.');
  }
  // The platform's databases go in the data subnets.
  if (v.existingVpc && !v.existingVpc.dataSubnets) {
    problems.push('existingVpc needs dataSubnets on a platform: one isolated subnet a zone, where its applications\' databases go.');
  }
  problems.push(...existingVpcKeyProblems({ ...v, region }));
  if (problems.length > 0) {
    throw new UserError(`Invalid platform ${stack.stackName} (${problems.length} problem${problems.length > 1 ? 's' : ''}):\n` +
      problems.map((p) => `  - ${p}`).join('\n'));
  }
  return {
    stackName: stack.stackName,
    securityProfile: v.securityProfile,
    domain: v.domain,
    sslEnabled,
    hostedZoneId: v.hostedZoneId,
    certificateArn: v.certificateArn,
    alarmEmail: v.alarmEmail,
    vpcCidr: v.vpcCidr,
    existingVpc: v.existingVpc,
    dockerHubCredentialArn: v.dockerHubCredentialArn,
    pciConformancePack: v.pciConformancePack === true,
    securityHubPciDss: v.securityHubPciDss === true,
    region,
  };
}

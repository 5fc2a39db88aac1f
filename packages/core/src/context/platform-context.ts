import { Stack, Token } from 'aws-cdk-lib';
import { CONTEXT_KEYS, defaultOf, PLATFORM_KEYS } from './context-keys';
import { sharedKeyProblems } from './cross-key-rules';
import type { ExistingVpc } from './existing-vpc';
import { SecurityProfile } from '../contract/security-profile';
import { referenceProblems } from '../contract/value-boundary';
import { shownValue, UserError } from '../errors';
import type { PlatformProps } from './platform-props';

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
  /** Whether the ECS clusters of the platform and its applications have Container Insights. */
  readonly containerInsights: boolean;
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

/**
 * Validates a platform's props with the context keys' own parsers, and the rules between them: every problem at once,
 * in one error naming the platform's stack, each key, the value given and what is allowed.
 */
export function platformContext(stack: Stack, props: PlatformProps): PlatformContext {
  const problems: string[] = [];
  const v: Record<string, any> = {};
  const given = new Set<string>();
  const raw: Record<string, unknown> = { securityProfile: SecurityProfile.DEV, ...props };
  const keys = PLATFORM_KEYS.map((name) => CONTEXT_KEYS.find((k) => k.name === name)!);
  for (const key of keys) {
    const value = raw[key.name];
    if (value === undefined || value === null || value === '') continue;
    given.add(key.name);
    const unsafe = referenceProblems(key.name, value, 'code', key.deployTime);
    if (unsafe.length > 0) {
      problems.push(...unsafe);
      continue;
    }
    const parsed = key.parse(value);
    if ('allowed' in parsed) problems.push(`${key.name} ${shownValue(value)} is not allowed; expected ${parsed.allowed}.`);
    else v[key.name] = parsed.value;
  }
  for (const key of keys.filter((k) => !given.has(k.name))) v[key.name] = defaultOf(key, v.securityProfile);
  if (raw.domain === undefined || raw.domain === null || raw.domain === '') {
    problems.push('domain is required: applications on a platform are told apart by their host names, <subdomain>.<domain>.');
  }
  // What an application gives as keys, the platform derives: TLS from its certificate's keys, the region from its stack.
  v.sslEnabled = v.hostedZoneId !== undefined || v.certificateArn !== undefined;
  v.region = Token.isUnresolved(stack.region) ? undefined : stack.region;
  problems.push(...sharedKeyProblems(v, given, 'platform'));
  // The platform's databases go in the data subnets.
  if (v.existingVpc && !v.existingVpc.dataSubnets) {
    problems.push('existingVpc needs dataSubnets on a platform: one isolated subnet a zone, where its applications\' databases go.');
  }
  if (problems.length > 0) {
    throw new UserError(`Invalid platform ${stack.stackName} (${problems.length} problem${problems.length > 1 ? 's' : ''}):\n` +
      problems.map((p) => `  - ${p}`).join('\n'));
  }
  return {
    stackName: stack.stackName,
    securityProfile: v.securityProfile,
    domain: v.domain,
    sslEnabled: v.sslEnabled,
    hostedZoneId: v.hostedZoneId,
    certificateArn: v.certificateArn,
    alarmEmail: v.alarmEmail,
    containerInsights: v.containerInsights,
    vpcCidr: v.vpcCidr,
    existingVpc: v.existingVpc,
    dockerHubCredentialArn: v.dockerHubCredentialArn,
    pciConformancePack: v.pciConformancePack === true,
    securityHubPciDss: v.securityHubPciDss === true,
    region: v.region,
  };
}

import type { IConstruct } from 'constructs';
import { CONTEXT_KEYS, type ContextKey, defaultOf, DEPLOYMENT_APP_KEYS, deploymentContextOf, OIDC_KEYS, PLATFORM_CONFIGURATION_KEYS } from './context-keys';
import { sharedKeyProblems } from './cross-key-rules';
import type { DeploymentContext } from './deployment-context';
import { didYouMean } from './did-you-mean';
import { AuthMode, signInOf } from '../contract/auth-mode';
import { AL2023_CURRENT_IMAGE_COMMAND } from '../contract/ec2-context';
import { Ec2Storage } from '../contract/ec2-storage';
import { RuntimeType } from '../contract/runtime-type';
import { SecurityProfile } from '../contract/security-profile';
import { referenceProblems } from '../contract/value-boundary';
import { shownValue, UserError } from '../errors';
import { PROFILE_SETTINGS } from '../profiles/profile-settings';

/**
 * Context keys this reader leaves alone: the CDK's own, and a platform configuration's (`platform`, `applications`),
 * which the deployment app reads (`readPlatformConfiguration`).
 */
function isCdkKey(key: string): boolean {
  return /[:@/]/.test(key) || key === 'acknowledged-issue-numbers' || (PLATFORM_CONFIGURATION_KEYS as readonly string[]).includes(key) ||
    (DEPLOYMENT_APP_KEYS as readonly string[]).includes(key);
}

/**
 * Reads and validates the deployment context keys.
 */
export class DeploymentContextReader {
  /** Reads the keys from a construct's CDK context (`-c key=value` and `cdk.json`). */
  public static fromScope(scope: IConstruct): DeploymentContext {
    return DeploymentContextReader.fromValues(scope.node.getAllContext());
  }

  /**
   * Validates raw key values (strings, or JSON values from cdk.json). Every problem is reported at once, in one
   * error that names each key, the value given and what is allowed.
   * @param fromCode the keys whose value was given in code (the factory's props). Such a value may be known only at
   * deploy time where the key takes one (a secret's ARN). Every other value is data.
   */
  public static fromValues(values: Record<string, any>, fromCode: string[] = []): DeploymentContext {
    return readDeploymentContext(values, fromCode);
  }

  private constructor() {}
}

/**
 * `DeploymentContextReader.fromValues`, with the requirements only the caller knows (a factory knows its plugin's
 * alarms): `requirements` gives each problem from the values read, reported with every other at once.
 */
export function readDeploymentContext(values: Record<string, any>, fromCode: string[] = [],
  requirements: (v: Record<string, any>) => string[] = () => []): DeploymentContext {
  const problems: string[] = [];
  const known = CONTEXT_KEYS.map((k) => k.name);
  const v: Record<string, any> = {};
  const given = new Set<string>();
  const byProfile: ContextKey[] = [];

  for (const key of Object.keys(values).filter((k) => !isCdkKey(k) && !known.includes(k))) {
    const suggestion = didYouMean(key, known);
    problems.push(`unknown key '${key}'${suggestion ? `; did you mean '${suggestion}'?` : ''} ` +
      `Known keys: ${known.join(', ')}.`);
  }

  // What the deployment app reads itself (containerImage) crosses the same boundary, with every problem at once.
  for (const name of DEPLOYMENT_APP_KEYS) problems.push(...referenceProblems(name, values[name], 'context'));

  for (const key of CONTEXT_KEYS) {
    const raw = values[key.name];
    if (raw === undefined || raw === null || raw === '') {
      if (key.required) problems.push(`${key.name} is required: ${key.description}`);
      if (key.default !== undefined) v[key.name] = key.default;
      else if (key.defaultByProfile) byProfile.push(key);
      continue;
    }
    given.add(key.name);
    const unsafe = referenceProblems(key.name, raw, fromCode.includes(key.name) ? 'code' : 'context', key.deployTime);
    if (unsafe.length > 0) {
      problems.push(...unsafe);
      continue;
    }
    const parsed = key.parse(raw);
    if ('allowed' in parsed) {
      const shown = key.sensitive ? `(hidden, ${String(raw).length} characters)` : shownValue(raw);
      problems.push(`${key.name} ${shown} is not allowed; expected ${parsed.allowed}.`);
    } else {
      v[key.name] = parsed.value;
    }
  }

  // The profile is read with the other keys; a default that depends on it is applied once it is known.
  for (const key of byProfile) v[key.name] = defaultOf(key, v.securityProfile);

  problems.push(...crossKeyProblems(v, given), ...requirements(v));

  if (problems.length > 0) {
    throw new UserError(`Invalid deployment context (${problems.length} problem${problems.length > 1 ? 's' : ''}):\n` +
      problems.map((p) => `  - ${p}`).join('\n'));
  }
  return deploymentContextOf(v);
}

/**
 * The longest domain name of a certificate ACM issues: the name is the certificate's common name, 64 characters
 * (RFC 5280); longer names can only be subject alternative names.
 * @see https://docs.aws.amazon.com/acm/latest/APIReference/API_RequestCertificate.html
 */
const ACM_DOMAIN_NAME_MAX = 64;

/**
 * Rules between keys. Only keys whose own value was valid, or absent with a default, are in `v`, so one mistake is not
 * reported twice.
 */
function crossKeyProblems(v: Record<string, any>, given: Set<string>): string[] {
  const problems: string[] = [];
  const authMode: string | undefined = v.authMode;
  const settings = v.securityProfile ? PROFILE_SETTINGS[v.securityProfile as SecurityProfile] : undefined;
  problems.push(...sharedKeyProblems(v, given, 'application'));
  if (settings?.pciDssScopeRequired && v.pciDssScope === undefined && !given.has('pciDssScope')) {
    problems.push(`securityProfile ${v.securityProfile} needs pciDssScope, the application's role toward the cardholder data ` +
      'environment as your scoping decided: CDE, CONNECTED or OUT_OF_SCOPE. The evidence report states it as yours, so it ' +
      'is never a default.');
  }
  if (settings?.ec2ImagePinned && v.runtimeType === RuntimeType.EC2 && v.ec2ImageId === undefined && !given.has('ec2ImageId')) {
    problems.push(`securityProfile ${v.securityProfile} on runtimeType EC2 needs ec2ImageId, the Amazon Linux 2023 image the ` +
      `instance runs, so that a new release replaces nothing until you choose it. The current one in your region: ${AL2023_CURRENT_IMAGE_COMMAND}`);
  }
  if (v.dataVolumeSnapshotId !== undefined && (v.runtimeType !== RuntimeType.EC2 || v.ec2Storage !== Ec2Storage.EBS)) {
    problems.push(`dataVolumeSnapshotId ${JSON.stringify(v.dataVolumeSnapshotId)} applies to runtimeType EC2 with ec2Storage ebs ` +
      `only (given: runtimeType ${v.runtimeType ?? '-'}, ec2Storage ${v.ec2Storage ?? '-'}); EFS is restored from AWS ` +
      'Backup (see "Data and restore").');
  }
  if (v.subdomain !== undefined && v.domain === undefined) {
    problems.push(`subdomain ${JSON.stringify(v.subdomain)} needs a domain; set domain (for example example.com).`);
  }
  const fqdn: string | undefined = v.domain ? `${v.subdomain ? v.subdomain + '.' : ''}${v.domain}` : undefined;
  if (fqdn && fqdn.length > 253) {
    problems.push(`subdomain + domain ${shownValue(fqdn)} is longer than 253 characters, the DNS limit.`);
  } else if (fqdn && fqdn.length > ACM_DOMAIN_NAME_MAX && v.sslEnabled === true && v.certificateArn === undefined) {
    problems.push(`subdomain + domain ${shownValue(fqdn)} is longer than ${ACM_DOMAIN_NAME_MAX} characters, the limit ACM ` +
      'applies to the domain name of the certificate created for it. Use a shorter subdomain, or import a certificate ' +
      'with certificateArn.');
  }
  if (v.sslEnabled === true) {
    if (v.domain === undefined) {
      problems.push('sslEnabled true needs a domain: a certificate is issued for <subdomain>.<domain>. Set domain.');
    }
    if (v.hostedZoneId === undefined && v.certificateArn === undefined) {
      problems.push('sslEnabled true needs hostedZoneId (to create and DNS-validate a certificate) or certificateArn ' +
        '(to import one); synth never looks either up.');
    }
  }
  if (v.hostedZoneId !== undefined && v.domain === undefined) {
    problems.push(`hostedZoneId ${JSON.stringify(v.hostedZoneId)} needs the zone's domain; set domain.`);
  }
  // By who signs users in (AUTH_MODES): the application, the load balancer, or nobody.
  const signIn = signInOf(authMode);
  const loadBalancerModes = AuthMode.ALL.filter((mode) => signInOf(mode) === 'load-balancer').map((mode) => `"${mode}"`).join(' or ');
  if (settings?.signInTlsRequired && signIn === 'application' && v.sslEnabled === false) {
    problems.push(`authMode "${authMode}" needs sslEnabled true in ${v.securityProfile}: over plain HTTP the sign-in's ` +
      'authorization code, the session cookie and the tokens cross the network in clear text. Set sslEnabled to true ' +
      '(with domain and hostedZoneId or certificateArn), or authMode "none".');
  }
  if (v.tokenPaths !== undefined && signIn !== 'load-balancer') {
    problems.push(`tokenPaths ${shownValue(v.tokenPaths)} applies only with authMode ${loadBalancerModes} (given: ${authMode ?? AuthMode.NONE}): ` +
      `it lets those paths skip the load balancer's sign-in. Remove it, or set authMode ${loadBalancerModes}.`);
  }
  if (signIn === 'load-balancer' && v.sslEnabled === false) {
    problems.push(`authMode "${authMode}" needs sslEnabled true: the load balancer authenticates only on an HTTPS listener.`);
  }
  if (signIn !== undefined && signIn !== 'nobody') {
    const missing = OIDC_KEYS.filter((k) => !given.has(k));
    if (missing.length > 0) {
      problems.push(`authMode "${authMode}" needs the identity provider: set ${missing.join(', ')}.`);
    }
  }
  return problems;
}

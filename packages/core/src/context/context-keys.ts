import { Vpc } from 'aws-cdk-lib/aws-ec2';
import { AuthMode } from '../contract/auth-mode';
import { Ec2Storage } from '../contract/ec2-storage';
import { RuntimeType } from '../contract/runtime-type';
import { SecurityProfile } from '../contract/security-profile';
import { IMAGE_NAME } from '../contract/spec-validation';

/** What a key's parser returns: the value, or a description of what is allowed. */
export type Parsed = { readonly value: unknown } | { readonly allowed: string };

/** One deployment context key. The README's "Context keys" table is written from this list. */
export interface ContextKey {
  readonly name: string;
  /** Whether synth fails when the key is absent. */
  readonly required: boolean;
  /** The default when absent, as the README shows it. */
  readonly defaultText: string;
  readonly description: string;
  /** Never echo the value in an error: the user may have pasted a secret where a reference belongs. */
  readonly sensitive?: boolean;
  readonly parse: (raw: unknown) => Parsed;
}

/** A Secrets Manager secret ARN: the only form in which a secret may be handed to the framework. */
export const SECRET_ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[\w/+=.@-]+$/;

/**
 * The credential of an ECR pull-through cache rule: a secret named `ecr-pullthroughcache/...` (botocore 1.44.8 ECR
 * model, `CredentialArn`: pattern `...:secret:ecr-pullthroughcache/...`).
 */
export const DOCKER_HUB_CREDENTIAL_ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:ecr-pullthroughcache\/[\w/+=.@-]+$/;

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN = new RegExp(`^(?:${LABEL}\\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$`);
const SUBDOMAIN = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);

function text(pattern: RegExp, allowed: string, normalise: (s: string) => string = (s) => s) {
  return (raw: unknown): Parsed => {
    if (typeof raw !== 'string') return { allowed: `text: ${allowed}` };
    const value = normalise(raw.trim());
    return pattern.test(value) ? { value } : { allowed };
  };
}

/**
 * An e-mail address SMTP can deliver to: at most 254 characters, a local part of at most 64 (RFC 5321 4.5.3.1), a
 * domain of DNS labels.
 * @see https://www.rfc-editor.org/rfc/rfc5321#section-4.5.3.1
 */
function email(raw: unknown): Parsed {
  const allowed = 'an e-mail address such as security@example.com';
  if (typeof raw !== 'string') return { allowed };
  const value = raw.trim();
  const at = value.lastIndexOf('@');
  const local = value.slice(0, at);
  if (at <= 0 || !/^[^\s@]+$/.test(local) || !DOMAIN.test(value.slice(at + 1).toLowerCase())) return { allowed };
  return value.length <= 254 && local.length <= 64 ? { value }
    : { allowed: 'an e-mail address of at most 254 characters, at most 64 before the @ (the SMTP limits of RFC 5321)' };
}

/** An image digest, the value of an `imageDigests` entry (its key is an image reference without one: `IMAGE_NAME`). */
const IMAGE_DIGEST = /^sha256:[0-9a-f]{64}$/;

/** A JSON object (or its text, from `-c`) of image reference -> digest. */
function imageDigests(raw: unknown): Parsed {
  const allowed = 'a JSON object of image references to digests, for example ' +
    '{"jenkins/jenkins:2.568.2-lts-jdk21": "sha256:<64 lower-case hex digits>"}';
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return { allowed };
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { allowed };
  const entries = Object.entries(value as Record<string, unknown>);
  const bad = entries.filter(([image, digest]) => !IMAGE_NAME.test(image) || typeof digest !== 'string' || !IMAGE_DIGEST.test(digest));
  return bad.length === 0 ? { value: Object.fromEntries(entries) }
    : { allowed: `${allowed} (not: ${bad.map(([image]) => JSON.stringify(image)).join(', ')})` };
}

function oneOf(values: readonly string[]) {
  return (raw: unknown): Parsed =>
    typeof raw === 'string' && values.includes(raw) ? { value: raw } : { allowed: `one of ${values.join(', ')}` };
}

/**
 * A VPC's address range: a private (RFC 1918) IPv4 network from /16 to /20. /20 is the smallest that holds the
 * network's subnets (two /24 for the load balancer, two /22 for compute; `Network`).
 * @see https://www.rfc-editor.org/rfc/rfc1918#section-3
 */
export const VPC_PREFIX_LENGTHS = { min: 16, max: 20 } as const;
const PRIVATE_RANGES: ReadonlyArray<readonly [number, number]> = [[0x0a000000, 8], [0xac100000, 12], [0xc0a80000, 16]];

function vpcCidr(raw: unknown): Parsed {
  const allowed = `a private (RFC 1918) IPv4 network from /${VPC_PREFIX_LENGTHS.min} to /${VPC_PREFIX_LENGTHS.max} ` +
    'with no host bits set, such as 10.1.0.0/16';
  const match = typeof raw === 'string' ? /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(raw.trim()) : null;
  if (!match) return { allowed };
  const octets = match.slice(1, 5).map(Number);
  const prefix = Number(match[5]);
  if (octets.some((o) => o > 255) || prefix < VPC_PREFIX_LENGTHS.min || prefix > VPC_PREFIX_LENGTHS.max) return { allowed };
  const address = octets.reduce((a, o) => a * 256 + o, 0);
  const inRange = (base: number, bits: number) => Math.floor(address / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits));
  if (address % 2 ** (32 - prefix) !== 0 || !PRIVATE_RANGES.some(([base, bits]) => inRange(base, bits))) return { allowed };
  return { value: `${octets.join('.')}/${prefix}` };
}

function httpsUrl(raw: unknown): Parsed {
  const allowed = 'an https:// URL';
  if (typeof raw !== 'string') return { allowed };
  try {
    return new URL(raw).protocol === 'https:' ? { value: raw } : { allowed };
  } catch {
    return { allowed };
  }
}

export const CONTEXT_KEYS: readonly ContextKey[] = [
  {
    name: 'stackName',
    required: true,
    defaultText: '-',
    description: 'Name of the CloudFormation stack: a letter, then letters, digits and `-`, at most 128 characters.',
    parse: text(/^[A-Za-z][A-Za-z0-9-]{0,127}$/, 'a CloudFormation stack name: a letter, then letters, digits and -, at most 128 characters'),
  },
  {
    name: 'applicationId',
    required: true,
    defaultText: '-',
    description: 'The `applicationId()` of an installed plugin (for example `jenkins`).',
    parse: text(/^[a-z][a-z0-9-]{0,62}$/, 'lower-case letters, digits and -, starting with a letter'),
  },
  {
    name: 'runtimeType',
    required: true,
    defaultText: '-',
    description: '`FARGATE` or `EC2`; usually given at synth time with `-c runtimeType=...`.',
    parse: oneOf(Object.values(RuntimeType)),
  },
  {
    name: 'securityProfile',
    required: true,
    defaultText: '-',
    description: '`DEV`, `STAGING` or `PRODUCTION` (see "Security profiles").',
    parse: oneOf(Object.values(SecurityProfile)),
  },
  {
    name: 'sslEnabled',
    required: true,
    defaultText: '-',
    description: '`true` or `false` (text, or a JSON boolean in cdk.json). `true` needs `domain` and `hostedZoneId` or `certificateArn`.',
    parse: (raw) => (raw === true || raw === 'true' ? { value: true }
      : raw === false || raw === 'false' ? { value: false } : { allowed: 'true or false' }),
  },
  {
    name: 'domain',
    required: false,
    defaultText: 'none (no DNS name; the load balancer\'s own name is used)',
    description: 'Domain name, for example `example.com`.',
    parse: text(DOMAIN, 'a domain name such as example.com (labels of letters, digits and -, separated by dots)', (s) => s.toLowerCase()),
  },
  {
    name: 'subdomain',
    required: false,
    defaultText: 'none (the FQDN is the domain itself)',
    description: 'Sub-domain; the FQDN is `<subdomain>.<domain>`.',
    parse: text(SUBDOMAIN, 'one or more DNS labels such as ci or build.eu', (s) => s.toLowerCase()),
  },
  {
    name: 'authMode',
    required: false,
    defaultText: '`none`',
    description: '`none`, `application-oidc` (the application signs users in) or `alb-oidc` (the load balancer does; needs TLS). ' +
      'A plugin may accept fewer (`supportedAuthModes()`; the build server accepts only `application-oidc`).',
    parse: oneOf(AuthMode.ALL),
  },
  {
    name: 'hostedZoneId',
    required: false,
    defaultText: 'none',
    description: 'Route 53 hosted zone of `domain`: the certificate is DNS-validated in it and the FQDN record is created there. No lookup is made.',
    parse: text(/^Z[A-Z0-9]{1,31}$/, 'a Route 53 hosted zone id such as Z0123456789ABCDEFGHIJ'),
  },
  {
    name: 'certificateArn',
    required: false,
    defaultText: 'none',
    description: 'An existing ACM certificate for the FQDN, used instead of creating one.',
    parse: text(/^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[0-9a-f-]{36}$/, 'an ACM certificate ARN'),
  },
  {
    name: 'region',
    required: false,
    defaultText: '`CDK_DEFAULT_REGION`, else none',
    description: 'AWS region of the stack. STAGING and PRODUCTION need one: load-balancer access logs are region-specific. The ' +
      'account is never set, so availability zones resolve at deploy time and synth makes no AWS lookup.',
    parse: text(/^[a-z]{2}(-gov)?-[a-z]+-\d$/, 'an AWS region such as eu-west-1'),
  },
  {
    name: 'ec2Storage',
    required: false,
    defaultText: '`efs`',
    description: 'Data volume on EC2: `efs` (a file system in two zones) or `ebs` (one encrypted volume created by the stack, ' +
      'attached at `ebsDeviceName()` by every instance that replaces the last, in one zone; backed up daily in STAGING and ' +
      'PRODUCTION). Fargate always uses EFS.',
    parse: oneOf(Object.values(Ec2Storage)),
  },
  {
    name: 'dataVolumeSnapshotId',
    required: false,
    defaultText: 'none (an empty volume)',
    description: 'EC2 with `ec2Storage` `ebs` only: create the data volume from this EBS snapshot (restore; see "Data and ' +
      'restore"). Changing it replaces the volume.',
    parse: text(/^snap-([0-9a-f]{8}|[0-9a-f]{17})$/, 'an EBS snapshot id: snap- and 8 or 17 hex digits, for example snap-0123456789abcdef0'),
  },
  {
    name: 'vpcCidr',
    required: false,
    defaultText: `\`${Vpc.DEFAULT_CIDR_RANGE}\``,
    description: 'Address range of the VPC: a private (RFC 1918) IPv4 network from /16 to /20. Give each deployment its own ' +
      'range so that their networks can be peered or joined to a transit gateway later.',
    parse: vpcCidr,
  },
  {
    name: 'alarmEmail',
    required: false,
    defaultText: 'none (required in PRODUCTION when the plugin declares alarms)',
    description: 'E-mail address subscribed to the alarm topic, which receives the plugin\'s log alarms (for the build server: more than 10 failed logins in a day).',
    parse: email,
  },
  {
    name: 'pciConformancePack',
    required: false,
    defaultText: '`false`',
    description: '`true` deploys AWS\'s own PCI DSS 4.0 conformance pack (`AWS::Config::ConformancePack`, built from ' +
      '`aws/pci-dss-4/pci-dss-4.0.json`) with the stack, so AWS Config checks the deployed account against it. Needs an ' +
      'AWS Config configuration recorder recording in the account and region (see "PCI DSS v4.0.1").',
    parse: (raw) => (raw === true || raw === 'true' ? { value: true }
      : raw === false || raw === 'false' ? { value: false } : { allowed: 'true or false' }),
  },
  {
    name: 'dockerHubCredentialArn',
    required: false,
    defaultText: 'none (required in STAGING and PRODUCTION when an image comes from Docker Hub)',
    description: 'A Secrets Manager secret whose name starts with `ecr-pullthroughcache/`, holding a Docker Hub account\'s ' +
      '`{"username": ..., "accessToken": ...}`: images from Docker Hub (the application\'s and its workers\') are pulled ' +
      'through an ECR pull-through cache with it, not from Docker Hub by every task (see "Container images").',
    sensitive: true,
    parse: text(DOCKER_HUB_CREDENTIAL_ARN, 'the ARN of a Secrets Manager secret whose name starts with ecr-pullthroughcache/ ' +
      '(ECR\'s rule for pull-through cache credentials), for example ' +
      'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ecr-pullthroughcache/docker-hub-AbCdEf'),
  },
  {
    name: 'imageDigests',
    required: false,
    defaultText: 'none (PRODUCTION needs a digest for every image a task runs)',
    description: 'The digest of each image the plugin names by tag, as a JSON object: `{"jenkins/jenkins:2.568.2-lts-jdk21": ' +
      '"sha256:<64 hex digits>"}`. The task then runs exactly that image (`<image>@<digest>`); PRODUCTION refuses an image ' +
      'pinned by tag only (see "Container images").',
    parse: imageDigests,
  },
  {
    name: 'oidcIssuer',
    required: false,
    defaultText: 'none (required when authMode is not none)',
    description: 'Issuer URL of the identity provider.',
    parse: httpsUrl,
  },
  {
    name: 'oidcAuthorizationEndpoint',
    required: false,
    defaultText: 'none (required when authMode is not none)',
    description: 'Authorization endpoint URL of the identity provider.',
    parse: httpsUrl,
  },
  {
    name: 'oidcTokenEndpoint',
    required: false,
    defaultText: 'none (required when authMode is not none)',
    description: 'Token endpoint URL of the identity provider.',
    parse: httpsUrl,
  },
  {
    name: 'oidcUserInfoEndpoint',
    required: false,
    defaultText: 'none (required when authMode is not none)',
    description: 'User-info endpoint URL of the identity provider.',
    parse: httpsUrl,
  },
  {
    name: 'oidcClientId',
    required: false,
    defaultText: 'none (required when authMode is not none)',
    description: 'OAuth client id registered with the identity provider.',
    parse: text(/^\S{1,255}$/, 'a client id without spaces'),
  },
  {
    name: 'oidcClientSecretArn',
    required: false,
    defaultText: 'none (required when authMode is not none)',
    description: 'ARN of the Secrets Manager secret holding the client secret. Only the reference is ever used; a value that is ' +
      'not an ARN is never echoed in an error.',
    sensitive: true,
    parse: text(SECRET_ARN, 'a Secrets Manager secret ARN (never the secret itself)'),
  },
];

/** The context keys of a platform configuration: a platform, and the applications on it (see the README). */
export const PLATFORM_CONFIGURATION_KEYS = ['platform', 'applications'] as const;

/** The keys that must all be present when the auth mode is not `none`. */
export const OIDC_KEYS = CONTEXT_KEYS.map((k) => k.name).filter((n) => n.startsWith('oidc'));

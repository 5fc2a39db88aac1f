import { aws_ec2 as ec2 } from 'aws-cdk-lib';
import type { DeploymentContext } from './deployment-context';
import { existingVpc } from './existing-vpc';
import type { FactorySettings } from './factory-settings';
import {
  acceptedAdvisories, bool, DOCKER_HUB_CREDENTIAL_ARN, DOMAIN, email, httpsUrl, imageDigests, kmsKeyArns, oidcScopes, oneOf, Parsed,
  pluginSettings, SECRET_ARN, secretReferences, SUBDOMAIN, text, tokenPaths, vpcCidr, wholeNumber,
} from './key-parsers';
import type { PlatformProps } from './platform-props';
import { SECRET_ARN_EXAMPLE, SECRET_JSON_KEY_EXAMPLE } from './secret-reference';
import { AUTH_MODES, AuthMode, signInOf } from '../contract/auth-mode';
import { DATABASE_DEFAULTS } from '../contract/database-requirement';
import { DeploymentStrategy, DESIRED_COUNT_MAX } from '../contract/deployment-strategy';
import { AL2023_CURRENT_IMAGE_COMMAND } from '../contract/ec2-context';
import { Ec2Storage } from '../contract/ec2-storage';
import { FACTORY_SIZE_DEFAULTS } from '../contract/factory-limits';
import type { OidcProviderSettings } from '../contract/oidc-integration';
import { PciDssScope } from '../contract/pci-dss-scope';
import { WAF_RATE_LIMIT, WAF_RATE_LIMIT_BOUNDS, WAF_RATE_WINDOW_SECONDS } from '../contract/rate-limit';
import { RuntimeType } from '../contract/runtime-type';
import { SecurityProfile } from '../contract/security-profile';
import { PROFILE_SETTINGS } from '../profiles/profile-settings';

// Each deployment context key is declared once, here: its row in docs/context-keys.md, its parser, where the factory reads it in code,
// which DeploymentContext field it fills, and an example. The tables are typed over DeploymentContext's fields, so a
// field without a key, a key without a field, a key without its reading in code, and a field every context has
// without a default are compile errors. test/context-key-wiring.test.ts sends every key's example through the context
// and through the factory's props and checks that it arrives.

/** The DeploymentContext fields that no single key fills: computed from several (`DERIVED_FIELDS`). */
type DerivedField = 'fqdn' | 'oidc';
/** The DeploymentContext fields that a key of the same name fills. */
type FieldKeyName = Exclude<keyof DeploymentContext, DerivedField>;
/** The members of `oidc`: each is filled by the key `oidc<Member>`. */
type OidcMember = keyof OidcProviderSettings;

/**
 * A compile error naming any `FactorySettings` field that is no key's (same name, or `oidc`): a new setting is wired
 * to a key here. What no key gives (the platform, how to attach) is `ApplicationFactoryProps`' own.
 */
export type EverySettingIsAKey<T extends never = Exclude<keyof FactorySettings, FieldKeyName | 'oidc'>> = T;

/** What the factory knows in code: its props, its stack and its own arguments. */
export interface CodeSettings {
  readonly props: FactorySettings;
  readonly stackName: string;
  /** Undefined for an environment-agnostic stack. */
  readonly region?: string;
  readonly applicationId: string;
  readonly runtimeType: RuntimeType;
}

/** One key's declaration; `T` is the type of the field it fills. */
interface Declaration<T> {
  readonly description: string;
  /** Never echo the value in an error: the user may have pasted a secret where a reference belongs. */
  readonly sensitive?: boolean;
  readonly parse: (raw: unknown) => Parsed;
  /** How the factory reads the key in code: its settings (`FactorySettings`), its stack or its arguments. */
  readonly code: (code: CodeSettings) => T | undefined;
  /** Where `code` reads, for the error that names a contradiction with the context. @default the factory's props */
  readonly codeSource?: string;
  /** A valid value. The examples of all keys together are one valid deployment (the wiring test deploys it). */
  readonly example: NonNullable<T>;
  /** Who decides the key for an application on a platform (docs/platform.md). @default - each application */
  readonly onPlatform?: OnPlatform;
  /** Whether a value given in code may be a deploy-time value (a CDK token: a secret's ARN); context values never are. */
  readonly deployTime?: boolean;
}

/**
 * A key on a platform. `platform`: the platform decides it for every application on it, for the reason `why` (a
 * clause, no full stop), which refusals give. `shared`: the application's value is the platform's, and an
 * application that gives another is refused; else the platform's alone (its network, its account-wide packs): an
 * application keeps the key's default, and one that gives another value is refused. `inherited`: a key of the
 * platform too, whose value an application takes unless it gives its own. `prop: false` marks a key the platform
 * decides but does not take as a prop of its own (TLS comes from its certificate's keys, the region from its stack).
 */
export type OnPlatform =
  | { readonly decides: 'platform'; readonly why: string; readonly shared?: true; readonly prop?: false }
  | { readonly decides: 'inherited' };

/**
 * What happens when the key is absent: a field every DeploymentContext has needs a required key or a default; the
 * docs/context-keys.md shows `-` for a required key and the default for a key that has one.
 */
type Presence<T> =
  | { readonly required: true }
  | { readonly required: false; readonly default: NonNullable<T> }
  | { readonly required: false; readonly defaultByProfile: { readonly [P in SecurityProfile]: NonNullable<T> } }
  | (undefined extends T ? { readonly required: false; readonly defaultText: string } : never);

type Declared<T> = Declaration<T> & Presence<T>;

/** The keys that fill the field of their own name, in the order of docs/context-keys.md. */
const FIELD_KEYS = {
  stackName: {
    required: true,
    description: 'Name of the CloudFormation stack: a letter, then letters, digits and `-`, at most 128 characters.',
    parse: text(/^[A-Za-z][A-Za-z0-9-]{0,127}$/, 'a CloudFormation stack name: a letter, then letters, digits and -, at most 128 characters'),
    code: (c) => c.stackName,
    codeSource: 'the stack\'s name',
    example: 'wiki-prod',
  },
  applicationId: {
    required: true,
    description: 'The `applicationId()` of an installed plugin (for example `jenkins`).',
    parse: text(/^[a-z][a-z0-9-]{0,62}$/, 'lower-case letters, digits and -, starting with a letter'),
    code: (c) => c.applicationId,
    codeSource: 'the plugin\'s applicationId()',
    example: 'wiki',
  },
  runtimeType: {
    required: true,
    description: '`FARGATE` or `EC2`; usually given at synth time with `-c runtimeType=...`.',
    parse: oneOf(Object.values(RuntimeType)),
    code: (c) => c.runtimeType,
    codeSource: 'the factory\'s runtimeType',
    example: RuntimeType.EC2,
  },
  securityProfile: {
    required: true,
    description: '`DEV`, `STAGING` or `PRODUCTION` (see "Security profiles").',
    parse: oneOf(Object.values(SecurityProfile)),
    code: (c) => c.props.securityProfile,
    example: SecurityProfile.STAGING,
    onPlatform: { decides: 'platform', why: 'an application runs at its platform\'s profile', shared: true },
  },
  sslEnabled: {
    required: true,
    description: '`true` or `false` (text, or a JSON boolean in cdk.json). `true` needs `domain` and `hostedZoneId` or `certificateArn`.',
    parse: bool,
    code: (c) => c.props.sslEnabled,
    example: true,
    onPlatform: { decides: 'platform', why: 'the platform\'s listener decides (TLS when it has hostedZoneId or certificateArn)', shared: true, prop: false },
  },
  domain: {
    required: false,
    defaultText: 'none (no DNS name; the load balancer\'s own name is used)',
    description: 'Domain name, for example `example.com`.',
    parse: text(DOMAIN, 'a domain name such as example.com (labels of letters, digits and -, separated by dots)', (s) => s.toLowerCase()),
    code: (c) => c.props.domain,
    example: 'example.com',
    onPlatform: { decides: 'inherited' },
  },
  subdomain: {
    required: false,
    defaultText: 'none (the FQDN is the domain itself)',
    description: 'Sub-domain; the FQDN is `<subdomain>.<domain>`.',
    parse: text(SUBDOMAIN, 'one or more DNS labels such as ci or build.eu', (s) => s.toLowerCase()),
    code: (c) => c.props.subdomain,
    example: 'wiki',
  },
  authMode: {
    required: false,
    default: AuthMode.NONE,
    description: `${AuthMode.ALL.map((mode) => `\`${mode}\` (${AUTH_MODES[mode].describes})`).join(', ')}. ` +
      'A plugin may accept fewer (`supportedAuthModes()`; the build server accepts only `application-oidc`).',
    parse: oneOf(AuthMode.ALL),
    code: (c) => c.props.authMode,
    example: AuthMode.ALB_OIDC,
  },
  tokenPaths: {
    required: false,
    defaultText: 'none: under alb-oidc every request signs in',
    description: 'Under `alb-oidc`, the paths the application authenticates by itself (API tokens: `/repository/*`, `/v2/*`), as a ' +
      'list of load-balancer path patterns: requests to them skip the load balancer\'s sign-in, so that Maven, npm, Docker and ' +
      'scanners reach them. The evidence report lists them under requirement 8. Only with authMode `alb-oidc`.',
    parse: tokenPaths,
    code: (c) => c.props.tokenPaths,
    example: ['/repository/*', '/v2/*'],
  },
  rateLimit: {
    required: false,
    defaultText: `\`${WAF_RATE_LIMIT}\``,
    description: `Requests one client address may send to the application in ${WAF_RATE_WINDOW_SECONDS / 60} minutes before the WAF ` +
      'blocks it for a while (STAGING and PRODUCTION, which have a WAF). Raise it for an application many users or build ' +
      'agents reach through one address (an office, a NAT gateway); on a platform it applies to the application\'s host only, ' +
      'the others keep theirs.',
    parse: wholeNumber(WAF_RATE_LIMIT_BOUNDS.min, `a whole number of requests from ${WAF_RATE_LIMIT_BOUNDS.min} to ` +
      `${WAF_RATE_LIMIT_BOUNDS.max} (WAF's bounds), for example 10000`, WAF_RATE_LIMIT_BOUNDS.max),
    code: (c) => c.props.rateLimit,
    example: 10000,
  },
  hostedZoneId: {
    required: false,
    defaultText: 'none',
    description: 'Route 53 hosted zone of `domain`: the certificate is DNS-validated in it and the FQDN record is created there. No lookup is made.',
    parse: text(/^Z[A-Z0-9]{1,31}$/, 'a Route 53 hosted zone id such as Z0123456789ABCDEFGHIJ'),
    code: (c) => c.props.hostedZoneId,
    example: 'Z0123456789ABCDEFGHIJ',
    onPlatform: { decides: 'inherited' },
  },
  certificateArn: {
    required: false,
    defaultText: 'none',
    description: 'An existing ACM certificate for the FQDN, used instead of creating one.',
    parse: text(/^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[0-9a-f-]{36}$/, 'an ACM certificate ARN'),
    code: (c) => c.props.certificateArn,
    example: 'arn:aws:acm:eu-west-1:123456789012:certificate/12345678-1234-1234-1234-123456789012',
    onPlatform: { decides: 'inherited' },
  },
  region: {
    required: false,
    defaultText: 'in DEV, the CDK CLI\'s `CDK_DEFAULT_REGION` (with a warning naming it); else none',
    description: 'AWS region of the stack. STAGING and PRODUCTION need this key (the CLI\'s default region is not taken for them): ' +
      'load-balancer access logs are region-specific, and card data stays where it is placed on purpose. The ' +
      'account is never set, so availability zones resolve at deploy time and synth makes no AWS lookup.',
    parse: text(/^[a-z]{2}(-gov)?-[a-z]+-\d$/, 'an AWS region such as eu-west-1'),
    code: (c) => c.region,
    codeSource: 'the stack\'s region',
    example: 'eu-west-1',
    onPlatform: { decides: 'platform', why: 'an application runs in its platform\'s region (its parameters are regional)', shared: true, prop: false },
  },
  ec2Storage: {
    required: false,
    default: Ec2Storage.EFS,
    description: 'Data volume on EC2: `efs` (a file system in two zones) or `ebs` (one encrypted volume created by the stack, ' +
      'attached at `ebsDeviceName()` by every instance that replaces the last, in one zone; backed up daily in STAGING and ' +
      'PRODUCTION). Fargate always uses EFS.',
    parse: oneOf(Object.values(Ec2Storage)),
    code: (c) => c.props.ec2Storage,
    example: Ec2Storage.EBS,
  },
  dataVolumeSnapshotId: {
    required: false,
    defaultText: 'none (an empty volume)',
    description: 'EC2 with `ec2Storage` `ebs` only: create the data volume from this EBS snapshot (restore; see "Data and ' +
      'restore"). Changing it replaces the volume.',
    parse: text(/^snap-([0-9a-f]{8}|[0-9a-f]{17})$/, 'an EBS snapshot id: snap- and 8 or 17 hex digits, for example snap-0123456789abcdef0'),
    code: (c) => c.props.dataVolumeSnapshotId,
    example: 'snap-0123456789abcdef0',
  },
  deploymentStrategy: {
    required: false,
    defaultText: '`rolling` for an application that keeps no data, else `stop-first`',
    description: 'How a deployment replaces the application: `rolling` starts the new tasks (Fargate) or instances (EC2) ' +
      'beside the running ones and stops those once the new ones are healthy (no downtime; only for an application ' +
      'that keeps no data), `stop-first` stops the running one first. An application that keeps data on EFS or EBS is ' +
      'always `stop-first`: its one writer never runs twice.',
    parse: oneOf(Object.values(DeploymentStrategy)),
    code: (c) => c.props.deploymentStrategy,
    example: DeploymentStrategy.STOP_FIRST,
  },
  desiredCount: {
    required: false,
    defaultText: '`1`',
    description: `How many tasks (Fargate) or instances (EC2) serve the application, 1 to ${DESIRED_COUNT_MAX}, spread over ` +
      'the compute subnets\' zones; more than one only for an application that keeps no data.',
    parse: wholeNumber(1, `a whole number from 1 to ${DESIRED_COUNT_MAX}`, DESIRED_COUNT_MAX),
    code: (c) => c.props.desiredCount,
    example: 1,
  },
  maintenanceWindow: {
    required: false,
    defaultText: `in STAGING and PRODUCTION \`${PROFILE_SETTINGS.PRODUCTION.maintenanceWindow}\`; in DEV none ` +
      '(RDS\'s own schedule)',
    description: 'When RDS rotates the database password of a plugin that asks for a database, and so when the application ' +
      'restarts to read it: a Secrets Manager schedule expression in UTC, `cron(minutes hours day-of-month month ' +
      'day-of-week year)`, opening a window of three hours. The restart follows `deploymentStrategy` (stop-first: the ' +
      'application is down for its start-up time).',
    // Six fields of the characters Secrets Manager's RotationRules.ScheduleExpression takes (its API model: 1 to 256
    // of [0-9A-Za-z()#?*-/, ]).
    parse: text(/^(?=.{1,256}$)cron\([0-9A-Za-z#?*/,-]+( [0-9A-Za-z#?*/,-]+){5}\)$/, 'a Secrets Manager cron expression such as cron(0 3 ? * SUN *)'),
    code: (c) => c.props.maintenanceWindow,
    example: 'cron(0 2 ? * SAT *)',
  },
  ec2ImageId: {
    required: false,
    defaultText: 'in DEV, the newest Amazon Linux 2023 at each deployment; STAGING and PRODUCTION need it',
    description: 'EC2 only (Fargate ignores it): the Amazon Linux 2023 image (AMI) of the instance, in the stack\'s region. STAGING and PRODUCTION ' +
      `need it, so a new release replaces nothing until you change it (the current one: \`${AL2023_CURRENT_IMAGE_COMMAND}\`). ` +
      'Changing it replaces the instance through the rolling update, which waits for the new boot\'s signal.',
    parse: text(/^ami-([0-9a-f]{8}|[0-9a-f]{17})$/, 'an AMI id: ami- and 8 or 17 hex digits, for example ami-0123456789abcdef0'),
    code: (c) => c.props.ec2ImageId,
    example: 'ami-0123456789abcdef0',
  },
  vpcCidr: {
    required: false,
    defaultText: `\`${ec2.Vpc.DEFAULT_CIDR_RANGE}\``,
    description: 'Address range of the VPC: a private (RFC 1918) IPv4 network from /16 to /20. Give each deployment its own ' +
      'range so that their networks can be peered or joined to a transit gateway later.',
    parse: vpcCidr,
    code: (c) => c.props.vpcCidr,
    example: '10.1.0.0/16',
    onPlatform: { decides: 'platform', why: 'one network for every application' },
  },
  existingVpc: {
    required: false,
    defaultText: 'none: the framework creates the VPC (`vpcCidr`)',
    description: 'A VPC your network team gives you, by ids (nothing is looked up): `vpcId`, `cidr`, two `availabilityZones` and, ' +
      'per zone, one subnet of each tier (`loadBalancerSubnets`, `computeSubnets`, `dataSubnets`), each `{subnetId, ' +
      'availabilityZone, cidr}` (and `routeTableId` for the compute subnets with `endpoints` `create`), and `endpoints`: ' +
      '`existing` (the default: the network team\'s serve) or `create`. The framework adds a flow log and security groups ' +
      '(and its endpoints with `create`), and changes nothing else (docs/platform.md, "An existing VPC"). `vpcCidr`, if ' +
      'given too, must equal its `cidr`.',
    parse: existingVpc,
    code: (c) => c.props.existingVpc,
    example: {
      vpcId: 'vpc-0a1b2c3d4e5f60718',
      cidr: '10.1.0.0/16',
      availabilityZones: ['eu-west-1a', 'eu-west-1b'],
      loadBalancerSubnets: [
        { subnetId: 'subnet-0a000000000000001', availabilityZone: 'eu-west-1a', cidr: '10.1.0.0/24', routeTableId: 'rtb-0a000000000000001' },
        { subnetId: 'subnet-0a000000000000002', availabilityZone: 'eu-west-1b', cidr: '10.1.1.0/24', routeTableId: 'rtb-0a000000000000001' },
      ],
      computeSubnets: [
        { subnetId: 'subnet-0b000000000000001', availabilityZone: 'eu-west-1a', cidr: '10.1.4.0/22', routeTableId: 'rtb-0b000000000000001' },
        { subnetId: 'subnet-0b000000000000002', availabilityZone: 'eu-west-1b', cidr: '10.1.8.0/22', routeTableId: 'rtb-0b000000000000002' },
      ],
      dataSubnets: [
        { subnetId: 'subnet-0c000000000000001', availabilityZone: 'eu-west-1a', cidr: '10.1.12.0/24', routeTableId: 'rtb-0c000000000000001' },
        { subnetId: 'subnet-0c000000000000002', availabilityZone: 'eu-west-1b', cidr: '10.1.13.0/24', routeTableId: 'rtb-0c000000000000001' },
      ],
    },
    onPlatform: { decides: 'platform', why: 'one network for every application' },
  },
  alarmEmail: {
    required: false,
    defaultText: 'none (required in PRODUCTION)',
    description: 'E-mail address subscribed to the alarm topic, which receives the alarms on every application\'s health (no healthy target, 5xx answers, no running task or a failed instance status check) and the plugin\'s log alarms (for the build server: more than 10 failed logins in a day).',
    parse: email,
    code: (c) => c.props.alarmEmail,
    example: 'security@example.com',
    onPlatform: { decides: 'platform', why: 'one alarm topic for every application', shared: true },
  },
  containerInsights: {
    required: false,
    defaultByProfile: { [SecurityProfile.DEV]: false, [SecurityProfile.STAGING]: true, [SecurityProfile.PRODUCTION]: true },
    description: 'CloudWatch Container Insights on the ECS clusters the deployment creates (the application\'s, its workers\', ' +
      'the platform\'s): per-task CPU, memory and network metrics, billed as custom metrics. PRODUCTION requires it.',
    parse: bool,
    code: (c) => c.props.containerInsights,
    example: false,
    onPlatform: { decides: 'platform', why: 'the platform\'s cluster is every application\'s', shared: true },
  },
  pciConformancePack: {
    required: false,
    default: false,
    description: '`true` deploys AWS\'s own PCI DSS 4.0 conformance pack (`AWS::Config::ConformancePack`, built from ' +
      '`aws/pci-dss-4/pci-dss-4.0.json`) with the stack, so AWS Config checks the deployed account against it. Needs an ' +
      'AWS Config configuration recorder recording in the account and region (see "PCI DSS v4.0.1").',
    parse: bool,
    code: (c) => c.props.pciConformancePack,
    example: true,
    onPlatform: { decides: 'platform', why: 'one conformance pack per account and region' },
  },
  securityHubPciDss: {
    required: false,
    default: false,
    description: '`true` enables Security Hub\'s PCI DSS v4.0.1 standard (`AWS::SecurityHub::Standard`) with the stack, ' +
      'so its controls evaluate the deployed account. Needs Security Hub enabled in the account and region (see "PCI DSS v4.0.1").',
    parse: bool,
    code: (c) => c.props.securityHubPciDss,
    example: true,
    onPlatform: { decides: 'platform', why: 'one Security Hub standard per account and region' },
  },
  pciDssScope: {
    required: false,
    defaultText: 'none in DEV and STAGING (the evidence report says the scope was not stated); required in PRODUCTION',
    description: 'The application\'s role toward the cardholder data environment, as your PCI DSS scoping decided: `CDE` ' +
      '(it stores, processes or transmits account data), `CONNECTED` (connected to it or able to affect its security, ' +
      'as a build server that deploys into it) or `OUT_OF_SCOPE` (segmented from it). The evidence report states it ' +
      '(see "PCI DSS v4.0.1").',
    parse: oneOf(Object.values(PciDssScope)),
    code: (c) => c.props.pciDssScope,
    example: PciDssScope.CONNECTED,
  },
  pciDssMultiTenantProvider: {
    required: false,
    defaultText: 'not stated (appendix A1 is left out, and the evidence report says you did not state it)',
    description: '`true` when you are a multi-tenant service provider (you host other entities\' card-data environments on ' +
      'this): only then does the evidence report hold appendix A1\'s requirements.',
    parse: bool,
    code: (c) => c.props.pciDssMultiTenantProvider,
    example: true,
  },
  dockerHubCredentialArn: {
    required: false,
    defaultText: 'none (required in STAGING and PRODUCTION when an image comes from Docker Hub)',
    description: 'A Secrets Manager secret whose name starts with `ecr-pullthroughcache/`, holding a Docker Hub account\'s ' +
      '`{"username": ..., "accessToken": ...}`: images from Docker Hub (the application\'s and its workers\') are pulled ' +
      'through an ECR pull-through cache with it, not from Docker Hub by every task (see "Container images").',
    sensitive: true,
    parse: text(DOCKER_HUB_CREDENTIAL_ARN, 'the ARN of a Secrets Manager secret whose name starts with ecr-pullthroughcache/ ' +
      '(ECR\'s rule for pull-through cache credentials), for example ' +
      'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ecr-pullthroughcache/docker-hub-AbCdEf'),
    code: (c) => c.props.dockerHubCredentialArn,
    example: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ecr-pullthroughcache/docker-hub-AbCdEf',
    onPlatform: { decides: 'platform', why: 'one pull-through cache of Docker Hub for every application', shared: true },
  },
  acceptedAdvisories: {
    required: false,
    defaultText: 'none (PRODUCTION refuses every known vulnerability the application declares)',
    description: 'Known vulnerabilities deployed anyway, as a JSON object of advisory id to the reason, as text or as ' +
      '`{"reason": ..., "until": "YYYY-MM-DD", "owner": ..., "reference": ...}`. The application declares what it installs ' +
      'under published advisories (`knownVulnerabilities()`); PRODUCTION refuses each one not accepted here, whose `until` ' +
      'has passed, or whose acceptance lacks `owner` (who accepted the risk) or `reference` (the ticket or risk-register ' +
      'entry an assessor reads); the other profiles warn. An id the application does not declare is refused. See "Known vulnerabilities".',
    parse: acceptedAdvisories,
    code: (c) => c.props.acceptedAdvisories,
    example: { 'SECURITY-3972': { reason: 'config.xml POSTs blocked at the WAF', until: '2027-01-31', owner: 'platform-security', reference: 'SEC-12' } },
  },
  imageDigests: {
    required: false,
    defaultText: 'none (PRODUCTION needs a digest for every image a task runs)',
    description: 'The digest of each image the plugin names by tag, as a JSON object: `{"example/wiki:1.4.2": ' +
      '"sha256:<64 hex digits>"}`. The task then runs exactly that image (`<image>@<digest>`); PRODUCTION refuses an image ' +
      'pinned by tag only (see "Container images").',
    parse: imageDigests,
    code: (c) => c.props.imageDigests,
    example: { 'example/wiki:1.4.2': `sha256:${'0'.repeat(64)}` },
  },
  secrets: {
    required: false,
    defaultText: 'none',
    description: 'Secrets the application reads, as a JSON object of environment variable name to a Secrets Manager secret\'s ' +
      `complete ARN (\`${SECRET_ARN_EXAMPLE}\`), or ECS's form for one key of a JSON secret (\`${SECRET_JSON_KEY_EXAMPLE}\`). ` +
      'Added to the plugin\'s own `secrets()`; only the references reach the template (see docs/writing-a-plugin.md, "Secrets").',
    sensitive: true,
    parse: secretReferences,
    code: (c) => c.props.secrets,
    deployTime: true,
    example: { DB_PASSWORD: SECRET_JSON_KEY_EXAMPLE },
  },
  secretKeyArns: {
    required: false,
    defaultText: 'none: the secrets are under Secrets Manager\'s own key',
    description: 'The customer-managed KMS keys (complete key ARNs) that encrypt the secrets in `secrets`: the roles that read ' +
      'those secrets may decrypt with these keys, through Secrets Manager only (`kms:ViaService`). Without it a secret under ' +
      'such a key cannot be read at start.',
    parse: kmsKeyArns,
    code: (c) => c.props.secretKeyArns,
    example: ['arn:aws:kms:eu-west-1:123456789012:key/12345678-1234-1234-1234-123456789012'],
  },
  pluginSettings: {
    required: false,
    defaultText: 'none (the plugin\'s declared defaults)',
    description: 'The plugin\'s own settings, as a JSON object of setting name to value: each must be one the plugin declares ' +
      'in `settings()`, is checked as it declares, and is handed to its `withSettings()` (see docs/writing-a-plugin.md, ' +
      '"Settings by configuration").',
    parse: pluginSettings,
    code: (c) => c.props.pluginSettings,
    example: { jdbcUrl: 'jdbc:postgresql://db.example.com:5432/sonar' },
  },
  cpu: {
    required: false,
    defaultText: `the plugin's \`defaultSize()\`, else \`${FACTORY_SIZE_DEFAULTS.cpu}\``,
    description: 'Fargate task CPU units: a Fargate task size (256, 512, 1024, 2048, 4096, 8192 or 16384).',
    parse: wholeNumber(1, 'a whole number of CPU units, for example 2048'),
    code: (c) => c.props.cpu,
    example: 2048,
  },
  memoryLimitMiB: {
    required: false,
    defaultText: `the plugin's \`defaultSize()\`, else \`${FACTORY_SIZE_DEFAULTS.memoryLimitMiB}\``,
    description: 'Fargate task memory in MiB: one Fargate allows with `cpu` (for 2048 CPU units, 4096 to 16384 in steps of 1024).',
    parse: wholeNumber(1, 'a whole number of MiB, for example 4096'),
    code: (c) => c.props.memoryLimitMiB,
    example: 4096,
  },
  instanceType: {
    required: false,
    defaultText: `the plugin's \`defaultSize()\`, else \`${FACTORY_SIZE_DEFAULTS.instanceType}\``,
    description: 'EC2 instance type, x86_64 (the image is Amazon Linux 2023\'s x86_64 one).',
    // A family, generation and attributes, then the size (m7i.large, m7i-flex.large, u-6tb1.metal): nothing else reaches
    // the launch template.
    parse: text(/^(?=.{1,64}$)[a-z][a-z0-9-]*\.[a-z0-9]+$/, 'an EC2 instance type such as m7i.large'),
    code: (c) => c.props.instanceType,
    example: 'm7i.large',
  },
  dataVolumeGiB: {
    required: false,
    defaultText: `\`${FACTORY_SIZE_DEFAULTS.dataVolumeGiB}\``,
    description: 'EC2 with `ec2Storage` `ebs`: size of the data volume in GiB (gp3, 1 to 16384).',
    parse: wholeNumber(1, 'a whole number of GiB, for example 100'),
    code: (c) => c.props.dataVolumeGiB,
    example: 100,
  },
  databaseInstanceType: {
    required: false,
    defaultText: `\`${DATABASE_DEFAULTS.instanceType}\``,
    description: 'The instance class of the plugin\'s database, when it declares one (`database()`), for example `db.t4g.medium`.',
    parse: text(/^db\.[a-z0-9-]+\.[a-z0-9]+$/, 'an RDS instance class such as db.t4g.medium'),
    code: (c) => c.props.databaseInstanceType,
    example: 'db.t4g.medium',
  },
  databaseStorageGiB: {
    required: false,
    defaultText: `\`${DATABASE_DEFAULTS.storageGiB}\``,
    description: 'The storage of the plugin\'s database in GiB (gp3, 20 to 65536), when it declares one.',
    parse: wholeNumber(20, 'a whole number of GiB from 20, for example 100'),
    code: (c) => c.props.databaseStorageGiB,
    example: 100,
  },
} satisfies { readonly [F in FieldKeyName]: Declared<DeploymentContext[F]> };

const OIDC_DEFAULT_TEXT = 'none (required when authMode is not none)';

/** The scopes requested at sign-in when `oidcScopes` is not given. */
export const OIDC_DEFAULT_SCOPES = ['openid', 'profile', 'email'];

/** The keys of the identity provider, by the member of `oidc` each fills; the key is `oidc<Member>`. */
const OIDC_PROVIDER_KEYS = {
  issuer: {
    required: false,
    defaultText: OIDC_DEFAULT_TEXT,
    description: 'Issuer URL of the identity provider.',
    parse: httpsUrl,
    code: (c) => c.props.oidc?.issuer,
    example: 'https://login.example.com',
  },
  authorizationEndpoint: {
    required: false,
    defaultText: OIDC_DEFAULT_TEXT,
    description: 'Authorization endpoint URL of the identity provider.',
    parse: httpsUrl,
    code: (c) => c.props.oidc?.authorizationEndpoint,
    example: 'https://login.example.com/authorize',
  },
  tokenEndpoint: {
    required: false,
    defaultText: OIDC_DEFAULT_TEXT,
    description: 'Token endpoint URL of the identity provider.',
    parse: httpsUrl,
    code: (c) => c.props.oidc?.tokenEndpoint,
    example: 'https://login.example.com/token',
  },
  userInfoEndpoint: {
    required: false,
    defaultText: OIDC_DEFAULT_TEXT,
    description: 'User-info endpoint URL of the identity provider.',
    parse: httpsUrl,
    code: (c) => c.props.oidc?.userInfoEndpoint,
    example: 'https://login.example.com/userinfo',
  },
  clientId: {
    required: false,
    defaultText: OIDC_DEFAULT_TEXT,
    description: 'OAuth client id registered with the identity provider.',
    // OAuth's VSCHAR (RFC 6749 Appendix A) without the space: no control character reaches the listener or the controller.
    parse: text(/^[\x21-\x7e]{1,255}$/, 'a client id of printable ASCII without spaces'),
    code: (c) => c.props.oidc?.clientId,
    example: 'wiki',
  },
  clientSecretArn: {
    required: false,
    defaultText: OIDC_DEFAULT_TEXT,
    description: 'ARN of the Secrets Manager secret holding the client secret. Only the reference is ever used; a value that is ' +
      'not an ARN is never echoed in an error.',
    sensitive: true,
    parse: text(SECRET_ARN, 'a Secrets Manager secret ARN (never the secret itself)'),
    code: (c) => c.props.oidc?.clientSecretArn,
    example: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:wiki/oidc-AbCdEf',
  },
  scopes: {
    required: false,
    default: OIDC_DEFAULT_SCOPES,
    description: 'Scopes requested at sign-in: by the load balancer (`alb-oidc`), or given to the application ' +
      '(`application-oidc`; the build server\'s realm asks for them). A list, or space-separated text; `openid` among them.',
    parse: oidcScopes,
    code: (c) => c.props.oidc?.scopes,
    example: ['openid', 'profile', 'email', 'groups'],
  },
} satisfies { readonly [M in OidcMember]: Declared<OidcProviderSettings[M] | undefined> };

/** One deployment context key as synth reads it. The table of docs/context-keys.md is compared with `CONTEXT_KEYS`. */
export interface ContextKey {
  readonly name: string;
  /** Whether synth fails when the key is absent. */
  readonly required: boolean;
  /** The default when absent, as docs/context-keys.md shows it. */
  readonly defaultText: string;
  readonly description: string;
  readonly sensitive?: boolean;
  readonly parse: (raw: unknown) => Parsed;
  /** The value when absent, for a field every DeploymentContext has. */
  readonly default?: unknown;
  /** The value when absent in each profile, for a key whose default depends on it (instead of `default`). */
  readonly defaultByProfile?: Readonly<Record<SecurityProfile, unknown>>;
  readonly code: (code: CodeSettings) => unknown;
  readonly codeSource: string;
  readonly deployTime?: boolean;
  readonly example: unknown;
  readonly onPlatform?: OnPlatform;
}

function contextKey(name: string, key: Declared<unknown>): ContextKey {
  const shown = (value: unknown) => `\`${Array.isArray(value) ? value.join(' ') : String(value)}\``;
  const defaultText = key.required ? '-'
    : 'default' in key ? shown(key.default)
      : 'defaultByProfile' in key ? byProfileText(key.defaultByProfile, shown)
        : key.defaultText;
  return { codeSource: 'the factory\'s props', ...key, name, defaultText };
}

/** `\`false\` in DEV, \`true\` in STAGING and PRODUCTION`: the profiles of each value, in the profiles' order. */
function byProfileText(values: Readonly<Record<SecurityProfile, unknown>>, shown: (value: unknown) => string): string {
  const groups = new Map<string, SecurityProfile[]>();
  for (const profile of Object.values(SecurityProfile)) groups.set(shown(values[profile]), [...groups.get(shown(values[profile])) ?? [], profile]);
  const and = (names: string[]) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0]);
  return [...groups].map(([value, profiles]) => `${value} in ${and(profiles)}`).join(', ');
}

/** The value an absent key takes in `profile`: its default, or its profile's; undefined when it has none. */
export function defaultOf(key: ContextKey, profile: SecurityProfile | undefined): unknown {
  return key.defaultByProfile ? (profile ? key.defaultByProfile[profile] : undefined) : key.default;
}

/** `issuer` -> `oidcIssuer`. */
const oidcKeyName = (member: string) => `oidc${member[0].toUpperCase()}${member.slice(1)}`;

/** Every key, in the order of docs/context-keys.md. */
export const CONTEXT_KEYS: readonly ContextKey[] = [
  ...Object.entries(FIELD_KEYS).map(([field, key]) => contextKey(field, key)),
  ...Object.entries(OIDC_PROVIDER_KEYS).map(([member, key]) => contextKey(oidcKeyName(member), key)),
];

/** The identity provider's keys that must all be present when the auth mode is not `none`: those without a default. */
export const OIDC_KEYS = Object.entries(OIDC_PROVIDER_KEYS).filter(([, key]) => !('default' in key)).map(([member]) => oidcKeyName(member));

/** The keys' valid values by key name, with the defaults applied. */
type KeyValues = Readonly<Record<string, unknown>>;

/** How the fields no single key fills are computed from the keys' values. */
const DERIVED_FIELDS = {
  fqdn: (v) => (typeof v.domain !== 'string' ? undefined : typeof v.subdomain === 'string' ? `${v.subdomain}.${v.domain}` : v.domain),
  oidc: (v) => (signInOf(v.authMode as string) === 'nobody' ? undefined
    : Object.fromEntries(Object.keys(OIDC_PROVIDER_KEYS).map((member) => [member, v[oidcKeyName(member)]])) as unknown as OidcProviderSettings),
} satisfies { readonly [F in DerivedField]: (values: KeyValues) => DeploymentContext[F] };

/**
 * The DeploymentContext of the keys' values, valid and with the defaults applied (`DeploymentContextReader.fromValues`
 * has checked them and the rules between them): each key's value in the field it fills, and the fields derived.
 */
export function deploymentContextOf(v: KeyValues): DeploymentContext {
  const fields = Object.fromEntries(Object.keys(FIELD_KEYS).map((field) => [field, v[field]]));
  const derived = Object.fromEntries(Object.entries(DERIVED_FIELDS).map(([field, derive]) => [field, derive(v)]));
  return { ...fields, ...derived } as unknown as DeploymentContext;
}

/** The keys the platform decides for every application on it (`onPlatform`), its own props and those derived. */
export const PLATFORM_DECIDED_KEYS: readonly string[] = CONTEXT_KEYS.filter((k) => k.onPlatform?.decides === 'platform').map((k) => k.name);

/** The names of the keys a platform takes as props: those it decides, and those its applications inherit. */
type PlatformKeyName = {
  [K in keyof typeof FIELD_KEYS]: (typeof FIELD_KEYS)[K] extends { readonly onPlatform: { readonly prop: false } } ? never
    : (typeof FIELD_KEYS)[K] extends { readonly onPlatform: OnPlatform } ? K : never
}[keyof typeof FIELD_KEYS];

/** The keys a platform takes (`PlatformProps`, a platform configuration's `platform`), in the key table's order. */
export const PLATFORM_KEYS = CONTEXT_KEYS.filter((k) => k.onPlatform && !(k.onPlatform.decides === 'platform' && k.onPlatform.prop === false))
  .map((k) => k.name) as readonly PlatformKeyName[];

/**
 * A compile error naming a key a platform takes that `PlatformProps` lacks, or a prop of the platform that is no
 * platform key: the platform's props are its keys.
 */
export type EveryPlatformKeyIsAProp<
  T extends never = Exclude<PlatformKeyName, keyof PlatformProps>,
  U extends never = Exclude<keyof PlatformProps, PlatformKeyName>,
> = [T, U];

/** The context keys of a platform configuration: a platform, and the applications on it (docs/platform.md). */
export const PLATFORM_CONFIGURATION_KEYS = ['platform', 'applications'] as const;

/**
 * Keys the deployment app reads itself, not the factory: `containerImage`, the plugin made from an image's values, and
 * `scoreWorkload`, the plugin made from a Score workload file.
 */
export const DEPLOYMENT_APP_KEYS = ['containerImage', 'scoreWorkload'] as const;

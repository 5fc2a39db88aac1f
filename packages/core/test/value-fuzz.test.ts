import { CONTAINER_IMAGE_FIELDS, containerImageProps } from '../src/container-image/container-image-config';
import { ContainerImageSpec } from '../src/container-image/container-image-spec';
import { CONTEXT_KEYS } from '../src/context/context-keys';
import { DeploymentContextReader } from '../src/context/deployment-context-reader';
import { assertValidSpec } from '../src/contract/spec-validation';

/**
 * The injection review's payloads (review 6, "Parser battery") planted in every user string the key table and the
 * containerImage field table list, each appended to the key's own valid example (so that only the payload can be what
 * is refused). A CloudFormation reference and a CDK token are refused everywhere (`value-boundary.test.ts` names the
 * paths). Every other payload a key takes is listed in `FUZZ` with the sink it reaches and why it stays data there; a
 * key added to either table without its row fails the coverage test, and a key that starts or stops taking a payload
 * fails its row, so every acceptance is one somebody read.
 */
const PAYLOADS = {
  command: '$(touch /tmp/fw-fuzz)',
  backtick: '`id`',
  semicolon: ';reboot',
  lf: 'a\nb',
  cr: 'a\rb',
  dquote: 'a"b',
  squote: 'a\'b',
  percent: '%h',
  backslash: 'a\\b',
  star: '*',
  question: '?',
  hash: '#x',
  braces: '{}',
  dollarBrace: '${X}',
  lead: ' a',
  tab: 'a\tb',
  nul: 'a\u0000b',
  dash: '-x',
  dotdot: '../x',
  pipe: 'a|b',
  amp: 'a&b',
  reference: '{{resolve:ssm:/x}}',
  token: '${Token[AWS.AccountId.7]}',
} as const;
type Payload = keyof typeof PAYLOADS;
const ALL_TEXT: Payload[] = (Object.keys(PAYLOADS) as Payload[]).filter((p) => p !== 'reference' && p !== 'token');
const URL_TEXT: Payload[] = ['backtick', 'semicolon', 'dquote', 'squote', 'percent', 'backslash', 'star', 'question', 'hash', 'braces',
  'dollarBrace', 'dash', 'dotdot', 'pipe', 'amp'];

/** Each user string: the payloads it takes, and where they go and why they stay data there. `[]`: every one refused. */
const FUZZ: Record<string, { readonly takes: readonly Payload[]; readonly sink?: string }> = {
  'stackName': { takes: ['dash'], sink: 'a name of letters, digits and -' },
  'applicationId': { takes: ['dash'], sink: 'a name of letters, digits and -' },
  'runtimeType': { takes: [] },
  'securityProfile': { takes: [] },
  'sslEnabled': { takes: [] },
  'domain': { takes: ['dash'], sink: 'a DNS label' },
  'subdomain': { takes: ['dash'], sink: 'a DNS label' },
  'authMode': { takes: [] },
  'tokenPaths': {
    takes: ['dquote', 'squote', 'star', 'question', 'dash', 'dotdot', 'amp'],
    sink: 'the listener rule\'s path-pattern (the load balancer\'s own characters, after a literal first segment: token-paths.test.ts)',
  },
  'hostedZoneId': { takes: [] },
  'certificateArn': { takes: [] },
  'region': { takes: [] },
  'ec2Storage': { takes: [] },
  'dataVolumeSnapshotId': { takes: [] },
  'ec2ImageId': { takes: [] },
  'deploymentStrategy': { takes: [] },
  'desiredCount': { takes: [] },
  'maintenanceWindow': { takes: [] },
  'vpcCidr': { takes: [] },
  'existingVpc': { takes: [] },
  'alarmEmail': { takes: ['dash'], sink: 'the alarm topic\'s email subscription, a CloudFormation property' },
  'containerInsights': { takes: [] },
  'pciConformancePack': { takes: [] },
  'securityHubPciDss': { takes: [] },
  'pciDssScope': { takes: [] },
  'pciDssMultiTenantProvider': { takes: [] },
  'dockerHubCredentialArn': { takes: ['dash', 'dotdot'], sink: 'a secret\'s name in an IAM resource and the cache rule (no wildcard)' },
  'acceptedAdvisories': { takes: ALL_TEXT, sink: 'the reason as text: a Markdown table cell escaped by cell() (values-as-rendered.test.ts), JSON in OSCAL' },
  'imageDigests': { takes: [] },
  'secrets': { takes: ALL_TEXT, sink: 'checked entry by entry where the factory reads it (parseSecretReference: secrets.test.ts); the JSON key and version fields are Shell.quote words on EC2' },
  'secretKeyArns': { takes: [] },
  'rateLimit': { takes: [] },
  'pluginSettings': { takes: ALL_TEXT, sink: 'checked by the plugin\'s declared patterns where it is configured (plugin-settings tests)' },
  'cpu': { takes: [] },
  'memoryLimitMiB': { takes: [] },
  'instanceType': { takes: [] },
  'dataVolumeGiB': { takes: [] },
  'databaseInstanceType': { takes: [] },
  'databaseStorageGiB': { takes: [] },
  'oidcIssuer': {
    takes: URL_TEXT.filter((p) => p !== 'percent' && p !== 'pipe'),
    sink: 'a URL as checked: the listener\'s OIDC action, the build server\'s environment (quoted; jenkins.yaml refuses ${)',
  },
  'oidcAuthorizationEndpoint': { takes: URL_TEXT, sink: 'a URL as checked: the listener\'s OIDC action' },
  'oidcTokenEndpoint': { takes: URL_TEXT, sink: 'a URL as checked: the listener\'s OIDC action' },
  'oidcUserInfoEndpoint': { takes: URL_TEXT, sink: 'a URL as checked: the listener\'s OIDC action' },
  'oidcClientId': { takes: URL_TEXT, sink: 'printable ASCII: the listener\'s OIDC action, the controller\'s environment (quoted)' },
  'oidcClientSecretArn': { takes: ['dash', 'dotdot'], sink: 'a secret\'s name in an IAM resource (no wildcard)' },
  'oidcScopes': { takes: [] },
  'containerImage.image': { takes: ['hash', 'dash', 'dotdot'], sink: 'an image reference: the task definition, a Shell.quote word for docker pull' },
  'containerImage.port': { takes: [] },
  'containerImage.user': { takes: [] },
  'containerImage.dataPath': { takes: ['dash', 'dotdot'], sink: 'a path of letters, digits and _ . / -: the unit\'s BindPaths= on EC2, the mount point on Fargate' },
  'containerImage.healthCheckPath': { takes: URL_TEXT, sink: 'the target group\'s health-check path, printable ASCII (a CloudFormation property)' },
  'containerImage.healthCheckPort': { takes: [] },
  'containerImage.entryPoint': {
    takes: ALL_TEXT.filter((p) => p !== 'nul'),
    sink: 'an argument, never a shell line: the container definition\'s EntryPoint, and on EC2 JSON read by fw_image_service, which quotes each argument as systemd reads it back (ec2-image.test.ts)',
  },
  'containerImage.command': {
    takes: ALL_TEXT.filter((p) => p !== 'nul'),
    sink: 'an argument, never a shell line: the container definition\'s Command, and on EC2 as entryPoint',
  },
  'containerImage.startupSeconds': { takes: [] },
  'containerImage.environment': { takes: ALL_TEXT.filter((p) => p !== 'nul'), sink: 'values as text: the task definition, fw_env_line on EC2 (systemd\'s reader: ec2-boot-failure.test.ts); names checked (variables-once.test.ts)' },
  'containerImage.database': { takes: [] },
  'containerImage.requestBodyLimits': {
    takes: ['backtick', 'semicolon', 'dquote', 'squote', 'backslash', 'star', 'question', 'hash', 'braces', 'dollarBrace', 'dash', 'pipe', 'amp'],
    sink: 'a WAF byte match on the resolved path, after a literal first segment (waf-body-limits.test.ts)',
  },
  'containerImage.authModes': { takes: [] },
  'containerImage.defaultCredentials': {
    takes: ALL_TEXT.filter((p) => !['lf', 'cr', 'tab', 'nul'].includes(p)),
    sink: 'one line of the evidence report (a Markdown table cell, escaped) and its JSON',
  },
  'containerImage.egress': {
    takes: ['command', 'semicolon', 'star', 'hash', 'braces', 'dollarBrace', 'lead', 'dash', 'dotdot', 'amp'],
    sink: 'the description of a security-group rule, EC2\'s own characters (a CloudFormation property)',
  },
};

const EXAMPLES: Record<string, unknown> = Object.fromEntries(CONTEXT_KEYS.map((k) => [k.name, k.example]));
const IMAGE: Record<string, unknown> = {
  image: 'nginx:1.27',
  port: 80,
  user: '101:101',
  dataPath: '/data',
  healthCheckPath: '/health',
  healthCheckPort: 9000,
  entryPoint: ['/bin/app'],
  command: ['serve'],
  startupSeconds: 120,
  environment: { A: 'x' },
  requestBodyLimits: [{ pathPrefix: '/upload/', maxBytes: 1048576 }],
  authModes: ['none'],
  egress: [{ description: 'api', protocol: 'tcp', port: 443, cidr: '203.0.113.10/32' }],
  defaultCredentials: [{ account: 'admin', change: 'the web interface' }],
  database: { engine: 'postgres', majorVersion: '17', databaseName: 'app', environment: { host: 'DB_HOST' } },
};

/** The payload appended to the first text of a valid value (a number or a flag is replaced by it). */
function plant(value: unknown, payload: string): unknown {
  if (typeof value === 'string') return value + payload;
  if (Array.isArray(value)) return value.length > 0 ? [plant(value[0], payload), ...value.slice(1)] : [payload];
  if (typeof value === 'object' && value !== null) {
    const [name, first] = Object.entries(value)[0];
    return { ...value, [name]: plant(first, payload) };
  }
  return payload;
}

function read(key: string, payload: string): void {
  if (!key.startsWith('containerImage.')) {
    DeploymentContextReader.fromValues({ ...EXAMPLES, [key]: plant(EXAMPLES[key], payload) });
    return;
  }
  const field = key.slice('containerImage.'.length);
  const image = { ...IMAGE, [field]: plant(IMAGE[field], payload) };
  DeploymentContextReader.fromValues({ ...EXAMPLES, containerImage: image });
  assertValidSpec(new ContainerImageSpec(containerImageProps('app', image)), 'containerImage');
}

const taken = (key: string) => (Object.keys(PAYLOADS) as Payload[]).filter((p) => {
  try {
    read(key, PAYLOADS[p]);
    return true;
  } catch {
    return false;
  }
});

test('the table covers every key of the key table and every containerImage field, and nothing else', () => {
  const keys = [...CONTEXT_KEYS.map((k) => k.name), ...Object.keys(CONTAINER_IMAGE_FIELDS).map((f) => `containerImage.${f}`)];
  expect(keys.filter((k) => !(k in FUZZ))).toEqual([]);
  expect(Object.keys(FUZZ).filter((k) => !keys.includes(k))).toEqual([]);
  // Each row that takes a payload says where it goes.
  expect(Object.entries(FUZZ).filter(([, row]) => row.takes.length > 0 && !row.sink).map(([k]) => k)).toEqual([]);
});

test('the examples themselves are read (every payload below is what is refused)', () => {
  expect(() => read('stackName', '')).not.toThrow();
  expect(() => read('containerImage.image', '')).not.toThrow();
});

test.each(Object.entries(FUZZ))('%s takes exactly its listed payloads; a reference and a token never', (key, { takes }) => {
  expect(taken(key)).toEqual(takes);
});

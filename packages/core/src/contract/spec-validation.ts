import { fargateSizeProblem } from './factory-limits';
import { shownValue, UserError } from '../errors';
import type { IApplicationSpec } from './application-spec';
import { APPLICATION_SPEC_MEMBERS } from './application-spec-members';
import { AuthMode } from './auth-mode';
import { blockedRequestProblems } from './blocked-request';
import { complianceControlProblems } from './compliance-control';
import { containerCommandProblems } from './container-command';
import { ContainerFiles } from './container-initialization';
import { databaseRequirementProblems, type DatabaseRequirement } from './database-requirement';
import { defaultCredentialProblems } from './default-credential';
import { egressRuleProblems, type EgressRule } from './egress-rule';
import type { EphemeralWorkers } from './ephemeral-workers';
import { knownVulnerabilityProblems, unlistedVulnerableComponents } from './known-vulnerability';
import { logAlarmProblems } from './log-alarm';
import { outboundConnectionProblems } from './outbound-connection';
import { callNewerMember, callPlugin, type NewerMember } from './plugin-calls';
import { requestBodyLimitProblems } from './request-body-limit';
import { ENVIRONMENT_NAME } from './reserved-variables';
import { softwareComponentProblems } from './software-component';
import { referenceProblems } from './value-boundary';

/** One member's check: undefined when the value is allowed, otherwise what is allowed. */
type Check = (value: unknown) => string | undefined;

/**
 * A normalised absolute Linux path within PATH_MAX (4096 bytes with the terminating NUL) and NAME_MAX (255 bytes a
 * component): no empty, `.` or `..` component, no trailing `/`, no NUL or line break.
 * @see https://man7.org/linux/man-pages/man3/realpath.3.html (PATH_MAX), https://man7.org/linux/man-pages/man3/readdir.3.html (NAME_MAX)
 */
function isLinuxPath(v: unknown): v is string {
  if (typeof v !== 'string' || !v.startsWith('/') || /[\0\n\r]/.test(v) || Buffer.byteLength(v) > 4095) return false;
  if (v === '/') return true;
  return v.slice(1).split('/').every((c) => c !== '' && c !== '.' && c !== '..' && Buffer.byteLength(c) <= 255);
}

const PATH_RULE = 'an absolute path without empty, . or .. components or a trailing /, at most 4095 bytes and 255 a ' +
  'component (Linux PATH_MAX, NAME_MAX)';

/**
 * Directories the operating system owns: mounting the data volume on one of them (or inside the virtual and system
 * trees) would hide or replace the system's own files, and `/` is the root file system itself.
 */
const SYSTEM_DIRECTORIES = ['/', '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib64', '/media', '/mnt', '/opt',
  '/proc', '/root', '/run', '/sbin', '/srv', '/sys', '/tmp', '/usr', '/var', '/var/cache', '/var/lib', '/var/log',
  '/var/run', '/var/spool', '/var/tmp'];
const SYSTEM_TREES = ['/bin', '/boot', '/dev', '/etc', '/lib', '/lib64', '/proc', '/run', '/sbin', '/sys', '/tmp', '/usr'];
const within = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);

/**
 * Linux's largest valid user or group id: ids are 32 bits and (uid_t) -1 = 4294967295 means "no id" (chown(2) takes
 * it as "leave unchanged"). EFS accepts 0 to 4294967295.
 * @see https://man7.org/linux/man-pages/man2/chown.2.html
 * @see https://docs.aws.amazon.com/efs/latest/ug/API_PosixUser.html
 */
const MAX_POSIX_ID = 4294967294;

/**
 * ECS image reference: up to 255 letters, digits, `-`, `_`, `:`, `.`, `/` and `#`; with a digest, the 255 apply to
 * the part before `@` and the digest is `sha256:` and 64 hex characters.
 * @see https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_ContainerDefinition.html
 */
const IMAGE_NAME_PATTERN = '[A-Za-z0-9_:./#-]{1,255}';
const IMAGE_DIGEST_PATTERN = '@sha256:[A-Fa-f0-9]{64}';
const IMAGE = new RegExp(`^${IMAGE_NAME_PATTERN}(${IMAGE_DIGEST_PATTERN})?$`);
/** An image reference without a digest (the part before `@`). */
export const IMAGE_NAME = new RegExp(`^${IMAGE_NAME_PATTERN}$`);
/** The digest that ends an image reference pinned by digest. */
export const IMAGE_DIGEST_SUFFIX = new RegExp(`${IMAGE_DIGEST_PATTERN}$`);
/** A digest of all zeros: a placeholder where a digest is required, which identifies no image. */
export const PLACEHOLDER_DIGEST = `sha256:${'0'.repeat(64)}`;
/** Whether an image reference (or a component's version) is pinned by `PLACEHOLDER_DIGEST`. */
export const pinnedByPlaceholder = (reference: string) => reference.endsWith(`@${PLACEHOLDER_DIGEST}`);

/**
 * EC2 device names on HVM instances (Amazon Linux 2023): /dev/sd[a-z], /dev/xvd[a-d][a-z] and /dev/xvd[e-z] are
 * available; /dev/xvda (this AMI's root, which the launch template maps) and /dev/sda1 are reserved for the root volume.
 * @see https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/device_naming.html
 */
const EBS_DEVICE = /^\/dev\/(sd[b-z]|xvd[e-z]|xvd[a-d][a-z])$/;

/**
 * EFS access point root directory: `/`, or 1 to 4 components of at most 100 characters in all, no component starting
 * with `.`, none of `$ # < > ; \` | & ? { } ^ *` or a line break.
 * @see https://docs.aws.amazon.com/efs/latest/ug/API_RootDirectory.html
 */
const EFS_PATH = /^(\/|(\/[^.$#<>;`|&?{}^*/\n][^$#<>;`|&?{}^*/\n]*){1,4})$/;

/**
 * ELB target group health-check path: 1 to 1024 characters; the load balancer sends it as the request target, so
 * printable ASCII without spaces.
 * @see https://docs.aws.amazon.com/elasticloadbalancing/latest/APIReference/API_CreateTargetGroup.html
 */
const HEALTH_CHECK_PATH = /^\/[\x21-\x7e]{0,1023}$/;

/** The members that say where the application's data is: not read when `keepsData()` is false. */
const DATA_MEMBERS: ReadonlyArray<keyof IApplicationSpec> = ['containerDataPath', 'efsDataPath', 'volumeName', 'efsPermissions', 'ebsDeviceName'];

const CHECKS: ReadonlyArray<[keyof IApplicationSpec, Check]> = [
  ['applicationId', (v) => typeof v === 'string' && /^[a-z][a-z0-9-]{0,62}$/.test(v)
    ? undefined : 'lower-case letters, digits and -, starting with a letter (at most 63 characters)'],
  ['defaultContainerImage', (v) => typeof v === 'string' && IMAGE.test(v)
    ? undefined : 'an image reference of at most 255 letters, digits and - _ : . / # (ECS\'s limit), optionally ' +
      'followed by @sha256: and 64 hex digits'],
  ['applicationPort', (v) => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 65535
    ? undefined : 'an integer port from 1 to 65535'],
  ['containerDataPath', (v) => isLinuxPath(v) && v !== '/' && !within(v, ContainerFiles.DIRECTORY)
    ? undefined : `${PATH_RULE}; not / (Docker mounts no volume there) and not at or below ${ContainerFiles.DIRECTORY} ` +
      '(the framework mounts its files there)'],
  ['efsDataPath', (v) => typeof v === 'string' && v.length <= 100 && EFS_PATH.test(v)
    ? undefined : 'an absolute path EFS takes for an access point: / or 1 to 4 components, at most 100 characters, ' +
      'no component starting with ., none of $ # < > ; ` | & ? { } ^ *'],
  ['volumeName', (v) => typeof v === 'string' && /^[A-Za-z0-9_-]{1,255}$/.test(v) && v !== 'fw-config'
    ? undefined : 'letters, digits, _ and - (1 to 255 characters), not fw-config (the framework\'s own volume)'],
  ['containerUser', (v) => {
    const ids = typeof v === 'string' ? /^(\d{1,10}):(\d{1,10})$/.exec(v) : null;
    return ids && Number(ids[1]) <= MAX_POSIX_ID && Number(ids[2]) <= MAX_POSIX_ID
      ? undefined : `<UID>:<GID> with numeric ids from 0 to ${MAX_POSIX_ID}, for example 1000:1000`;
  }],
  ['efsPermissions', (v) => typeof v === 'string' && /^[0-7]{3,4}$/.test(v)
    ? undefined : 'octal permissions of 3 or 4 digits 0-7, for example 750'],
  ['ebsDeviceName', (v) => typeof v === 'string' && EBS_DEVICE.test(v)
    ? undefined : 'an EC2 device name other than the root volume\'s: /dev/sd[b-z], /dev/xvd[e-z] or ' +
      '/dev/xvd[a-d][a-z], for example /dev/xvdf'],
  ['ec2DataPath', (v) => isLinuxPath(v) && /^[\w./-]+$/.test(v) && !SYSTEM_DIRECTORIES.includes(v) &&
    !SYSTEM_TREES.some((dir) => within(v, dir))
    ? undefined : `${PATH_RULE}, of letters, digits and _ . / -; not / or a system directory (${SYSTEM_DIRECTORIES
      .slice(1, 6).join(', ')}, …) and not inside /etc, /usr, /proc, /tmp and the like; for example /var/lib/<app>`],
  ['ec2LogPaths', (v) => Array.isArray(v) && v.every((p) => typeof p === 'string' && p.startsWith('/') &&
    !/[\0\n\r]/.test(p) && Buffer.byteLength(p) <= 4095)
    ? undefined : 'a list of absolute paths (each starting with /, at most 4095 bytes, no line break)'],
  ['supportedAuthModes', (v) => Array.isArray(v) && v.length > 0 && v.every((m) => AuthMode.ALL.includes(m))
    ? undefined : `a non-empty list of ${AuthMode.ALL.map((m) => JSON.stringify(m)).join(', ')}`],
  ['healthCheckPath', (v) => typeof v === 'string' && HEALTH_CHECK_PATH.test(v)
    ? undefined : 'a path starting with / (a query string is allowed) of at most 1024 printable ASCII characters ' +
      'without spaces (the load balancer\'s limit)'],
];

/**
 * CloudWatch alarm description: at most 1024 characters.
 * @see https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_PutMetricAlarm.html
 */
const ALARM_DESCRIPTION_MAX = 1024;

/**
 * Every problem with a plugin's declared values, each naming the plugin, the member, the value and what is allowed.
 */
export function specProblems(spec: IApplicationSpec, pluginName: string): string[] {
  const missing = APPLICATION_SPEC_MEMBERS.filter((member) => typeof (spec as any)[member] !== 'function');
  if (missing.length > 0) {
    return [`${pluginName} lacks ${missing.map((m) => `${m}()`).join(', ')}: a plugin that implements IApplicationSpec ` +
      'directly writes every member (ephemeralWorkers() returns nothing when it starts no workers); extending ' +
      'ApplicationSpec supplies the defaults.'];
  }
  const problems: string[] = [];
  // Read once: it decides which members are checked, and newerMemberProblems checks its value.
  const keeps = newerMember(spec, pluginName, 'keepsData', problems);
  for (const [member, check] of CHECKS) {
    if (keeps === false && DATA_MEMBERS.includes(member)) continue;
    let value: unknown;
    try {
      value = callPlugin(pluginName, member, () => (spec[member] as () => unknown).call(spec));
    } catch (e) {
      problems.push((e as Error).message);
      continue;
    }
    const allowed = check(value);
    if (allowed) {
      problems.push(`${pluginName}.${member}() returned ${shownValue(value)}; allowed: ${allowed}.`);
    }
  }
  const alarms = resultOf(spec, 'logAlarms', pluginName, problems);
  if (alarms !== undefined && !Array.isArray(alarms)) {
    problems.push(`${pluginName}.logAlarms() returned ${JSON.stringify(alarms)}; allowed: a list of LogAlarm.`);
  } else if (Array.isArray(alarms)) {
    const names = new Set<string>();
    alarms.forEach((alarm, i) => {
      for (const problem of logAlarmProblems(alarm)) problems.push(`${pluginName}.logAlarms()[${i}].${problem}.`);
      if (typeof alarm.description !== 'string' || alarm.description.length > ALARM_DESCRIPTION_MAX) {
        problems.push(`${pluginName}.logAlarms()[${i}].description ${shownValue(alarm.description)}; allowed: text of at ` +
          `most ${ALARM_DESCRIPTION_MAX} characters (CloudWatch's limit for an alarm description).`);
      }
      if (names.has(alarm.name)) problems.push(`${pluginName}.logAlarms()[${i}].name ${JSON.stringify(alarm.name)} is used twice; names must be unique.`);
      names.add(alarm.name);
    });
  }
  const workers = resultOf(spec, 'ephemeralWorkers', pluginName, problems) as EphemeralWorkers | undefined;
  if (workers !== undefined) problems.push(...workerProblems(workers, pluginName));
  const egress = resultOf(spec, 'egressRules', pluginName, problems);
  if (egress !== undefined) problems.push(...egressProblems(egress, `${pluginName}.egressRules()`));
  const bodies = resultOf(spec, 'requestBodyLimits', pluginName, problems);
  if (bodies !== undefined) problems.push(...requestBodyLimitProblems(bodies, `${pluginName}.requestBodyLimits()`));
  const blocked = resultOf(spec, 'blockedRequests', pluginName, problems);
  if (blocked !== undefined) problems.push(...blockedRequestProblems(blocked, `${pluginName}.blockedRequests()`));
  // What a plugin returns reaches the template as it is: no CloudFormation dynamic reference in it (a token it may give).
  problems.push(...[['egressRules', egress], ['requestBodyLimits', bodies], ['blockedRequests', blocked]]
    .flatMap(([member, value]) => referenceProblems(`${pluginName}.${member}()`, value, 'code', true)));
  const vulnerabilities = resultOf(spec, 'knownVulnerabilities', pluginName, problems);
  if (vulnerabilities !== undefined) problems.push(...knownVulnerabilityProblems(vulnerabilities, `${pluginName}.knownVulnerabilities()`));
  const components = resultOf(spec, 'softwareComponents', pluginName, problems);
  if (components !== undefined) problems.push(...softwareComponentProblems(components, `${pluginName}.softwareComponents()`));
  problems.push(...unlistedVulnerableComponents(vulnerabilities, components, pluginName));
  const database = resultOf(spec, 'database', pluginName, problems) as DatabaseRequirement | undefined;
  if (database !== undefined && database !== null) problems.push(...databaseRequirementProblems(database, `${pluginName}.database()`).map((p) => `${p}.`));
  const controls = resultOf(spec, 'complianceControls', pluginName, problems);
  if (controls !== undefined) problems.push(...complianceControlProblems(controls, `${pluginName}.complianceControls()`));
  problems.push(...newerMemberProblems(spec, pluginName, keeps));
  if (spec.supportsOidcIntegration() && !spec.oidcIntegration()) {
    problems.push(`${pluginName}.oidcIntegration() returned nothing although supportsOidcIntegration() is true.`);
  }
  const integration = spec.supportsOidcIntegration() ? spec.oidcIntegration() : undefined;
  const secretVariable = integration?.clientSecretVariable();
  if (integration && (typeof secretVariable !== 'string' || !ENVIRONMENT_NAME.test(secretVariable))) {
    problems.push(`${pluginName}.oidcIntegration().clientSecretVariable() returned ${shownValue(secretVariable)}; allowed: ` +
      'an environment variable name (a letter or _, then letters, digits and _), as systemd\'s EnvironmentFile= reads it.');
  }
  if (!spec.supportsOidcIntegration() && spec.oidcIntegration()) {
    problems.push(`${pluginName}.oidcIntegration() must return nothing when supportsOidcIntegration() is false.`);
  }
  return problems;
}

/** A member of contract 1.1 (a plugin built against 1.0 may lack it), or undefined when it throws (one of `problems`). */
function newerMember<K extends NewerMember>(spec: IApplicationSpec, pluginName: string, member: K, problems: string[]) {
  try {
    return callNewerMember(spec, pluginName, member);
  } catch (e) {
    problems.push((e as Error).message);
    return undefined;
  }
}

/**
 * The members of contract 1.1: a health-check port, a container command, whether it keeps data (`keeps`, read), the
 * connections it opens and the default accounts its image starts with.
 */
function newerMemberProblems(spec: IApplicationSpec, pluginName: string, keeps: unknown): string[] {
  const problems: string[] = [];
  const read = <K extends NewerMember>(member: K) => newerMember(spec, pluginName, member, problems);
  if (keeps !== undefined && typeof keeps !== 'boolean') {
    problems.push(`${pluginName}.keepsData() returned ${shownValue(keeps)}; allowed: true or false.`);
  }
  const port = read('healthCheckPort');
  if (port !== undefined && port !== null && !(Number.isInteger(port) && port >= 1 && port <= 65535)) {
    problems.push(`${pluginName}.healthCheckPort() returned ${shownValue(port)}; allowed: a port from 1 to 65535, or nothing for the application port.`);
  }
  const command = read('containerCommand') ?? undefined;
  problems.push(...containerCommandProblems(`${pluginName}.containerCommand()`, command).map((p) => `${p}.`));
  // Arguments reach the template as they are: no CloudFormation dynamic reference in them (a token the plugin gives may).
  problems.push(...referenceProblems(`${pluginName}.containerCommand()`, command, 'code', true));
  // Their text reaches the diagrams and the report only, as data: no reference or token in it.
  const connections = read('outboundConnections');
  if (connections !== undefined) {
    problems.push(...outboundConnectionProblems(connections, `${pluginName}.outboundConnections()`),
      ...referenceProblems(`${pluginName}.outboundConnections()`, connections, 'code'));
  }
  const credentials = read('defaultCredentials');
  if (credentials !== undefined) {
    problems.push(...defaultCredentialProblems(credentials, `${pluginName}.defaultCredentials()`),
      ...referenceProblems(`${pluginName}.defaultCredentials()`, credentials, 'code'));
  }
  return problems;
}

/** What a member without arguments returns, or undefined when it throws (which becomes one of `problems`). */
function resultOf(spec: IApplicationSpec,
  member: 'logAlarms' | 'ephemeralWorkers' | 'egressRules' | 'requestBodyLimits' | 'blockedRequests' | 'knownVulnerabilities' | 'softwareComponents'
  | 'complianceControls' | 'database',
  pluginName: string,
  problems: string[]): unknown {
  try {
    return callPlugin(pluginName, member, () => spec[member]());
  } catch (e) {
    problems.push((e as Error).message);
    return undefined;
  }
}

/** The problems of `ephemeralWorkers()`: a pinned image, a Fargate size, ports, plain environment names. */
function workerProblems(workers: EphemeralWorkers, pluginName: string): string[] {
  const at = `${pluginName}.ephemeralWorkers()`;
  const problems: string[] = [];
  if (typeof workers.image !== 'string' || !IMAGE.test(workers.image)) {
    problems.push(`${at}.image ${shownValue(workers.image)}; allowed: an image reference as for defaultContainerImage().`);
  }
  const size = fargateSizeProblem(workers.cpu, workers.memoryLimitMiB, { cpu: `${at}.cpu`, memory: `${at}.memoryLimitMiB` });
  if (size) problems.push(size);
  const ports = workers.applicationPorts;
  if (!Array.isArray(ports) || ports.length === 0 || !ports.every((p) => Number.isInteger(p) && p >= 1 && p <= 65535)) {
    problems.push(`${at}.applicationPorts ${shownValue(ports)}; allowed: a non-empty list of integer ports from 1 to 65535.`);
  }
  if (workers.egress !== undefined) problems.push(...egressProblems(workers.egress, `${at}.egress`));
  const badNames = Object.keys(workers.environment ?? {}).filter((name) => !ENVIRONMENT_NAME.test(name));
  if (badNames.length > 0) {
    problems.push(`${at}.environment names ${JSON.stringify(badNames)}; allowed: a letter or _, then letters, digits and _.`);
  }
  return problems;
}

/** The problems of a list of egress rules, each prefixed with `at[i]`. */
function egressProblems(rules: unknown, at: string): string[] {
  if (!Array.isArray(rules)) return [`${at} returned ${shownValue(rules)}; allowed: a list of EgressRule.`];
  return rules.flatMap((rule: EgressRule, i) => egressRuleProblems(rule).map((problem) => `${at}[${i}].${problem}.`));
}

/** Fails with one error listing every problem in the plugin's declared values. */
export function assertValidSpec(spec: IApplicationSpec, pluginName: string): void {
  const problems = specProblems(spec, pluginName);
  if (problems.length > 0) {
    throw new UserError(`Plugin ${pluginName} declares invalid values:\n  - ${problems.join('\n  - ')}`);
  }
}

/**
 * EC2 user data is limited to 16 KB (16384 bytes) in raw form, before base64; a launch template with more is refused
 * at deploy.
 * @see https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/instancedata-add-user-data.html
 */
export const USER_DATA_MAX_BYTES = 16384;

/**
 * The problem with a rendered EC2 user-data script that EC2 would refuse, or undefined. Deploy-time values (CDK
 * tokens) are counted as their placeholders, which are about as long as the ids they stand for.
 */
export function userDataProblem(script: string, pluginName: string): string | undefined {
  const bytes = Buffer.byteLength(script, 'utf-8');
  return bytes > USER_DATA_MAX_BYTES
    ? `${pluginName}.configureUserData() makes a user-data script of ${bytes} bytes (with the framework's preamble); ` +
      `EC2 accepts at most ${USER_DATA_MAX_BYTES} bytes (16 KB before base64). Move files into the image or a download.`
    : undefined;
}

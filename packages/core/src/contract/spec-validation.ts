import { UserError } from '../errors';
import type { IApplicationSpec } from './application-spec';
import { AuthMode } from './auth-mode';
import { logAlarmProblems } from './log-alarm';

/** One member's check: undefined when the value is allowed, otherwise what is allowed. */
type Check = (value: unknown) => string | undefined;

const absolutePath: Check = (v) =>
  typeof v === 'string' && v.startsWith('/') ? undefined : 'an absolute path (starting with /)';

const CHECKS: ReadonlyArray<[keyof IApplicationSpec, Check]> = [
  ['applicationId', (v) => typeof v === 'string' && /^[a-z][a-z0-9-]{0,62}$/.test(v)
    ? undefined : 'lower-case letters, digits and -, starting with a letter (at most 63 characters)'],
  ['defaultContainerImage', (v) => typeof v === 'string' && v.trim() !== '' && !/\s/.test(v)
    ? undefined : 'a container image reference without spaces'],
  ['applicationPort', (v) => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 65535
    ? undefined : 'an integer port from 1 to 65535'],
  ['containerDataPath', absolutePath],
  ['efsDataPath', absolutePath],
  ['volumeName', (v) => typeof v === 'string' && /^[A-Za-z0-9_-]{1,255}$/.test(v)
    ? undefined : 'letters, digits, _ and - (1 to 255 characters)'],
  ['containerUser', (v) => typeof v === 'string' && /^\d{1,10}:\d{1,10}$/.test(v)
    ? undefined : '<UID>:<GID> with numeric ids, for example 1000:1000'],
  ['efsPermissions', (v) => typeof v === 'string' && /^[0-7]{3,4}$/.test(v)
    ? undefined : 'octal permissions of 3 or 4 digits 0-7, for example 750'],
  ['ebsDeviceName', (v) => typeof v === 'string' && /^\/dev\/[a-z0-9]+$/.test(v)
    ? undefined : 'a block device name such as /dev/xvdf'],
  ['ec2DataPath', absolutePath],
  ['ec2LogPaths', (v) => Array.isArray(v) && v.every((p) => typeof p === 'string' && p.startsWith('/'))
    ? undefined : 'a list of absolute paths (each starting with /)'],
  ['supportedAuthModes', (v) => Array.isArray(v) && v.length > 0 && v.every((m) => AuthMode.ALL.includes(m))
    ? undefined : `a non-empty list of ${AuthMode.ALL.map((m) => JSON.stringify(m)).join(', ')}`],
  ['healthCheckPath', (v) => typeof v === 'string' && v.startsWith('/') && !/\s/.test(v)
    ? undefined : 'a path starting with / (a query string is allowed), without spaces'],
];

/**
 * Every problem with a plugin's declared values, each naming the plugin, the member, the value and what is allowed.
 */
export function specProblems(spec: IApplicationSpec, pluginName: string): string[] {
  const problems: string[] = [];
  for (const [member, check] of CHECKS) {
    let value: unknown;
    try {
      value = (spec[member] as () => unknown).call(spec);
    } catch (e) {
      problems.push(`${pluginName}.${member}() threw: ${(e as Error).message}`);
      continue;
    }
    const allowed = check(value);
    if (allowed) {
      problems.push(`${pluginName}.${member}() returned ${JSON.stringify(value)}; allowed: ${allowed}.`);
    }
  }
  let alarms: unknown;
  try {
    alarms = spec.logAlarms();
  } catch (e) {
    problems.push(`${pluginName}.logAlarms() threw: ${(e as Error).message}`);
  }
  if (alarms !== undefined && !Array.isArray(alarms)) {
    problems.push(`${pluginName}.logAlarms() returned ${JSON.stringify(alarms)}; allowed: a list of LogAlarm.`);
  } else if (Array.isArray(alarms)) {
    const names = new Set<string>();
    alarms.forEach((alarm, i) => {
      for (const problem of logAlarmProblems(alarm)) problems.push(`${pluginName}.logAlarms()[${i}].${problem}.`);
      if (names.has(alarm.name)) problems.push(`${pluginName}.logAlarms()[${i}].name ${JSON.stringify(alarm.name)} is used twice; names must be unique.`);
      names.add(alarm.name);
    });
  }
  if (spec.supportsOidcIntegration() && !spec.oidcIntegration()) {
    problems.push(`${pluginName}.oidcIntegration() returned nothing although supportsOidcIntegration() is true.`);
  }
  if (!spec.supportsOidcIntegration() && spec.oidcIntegration()) {
    problems.push(`${pluginName}.oidcIntegration() must return nothing when supportsOidcIntegration() is false (spec rule 7).`);
  }
  return problems;
}

/** Fails with one error listing every problem in the plugin's declared values. */
export function assertValidSpec(spec: IApplicationSpec, pluginName: string): void {
  const problems = specProblems(spec, pluginName);
  if (problems.length > 0) {
    throw new UserError(`Plugin ${pluginName} declares invalid values:\n  - ${problems.join('\n  - ')}`);
  }
}

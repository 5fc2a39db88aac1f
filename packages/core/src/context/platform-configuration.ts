import type { AllowFrom } from './allow-from';
import { CONTEXT_KEYS, PLATFORM_DECIDED_KEYS, PLATFORM_KEYS } from './context-keys';
import type { DeploymentContext } from './deployment-context';
import { DeploymentContextReader } from './deployment-context-reader';
import { didYouMean } from './did-you-mean';
import { referenceProblems } from '../contract/value-boundary';
import { shownValue, UserError } from '../errors';
import type { PlatformProps } from './platform-props';

/** Keys of the `platform` object besides the platform's props. */
const PLATFORM_STACK_KEYS = ['stackName', 'region'] as const;

/**
 * Keys of an application entry besides the deployment context keys: its place on the platform, and `containerImage` or
 * `scoreWorkload`, an off-the-shelf image or a Score workload file the deployment app makes the plugin from.
 */
const APPLICATION_ONLY_KEYS = ['listenerPriority', 'allowFrom', 'containerImage', 'scoreWorkload'];

/** A platform configuration, read and checked. */
export interface PlatformConfiguration {
  readonly platform: { readonly stackName: string; readonly region?: string; readonly props: PlatformProps };
  readonly applications: Array<{
    readonly context: DeploymentContext;
    readonly listenerPriority?: number;
    readonly allowFrom?: AllowFrom[];
    /** The entry's `containerImage`, as given: `containerImageProps` reads it. @default - none: an installed plugin */
    readonly containerImage?: unknown;
    /** The entry's `scoreWorkload`, as given: `scoreWorkloadSpec` reads it. @default - none */
    readonly scoreWorkload?: unknown;
  }>;
}

/**
 * Reads `platform` (its stack's name and region and the platform's keys) and `applications` (one entry an application,
 * with the deployment context keys that are not the platform's, and `listenerPriority`, `allowFrom`). Every problem
 * at once, each naming where it is (`platform.domain`, `applications[1].subdomain`), the value and what is allowed.
 * `defaultRegion` is used when the platform names none (`CDK_DEFAULT_REGION`).
 */
export function readPlatformConfiguration(values: Record<string, any>, defaultRegion?: string): PlatformConfiguration {
  assertData(values);
  const contextKeys = CONTEXT_KEYS.map((k) => k.name);
  const problems: string[] = topLevelProblems(values, contextKeys);
  const platform = values.platform;
  const platformKeys: readonly string[] = [...PLATFORM_STACK_KEYS, ...PLATFORM_KEYS];
  if (!isObject(platform)) {
    problems.push(`platform ${shownValue(platform)} is not allowed; expected an object with ${platformKeys.join(', ')}.`);
  } else {
    // An application's key on the platform: named as such, with where it goes.
    const applicationKeys = Object.keys(platform)
      .filter((k) => !platformKeys.includes(k) && (contextKeys.includes(k) || APPLICATION_ONLY_KEYS.includes(k)));
    if (applicationKeys.length > 0) {
      problems.push(`platform: ${applicationKeys.join(', ')} ${applicationKeys.length > 1 ? 'are keys' : 'is a key'} of each application, ` +
        `not of the platform; set ${applicationKeys.length > 1 ? 'them' : 'it'} on the entries of "applications" that need ${applicationKeys.length > 1 ? 'them' : 'it'}.`);
    }
    problems.push(...unknownKeys('platform', platform, platformKeys, applicationKeys));
    for (const name of PLATFORM_STACK_KEYS) {
      const raw = name === 'region' ? platform.region ?? defaultRegion : platform[name];
      if (raw === undefined) {
        if (name === 'stackName') problems.push('platform.stackName is required: the name of the platform\'s stack.');
        continue;
      }
      const parsed = CONTEXT_KEYS.find((k) => k.name === name)!.parse(raw);
      if ('allowed' in parsed) problems.push(`platform.${name} ${shownValue(raw)} is not allowed; expected ${parsed.allowed}.`);
    }
  }
  const applications = values.applications;
  if (!Array.isArray(applications) || applications.length === 0 || !applications.every(isObject)) {
    problems.push(`applications ${shownValue(applications)} is not allowed; expected a list of objects, one an application, ` +
      'each with the deployment context keys (stackName, applicationId, runtimeType, subdomain, ...).');
  }
  const read: PlatformConfiguration['applications'] = [];
  const on: Record<string, any> = isObject(platform) ? platform : {};
  if (Array.isArray(applications) && applications.every(isObject)) {
    applications.forEach((entry: Record<string, unknown>, i: number) => {
      const where = `applications[${i}]${typeof entry.stackName === 'string' ? ` (${entry.stackName})` : ''}`;
      const own = [...contextKeys.filter((k) => !PLATFORM_DECIDED_KEYS.includes(k)), ...APPLICATION_ONLY_KEYS];
      const refused = Object.keys(entry).filter((k) => PLATFORM_DECIDED_KEYS.includes(k));
      if (refused.length > 0) {
        problems.push(`${where}: ${refused.join(', ')} ${refused.length > 1 ? 'belong' : 'belongs'} to the platform; set ${refused.length > 1 ? 'them' : 'it'} in "platform".`);
      }
      const unknown = unknownKeys(where, entry, [...own, ...PLATFORM_DECIDED_KEYS]);
      problems.push(...unknown);
      if (refused.length + unknown.length > 0) return;
      const { listenerPriority, allowFrom, containerImage, scoreWorkload, ...keys } = entry;
      try {
        read.push({
          // The platform's TLS decides sslEnabled; the reader needs it to check the keys that go with it.
          context: DeploymentContextReader.fromValues({
            ...keys,
            securityProfile: on.securityProfile ?? 'DEV',
            sslEnabled: on.hostedZoneId !== undefined || on.certificateArn !== undefined,
            region: on.region ?? defaultRegion,
            domain: keys.domain ?? on.domain,
            // The platform's zone and certificate serve an application under the platform's domain.
            ...keys.domain === undefined
              ? { hostedZoneId: keys.hostedZoneId ?? on.hostedZoneId, certificateArn: keys.certificateArn ?? on.certificateArn } : {},
          }),
          listenerPriority: listenerPriority as number | undefined,
          allowFrom: allowFrom as AllowFrom[] | undefined,
          containerImage,
          scoreWorkload,
        });
      } catch (e) {
        if (!(e instanceof UserError)) throw e;
        problems.push(`${where}: ${e.message.replace(/^Invalid deployment context \(\d+ problems?\):\n/, '').replace(/\n {2}- /g, '; ').replace(/^ {2}- /, '')}`);
      }
    });
  }
  if (problems.length > 0) {
    throw new UserError(`Invalid platform configuration (${problems.length} problem${problems.length > 1 ? 's' : ''}):\n` +
      problems.map((p) => `  - ${p}`).join('\n'));
  }
  const { stackName, region, ...props } = platform;
  return { platform: { stackName, region: region ?? defaultRegion, props: props as PlatformProps }, applications: read };
}

/** A context key at the top level, where only `platform` and `applications` belong. */
function topLevelProblems(values: Record<string, any>, contextKeys: string[]): string[] {
  const topLevel = Object.keys(values).filter((k) => contextKeys.includes(k));
  return topLevel.length > 0 ? [`${topLevel.join(', ')} at the top level: in a platform configuration each setting belongs to the ` +
    '"platform" object or to an entry of "applications".'] : [];
}

/**
 * Data only, before anything reads it: the platform's keys, and what the deployment app reads of each application
 * itself (its containerImage, allowFrom, listenerPriority); an application's context keys are walked by their reader.
 */
function assertData(values: Record<string, any>): void {
  const unsafe = [
    ...referenceProblems('platform', values.platform, 'context'),
    ...(Array.isArray(values.applications) ? values.applications : []).flatMap((entry: unknown, i: number) =>
      (isObject(entry) ? Object.entries(entry)
        .filter(([name]) => APPLICATION_ONLY_KEYS.includes(name))
        .flatMap(([name, value]) => referenceProblems(`applications[${i}].${name}`, value, 'context')) : [])),
  ];
  if (unsafe.length > 0) {
    throw new UserError(`Invalid platform configuration (${unsafe.length} problem${unsafe.length > 1 ? 's' : ''}):\n` +
      unsafe.map((p) => `  - ${p}`).join('\n'));
  }
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keys neither `known` nor named already (`namedElsewhere`), each with the nearest known one. */
function unknownKeys(where: string, value: Record<string, unknown>, known: readonly string[], namedElsewhere: readonly string[] = []): string[] {
  return Object.keys(value).filter((k) => !known.includes(k) && !namedElsewhere.includes(k)).map((key) => {
    const suggestion = didYouMean(key, [...known]);
    return `${where}: unknown key '${key}'${suggestion ? `; did you mean '${suggestion}'?` : ''} Known keys: ${known.join(', ')}.`;
  });
}

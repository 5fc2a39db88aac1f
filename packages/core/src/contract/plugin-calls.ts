import { UserError } from '../errors';
import type { IApplicationSpec } from './application-spec';

/**
 * The name messages give a plugin: its class's name when it is written in TypeScript or JavaScript. A plugin written
 * in Java, Python, Go or .NET reaches the framework, through jsii, as an instance of `ApplicationSpec` (which it
 * extends) or as a plain object (when it implements the interface): its class name never crosses, so its
 * `applicationId()` names it instead.
 */
export function pluginName(spec: IApplicationSpec): string {
  const className = spec.constructor?.name;
  if (className && className !== 'ApplicationSpec' && className !== 'Object') return className;
  try {
    const id = spec.applicationId();
    if (typeof id === 'string' && id.trim()) return id;
  } catch {
    // named below
  }
  return 'the plugin (its applicationId() gives no name)';
}

/**
 * Calls a plugin member: whatever it throws, in any language, becomes one message naming the plugin and the member,
 * with the original message (a Java or Python exception's type does not cross jsii; its message does).
 */
export function callPlugin<T>(name: string, member: string, call: () => T): T {
  try {
    return call();
  } catch (e) {
    // The framework's own UserError, raised in a builder call the plugin made from another language, comes back
    // through jsii with its name in front.
    const message = (e instanceof Error ? e.message : String(e)).replace(/^UserError: /, '');
    throw new UserError(`${name}.${member}() threw: ${message}`);
  }
}

/** The members contract 1.1 added (`APPLICATION_SPEC_MEMBERS_SINCE`). */
export type NewerMember = 'healthCheckPort' | 'containerCommand' | 'keepsData' | 'outboundConnections' | 'defaultCredentials';

/**
 * Calls a member a later minor of the contract added (`APPLICATION_SPEC_MEMBERS_SINCE`): a plugin built before it, which
 * implements the interface itself instead of extending `ApplicationSpec`, lacks it, and the default (undefined) holds.
 */
export function callNewerMember<K extends NewerMember>(spec: IApplicationSpec, name: string, member: K):
ReturnType<IApplicationSpec[K]> | undefined {
  if (typeof spec[member] !== 'function') return undefined;
  return callPlugin(name, member, () => (spec[member] as () => ReturnType<IApplicationSpec[K]>).call(spec));
}

/** The port the load balancer's health check calls, when the plugin names one other than its application port. */
export function separateHealthCheckPort(spec: IApplicationSpec): number | undefined {
  const port = callNewerMember(spec, pluginName(spec), 'healthCheckPort') ?? undefined;
  return port === undefined || port === spec.applicationPort() ? undefined : port;
}

/** Whether the application keeps data of its own (a plugin built before `keepsData()` existed does). */
export function keepsData(spec: IApplicationSpec): boolean {
  return callNewerMember(spec, pluginName(spec), 'keepsData') !== false;
}

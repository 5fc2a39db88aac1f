/**
 * What the application's container runs instead of its image's `ENTRYPOINT` and `CMD`, as ECS's container definition
 * names them (`entryPoint`, `command`): argument lists, never a shell line. They merge with the image's as Docker's
 * engine merges a container's configuration with its image's (moby `daemon/commit.go`, `merge`): `entryPoint` given,
 * the image's `CMD` is not used (only `command`, when given); `command` alone keeps the image's `ENTRYPOINT`. On EC2 the
 * framework's `runImage` writes the same into the unit's `ExecStart=`.
 */
export interface ContainerCommand {
  /** Replaces the image's `ENTRYPOINT`, for example `["/opt/keycloak/bin/kc.sh"]`. @default - the image's */
  readonly entryPoint?: string[];
  /** Replaces the image's `CMD`, for example `["start", "--optimized"]`. @default - the image's, unless `entryPoint` is given */
  readonly command?: string[];
}

/** At most this many arguments in each list, and this many characters in each argument. */
export const CONTAINER_COMMAND_LIMITS = { arguments: 64, argumentLength: 4096 } as const;

/** Every problem with a container command, each naming the field, its value and what is allowed. */
export function containerCommandProblems(where: string, value: ContainerCommand | undefined): string[] {
  if (value === undefined) return [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [`${where} ${JSON.stringify(value)}; allowed: an object with entryPoint and/or command, each a list of arguments`];
  }
  const problems: string[] = [];
  for (const field of ['entryPoint', 'command'] as const) {
    const list: unknown = value[field];
    if (list === undefined) continue;
    const valid = Array.isArray(list) && list.length >= 1 && list.length <= CONTAINER_COMMAND_LIMITS.arguments
      && list.every((a) => typeof a === 'string' && a.length <= CONTAINER_COMMAND_LIMITS.argumentLength && !a.includes('\0'));
    if (!valid || (field === 'entryPoint' && (list as string[])[0] === '')) {
      problems.push(`${where}.${field} ${JSON.stringify(list)}; allowed: a list of 1 to ${CONTAINER_COMMAND_LIMITS.arguments} arguments, ` +
        `each text without NUL of at most ${CONTAINER_COMMAND_LIMITS.argumentLength} characters${field === 'entryPoint' ? ', the first not empty' : ''}`);
    }
  }
  const unknown = Object.keys(value).filter((k) => k !== 'entryPoint' && k !== 'command');
  if (unknown.length > 0) problems.push(`${where} has ${unknown.join(', ')}; allowed: entryPoint, command`);
  return problems;
}

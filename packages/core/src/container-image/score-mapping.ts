import { scorePieces } from './score-placeholders';
import { type DatabaseEnvironment, type DatabaseRequirement, POSTGRES_MAJOR_VERSIONS } from '../contract/database-requirement';
import { FACTORY_SIZE_DEFAULTS, fargateSizeAtLeast } from '../contract/factory-limits';
import { RuntimeType } from '../contract/runtime-type';

// A Score workload (score.dev/v1b1, already valid against Score's schema) as the values `containerImage` takes: what
// the framework can honour is mapped, everything else is named as refused (docs/deploying.md, "A Score workload file").

/** The resource types the framework provides, with what each becomes. */
export const SCORE_RESOURCE_TYPES: Readonly<Record<string, string>> = {
  postgres: 'a PostgreSQL database of its own',
  volume: 'its data path, on its file system or EBS volume',
  dns: 'its host name, from the domain and subdomain keys',
  route: 'its rule on the load balancer, for the whole host',
};

/** A postgres resource's outputs (score-compose's default provisioner's) and the database variable each fills. */
const POSTGRES_OUTPUTS: Readonly<Record<string, keyof DatabaseEnvironment>> = {
  host: 'host', port: 'port', name: 'name', database: 'name', username: 'user', password: 'password',
};

/** The framework's own annotation (Score has no field for it): the container's `uid:gid`, which owns its data. */
export const SCORE_USER_ANNOTATION = 'fw/container-user';

/** What a Score workload maps to; the problems refused, every one at once. */
export interface ScoreMapping {
  /** The values `containerImage` would take (checked by its field checks next). */
  readonly containerImage: Record<string, unknown>;
  /** Where each of those fields comes from in the workload, for messages. */
  readonly fields: Record<string, string>;
  /** Variables that hold the application's host name (a `dns` resource's `host`): text, and `{ host: true }` where it goes. */
  readonly hostVariables: Record<string, Array<{ readonly text: string } | { readonly host: true }>>;
  /** The Fargate size its resources ask for. */
  readonly size?: { readonly cpu: number; readonly memoryLimitMiB: number };
  /** What was mapped with a change the user should know (a size rounded up, limits unused on EC2). */
  readonly notes: string[];
  readonly problems: string[];
}

/** Names a field of the workload and why it is refused. */
type Refuse = (field: string, why: string) => void;

/** What a placeholder stands for: text (metadata), a database value, the host name, or why it cannot be filled. */
type Resolved = { readonly text: string } | { readonly db: keyof DatabaseEnvironment; readonly output: string } | { readonly host: true }
  | { readonly error: string };

/** Maps a workload valid against Score's schema (each problem names its field); sizes only on Fargate. */
export function scoreMapping(applicationId: string, workload: any, runtimeType: RuntimeType): ScoreMapping {
  const problems: string[] = [];
  const notes: string[] = [];
  const refuse = (field: string, why: string) => problems.push(`${field}: ${why}`);
  const metadata = workload.metadata as Record<string, unknown>;
  if (metadata.name !== applicationId) refuse('metadata.name', `${JSON.stringify(metadata.name)} is not the entry's applicationId ${JSON.stringify(applicationId)}; make them the same`);
  const resources = (workload.resources ?? {}) as Record<string, any>;
  checkResources(resources, refuse);

  const { at, c } = theContainer(workload, refuse);
  const resolve = resolver(metadata, resources);
  const entryPoint = argumentsOf(`${at}.command`, c.command, resolve, refuse);
  const command = argumentsOf(`${at}.args`, c.args, resolve, refuse);
  const { environment, hostVariables, database } = variablesOf(at, c.variables ?? {}, resolve, refuse);
  const port = servicePort(workload.service, refuse);
  const health = healthCheck(at, c, refuse);
  const dataPath = dataPathOf(at, c.volumes, resources, refuse);
  const postgres = Object.entries(resources).find(([, r]) => r.type === 'postgres');
  const route = Object.entries(resources).find(([, r]) => r.type === 'route');
  if (route) checkRoute(route, resources, workload.service, refuse);
  const size = sizeOf(at, c.resources, runtimeType, notes, refuse);
  const user = (metadata.annotations as Record<string, string> | undefined)?.[SCORE_USER_ANNOTATION];
  if (user === undefined) {
    refuse(`metadata.annotations.${SCORE_USER_ANNOTATION}`, 'is required: Score has no field for the container\'s user, which owns its data and runs ' +
      'it on EC2; give the image\'s own "<uid>:<gid>", for example "1000:1000"');
  }
  return {
    fields: {
      image: `${at}.image`,
      port: 'service.ports',
      user: `metadata.annotations.${SCORE_USER_ANNOTATION}`,
      dataPath: `${at}.volumes`,
      healthCheckPath: `${at}.readinessProbe.httpGet.path`,
      healthCheckPort: `${at}.readinessProbe.httpGet.port`,
      entryPoint: `${at}.command`,
      command: `${at}.args`,
      environment: `${at}.variables`,
      database: `resources.${postgres?.[0]}`,
    },
    containerImage: {
      image: c.image,
      port,
      user,
      ...dataPath ? { dataPath } : {},
      ...health?.path ? { healthCheckPath: health.path } : {},
      ...health?.port !== undefined && health.port !== port ? { healthCheckPort: health.port } : {},
      ...entryPoint ? { entryPoint } : {},
      ...command ? { command } : {},
      ...Object.keys(environment).length > 0 ? { environment } : {},
      ...postgres ? { database: databaseOf(postgres, applicationId, database, refuse) } : {},
    },
    hostVariables,
    size,
    notes,
    problems,
  };
}

/** The workload's one container, with what the framework cannot give a container refused. */
function theContainer(workload: any, refuse: Refuse): { readonly at: string; readonly c: any } {
  const [containerName, ...others] = Object.keys(workload.containers);
  if (others.length > 0) {
    refuse('containers', `${[containerName, ...others].join(', ')} are ${others.length + 1} containers; an application runs one (a task's, or an ` +
      'instance\'s): describe one container, or one workload each');
  }
  const at = `containers.${containerName}`;
  const c = workload.containers[containerName];
  if (c.image === '.') refuse(`${at}.image`, '"." is an image a Score tool builds; give the image with its tag (its digest in imageDigests)');
  for (const field of ['files', 'before'] as const) {
    if (c[field] !== undefined) {
      refuse(`${at}.${field}`, field === 'files' ? 'files are not supported: give configuration in variables, or build it into the image'
        : 'one container has nothing to start before it');
    }
  }
  return { at, c };
}

/** What each placeholder stands for, as score-go's substitution function looks it up (metadata, resources' outputs). */
function resolver(metadata: Record<string, unknown>, resources: Record<string, any>): (ref: readonly string[]) => Resolved {
  return (ref) => {
    if (ref[0] === 'metadata') {
      const value = ref.slice(1).reduce<any>((v, k) => (v && typeof v === 'object' ? v[k] : undefined), metadata);
      if (ref.length < 2 || value === undefined) return { error: `names metadata.${ref.slice(1).join('.')}, which metadata does not have` };
      return { text: typeof value === 'string' ? value : JSON.stringify(value) };
    }
    if (ref[0] !== 'resources') return { error: `names ${ref.join('.')}; a placeholder names metadata.<key> or resources.<name>.<output> ($$ is a literal $)` };
    const resource = resources[ref[1]];
    if (!resource) return { error: `names resources.${ref[1] ?? ''}, which resources does not declare` };
    const output = ref.slice(2).join('.');
    if (resource.type === 'postgres' && POSTGRES_OUTPUTS[output]) return { db: POSTGRES_OUTPUTS[output], output };
    if (resource.type === 'dns' && output === 'host') return { host: true };
    const outputs = resource.type === 'postgres' ? Object.keys(POSTGRES_OUTPUTS).join(', ') : resource.type === 'dns' ? 'host' : 'none here';
    return { error: `names the output ${JSON.stringify(output)} of ${ref[1]} (type ${resource.type}), which gives ${outputs}` };
  };
}

/** Arguments with metadata filled; a resource's value in an argument would be in clear in the task or unit: refused. */
function argumentsOf(field: string, values: string[] | undefined, resolve: (ref: readonly string[]) => Resolved,
  refuse: Refuse): string[] | undefined {
  return values?.map((value, i) => scorePieces(value).map((piece) => {
    if ('text' in piece) return piece.text;
    const resolved = resolve(piece.ref);
    if ('text' in resolved) return resolved.text;
    refuse(`${field}[${i}]`, `${piece.source} ${'error' in resolved ? resolved.error : 'is a resource\'s value; only ${metadata.<key>} is filled in ' +
      'arguments: pass resources\' values in variables'}`);
    return '';
  }).join(''));
}

/** Each resource's type, class, id and params, as far as the framework provides them. */
function checkResources(resources: Record<string, any>, refuse: Refuse): void {
  const params: Record<string, readonly string[]> = { postgres: ['majorVersion', 'databaseName'], volume: [], dns: [], route: ['host', 'path', 'port'] };
  for (const [name, r] of Object.entries(resources)) {
    if (!(r.type in SCORE_RESOURCE_TYPES)) {
      refuse(`resources.${name}.type`, `${JSON.stringify(r.type)} is not a type the framework provides; supported: ` +
        `${Object.entries(SCORE_RESOURCE_TYPES).map(([type, what]) => `${type} (${what})`).join(', ')}`);
      continue;
    }
    if (r.class !== undefined) refuse(`resources.${name}.class`, 'a class is not supported; leave it out');
    if (r.id !== undefined) refuse(`resources.${name}.id`, 'a resource shared between workloads (id) is not supported; each application has its own');
    for (const key of Object.keys(r.params ?? {}).filter((k) => !params[r.type].includes(k))) {
      refuse(`resources.${name}.params.${key}`, `is not a parameter of ${r.type}; supported: ${params[r.type].join(', ') || 'none'}`);
    }
  }
  for (const type of Object.keys(SCORE_RESOURCE_TYPES)) {
    const named = Object.keys(resources).filter((n) => resources[n].type === type);
    if (named.length > 1) refuse('resources', `${named.join(', ')} are ${named.length} resources of type ${type}; an application has one`);
  }
}

/** The container's variables: plain, holding the host name, or naming the database's values (its password a secret). */
function variablesOf(at: string, variables: Record<string, string>, resolve: (ref: readonly string[]) => Resolved,
  refuse: Refuse) {
  const environment: Record<string, string> = {};
  const hostVariables: ScoreMapping['hostVariables'] = {};
  const database: Partial<Record<keyof DatabaseEnvironment, string>> = {};
  const claim = (field: string, key: keyof DatabaseEnvironment, name: string) => {
    if (database[key]) refuse(field, `${database[key]} takes the database's ${key} already; one variable each`);
    else database[key] = name;
  };
  for (const [name, value] of Object.entries(variables)) {
    const field = `${at}.variables.${name}`;
    const pieces = scorePieces(value).map((p): { text: string } | Resolved & { source: string } => ('text' in p ? p : { ...resolve(p.ref), source: p.source }));
    const errors = pieces.filter((p): p is { error: string; source: string } => 'error' in p);
    errors.forEach((e) => refuse(field, `${e.source} ${e.error}`));
    if (errors.length > 0) continue;
    const db = pieces.filter((p): p is { db: keyof DatabaseEnvironment; output: string; source: string } => 'db' in p);
    const host = pieces.some((p) => 'host' in p);
    // Text, and metadata placeholders filled with theirs.
    const text = pieces.filter((p): p is { text: string } => 'text' in p);
    if (db.length === 0 && !host) {
      environment[name] = text.map((p) => p.text).join('');
    } else if (db.length === 0) {
      hostVariables[name] = pieces.map((p) => ('host' in p ? { host: true as const } : { text: (p as { text: string }).text }));
    } else if (host) {
      refuse(field, 'mixes the database\'s values with the host name; give each its own variable');
    } else if (pieces.length === 1) {
      claim(field, db[0].db, name);
    } else if (db.some((d) => d.db === 'user' || d.db === 'password')) {
      refuse(field, `holds the database's ${db.map((d) => d.output).join(' and ')} inside other text, which would put it in clear text in the ` +
        'environment; make that placeholder the variable\'s whole value: it is then delivered as a secret');
    } else if (text.some((p) => /\{(host|port|name)\}/.test(p.text))) {
      refuse(field, 'holds the text {host}, {port} or {name} besides placeholders; the database\'s URL format takes those as its own');
    } else {
      claim(field, 'url', name);
      database.urlFormat = pieces.map((p) => ('db' in p ? `{${p.db}}` : (p as { text: string }).text)).join('');
    }
  }
  return { environment, hostVariables, database };
}

/** The postgres resource's database: its params, or the newest major version and a name from the applicationId. */
function databaseOf([name, resource]: [string, any], applicationId: string, environment: DatabaseEnvironment,
  refuse: Refuse): DatabaseRequirement {
  const majorVersion = String(resource.params?.majorVersion ?? POSTGRES_MAJOR_VERSIONS[POSTGRES_MAJOR_VERSIONS.length - 1]);
  if (Object.keys(environment).length === 0) refuse(`resources.${name}`, 'no variable names its outputs; the application would not find its database');
  return { engine: 'postgres', majorVersion, databaseName: String(resource.params?.databaseName ?? applicationId.replace(/-/g, '_')), environment };
}

/** The one TCP port the load balancer sends requests to (its `targetPort`, the container's). */
function servicePort(service: any, refuse: Refuse): number | undefined {
  const ports = Object.entries<any>(service?.ports ?? {});
  if (ports.length !== 1) {
    refuse('service.ports', `${ports.length === 0 ? 'none is declared' : `${ports.map(([n]) => n).join(', ')} are ${ports.length}`}; the load balancer ` +
      'sends requests to one port: declare exactly one (a health check on another port is the readiness probe\'s)');
    return undefined;
  }
  const [name, port] = ports[0];
  if (port.protocol === 'UDP') refuse(`service.ports.${name}.protocol`, 'UDP is not supported; the load balancer speaks HTTP over TCP');
  return port.targetPort ?? port.port;
}

/** The readiness probe (or the liveness probe alone) as the load balancer's health check. */
function healthCheck(at: string, c: any, refuse: Refuse) {
  const probe = (name: 'readinessProbe' | 'livenessProbe') => {
    const p = c[name];
    if (!p) return undefined;
    if (p.exec) refuse(`${at}.${name}.exec`, 'the load balancer cannot run a command; give httpGet');
    const h = p.httpGet;
    if (!h) return undefined;
    if (h.scheme === 'HTTPS') refuse(`${at}.${name}.httpGet.scheme`, 'the load balancer\'s health check calls HTTP inside the VPC; leave it HTTP');
    for (const field of ['host', 'httpHeaders']) if (h[field] !== undefined) refuse(`${at}.${name}.httpGet.${field}`, 'the load balancer\'s health check sends none; leave it out');
    return { path: h.path as string, port: h.port as number };
  };
  const ready = probe('readinessProbe');
  const live = probe('livenessProbe');
  if (ready && live && (ready.path !== live.path || ready.port !== live.port)) {
    refuse(`${at}.livenessProbe`, 'differs from readinessProbe; the load balancer has one health check: make them the same, or leave livenessProbe out');
  }
  return ready ?? live;
}

/** The one volume's target, mounted from the workload's volume resource: the data path. */
function dataPathOf(at: string, volumes: any, resources: Record<string, any>, refuse: Refuse): string | undefined {
  const declared = Object.keys(resources).filter((n) => resources[n].type === 'volume');
  if (Array.isArray(volumes)) {
    refuse(`${at}.volumes`, 'the list form is deprecated by Score; give a map of target paths');
    return undefined;
  }
  const entries = Object.entries<any>(volumes ?? {});
  if (entries.length > 1) refuse(`${at}.volumes`, `${entries.map(([t]) => t).join(', ')}: one data path is supported`);
  const [target, volume] = entries[0] ?? [];
  const source = volume ? scorePieces(volume.source) : [];
  const named = source.length === 1 ? ('ref' in source[0] && source[0].ref.length === 2 && source[0].ref[0] === 'resources' ? source[0].ref[1] : 'text' in source[0] ? source[0].text : undefined) : undefined;
  if (volume && (named === undefined || !declared.includes(named))) {
    refuse(`${at}.volumes.${target}.source`, `${JSON.stringify(volume.source)} is not a volume resource of this workload; give \${resources.<name>} of one of type volume`);
  }
  if (volume?.path !== undefined) refuse(`${at}.volumes.${target}.path`, 'a sub-path is not supported; the volume is the data path');
  if (volume?.readOnly === true) refuse(`${at}.volumes.${target}.readOnly`, 'the data path is written by the application; leave it out');
  for (const n of declared.filter((d) => d !== named)) refuse(`resources.${n}`, 'a volume no container mounts');
  return target;
}

/** The route: the whole host (`${resources.<dns>.host}`, path `/`) to the service's port. */
function checkRoute([name, route]: [string, any], resources: Record<string, any>, service: any, refuse: Refuse): void {
  const host = scorePieces(String(route.params?.host ?? ''));
  const dns = host.length === 1 && 'ref' in host[0] && host[0].ref.length === 3 && host[0].ref[2] === 'host' && resources[host[0].ref[1]]?.type === 'dns';
  if (!dns) refuse(`resources.${name}.params.host`, 'give ${resources.<name>.host} of the workload\'s dns resource: the host name comes from the domain and subdomain keys');
  if ((route.params?.path ?? '/') !== '/') refuse(`resources.${name}.params.path`, `${JSON.stringify(route.params.path)}: the load balancer routes the whole host to the application; give /`);
  const ports = service?.ports ?? {};
  const target = route.params?.port;
  if (target !== undefined && !(String(target) in ports) && !Object.values<any>(ports).some((p) => p.port === Number(target))) {
    refuse(`resources.${name}.params.port`, `${JSON.stringify(target)} is not the service's port`);
  }
}

/** `resources.limits` (or `requests`) as the nearest Fargate size that holds them. */
function sizeOf(at: string, resources: any, runtimeType: RuntimeType, notes: string[], refuse: Refuse) {
  const which = resources?.limits ? 'limits' : resources?.requests ? 'requests' : undefined;
  if (!which) return undefined;
  const asked = resources[which];
  if (runtimeType === RuntimeType.EC2) {
    notes.push(`${at}.resources.${which} is not used on runtimeType EC2: the instanceType key decides the instance's size.`);
    return undefined;
  }
  const cpu = asked.cpu === undefined ? FACTORY_SIZE_DEFAULTS.cpu : Math.ceil(cpus(asked.cpu) * 1024);
  const memory = asked.memory === undefined ? FACTORY_SIZE_DEFAULTS.memoryLimitMiB : Math.ceil(bytes(asked.memory) / 1024 ** 2);
  const size = fargateSizeAtLeast(cpu, memory);
  if (!size) {
    refuse(`${at}.resources.${which}`, `${cpu} CPU units and ${memory} MiB are more than Fargate's largest task size`);
    return undefined;
  }
  if (size.cpu !== cpu || size.memoryLimitMiB !== memory) {
    notes.push(`${at}.resources.${which} (${cpu} CPU units, ${memory} MiB) is not a Fargate task size: the nearest that holds it, ` +
      `${size.cpu} CPU units and ${size.memoryLimitMiB} MiB, is used (the cpu and memoryLimitMiB keys choose another).`);
  }
  return size;
}

/** Score's CPU: whole or fractional CPUs, or milli-CPUs with `m`. */
function cpus(value: string): number {
  return value.endsWith('m') ? Number(value.slice(0, -1)) / 1000 : Number(value);
}

/** Score's memory: bytes, with a decimal (K, M, ...) or binary (Ki, Mi, ...) unit. */
function bytes(value: string): number {
  const [, amount, unit = ''] = /^([\d.]+)([KMGTPE]i?)?$/.exec(value)!;
  const power = ' KMGTPE'.indexOf(unit[0] ?? ' ');
  return Number(amount) * (unit.endsWith('i') ? 1024 : 1000) ** Math.max(power, 0);
}


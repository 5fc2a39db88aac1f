import { ENVIRONMENT_NAME } from './reserved-variables';

/** The database engines a plugin can ask for. */
export enum DatabaseEngine {
  /** PostgreSQL on Amazon RDS. */
  POSTGRES = 'postgres',
}

/**
 * The PostgreSQL major versions a plugin can ask for: those Amazon RDS offers in standard support, read from
 * aws-cdk-lib's `PostgresEngineVersion` at the pinned release (`test/database.test.ts` checks each is there).
 */
export const POSTGRES_MAJOR_VERSIONS = ['15', '16', '17'] as const;

/**
 * The environment variables under which the application wants its database's connection. Each is optional; the
 * password is always delivered as a secret (Fargate's `Secrets`, the EC2 environment file), never in clear text.
 */
export interface DatabaseEnvironment {
  /** The host name. @default - not given */
  readonly host?: string;
  /** The port. @default - not given */
  readonly port?: string;
  /** The database's name. @default - not given */
  readonly name?: string;
  /** The user name (delivered as a secret, with the password). @default - not given */
  readonly user?: string;
  /** The password (a secret). @default - not given */
  readonly password?: string;
  /** A URL built from `urlFormat`. @default - not given */
  readonly url?: string;
  /**
   * How `url` is built: `{host}`, `{port}` and `{name}` are replaced, for example
   * `jdbc:postgresql://{host}:{port}/{name}?sslmode=verify-full`. @default - none; required with `url`
   */
  readonly urlFormat?: string;
}

/**
 * The database an application needs (`IApplicationSpec.database()`): the framework provides it, on a platform and
 * standalone, in isolated subnets, encrypted, TLS enforced, its master password managed by RDS, reachable from the
 * application only (docs/writing-a-plugin.md, "A database").
 */
export interface DatabaseRequirement {
  /** The engine: `postgres` (see `DatabaseEngine`). */
  readonly engine: string;
  /** The engine's major version, one of `POSTGRES_MAJOR_VERSIONS`, for example `16`. */
  readonly majorVersion: string;
  /** The database created at the start: 1 to 63 letters, digits and `_`, starting with a letter. */
  readonly databaseName: string;
  /** Where the application wants the connection. */
  readonly environment: DatabaseEnvironment;
}

/**
 * What the framework gives a database unless the context keys `databaseInstanceType` and `databaseStorageGiB` size it:
 * the smallest Graviton class, 20 GiB of gp3 (RDS PostgreSQL's smallest gp3 volume).
 */
export const DATABASE_DEFAULTS = { instanceType: 'db.t4g.micro', storageGiB: 20 } as const;

/** What `urlFormat` replaces (global: `databaseUrl` replaces each; `search` ignores the flag). */
const PLACEHOLDERS = /\{(host|port|name)\}/g;

/** The members of `DatabaseEnvironment` that name a variable (`urlFormat` is the URL's shape, not a variable). */
const VARIABLE_KEYS = ['host', 'port', 'name', 'user', 'password', 'url'] as const;

/** The variable names the plugin gave, in `VARIABLE_KEYS` order. */
export function databaseVariables(environment: DatabaseEnvironment): string[] {
  return VARIABLE_KEYS.flatMap((key) => (environment[key] !== undefined ? [String(environment[key])] : []));
}

/** Every problem with a plugin's database requirement, each naming the field, the value and what is allowed. */
export function databaseRequirementProblems(database: DatabaseRequirement, where: string): string[] {
  const shown = (v: unknown) => JSON.stringify(v) ?? String(v);
  const problems: string[] = [];
  if (database.engine !== DatabaseEngine.POSTGRES) problems.push(`${where}.engine ${shown(database.engine)}; allowed: "postgres"`);
  if (!(POSTGRES_MAJOR_VERSIONS as readonly string[]).includes(database.majorVersion)) {
    problems.push(`${where}.majorVersion ${shown(database.majorVersion)}; allowed: ${POSTGRES_MAJOR_VERSIONS.map((v) => `"${v}"`).join(', ')}`);
  }
  if (typeof database.databaseName !== 'string' || !/^[A-Za-z][A-Za-z0-9_]{0,62}$/.test(database.databaseName)) {
    problems.push(`${where}.databaseName ${shown(database.databaseName)}; allowed: 1 to 63 letters, digits and _, starting with a letter`);
  }
  const environment = database.environment ?? {};
  const names = VARIABLE_KEYS.filter((k) => environment[k] !== undefined);
  if (names.length === 0) problems.push(`${where}.environment names no variable; allowed: one or more of host, port, name, user, password, url`);
  for (const key of names) {
    if (!ENVIRONMENT_NAME.test(String(environment[key]))) {
      problems.push(`${where}.environment.${key} ${shown(environment[key])}; allowed: an environment variable name (a letter or _, then letters, digits and _)`);
    }
  }
  const used = names.map((k) => environment[k]);
  const twice = used.filter((v, i) => used.indexOf(v) !== i);
  if (twice.length > 0) problems.push(`${where}.environment names ${shown(twice[0])} twice; each variable once`);
  if ((environment.url === undefined) !== (environment.urlFormat === undefined) ||
    (environment.urlFormat !== undefined && (typeof environment.urlFormat !== 'string' || environment.urlFormat.search(PLACEHOLDERS) < 0))) {
    problems.push(`${where}.environment.urlFormat ${shown(environment.urlFormat)}; allowed: with url, a text using {host}, {port} ` +
      'and {name}, for example "jdbc:postgresql://{host}:{port}/{name}?sslmode=verify-full"; without url, nothing');
  }
  return problems;
}

/** The URL `urlFormat` describes, with the connection's values (deploy-time values stay tokens). */
export function databaseUrl(format: string, values: { host: string; port: string; name: string }): string {
  return format.replace(PLACEHOLDERS, (_, key: 'host' | 'port' | 'name') => values[key]);
}

import * as fs from 'fs';
import * as path from 'path';
import { type JenkinsPin, pinTag, sourceVersion } from '../../src/build-server/versions';

/**
 * Checks a configuration-as-code document against the schema derived from the pinned sources
 * (`jenkins/casc-schema/casc-schema.json`, written by the generator in tools/casc-schema/), with configuration-as-code's own rules
 * (jenkinsci/configuration-as-code-plugin@2117.vc05a_0b_e6b_f4e, plugin/src/main/java/io/jenkins/plugins/casc/):
 *
 * - an attribute the target class does not describe is an error: unknown attributes are rejected by default
 *   (ConfigurationContext: `Unknown.reject`);
 * - an attribute of a concrete type takes that class's attributes; one whose type is abstract takes one implementation, named by a symbol, as a scalar (`standard`) or a
 *   single-entry mapping (`oic: {...}`) (impl/configurators/HeteroDescribableConfigurator.java, `preConfigure`,
 *   lines 280-310); a symbol that names no implementation is an error ("No implementation found", lines 218-240);
 * - an implementation answers to its `@Symbol` values, to its class name without the extension point's name (or with
 *   `Impl`), and to its simple class name, each through `Configurator.normalize`, compared ignoring case
 *   (impl/attributes/DescribableAttribute.java, `getSymbols`, lines 44-76; Configurator.java lines 48-56);
 * - a multi-valued attribute takes a sequence; a primitive or enum takes a scalar that converts to it.
 */

export interface SchemaAttribute {
  readonly type: string;
  readonly multiple: boolean;
  /** `@Deprecated`: refused by default (ConfigurationContext.java lines 24-26, `deprecated: reject`). */
  readonly deprecated?: boolean;
  /** `@Restricted`: refused by default (`restricted: reject`). */
  readonly restricted?: string[];
}

export interface SchemaClass {
  readonly source: string;
  readonly kind: 'class' | 'abstract' | 'interface' | 'enum';
  readonly supertypes: string[];
  readonly symbols: string[];
  readonly simpleName: string;
  readonly enumConstants?: string[];
  /** Configured from one string (a Stapler converter, or job-dsl's Configurable script sources). */
  readonly scalar?: boolean;
  /** Listed only to decide assignability: not an implementation anyone configures. */
  readonly supertypeOnly?: boolean;
  readonly category?: string;
  readonly names?: string[];
  readonly attributes: Record<string, SchemaAttribute>;
}

export interface SchemaRoot {
  readonly kind: 'class' | 'category' | 'list' | 'custom';
  readonly class?: string;
  readonly type?: string;
  /** Entries of a list root its configurator takes itself, not as an implementation (job-dsl's `providedEnv`). */
  readonly specialEntries?: string[];
}

export interface SchemaSource {
  readonly id: string;
  readonly version: string;
  readonly repository: string;
  readonly tag: string;
  readonly commit: string;
  /** The code roots read. */
  readonly paths: string[];
}

/** A permission group as matrix-auth's PermissionFinder matches it (`<group id>/<permission name>`). */
export interface SchemaPermissionGroup {
  readonly owner: string;
  /** Permission name -> where it is declared. */
  readonly names: Record<string, unknown>;
}

export interface CascSchema {
  readonly sources: SchemaSource[];
  /** Permission groups by id, with their permissions' names. */
  readonly permissions?: Record<string, SchemaPermissionGroup>;
  readonly roots: Record<string, SchemaRoot>;
  /** Root keys with these prefixes are aliases the plugin skips (ConfigurationAsCode.isNotAliasEntry). */
  readonly rootKeyPrefixesIgnored: string[];
  readonly classes: Record<string, SchemaClass>;
}

export const CASC_SCHEMA_FILE = path.join(__dirname, '..', '..', 'jenkins', 'casc-schema', 'casc-schema.json');
/** What regenerates {@link CASC_SCHEMA_FILE}, run from the repository root (tools/casc-schema/README.md). */
export const CASC_SCHEMA_REGENERATE = 'bash tools/casc-schema/generate.sh';

export function loadSchema(file = CASC_SCHEMA_FILE): CascSchema {
  return JSON.parse(fs.readFileSync(file, 'utf-8'));
}

/**
 * Why the schema was not generated from these pins (id, version, repository, tag and code roots, in this order: a type
 * declared in several sources is taken from the first), naming the command that regenerates it; undefined if it was.
 */
export function staleSchema(schema: CascSchema, pins: readonly JenkinsPin[]): string | undefined {
  const key = (s: object) => JSON.stringify(s);
  const pinned = pins.map((pin) => key({
    id: pin.id, version: sourceVersion(pin), repository: `https://github.com/${pin.repository}`, tag: pinTag(pin), paths: pin.codeRoots,
  }));
  const read = schema.sources.map(({ id, version, repository, tag, paths }) => key({ id, version, repository, tag, paths }));
  if (key(read) === key(pinned)) return undefined;
  const differences = [
    ...pinned.filter((s) => !read.includes(s)).map((s) => `  pinned, not in the schema: ${s}`),
    ...read.filter((s) => !pinned.includes(s)).map((s) => `  in the schema, not pinned:  ${s}`),
  ];
  return 'jenkins/casc-schema/casc-schema.json was generated from other sources than the pins '
    + '(CASC_SCHEMA_SOURCES in src/build-server/versions.ts):\n'
    + (differences.length ? differences.join('\n') : '  the same sources, in another order') + '\n'
    + `Regenerate it: run \`${CASC_SCHEMA_REGENERATE}\` at the repository root (tools/casc-schema/README.md), and commit it.`;
}

const PERMISSION_DEFINITION = 'org.jenkinsci.plugins.matrixauth.integrations.casc.PermissionDefinition';
const BOOLEAN = new Set(['boolean', 'java.lang.Boolean']);
const INTEGER = new Set(['int', 'long', 'short', 'java.lang.Integer', 'java.lang.Long', 'java.lang.Short']);
const DECIMAL = new Set(['double', 'float', 'java.lang.Double', 'java.lang.Float']);
const TEXT = new Set(['java.lang.String', 'hudson.util.Secret', 'char', 'java.lang.Character', 'java.lang.CharSequence']);

const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
const isMapping = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const show = (v: unknown) => JSON.stringify(v);

function normalize(name: string): string {
  return name.toUpperCase() === name ? name.toLowerCase() : name.charAt(0).toLowerCase() + name.slice(1);
}

/** Checks documents against one schema. */
export class CascChecker {
  private readonly implementations = new Map<string, string[]>();

  constructor(private readonly schema: CascSchema) {}

  /** Every problem in a parsed configuration-as-code document, each naming its path; empty when Jenkins would accept it. */
  public check(document: Record<string, unknown>): string[] {
    const problems: string[] = [];
    for (const [rootName, value] of Object.entries(document)) {
      const root = this.schema.roots[rootName];
      if (this.schema.rootKeyPrefixesIgnored.some((prefix) => rootName.startsWith(prefix))) continue;
      if (!root || root.kind === 'custom') {
        problems.push(`${rootName}: unknown root element; known: ${Object.keys(this.schema.roots).sort().join(', ')}`);
      } else if (root.kind === 'class') {
        this.object(value, root.class!, rootName, problems);
      } else if (root.kind === 'category') {
        this.category(value, rootName, problems);
      } else {
        this.list(value, root, rootName, problems);
      }
    }
    return problems;
  }

  /** A global-configuration category (`unclassified`, `security`): each key names one global configuration. */
  private category(value: unknown, rootName: string, problems: string[]): void {
    if (!isMapping(value)) {
      problems.push(`${rootName}: expected a mapping, found ${show(value)}`);
      return;
    }
    const members = Object.entries(this.schema.classes).filter(([, c]) => c.category === rootName);
    for (const [key, item] of Object.entries(value)) {
      const member = members.find(([, c]) => (c.names ?? []).includes(key));
      if (!member) {
        const known = members.flatMap(([, c]) => (c.names ?? []).slice(0, 1)).sort();
        problems.push(`${rootName}.${key}: no global configuration of that name; known: ${known.join(', ')}`);
      } else {
        this.object(item, member[0], `${rootName}.${key}`, problems);
      }
    }
  }

  /**
   * A root that is a list of implementations of one type (job-dsl's `jobs`). A special entry is a one-key mapping of
   * names to strings: job-dsl's `providedEnv` puts each into the scripts' environment (SeedJobConfigurator.java lines
   * 90-101).
   */
  private list(value: unknown, root: SchemaRoot, where: string, problems: string[]): void {
    if (!Array.isArray(value)) {
      problems.push(`${where}: expected a sequence, found ${show(value)}`);
      return;
    }
    value.forEach((item, i) => {
      const special = isMapping(item) && Object.keys(item).length === 1 && (root.specialEntries ?? []).includes(Object.keys(item)[0]);
      if (!special) {
        this.describable(item, root.type!, `${where}[${i}]`, problems);
        return;
      }
      const [key, entries] = Object.entries(item)[0];
      if (!isMapping(entries) || !Object.values(entries).every((v) => typeof v === 'string')) {
        problems.push(`${where}[${i}].${key}: expected a mapping of names to strings, found ${show(entries)}`);
      }
    });
  }

  /** The attributes of one class. */
  private object(value: unknown, className: string, where: string, problems: string[]): void {
    const cls = this.schema.classes[className];
    if (!cls) {
      problems.push(`${where}: cannot check: ${className} is not in the schema (regenerate it with the class's plugin)`);
      return;
    }
    if (value === null || value === undefined) return;
    if (!isMapping(value)) {
      problems.push(`${where}: expected the attributes of ${className}, found ${show(value)}`);
      return;
    }
    for (const [key, item] of Object.entries(value)) {
      const attribute = cls.attributes[key];
      if (!attribute) {
        problems.push(`${where}.${key}: ${className} has no attribute "${key}"; known: ${Object.keys(cls.attributes).sort().join(', ')}`);
      } else if (attribute.deprecated || attribute.restricted) {
        problems.push(`${where}.${key}: ${className}.${key} is ${attribute.deprecated ? 'deprecated' : 'restricted'}, which configuration-as-code refuses by default`);
      } else if (attribute.multiple) {
        if (!Array.isArray(item)) {
          problems.push(`${where}.${key}: expected a sequence of ${attribute.type}, found ${show(item)}`);
        } else {
          item.forEach((element, i) => this.value(element, attribute.type, `${where}.${key}[${i}]`, problems));
        }
      } else {
        this.value(item, attribute.type, `${where}.${key}`, problems);
      }
    }
  }

  /** One value of a declared type. */
  private value(value: unknown, type: string, where: string, problems: string[]): void {
    const fail = (expected: string) => problems.push(`${where}: expected ${expected} (${type}), found ${show(value)}`);
    // configuration-as-code resolves ${...} in a scalar before converting it (configuration-as-code
    // 2117.vc05a_0b_e6b_f4e, impl/configurators/PrimitiveConfigurator.java lines 43-48): a reference's value is known
    // only at run time, so of `${NAME:-default}` only the default is checked here; the conformance test checks that
    // every reference resolves.
    if (typeof value === 'string' && (BOOLEAN.has(type) || INTEGER.has(type) || DECIMAL.has(type)) && /(?<!\^)\$\{[^}]+\}/.test(value)) {
      const reference = /^\$\{[A-Za-z_][A-Za-z0-9_.]*:-([^}]*)\}$/.exec(value);
      if (reference) this.value(reference[1], type, where, problems);
      return;
    }
    if (BOOLEAN.has(type)) {
      if (!(typeof value === 'boolean' || value === 'true' || value === 'false')) fail('true or false');
    } else if (INTEGER.has(type)) {
      if (!(Number.isInteger(value) || (typeof value === 'string' && /^-?\d+$/.test(value)))) fail('an integer');
    } else if (DECIMAL.has(type)) {
      if (!(typeof value === 'number' || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)))) fail('a number');
    } else if (TEXT.has(type)) {
      if (!isScalar(value)) fail('a scalar');
    } else {
      const cls = this.schema.classes[type];
      if (!cls) {
        problems.push(`${where}: cannot check: ${type} is not in the schema (regenerate it with the class's plugin)`);
      } else if (cls.kind === 'enum') {
        if (!cls.enumConstants!.includes(String(value))) fail(`one of ${cls.enumConstants!.join(', ')}`);
      } else if (type === PERMISSION_DEFINITION) {
        this.permission(value, where, problems);
      } else if (cls.scalar) {
        if (!isScalar(value)) fail('a scalar');
      } else if (cls.kind === 'class') {
        // A concrete type is configured directly; only an abstract one is chosen by symbol (BaseConfigurator.java,
        // createAttribute, lines 256-290).
        this.object(value, type, where, problems);
      } else {
        this.describable(value, type, where, problems);
      }
    }
  }

  /**
   * A matrix-auth permission, `<group id>/<name>`: its converter (integrations/casc/PermissionDefinition.java lines
   * 94-96) resolves it with PermissionFinder.findPermissionId (matrix-auth@matrix-auth-3.2.8,
   * integrations/PermissionFinder.java lines 52-79), and AuthorizationContainer.parsePermission fails with "no such
   * permission" for a group or a name no PermissionGroup / Permission of the pinned sources declares. (The id form,
   * `hudson.model.Item.Build`, is accepted there too; the build server does not write it, so it is reported here.)
   */
  private permission(value: unknown, where: string, problems: string[]): void {
    const groups = this.schema.permissions;
    if (!groups) {
      problems.push(`${where}: cannot check ${show(value)}: the schema lists no permissions (regenerate it)`);
      return;
    }
    const [group, name, ...rest] = String(value).split('/');
    const known = groups[group];
    if (typeof value !== 'string' || rest.length > 0 || !known || !Object.hasOwn(known.names, name)) {
      problems.push(`${where}: no permission ${show(value)}; known in ${known ? `group ${group}` : 'the pinned sources'}: ` +
        (known ? Object.keys(known.names).sort().join(', ') : Object.keys(groups).sort().join(', ')));
    }
  }

  /** An implementation of an abstract type, chosen by symbol: `symbol` or `{ symbol: attributes }`. */
  private describable(value: unknown, type: string, where: string, problems: string[]): void {
    let symbol: string;
    let attributes: unknown;
    if (typeof value === 'string') {
      symbol = value;
    } else if (isMapping(value) && Object.keys(value).length === 1) {
      [symbol, attributes] = Object.entries(value)[0];
    } else {
      problems.push(`${where}: expected a symbol or a single-entry mapping naming an implementation of ${type}, found ${show(value)}`);
      return;
    }
    const candidates = this.implementationsOf(type);
    const found = candidates.find((c) => this.symbolsOf(c, type).some((s) => s.toLowerCase() === symbol.toLowerCase()));
    if (!found) {
      problems.push(`${where}: no ${type} implementation found for "${symbol}"; known: ` +
        `${candidates.map((c) => this.symbolsOf(c, type)[0]).sort().join(', ')}`);
    } else if (this.schema.classes[found].scalar) {
      if (!isScalar(attributes)) problems.push(`${where}.${symbol}: expected a scalar, found ${show(attributes)}`);
    } else {
      this.object(attributes, found, `${where}.${symbol}`, problems);
    }
  }

  /** The concrete classes of the schema that are the type or extend it, directly or not. */
  private implementationsOf(type: string): string[] {
    let found = this.implementations.get(type);
    if (!found) {
      found = Object.entries(this.schema.classes)
        .filter(([name, c]) => c.kind === 'class' && !c.supertypeOnly && this.extends(name, type, new Set()))
        .map(([name]) => name);
      this.implementations.set(type, found);
    }
    return found;
  }

  private extends(name: string, type: string, seen: Set<string>): boolean {
    if (name === type) return true;
    if (seen.has(name)) return false;
    seen.add(name);
    return (this.schema.classes[name]?.supertypes ?? []).some((s) => this.extends(s, type, seen));
  }

  /** DescribableAttribute.getSymbols: @Symbol values, then the names derived from the class name. */
  private symbolsOf(className: string, extensionPoint: string): string[] {
    const cls = this.schema.classes[className];
    const ext = this.schema.classes[extensionPoint]?.simpleName ?? extensionPoint.replace(/^.*[.$]/, '');
    const cn = cls.simpleName;
    const derived = [
      ...(cn.endsWith(ext) ? [cn.slice(0, cn.length - ext.length)] : []),
      ...(cn.endsWith(`${ext}Impl`) ? [cn.slice(0, cn.length - ext.length - 4)] : []),
      cn,
    ].filter((n) => n !== '').map(normalize);
    return [...cls.symbols, ...derived];
  }
}

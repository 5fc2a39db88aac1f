/**
 * configuration-as-code's variable expansion, as the pinned plugin does it, for the tests: what Jenkins reads from a
 * string of the YAML.
 *
 * jenkinsci/configuration-as-code-plugin@2117.vc05a_0b_e6b_f4e, plugin/src/main/java/io/jenkins/plugins/casc/
 * SecretSourceResolver.java: `resolve(String)` (lines 94-101) returns the string unchanged when it holds no `${`;
 * otherwise it runs two Apache Commons Text StringSubstitutors (lines 37-50): the first with the secret sources (here:
 * the environment), escape character `^`, prefix `${`, suffix `}`, substitution in variable names, escapes preserved;
 * the second with `UnresolvedLookup` (lines 103-124), which turns every variable still unresolved into an empty string
 * and drops the escape character. `${NAME:-default}` takes the default when NAME is unknown (StringSubstitutor's
 * default value delimiter `:-`). job-dsl's `SeedJobConfigurator.revealSourceOrGetValue`
 * (jenkinsci/job-dsl-plugin@3654.vdf58f53e2d15, job-dsl-plugin/src/main/java/javaposse/jobdsl/plugin/casc/
 * SeedJobConfigurator.java) runs the same `resolve` over the value of each `jobs[]` entry: an inline `script`'s text,
 * or a `file`'s path (the file's content is read as it is: FromFileScriptSource.getScript).
 */

export interface Expanded {
  readonly value: string;
  /** Variables that became empty strings because nothing defined them (UnresolvedLookup). */
  readonly blanked: string[];
}

const PREFIX = '${';
const ESCAPE = '^';

/** One StringSubstitutor pass. `lookup` returns undefined for an unknown variable, which stays as written. */
function substitute(text: string, lookup: (name: string) => string | undefined, preserveEscapes: boolean): string {
  let out = '';
  let pos = 0;
  while (pos < text.length) {
    const start = text.indexOf(PREFIX, pos);
    if (start < 0) break;
    if (start > 0 && text[start - 1] === ESCAPE) {
      // An escaped prefix: kept with its escape in the first pass, written without it in the second; never substituted.
      out += preserveEscapes ? text.slice(pos, start + PREFIX.length) : text.slice(pos, start - 1) + PREFIX;
      pos = start + PREFIX.length;
      continue;
    }
    const end = matchingSuffix(text, start + PREFIX.length);
    if (end < 0) break;
    const rawName = text.slice(start + PREFIX.length, end);
    const expression = substitute(rawName, lookup, preserveEscapes);
    const delimiter = expression.indexOf(':-');
    const name = delimiter < 0 ? expression : expression.slice(0, delimiter);
    const value = lookup(name) ?? (delimiter < 0 ? undefined : expression.slice(delimiter + 2));
    out += text.slice(pos, start) + (value ?? text.slice(start, end + 1));
    pos = end + 1;
  }
  return out + text.slice(pos);
}

/** The index of the `}` that closes a variable opened before `from`, counting nested `${`. */
function matchingSuffix(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    if (text.startsWith(PREFIX, i)) {
      depth++;
      i++;
    } else if (text[i] === '}') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/** What configuration-as-code makes of one string of the YAML, given the variables the process environment defines. */
export function expand(text: string, environment: ReadonlySet<string> | Record<string, string>): Expanded {
  if (text.trim() === '' || !text.includes(PREFIX)) return { value: text, blanked: [] };
  const defined = (name: string) => (environment instanceof Set ? environment.has(name) : name in environment);
  const valueOf = (name: string) => (environment instanceof Set ? `<${name}>` : (environment as Record<string, string>)[name]);
  const first = substitute(text, (name) => (defined(name) ? valueOf(name) : undefined), true);
  const blanked: string[] = [];
  const value = substitute(first, (name) => {
    blanked.push(name);
    return '';
  }, false);
  return { value, blanked };
}

/** Every string of a parsed YAML document, expanded; the blanked variables of all of them, with their paths. */
export function expandDocument(document: unknown, environment: ReadonlySet<string>): { value: unknown; blanked: string[] } {
  const blanked: string[] = [];
  const walk = (node: unknown, path: string): unknown => {
    if (typeof node === 'string') {
      const result = expand(node, environment);
      blanked.push(...result.blanked.map((name) => `${path}: \${${name}}`));
      return result.value;
    }
    if (Array.isArray(node)) return node.map((item, i) => walk(item, `${path}[${i}]`));
    if (node && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value, path ? `${path}.${key}` : key)]));
    }
    return node;
  };
  return { value: walk(document, ''), blanked };
}

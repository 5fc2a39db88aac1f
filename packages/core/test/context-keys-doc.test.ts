import * as fs from 'node:fs';
import * as path from 'node:path';
import { CONTEXT_KEYS, ContextKey, PLATFORM_DECIDED_KEYS, PLATFORM_KEYS } from '../src/context/context-keys';

// docs/context-keys.md's table is written by hand; the key table (CONTEXT_KEYS) is what synth applies. Both are read
// as they are when the test runs, so the test follows any edit of either and names the key whose row differs.

const DOC = path.resolve(__dirname, '..', '..', '..', 'docs', 'context-keys.md');
const SECTION = '# Deployment context keys';
const HEADER = ['key', 'required', 'default', 'meaning'];

/** One row as the doc shows it; `line` is its 1-based line number in the doc. */
interface Row {
  readonly key: string;
  readonly required: string;
  readonly default: string;
  readonly meaning: string;
  readonly line: number;
}

/** The cells of a Markdown table row; `\|` is a `|` inside a cell. */
function cells(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

/** The rows of the first table under the section heading, or a description of why there is none. */
function readmeRows(readme: string): Row[] | string {
  const lines = readme.split('\n');
  const start = lines.indexOf(SECTION);
  if (start < 0) return `the doc has no "${SECTION}" section`;
  let i = start + 1;
  while (i < lines.length && !lines[i].startsWith('#') && !lines[i].startsWith('|')) i++;
  if (i >= lines.length || lines[i].startsWith('#')) return `the "${SECTION}" section has no table`;
  if (cells(lines[i]).join('|') !== HEADER.join('|')) {
    return `the table's header is "${lines[i]}"; expected the columns ${HEADER.join(', ')}`;
  }
  const rows: Row[] = [];
  for (i += 2; i < lines.length && lines[i].startsWith('|'); i++) {
    const [key, required, def, meaning] = cells(lines[i]);
    rows.push({ key: key.replace(/^`(.*)`$/, '$1'), required, default: def, meaning: meaning ?? '', line: i + 1 });
  }
  return rows;
}

/** The row the key table implies for a key. */
function expectedRow(key: ContextKey): Omit<Row, 'line'> {
  return { key: key.name, required: key.required ? 'yes' : 'no', default: key.defaultText, meaning: key.description };
}

/** Every difference between the doc's table and the key table, each naming its key. */
function differences(readme: string, keys: readonly ContextKey[]): string[] {
  const rows = readmeRows(readme);
  if (typeof rows === 'string') return [rows];
  const problems: string[] = [];
  const names = keys.map((k) => k.name);
  for (const key of keys) {
    const found = rows.filter((r) => r.key === key.name);
    if (found.length === 0) {
      problems.push(`${key.name}: in the key table (CONTEXT_KEYS) but has no row in the doc's table`);
      continue;
    }
    if (found.length > 1) problems.push(`${key.name}: ${found.length} rows in the doc's table (lines ${found.map((r) => r.line).join(', ')})`);
    const want = expectedRow(key);
    for (const column of ['required', 'default', 'meaning'] as const) {
      if (found[0][column] !== want[column]) {
        problems.push(`${key.name}: ${column} is ${JSON.stringify(found[0][column])} in the doc (line ${found[0].line}), ` +
          `${JSON.stringify(want[column])} in the key table`);
      }
    }
  }
  for (const row of rows.filter((r) => !names.includes(r.key))) {
    problems.push(`${row.key}: a row of the doc's table (line ${row.line}) but not a key of the key table`);
  }
  const shared = rows.map((r) => r.key).filter((k) => names.includes(k));
  const order = names.filter((n) => shared.includes(n));
  const misplaced = shared.findIndex((k, i) => k !== order[i]);
  if (misplaced >= 0) {
    problems.push(`${shared[misplaced]}: row ${misplaced + 1} of the doc's table, but the key table has ${order[misplaced]} there ` +
      '(the rows follow the key table\'s order)');
  }
  return problems;
}

const readme = () => fs.readFileSync(DOC, 'utf-8');

describe('docs/context-keys.md\'s table matches the key table', () => {
  test.each(CONTEXT_KEYS.map((k) => k.name))('%s: same required, default and meaning', (name) => {
    expect(differences(readme(), CONTEXT_KEYS).filter((p) => p.startsWith(`${name}:`))).toEqual([]);
  });

  test('no row for a key the key table does not have, and the rows in the key table\'s order', () => {
    expect(differences(readme(), CONTEXT_KEYS)).toEqual([]);
  });
});

/** A doc whose table is the key table, rendered as the doc writes it. */
function renderedReadme(keys: readonly ContextKey[]): string {
  const row = (k: ContextKey) => `| \`${k.name}\` | ${k.required ? 'yes' : 'no'} | ${k.defaultText} | ${k.description.replace(/\|/g, '\\|')} |`;
  return [SECTION, '', 'Read from CDK context.', '', `| ${HEADER.join(' | ')} |`, '|---|---|---|---|',
    ...keys.map(row), '', 'Rules between keys.', '', '## ApplicationFactory', ''].join('\n');
}

describe('the comparison fails, naming the key (controls on a doc rendered from the key table)', () => {
  const key = CONTEXT_KEYS.find((k) => !k.required)!;
  const text = renderedReadme(CONTEXT_KEYS);
  const rowOf = (name: string) => text.split('\n').find((l) => l.startsWith(`| \`${name}\` |`))!;

  test('the rendered table itself has no difference', () => {
    expect(differences(text, CONTEXT_KEYS)).toEqual([]);
  });

  test('a changed default', () => {
    const edited = text.replace(rowOf(key.name), rowOf(key.name).replace(` | ${key.defaultText} | `, ' | something else | '));
    expect(differences(edited, CONTEXT_KEYS)).toEqual([expect.stringMatching(new RegExp(`^${key.name}: default is "something else"`))]);
  });

  test('a changed meaning and a changed required', () => {
    const edited = text.replace(rowOf(key.name), `| \`${key.name}\` | yes | ${key.defaultText} | another meaning |`);
    expect(differences(edited, CONTEXT_KEYS)).toEqual([
      expect.stringMatching(new RegExp(`^${key.name}: required is "yes" in the doc .*"no" in the key table$`)),
      expect.stringMatching(new RegExp(`^${key.name}: meaning is "another meaning"`)),
    ]);
  });

  test('a missing row and an extra row', () => {
    const first = rowOf(CONTEXT_KEYS[0].name);
    const edited = text.replace(`${rowOf(key.name)}\n`, '').replace(first, `${first}\n| \`noSuchKey\` | no | none | made up |`);
    expect(differences(edited, CONTEXT_KEYS)).toEqual([
      `${key.name}: in the key table (CONTEXT_KEYS) but has no row in the doc's table`,
      expect.stringMatching(/^noSuchKey: a row of the doc's table \(line \d+\) but not a key of the key table$/),
    ]);
  });

  test('a key the doc does not know yet', () => {
    expect(differences(text, [...CONTEXT_KEYS, { ...key, name: 'newKey' }])).toEqual([
      'newKey: in the key table (CONTEXT_KEYS) but has no row in the doc\'s table',
    ]);
  });

  test('two rows swapped', () => {
    const [a, b] = [rowOf(CONTEXT_KEYS[0].name), rowOf(CONTEXT_KEYS[1].name)];
    const edited = text.replace(`${a}\n${b}`, `${b}\n${a}`);
    expect(differences(edited, CONTEXT_KEYS)).toEqual([expect.stringMatching(new RegExp(`^${CONTEXT_KEYS[1].name}: row 1 of the doc's table`))]);
  });

  test('a cell holding a | (escaped in Markdown) is read whole', () => {
    const piped = CONTEXT_KEYS.map((k) => (k === key ? { ...k, description: 'one | two' } : k));
    expect(differences(renderedReadme(piped), piped)).toEqual([]);
    expect(differences(renderedReadme(piped), CONTEXT_KEYS)).toEqual([expect.stringMatching(new RegExp(`^${key.name}: meaning is "one \\| two"`))]);
  });

  test('no section, or a table with other columns', () => {
    expect(differences(text.replace(SECTION, '# Context'), CONTEXT_KEYS)).toEqual([`the doc has no "${SECTION}" section`]);
    expect(differences(text.replace('| key | required |', '| name | required |'), CONTEXT_KEYS))
      .toEqual([expect.stringMatching(/^the table's header is .*expected the columns key, required, default, meaning$/)]);
  });
});

// docs/platform.md lists the keys a platform takes and those an application on it may not give; the key table's
// onPlatform declares both (PLATFORM_KEYS, PLATFORM_DECIDED_KEYS).
describe('docs/platform.md\'s key lists are the key table\'s', () => {
  const doc = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'docs', 'platform.md'), 'utf-8').replace(/\s+/g, ' ');
  /** The backticked names in the parenthesis that follows `lead`. */
  const listAfter = (lead: string) => {
    const start = doc.indexOf(lead);
    return start < 0 ? [`no "${lead}" in the doc`] : [...doc.slice(start + lead.length, doc.indexOf(')', start + lead.length)).matchAll(/`(\w+)`/g)].map((m) => m[1]);
  };
  test.each([
    ['the platform\'s props', '`PlatformProps` are named as the context keys (', PLATFORM_KEYS],
    ['the keys an application may not give', 'a key an application gives that belongs to the platform (', PLATFORM_DECIDED_KEYS],
  ])('%s', (_what, lead, keys) => {
    expect(listAfter(lead)).toEqual([...keys]);
  });
});

// A default that depends on the profile is stated again in the API reference (`@default` of the props, which jsii
// cannot compute): it says what the key table says.
test('the API\'s @default of a key whose default depends on the profile is the key table\'s', () => {
  const assembly = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '.jsii'), 'utf-8'));
  const defaultOfProp = (type: string, name: string) =>
    assembly.types[`@fw/core.${type}`].properties.find((p: { name: string }) => p.name === name)?.docs?.default;
  const keys = CONTEXT_KEYS.filter((k) => k.defaultByProfile);
  expect(keys.length).toBeGreaterThan(0);
  for (const key of keys) {
    const want = `- ${key.defaultText.replace(/`/g, '')}`;
    const types = ['FactorySettings', ...(PLATFORM_KEYS as readonly string[]).includes(key.name) ? ['PlatformProps'] : []];
    for (const type of types) expect([type, key.name, defaultOfProp(type, key.name)]).toEqual([type, key.name, want]);
  }
});

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as versions from '../src/build-server/versions';

// docs/build-server.md's "Pinned versions" tables are written by hand; versions.ts is what the build server installs.
// Both are read as they are when the test runs, so the test follows any edit of either and names what differs.

const DOC = path.resolve(__dirname, '..', '..', '..', 'docs', 'build-server.md');
const SECTION = '## Pinned versions';
/** The constants the first table must show, each a string export of versions.ts. */
const CONSTANTS = ['JENKINS_LTS', 'JENKINS_IMAGE', 'AGENT_IMAGE', 'PLUGIN_MANAGER_VERSION'] as const;

/** A pinned plugin as the comparison needs it. The one place that knows JENKINS_PLUGINS' shape. */
interface PinnedPlugin {
  readonly id: string;
  readonly version: string;
}
function pinnedPlugins(plugins: typeof versions.JENKINS_PLUGINS = versions.JENKINS_PLUGINS): PinnedPlugin[] {
  return plugins.map(({ id, version }) => ({ id, version }));
}

/** The cells of a Markdown table row. */
const cells = (line: string) => line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
const unquote = (cell: string) => cell.replace(/^`(.*)`$/, '$1');

interface Row {
  readonly cells: string[];
  readonly line: number;
}

/** The tables of the section, in order (rows without header and separator), or why there are none. */
function sectionTables(doc: string): Row[][] | string {
  const lines = doc.split('\n');
  const start = lines.indexOf(SECTION);
  if (start < 0) return `docs/build-server.md has no "${SECTION}" section`;
  const tables: Row[][] = [];
  for (let i = start + 1; i < lines.length && !/^#{1,2} /.test(lines[i]); i++) {
    if (!lines[i].startsWith('|')) continue;
    const rows: Row[] = [];
    for (i += 2; i < lines.length && lines[i].startsWith('|'); i++) rows.push({ cells: cells(lines[i]), line: i + 1 });
    tables.push(rows);
  }
  return tables;
}

/** Every difference between the section's tables and versions.ts, each naming the constant or the plugin. */
function differences(doc: string, constants: Record<string, unknown>, plugins: readonly PinnedPlugin[]): string[] {
  const tables = sectionTables(doc);
  if (typeof tables === 'string') return [tables];
  if (tables.length < 2) return [`the "${SECTION}" section has ${tables.length} tables; expected the constants' and the plugins'`];
  const [constantRows, pluginRows] = tables;
  const problems: string[] = [];
  for (const name of CONSTANTS) {
    const found = constantRows.filter((r) => unquote(r.cells[0]) === name);
    if (found.length !== 1) {
      problems.push(`${name}: ${found.length} rows in the constants' table, expected 1`);
      continue;
    }
    const shown = unquote(found[0].cells[2] ?? '');
    if (shown !== constants[name]) {
      problems.push(`${name}: ${JSON.stringify(shown)} in the doc (line ${found[0].line}), ${JSON.stringify(constants[name])} in versions.ts`);
    }
  }
  for (const row of constantRows.filter((r) => !(CONSTANTS as readonly string[]).includes(unquote(r.cells[0])))) {
    problems.push(`${unquote(row.cells[0])}: a row of the constants' table (line ${row.line}) that the test does not compare`);
  }
  const ids = plugins.map((p) => p.id);
  for (const plugin of plugins) {
    const found = pluginRows.filter((r) => unquote(r.cells[0]) === plugin.id);
    if (found.length === 0) {
      problems.push(`${plugin.id}: pinned in JENKINS_PLUGINS (${plugin.version}) but has no row in the plugins' table`);
      continue;
    }
    if (found.length > 1) problems.push(`${plugin.id}: ${found.length} rows in the plugins' table (lines ${found.map((r) => r.line).join(', ')})`);
    const shown = unquote(found[0].cells[1] ?? '');
    if (shown !== plugin.version) {
      problems.push(`${plugin.id}: version ${JSON.stringify(shown)} in the doc (line ${found[0].line}), ${JSON.stringify(plugin.version)} in JENKINS_PLUGINS`);
    }
  }
  for (const row of pluginRows.filter((r) => !ids.includes(unquote(r.cells[0])))) {
    problems.push(`${unquote(row.cells[0])}: a row of the plugins' table (line ${row.line}) but not in JENKINS_PLUGINS`);
  }
  const shared = pluginRows.map((r) => unquote(r.cells[0])).filter((id) => ids.includes(id));
  const order = ids.filter((id) => shared.includes(id));
  const misplaced = shared.findIndex((id, i) => id !== order[i]);
  if (misplaced >= 0) {
    problems.push(`${shared[misplaced]}: row ${misplaced + 1} of the plugins' table, but JENKINS_PLUGINS has ${order[misplaced]} there`);
  }
  return problems;
}

const doc = () => fs.readFileSync(DOC, 'utf-8');

describe('docs/build-server.md\'s pinned versions match versions.ts', () => {
  test.each([...CONSTANTS])('%s', (name) => {
    expect(differences(doc(), versions, pinnedPlugins()).filter((p) => p.startsWith(`${name}:`))).toEqual([]);
  });

  test.each(pinnedPlugins().map((p) => p.id))('plugin %s', (id) => {
    expect(differences(doc(), versions, pinnedPlugins()).filter((p) => p.startsWith(`${id}:`))).toEqual([]);
  });

  test('no other row, and the plugins in JENKINS_PLUGINS\' order (amazon-ecs among them)', () => {
    expect(differences(doc(), versions, pinnedPlugins())).toEqual([]);
    expect(pinnedPlugins().map((p) => p.id)).toContain('amazon-ecs');
  });
});

describe('the comparison fails, naming the plugin or the constant (controls on edited copies of the doc)', () => {
  const text = doc();
  const rowOf = (id: string) => text.split('\n').find((l) => l.startsWith(`| \`${id}\` |`))!;
  const plugins = pinnedPlugins();

  test('a changed plugin version', () => {
    const edited = text.replace(rowOf('amazon-ecs'), rowOf('amazon-ecs').replace('`1.49`', '`1.48`'));
    const version = plugins.find((p) => p.id === 'amazon-ecs')!.version;
    expect(edited).not.toEqual(text);
    expect(differences(edited, versions, plugins)).toEqual([expect.stringMatching(new RegExp(`^amazon-ecs: version "1.48" in the doc \\(line \\d+\\), "${version}" in JENKINS_PLUGINS$`))]);
  });

  test('a missing plugin row, an extra one, and a plugin the doc does not know yet', () => {
    const edited = text.replace(`${rowOf('amazon-ecs')}\n`, '').replace(rowOf('git'), `${rowOf('git')}\n| \`no-such-plugin\` | \`1.0\` | made up |`);
    expect(differences(edited, versions, [...plugins, { id: 'new-plugin', version: '2.0' }])).toEqual([
      expect.stringMatching(/^amazon-ecs: pinned in JENKINS_PLUGINS \(.*\) but has no row in the plugins' table$/),
      'new-plugin: pinned in JENKINS_PLUGINS (2.0) but has no row in the plugins\' table',
      expect.stringMatching(/^no-such-plugin: a row of the plugins' table \(line \d+\) but not in JENKINS_PLUGINS$/),
    ]);
  });

  test('two plugin rows swapped', () => {
    const [a, b] = [rowOf(plugins[0].id), rowOf(plugins[1].id)];
    expect(differences(text.replace(`${a}\n${b}`, `${b}\n${a}`), versions, plugins))
      .toEqual([`${plugins[1].id}: row 1 of the plugins' table, but JENKINS_PLUGINS has ${plugins[0].id} there`]);
  });

  test('a changed constant, and no section', () => {
    expect(differences(text.replace(`\`${versions.JENKINS_LTS}\` |`, '`2.999.1` |'), versions, plugins))
      .toEqual([expect.stringMatching(/^JENKINS_LTS: "2.999.1" in the doc \(line \d+\), ".*" in versions.ts$/)]);
    expect(differences(text.replace(SECTION, '## Versions'), versions, plugins)).toEqual([`docs/build-server.md has no "${SECTION}" section`]);
  });
});

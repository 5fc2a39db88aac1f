import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

// The API reference is generated from the doc comments (scripts/docgen.js; `check:api-docs` keeps it current): a public
// member without one shows "No description" to Java, Python and TypeScript users alike, and an optional prop without
// `@default` leaves them to guess what its absence means.

const read = (file: string) => fs.readFileSync(path.join(__dirname, '..', file), 'utf-8');

/** The members (`Type.property.name`, `Type.Initializer.parameter.name`, ...) of the lines that say "No description". */
function undocumented(markdown: string): string[] {
  return markdown.split('\n').filter((l) => l.includes('*No description.*'))
    .map((l) => /href="#@[^/"]+\/[^."]+\.([^"]+)"/.exec(l)?.[1] ?? l.trim());
}

/** The optional properties of the structs (`Struct.name`) whose section in API.md has no `*Default:*` line. */
function optionalWithoutDefault(markdown: string): string[] {
  const structs = markdown.slice(markdown.indexOf('## Structs'), markdown.indexOf('## Classes'));
  return structs.split(/\n---\n/)
    .filter((section) => /<sup>Optional<\/sup>/.test(section) && !section.includes('- *Default:*'))
    .map((section) => /id="@fw\/core\.([^"]+)\.property\.([^"]+)"/.exec(section))
    .map((m) => (m ? `${m[1]}.${m[2]}` : 'a section without an id'));
}

test.each(['API.md', 'API.java.md', 'API.python.md'])('%s documents every public member', (file) => {
  expect(undocumented(read(file))).toEqual([]);
});

test('every optional prop of a struct says what its absence means (@default)', () => {
  expect(optionalWithoutDefault(read('API.md'))).toEqual([]);
});

describe('the checks name what they find (controls)', () => {
  test('a member without a description', () => {
    const row = '| <code><a href="#@fw/core.ApplicationFactoryProps.property.cpu">cpu</a></code> | <code>number</code> | *No description.* |';
    expect(undocumented(`# API\n${row}\n`)).toEqual(['ApplicationFactoryProps.property.cpu']);
  });

  test('an optional prop without a default', () => {
    const section = (name: string, lines: string) => `##### \`${name}\`<sup>Optional</sup> <a name="${name}" ` +
      `id="@fw/core.ApplicationFactoryProps.property.${name}"></a>\n\n- *Type:* number\n${lines}\nText.\n`;
    const markdown = ['## Structs', section('cpu', '- *Default:* - `FACTORY_SIZE_DEFAULTS.cpu`'), section('memoryLimitMiB', ''), '## Classes']
      .join('\n---\n');
    expect(optionalWithoutDefault(markdown)).toEqual(['ApplicationFactoryProps.memoryLimitMiB']);
  });
});

/**
 * The summaries cut mid-sentence: jsii ends an element's summary (the API reference's one-line description) at the
 * first sentence's end, a `;` included, so a first sentence that goes on after a semicolon shows its first half alone.
 */
function cutSummaries(assemblyFile: string): string[] {
  const assembly = JSON.parse(fs.readFileSync(assemblyFile, 'utf-8'));
  const cut: string[] = [];
  const visit = (name: string, docs?: { summary?: string }) => {
    if (docs?.summary && /[;,]$/.test(docs.summary.trim())) cut.push(`${name}: ${docs.summary}`);
  };
  for (const [fqn, type] of Object.entries<any>(assembly.types)) {
    visit(fqn, type.docs);
    for (const member of [...type.methods ?? [], ...type.properties ?? [], ...type.members ?? []]) {
      visit(`${fqn}.${member.name}`, member.docs);
      for (const parameter of member.parameters ?? []) visit(`${fqn}.${member.name}(${parameter.name})`, parameter.docs);
    }
    for (const parameter of type.initializer?.parameters ?? []) visit(`${fqn}(${parameter.name})`, parameter.docs);
  }
  return cut;
}

test.each(['.jsii', '../plugin-template/.jsii'])('no summary in %s stops mid-sentence', (file) => {
  expect(cutSummaries(path.join(__dirname, '..', file))).toEqual([]);
  // The check can fail: a summary that ends at a semicolon is reported.
  const sample = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-summary-')), '.jsii');
  fs.writeFileSync(sample, JSON.stringify({ types: { 'x.T': { docs: { summary: 'Half a sentence;' } } } }));
  expect(cutSummaries(sample)).toEqual(['x.T: Half a sentence;']);
});

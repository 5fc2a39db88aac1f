import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionLengths, importCircles, importGraph, sourceFiles, undocumentedProps } from './support/source-structure';
import { WARNING_IDS } from '../src/warnings';

// The code's shape, as docs/development.md describes it: layers that import only downward, no import circle, and
// functions short enough to read as a list of named steps.

const SRC = path.join(__dirname, '..', 'src');
const files = sourceFiles(SRC);
const graph = importGraph(files);
const relative = (file: string) => path.relative(SRC, file);

/** The layers, lowest first: a file may import its own layer and those below (docs/development.md, the layout tour). */
const LAYERS: readonly (readonly string[])[] = [
  ['errors.ts', 'user-errors.ts', 'warnings.ts'],
  ['contract/'],
  ['userdata/'],
  // Profiles are data the others read; the context's keys come next; compliance reads both (issue 62).
  ['profiles/'],
  ['context/', 'registry/'],
  ['compliance/'],
  ['infrastructure/', 'platform/', 'runtimes/'],
  ['application-factory-props.ts', 'application-factory.ts', 'factory/', 'on-demand.ts'],
  ['build-server/', 'container-image/'],
  ['deployment-app.ts', 'lifecycle/'],
  // `fw-deploy preflight` reads the account through the AWS SDK, and the deployed stacks through the lifecycle checker.
  ['preflight/'],
  ['index.ts', 'main.ts'],
];
const layerOf = (file: string) => LAYERS.findIndex((units) => units.some((u) => relative(file) === u || relative(file).startsWith(u)));

/** The longest function `packages/core/src` may have: longer, it is split into named steps. */
const MAX_FUNCTION_LINES = 80;

test('no import circle in packages/core/src, type-only imports included', () => {
  expect(importCircles(graph).map((circle) => circle.map(relative))).toEqual([]);
});

/** Each import of a file from a layer above its own, named. */
const upwardImports = (imports: Map<string, string[]>) => [...imports].flatMap(([file, targets]) => targets.filter((t) => layerOf(t) > layerOf(file))
  .map((t) => `${relative(file)} imports ${relative(t)}, a layer above it (LAYERS here; move what both need below them)`));

test('every file is in a layer, and imports only its own layer and those below', () => {
  expect(files.filter((f) => layerOf(f) < 0).map(relative)).toEqual([]);
  expect(upwardImports(graph)).toEqual([]);
});

test(`no function in packages/core/src is longer than ${MAX_FUNCTION_LINES} lines`, () => {
  const long = files.flatMap((f) => functionLengths(f)).filter((f) => f.lines > MAX_FUNCTION_LINES)
    .map((f) => `${path.relative(SRC, f.where)}: ${f.lines} lines (split it into named steps)`);
  expect(long).toEqual([]);
});

describe('negative controls: the checks find what they are for', () => {
  test('a circle of three files, a self-import, and no circle in a chain', () => {
    const circle = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['d']], ['e', ['a']]]);
    expect(importCircles(circle)).toEqual([['a', 'b', 'c'], ['d']]);
    expect(importCircles(new Map([['a', ['b']], ['b', ['c']], ['c', []]]))).toEqual([]);
  });

  test('a type-only import, a re-export and a lazy require() count as imports', () => {
    const context = path.join(SRC, 'context', 'context-keys.ts');
    expect(graph.get(context)!.map(relative)).toEqual(expect.arrayContaining(['context/deployment-context.ts', 'context/factory-settings.ts']));
    expect(graph.get(path.join(SRC, 'compliance', 'compliance-checks.ts'))!.map(relative)).toEqual(['compliance/compliance-packs.ts']);
    expect(graph.get(path.join(SRC, 'index.ts'))!.length).toBeGreaterThan(20);
  });

  test('profiles, context and compliance in one direction: an arrow back is named', () => {
    const [settings, keys, report] = ['profiles/profile-settings.ts', 'context/context-keys.ts', 'compliance/evidence-report.ts'].map((f) => path.join(SRC, f));
    expect(upwardImports(new Map([[keys, [settings]], [report, [keys, settings]]]))).toEqual([]);
    expect(upwardImports(new Map([[settings, [keys]], [keys, [report]]]))).toEqual([
      'profiles/profile-settings.ts imports context/context-keys.ts, a layer above it (LAYERS here; move what both need below them)',
      'context/context-keys.ts imports compliance/evidence-report.ts, a layer above it (LAYERS here; move what both need below them)',
    ]);
  });

  test('a long function and a long arrow function are measured', () => {
    const body = Array.from({ length: 85 }, (_, i) => `  const x${i} = ${i};`).join('\n');
    const lengths = functionLengths('x.ts', `export function long() {\n${body}\n}\nconst short = () => {\n  return 1;\n};\n`);
    expect(lengths).toEqual([{ where: 'x.ts:1 long', lines: 87 }, { where: 'x.ts:88 a function', lines: 3 }]);
  });
});

test('every warning is raised through warn() under an id of WARNING_IDS, each `@fw/core:<name>`', () => {
  const raisedElsewhere = files.filter((f) => !f.endsWith('warnings.ts') && /addWarningV2\(/.test(fs.readFileSync(f, 'utf-8'))).map(relative);
  expect(raisedElsewhere).toEqual([]);
  expect(Object.values(WARNING_IDS).filter((id) => !/^@fw\/core:[a-z]+(-[a-z0-9]+)*$/.test(id))).toEqual([]);
});

test('every property of a props interface in packages/core/src has a doc comment', () => {
  expect(files.flatMap((f) => undocumentedProps(f)).map((p) => path.relative(SRC, p))).toEqual([]);
});

test('negative control: an undocumented prop is named; a documented one and a non-props interface are not', () => {
  const text = 'interface FooProps {\n  /** Documented. */\n  readonly a: string;\n  readonly b: number;\n}\ninterface Other { readonly c: string }\n';
  expect(undocumentedProps('x.ts', text)).toEqual(['x.ts: FooProps.b']);
});

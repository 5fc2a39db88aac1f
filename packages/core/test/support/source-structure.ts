import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

/** Every `.ts` file under `dir`, absolute. */
export function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/**
 * The files each file imports or re-exports from, relative imports only, type-only ones and a lazy `require()`
 * included (the compiler's own parse, so a multi-line import or an `export ... from` counts the same).
 */
export function importGraph(files: string[]): Map<string, string[]> {
  return new Map(files.map((file) => {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf-8'), ts.ScriptTarget.Latest, true);
    const specifiers: string[] = [];
    const visit = (node: ts.Node) => {
      const spec = (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) ? node.moduleSpecifier
        : ts.isCallExpression(node) && node.expression.getText(source) === 'require' ? node.arguments[0] : undefined;
      if (spec && ts.isStringLiteral(spec) && spec.text.startsWith('.')) specifiers.push(spec.text);
      ts.forEachChild(node, visit);
    };
    visit(source);
    const targets = specifiers.flatMap((spec) => {
      const base = path.resolve(path.dirname(file), spec);
      return [`${base}.ts`, path.join(base, 'index.ts')].filter((f) => fs.existsSync(f)).slice(0, 1);
    });
    return [file, [...new Set(targets)]];
  }));
}

/** The import circles of a graph (Tarjan's strongly connected components of more than one file, or a self-import). */
export function importCircles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.includes(v)) circles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles;
}

/** Every function, method, constructor and arrow function with a body, by its first line and its length in lines. */
export function functionLengths(file: string, text = fs.readFileSync(file, 'utf-8')): { readonly where: string; readonly lines: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { where: string; lines: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      const named = (node as ts.FunctionLikeDeclaration).name?.getText(source) ?? (ts.isConstructorDeclaration(node) ? 'constructor' : 'a function');
      found.push({ where: `${file}:${first + 1} ${named}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every property of an interface named `...Props` in `file` without a doc comment, as `<file>: <Interface>.<property>`. */
export function undocumentedProps(file: string, text = fs.readFileSync(file, 'utf-8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isPropertySignature(node) && ts.isInterfaceDeclaration(node.parent) && /Props$/.test(node.parent.name.text) &&
      ts.getJSDocCommentsAndTags(node).length === 0) {
      found.push(`${file}: ${node.parent.name.text}.${node.name.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

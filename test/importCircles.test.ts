// No two files of src/ import each other, directly or around a circle: type imports and `export …
// from` count too (a type-only circle still ties the two files' meaning together). The graph is read
// with the TypeScript parser the build uses; its strongly connected components (Tarjan) are the circles.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve('src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The file a relative specifier names (`./x.js` is `./x.ts`); null for a package or a file outside the tree. */
function resolve(from: string, specifier: string, known: ReadonlySet<string>): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.js$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.d.ts`, path.join(base, 'index.ts')]) if (known.has(candidate)) return candidate;
  return null;
}

/** The modules a file names statically: imports (type ones too), `export … from`, and `import('…')` in type positions. */
function importsOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The strongly connected components of more than one file, or of one file that imports itself (Tarjan). */
function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const connect = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1 || graph.get(v)?.includes(v)) circles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return circles;
}

describe('import circles', () => {
  it('finds a circle, a type import included, and nothing in a tree', () => {
    expect(importsOf('a.ts', "import type { B } from './b.js';\nexport { c } from './c.js';\ntype D = import('./d.js').D;")).toEqual([
      './b.js',
      './c.js',
      './d.js',
    ]);
    const circles = circlesOf(
      new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', ['a', 'd']],
        ['d', []],
        ['e', ['e']],
      ]),
    );
    expect(circles).toEqual([['a', 'b', 'c'], ['e']]);
    expect(
      circlesOf(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('src/ has none', () => {
    const files = sourceFiles(SRC);
    const known = new Set(files);
    const graph = new Map<string, string[]>();
    for (const f of files) {
      const targets = importsOf(f, fs.readFileSync(f, 'utf8')).flatMap((s) => resolve(f, s, known) ?? []);
      graph.set(f, [...new Set(targets)]);
    }
    const circles = circlesOf(graph).map((c) => c.map((f) => path.relative(SRC, f)).join(' ⇄ '));
    expect(circles).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { markdownEquals, renderFileBody, segmentFile } from '../../dialect/index.js';
import { blockTree } from '../../../test/support/dialectArbitraries.js';
import { diffDocument, type DiffNode, type DocumentDiff } from './diff.js';
import { baseOf, blk, localOfSpecs, pg, type Spec } from '../../../test/support/coreSupport.js';
import type { LocalBlock } from '../types.js';

const opts = { equals: markdownEquals };

/** The annotated tree in a terse form: id (or +new), * changed, > moved; children nested. */
type Shape = string | [string, Shape[]];
function shape(nodes: DiffNode[]): Shape[] {
  return nodes.map((n) => {
    const tag = `${n.id ?? '+'}${n.changed ? '*' : ''}${n.moved ? '>' : ''}`;
    return n.local.kind === 'page' || n.local.kind === 'card' ? [tag, shape(n.children)] : tag;
  });
}

const ABC: Spec[] = [
  ['A', 'alpha one'],
  ['B', 'beta two'],
  ['C', 'gamma three'],
  ['D', 'delta four'],
];

function allIds(d: DocumentDiff): string[] {
  const out: string[] = [];
  const walk = (ns: DiffNode[]) =>
    ns.forEach((n) => {
      if (n.id) out.push(n.id);
      walk(n.children);
    });
  walk(d.nodes);
  return out;
}

describe('diffDocument', () => {
  it('matches an untouched document whole', () => {
    const d = diffDocument(baseOf(ABC), localOfSpecs(ABC), opts);
    expect(shape(d.nodes)).toEqual(['A', 'B', 'C', 'D']);
    expect(d.removed).toEqual([]);
    expect(d.exhaustive).toBe(true);
  });

  it('keeps the id of an edited block', () => {
    const local = [blk('alpha one'), blk('beta TWO, edited'), blk('gamma three'), blk('delta four')];
    expect(shape(diffDocument(baseOf(ABC), local, opts).nodes)).toEqual(['A', 'B*', 'C', 'D']);
  });

  it('finds inserted and deleted blocks', () => {
    const local = [blk('alpha one'), blk('new'), blk('newer'), blk('gamma three')];
    const d = diffDocument(baseOf(ABC), local, opts);
    expect(shape(d.nodes)).toEqual(['A', '+', '+', 'C']);
    expect(d.removed).toEqual(['B', 'D']);
  });

  it('treats forms the service normalises as no change', () => {
    const base = baseOf([
      ['A', '*em* and <highlight color="yellow">hi</highlight>'],
      ['B', '*****'],
      ['C', 'trailing'],
    ]);
    const local = [blk('_em_ and ==hi=='), blk('---'), blk('trailing  ')];
    const d = diffDocument(base, local, opts);
    expect(shape(d.nodes)).toEqual(['A', 'B', 'C']);
  });

  it('does not count a re-signed media URL as an edit', () => {
    const base = baseOf([{ id: 'I', type: 'image', markdown: '![Image](https://cdn.test/a.png?sig=1)' }, ['T', 'text']]);
    const local = [blk('![Image](https://cdn.test/a.png?sig=2)'), blk('text')];
    expect(shape(diffDocument(base, local, opts).nodes)).toEqual(['I', 'T']);
  });

  it('detects a moved block and keeps its id', () => {
    const local = [blk('beta two'), blk('gamma three'), blk('alpha one'), blk('delta four')];
    expect(shape(diffDocument(baseOf(ABC), local, opts).nodes)).toEqual(['B', 'C', 'A>', 'D']);
  });

  it('pairs an edit beside a deletion with the block it resembles, not the one that was there', () => {
    const base = baseOf([
      ['T', '- [ ] call the plumber about the sink'],
      ['P', 'The meeting is on Tuesday at ten in room four'],
    ]);
    const local = [blk('The meeting is on Wednesday at ten in room four')];
    const d = diffDocument(base, local, opts);
    expect(shape(d.nodes)).toEqual(['P*']);
    expect(d.removed).toEqual(['T']);
  });

  it('takes blocks rewritten in place as edits', () => {
    const local = [blk('alpha one'), blk('something else entirely'), blk('and another thing'), blk('delta four')];
    expect(shape(diffDocument(baseOf(ABC), local, opts).nodes)).toEqual(['A', 'B*', 'C*', 'D']);
  });

  it('does not pair blocks of different kinds', () => {
    const base = baseOf([
      ['A', 'x'],
      ['P', 'Title', []],
    ]);
    const local = [blk('x'), pg('Title', [], 'card')];
    const d = diffDocument(base, local, opts);
    expect(shape(d.nodes)).toEqual(['A', ['+', []]]);
    expect(d.removed).toEqual(['P']);
  });

  it('diffs nested pages: a title edit keeps the page, children are diffed inside', () => {
    const base = baseOf([
      ['A', 'intro'],
      [
        'P',
        'Plans',
        [
          ['C1', 'first'],
          ['C2', 'second'],
        ],
      ],
      ['Z', 'end'],
    ]);
    const local = [blk('intro'), pg('Plans for 2027', [blk('first'), blk('added'), blk('second, edited')]), blk('end')];
    expect(shape(diffDocument(base, local, opts).nodes)).toEqual(['A', ['P*', ['C1', '+', 'C2*']], 'Z']);
  });

  it('creates the children of a new page with it', () => {
    const base = baseOf([['A', 'intro']]);
    const local = [blk('intro'), pg('New', [blk('child'), pg('Inner', [blk('deep')])])];
    expect(shape(diffDocument(base, local, opts).nodes)).toEqual(['A', ['+', ['+', ['+', ['+']]]]]);
  });

  it('keeps ids of blocks moved into and out of pages', () => {
    const base = baseOf([
      ['A', 'moves in'],
      [
        'P',
        'Page',
        [
          ['C', 'moves out'],
          ['D', 'stays'],
        ],
      ],
      ['Q', 'Gone page', [['E', 'rescued']]],
    ]);
    const local = [pg('Page', [blk('stays'), blk('moves in')]), blk('moves out'), blk('rescued')];
    const d = diffDocument(base, local, opts);
    expect(shape(d.nodes)).toEqual([['P', ['D', 'A>']], 'C>', 'E>']);
    expect(d.removed).toEqual(['Q']);
  });

  it('keeps ids when a whole page moves', () => {
    const base = baseOf([
      ['P', 'Page', [['C', 'child']]],
      ['A', 'a'],
      ['B', 'b'],
    ]);
    const local = [blk('a'), blk('b'), pg('Page', [blk('child'), blk('new child')])];
    expect(shape(diffDocument(base, local, opts).nodes)).toEqual(['A', 'B', ['P>', ['C', '+']]]);
  });

  it('pairs repeated identical blocks (empty paragraphs) in order', () => {
    const base = baseOf([
      ['E1', ''],
      ['A', 'a'],
      ['E2', ''],
      ['E3', ''],
      ['B', 'b'],
    ]);
    const local = [blk(''), blk('a'), blk(''), blk('b'), blk('')];
    const d = diffDocument(base, local, opts);
    const ids = allIds(d);
    expect(new Set(ids).size).toBe(ids.length);
    expect(d.nodes.map((n) => n.id).filter((id) => id === 'A' || id === 'B')).toEqual(['A', 'B']);
    expect(ids.length + d.removed.length).toBe(5);
  });

  it('falls back safely on a huge rewrite past the work bound', () => {
    const base = baseOf(Array.from({ length: 300 }, (_, i): Spec => [`B${i}`, i % 2 ? 'x' : 'y']));
    const local = Array.from({ length: 300 }, (_, i) => blk(i % 3 ? 'x' : 'z'));
    const d = diffDocument(base, local, { equals: markdownEquals, maxWork: 500 });
    expect(d.exhaustive).toBe(false);
    const ids = allIds(d);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length + d.removed.length).toBe(300);
    const check = (ns: DiffNode[]) =>
      ns.forEach((n) => {
        if (n.id && !n.changed) expect(markdownEquals(n.base!.markdown, n.local.markdown)).toBe(true);
      });
    check(d.nodes);
  });
});

describe('diffDocument properties', () => {
  it('a file rendered from the base is no change at all (through the real dialect)', () => {
    fc.assert(
      fc.property(blockTree, (blocks) => {
        const base = baseOf({ id: 'DOC', type: 'page', markdown: 'Doc', content: blocks });
        const local = segmentFile(renderFileBody(blocks)).segments;
        const d = diffDocument(base, local, opts);
        const flags: string[] = [];
        const walk = (ns: DiffNode[]) =>
          ns.forEach((n) => {
            if (n.id === null || n.changed || n.moved) flags.push(n.local.markdown);
            walk(n.children);
          });
        walk(d.nodes);
        expect(flags).toEqual([]);
        expect(d.removed).toEqual([]);
        expect(allIds(d)).toEqual(base.map((b) => b.id));
      }),
      { numRuns: 300 },
    );
  });

  // Random edits of a flat document: ids stay unique, untouched blocks keep theirs, and `changed` is exact.
  const edits = fc.array(
    fc.oneof(
      fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom('new', 'fresh words', '') }),
      fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
      fc.record({ op: fc.constant('edit' as const), at: fc.nat() }),
      fc.record({ op: fc.constant('move' as const), at: fc.nat(), to: fc.nat() }),
    ),
    { maxLength: 12 },
  );

  it('keeps the ids of untouched blocks and never pairs a block twice', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), edits, (n, ops) => {
        const specs: Spec[] = Array.from({ length: n }, (_, i): Spec => [`B${i}`, `block number ${i} with some words`]);
        const base = baseOf(specs);
        const local: Array<{ block: LocalBlock; origin: string | null; edited: boolean }> = specs.map((s) => ({
          block: blk((s as [string, string])[1]),
          origin: (s as [string, string])[0],
          edited: false,
        }));
        for (const op of ops) {
          if (op.op === 'insert') local.splice(op.at % (local.length + 1), 0, { block: blk(op.text), origin: null, edited: false });
          else if (local.length === 0) continue;
          else if (op.op === 'delete') local.splice(op.at % local.length, 1);
          else if (op.op === 'edit') {
            const e = local[op.at % local.length]!;
            local[op.at % local.length] = { ...e, block: blk(`${e.block.markdown} (edited)`), edited: true };
          } else {
            const [e] = local.splice(op.at % local.length, 1);
            local.splice(op.to % (local.length + 1), 0, e!);
          }
        }
        const d = diffDocument(
          base,
          local.map((e) => e.block),
          opts,
        );
        const ids = allIds(d);
        expect(new Set(ids).size).toBe(ids.length);
        expect(new Set([...ids, ...d.removed]).size).toBe(n);
        d.nodes.forEach((node, i) => {
          const e = local[i]!;
          if (e.origin !== null && !e.edited && new Set(local.map((x) => x.block.markdown)).size === local.length) expect(node.id).toBe(e.origin);
          if (node.id !== null) expect(node.changed).toBe(!markdownEquals(node.base!.markdown, node.local.markdown));
        });
      }),
      { numRuns: 400 },
    );
  });
});

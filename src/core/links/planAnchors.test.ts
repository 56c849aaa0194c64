import { describe, expect, it } from 'vitest';
import { hashBlock } from '../merge/hashBlock.js';
import { keepBaseMarkers, markAnchors, planAnchors, type AnchorDoc, type AnchorTable, type FormerAnchor, type PlanAnchorsInput } from './planAnchors.js';
import { rewriteFileBlocks } from '../merge/alignFile.js';
import type { BaseBlock, RemoteBlock } from '../types.js';

const block = (id: string, markdown: string, position = 0, type = 'text'): BaseBlock => ({
  id,
  parentId: null,
  position,
  level: 0,
  kind: 'block',
  type,
  markdown,
  hash: hashBlock(markdown, 'block'),
});
const paths: Record<string, string> = { D: 'Projects/Roadmap.md', N: 'Unsorted/Notes.md' };
const targets = { pathOf: (id: string) => paths[id], idOf: (p: string) => Object.keys(paths).find((k) => paths[k] === p) };

function input(docs: Record<string, BaseBlock[]>, table: AnchorTable = {}, former: FormerAnchor[] = []): PlanAnchorsInput {
  const at = (id: string): AnchorDoc | undefined => (docs[id] ? { path: paths[id]!, base: docs[id]! } : undefined);
  return {
    candidates: Object.keys(docs),
    doc: at,
    table,
    former,
    targets,
    documentOf: (b) => Object.keys(docs).find((d) => docs[d]!.some((x) => x.id === b)),
  };
}
const roadmap = (goals = '# Goals', para = 'the plan') => [block('GOAL0001', goals, 0), block('PARA0001', para, 1)];
const md = (plan: ReturnType<typeof planAnchors>, doc: string) => plan.next.get(doc)?.map((b) => b.markdown);

describe('anchors decided from the bases', () => {
  it('a block:// link the journal can place: the link shows its anchor, and a paragraph gets its marker', () => {
    const plan = planAnchors(input({ D: roadmap(), N: [block('N1', 'see [g](block://GOAL0001) and [p](block://PARA0001), [x](block://ELSEWHERE)')] }));
    expect(plan.table).toEqual({ GOAL0001: { doc: 'D', fragment: 'Goals' }, PARA0001: { doc: 'D', fragment: '^para0001' } });
    expect(md(plan, 'N')).toEqual(['see [g](../Projects/Roadmap.md#Goals) and [p](../Projects/Roadmap.md#^para0001), [x](block://ELSEWHERE)']);
    expect(md(plan, 'D')).toEqual(['# Goals', 'the plan ^para0001']);
    expect(plan.next.get('D')![1]!.hash).toBe(hashBlock('the plan ^para0001', 'block'));
  });

  it('a block:// link to a document that had no file when it was written: once it has one, its relative link', () => {
    // D has no file yet (its folder held back): the link stays.
    const noFile = { pathOf: (id: string) => (id === 'D' ? undefined : paths[id]), idOf: targets.idOf };
    const before = planAnchors({ ...input({ N: [block('N1', 'see [r](block://D) and [x](block://ELSEWHERE)')] }), targets: noFile });
    expect(before.next.size).toBe(0);
    const plan = planAnchors(input({ D: roadmap(), N: [block('N1', 'see [r](block://D) and [x](block://ELSEWHERE)')] }));
    expect(md(plan, 'N')).toEqual(['see [r](../Projects/Roadmap.md) and [x](block://ELSEWHERE)']);
  });

  it('nothing changed: nothing to rewrite', () => {
    const table: AnchorTable = { PARA0001: { doc: 'D', fragment: '^para0001' } };
    const plan = planAnchors(input({ D: roadmap('# Goals', 'the plan ^para0001'), N: [block('N1', '[p](../Projects/Roadmap.md#^para0001)')] }, table));
    expect(plan.table).toEqual(table);
    expect(plan.next.size).toBe(0);
  });

  it('a heading renamed: the links to it follow, and the old name is remembered', () => {
    const table: AnchorTable = { GOAL0001: { doc: 'D', fragment: 'Goals' } };
    const plan = planAnchors(input({ D: roadmap('# Aims for **2027**'), N: [block('N1', '[g](../Projects/Roadmap.md#Goals)')] }, table));
    expect(plan.table.GOAL0001).toEqual({ doc: 'D', fragment: 'Aims for 2027' });
    expect(md(plan, 'N')).toEqual(['[g](../Projects/Roadmap.md#Aims%20for%202027)']);
    expect(plan.former).toEqual([{ doc: 'D', fragment: 'Goals', block: 'GOAL0001' }]);
    // A file not rewritten then still says the old name: it is read back through the former anchors.
    const later = planAnchors(
      input({ D: roadmap('# Aims for **2027**'), N: [block('N1', 'edited [g](../Projects/Roadmap.md#Goals)')] }, plan.table, plan.former),
    );
    expect(md(later, 'N')).toEqual(['edited [g](../Projects/Roadmap.md#Aims%20for%202027)']);
  });

  it('the last link gone: the marker goes, only the one the sync wrote', () => {
    const table: AnchorTable = { PARA0001: { doc: 'D', fragment: '^para0001' } };
    const plan = planAnchors(
      input({ D: [block('GOAL0001', '# Goals ^mine'), block('PARA0001', 'the plan ^para0001', 1)], N: [block('N1', 'no link now')] }, table),
    );
    expect(plan.table).toEqual({});
    expect(md(plan, 'D')).toEqual(['# Goals ^mine', 'the plan']);
  });

  it('a block the mirror no longer has: the link shows as the space holds it', () => {
    const table: AnchorTable = { PARA0001: { doc: 'D', fragment: '^para0001' } };
    const plan = planAnchors(input({ D: [block('GOAL0001', '# Goals')], N: [block('N1', '[p](../Projects/Roadmap.md#^para0001)')] }, table));
    expect(md(plan, 'N')).toEqual(['[p](block://PARA0001)']);
  });

  it('a typed link to an anchor no block was named by stays as typed and anchors nothing', () => {
    const plan = planAnchors(input({ D: roadmap(), N: [block('N1', '[p](../Projects/Roadmap.md#^para0001) [g](../Projects/Roadmap.md#Goals)')] }));
    expect(plan.table).toEqual({});
    expect(plan.next.size).toBe(0);
  });

  it('a link in code, or in a code block, is no link', () => {
    const plan = planAnchors(input({ D: roadmap(), N: [block('N1', '`[p](block://PARA0001)`'), block('N2', '```\n[p](block://PARA0001)\n```', 1, 'code')] }));
    expect(plan.table).toEqual({});
  });
});

describe('a file rewritten to the anchors', () => {
  const base = [block('A', 'one'), block('B', '- two', 1), block('C', '- three', 2)];
  const text = '---\nid: D\n---\none\n\n- two\n- three\n';
  it('changes only the blocks that change', () => {
    const next = [base[0]!, { ...base[1]!, markdown: '- two ^b' }, base[2]!];
    expect(rewriteFileBlocks(text, base, next)).toBe('---\nid: D\n---\none\n\n- two ^b\n- three\n');
    expect(rewriteFileBlocks(text.replace('one', 'uno'), base, next)).toBeNull();
  });
  it('a base recorded from answers gets the markers of its anchored blocks', () => {
    const marked = markAnchors(base, (id) => (id === 'C' ? { doc: 'D', fragment: '^c' } : id === 'A' ? { doc: 'D', fragment: 'One' } : undefined));
    expect(marked.map((b) => b.markdown)).toEqual(['one', '- two', '- three ^c']);
    expect(markAnchors(base, () => undefined)).toBe(base);
  });
});

const remote = (id: string, markdown: string): RemoteBlock => ({ id, parentId: null, position: 0, level: 0, kind: 'block', type: 'text', markdown });
const base = (id: string, markdown: string): BaseBlock => ({ ...remote(id, markdown), hash: hashBlock(markdown) });
const owned = (id: string): ReadonlySet<string> => new Set(id === 'A' || id === 'B' ? [id.toLowerCase()] : []);

describe("the service's blocks against base, markers aside", () => {
  it('takes base for a block that differs only by its own marker, either way; a real change or another marker stays', () => {
    const out = keepBaseMarkers(
      [remote('A', 'text ^a'), remote('B', 'other'), remote('C', 'new text'), remote('D', 'd ^d')],
      [base('A', 'text'), base('B', 'other ^b'), base('C', 'old text'), base('D', 'd')],
      owned,
    );
    expect(out.map((b) => b.markdown)).toEqual(['text', 'other ^b', 'new text', 'd ^d']);
    const same = [remote('C', 'x')];
    expect(keepBaseMarkers(same, [base('C', 'x')], owned)).toBe(same);
  });
});

// Seeded random edits of a file and of the service, through what the push does with them (the
// core's merge, then the file rewritten by renderMerged): nothing either side changed is lost, the
// file shows exactly the merged document, and merging a side with itself is the identity.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEmptyChangeSet } from '../../../test/support/coreSupport.js';
import { hashBlock } from './hashBlock.js';
import type { MergedNode } from './merge.js';
import type { BaseBlock, RemoteBlock } from '../types.js';
import { renderFileBody, segmentFile, type Block, type Segment } from '../../dialect/index.js';
import { mergeFile } from './mergeFile.js';
import { parseLocalDocument } from '../../sync/documents/push/readLocalDocument.js';
import { renderMerged, shownMarkdown } from './renderMerged.js';

interface Item {
  id: string;
  md: string;
}
type Op = { op: 'edit'; at: number } | { op: 'delete'; at: number } | { op: 'insert'; at: number; list: boolean } | { op: 'move'; at: number; to: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('edit' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), list: fc.boolean() }),
  fc.record({ op: fc.constant('move' as const), at: fc.nat(), to: fc.nat() }),
);
const doc = fc
  .array(fc.boolean(), { minLength: 1, maxLength: 8 })
  .map((kinds) => kinds.map((list, i): Item => ({ id: `B${i}`, md: list ? `- item ${i}` : `paragraph ${i}` })));

/** Applies ops; every text an op writes is new and names its side, so it can be looked for after. */
function apply(items: readonly Item[], ops: readonly Op[], side: string): Item[] {
  const out = [...items];
  ops.forEach((o, k) => {
    if (out.length === 0 && o.op !== 'insert') return;
    const at = o.at % Math.max(1, out.length);
    if (o.op === 'edit') out[at] = { ...out[at]!, md: `${out[at]!.md.startsWith('- ') ? '- ' : ''}${side} edit ${k} of ${out[at]!.id}` };
    else if (o.op === 'delete') out.splice(at, 1);
    else if (o.op === 'insert') out.splice(o.at % (out.length + 1), 0, { id: `${side}${k}`, md: `${o.list ? '- ' : ''}${side} new ${k}` });
    else {
      const [b] = out.splice(at, 1);
      out.splice(o.to % (out.length + 1), 0, b!);
    }
  });
  return out;
}

const remoteOf = (items: readonly Item[]): RemoteBlock[] =>
  items.map((it, i) => ({ id: it.id, parentId: null, position: i, level: 0, kind: 'block', type: 'text', markdown: it.md }));
const baseOf = (items: readonly Item[]): BaseBlock[] => remoteOf(items).map((r) => ({ ...r, hash: hashBlock(r.markdown) }));
const blocksOf = (items: readonly Item[]): Block[] =>
  items.map((it) => ({ id: it.id, type: 'text', markdown: it.md, ...(it.md.startsWith('- ') ? { listStyle: 'bullet' as const } : {}) }));
const fileOf = (items: readonly Item[]) => `---\nid: DOC\n---\n${renderFileBody(blocksOf(items))}`;
const flat = (segs: readonly Segment[]): string[] => segs.flatMap((s) => [s.markdown, ...flat(s.children)]);
const shown = (nodes: readonly MergedNode[]): string[] => nodes.flatMap((n) => [shownMarkdown(n), ...shown(n.children)]);

describe("the push's merge of a file, with the file rewritten", () => {
  it('loses nothing either side changed, and the file shows the merged document', () => {
    fc.assert(
      fc.property(doc, fc.array(op, { maxLength: 5 }), fc.array(op, { maxLength: 5 }), (base, localOps, remoteOps) => {
        const localItems = apply(base, localOps, 'L');
        const remoteItems = apply(base, remoteOps, 'R');
        const text = fileOf(localItems);
        const local = parseLocalDocument('Doc.md', text, 'h');
        const m = mergeFile(baseOf(base), local, remoteOf(remoteItems));
        const out = renderMerged(local, m.merge.nodes, new Map(blocksOf(remoteItems).map((b) => [b.id, b])));
        const outTexts = flat(segmentFile(out).segments);

        expect(outTexts).toEqual(shown(m.merge.nodes));
        const baseTexts = new Set(base.map((b) => b.md));
        for (const t of remoteItems.map((i) => i.md)) if (!baseTexts.has(t)) expect(outTexts).toContain(t);
        // The file's own changes are in the result, or (on a conflict) in the copy of the whole file.
        if (m.merge.conflicts.length === 0) for (const t of localItems.map((i) => i.md)) if (!baseTexts.has(t)) expect(outTexts).toContain(t);
        expect(out.startsWith('---\nid: DOC\n---\n')).toBe(true);
      }),
      { seed: 20261121, numRuns: 300 },
    );
  });

  it('merging a side with itself changes nothing: no request, no conflict, the file as it is', () => {
    fc.assert(
      fc.property(doc, fc.array(op, { maxLength: 6 }), (base, ops) => {
        const same = apply(base, ops, 'S');
        const text = fileOf(same);
        const local = parseLocalDocument('Doc.md', text, 'h');
        const m = mergeFile(baseOf(base), local, remoteOf(same));
        expect(isEmptyChangeSet(m.changes)).toBe(true);
        expect(m.merge.conflicts).toEqual([]);
        expect(renderMerged(local, m.merge.nodes, new Map(blocksOf(same).map((b) => [b.id, b])))).toBe(text);
      }),
      { seed: 20261122, numRuns: 300 },
    );
  });
});

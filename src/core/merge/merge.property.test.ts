// Seeded random edits on both sides of a document: the merge loses nothing either side changed,
// converges, is the identity on equal sides, and a second run changes nothing.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { MergedNode } from './merge.js';
import {
  applyChanges,
  applyOps,
  isEmptyChangeSet,
  runMerge,
  outlineOfLocal,
  outlineOfMerged,
  outlineOfRemote,
  toBase,
  toLocal,
  toRemote,
  type Op,
  type Outline,
  type T,
} from '../../../test/support/coreSupport.js';
import type { LocalBlock, RemoteBlock } from '../types.js';

const texts = (o: Outline, out = new Set<string>()): Set<string> => {
  for (const x of o) {
    if (typeof x === 'string') out.add(x);
    else {
      out.add(x[0].replace(/^(page|card):/, ''));
      texts(x[1], out);
    }
  }
  return out;
};
const localFromMerged = (nodes: readonly MergedNode[]): LocalBlock[] =>
  nodes.map((n) => ({
    markdown: n.source === 'local' && n.local ? n.local.markdown : n.markdown,
    kind: n.kind,
    children: localFromMerged(n.children),
  }));

const baseDoc: fc.Arbitrary<T[]> = fc.array(fc.record({ page: fc.boolean(), kids: fc.integer({ min: 0, max: 3 }) }), { maxLength: 8 }).map((items) =>
  items.map((it, i): T =>
    it.page
      ? {
          id: `P${i}`,
          md: `page ${i}`,
          kind: 'page',
          children: Array.from({ length: it.kids }, (_, k): T => ({ id: `P${i}c${k}`, md: `child ${i}.${k}`, kind: 'block', children: [] })),
        }
      : { id: `B${i}`, md: `text ${i}`, kind: 'block', children: [] },
  ),
);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('edit' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), page: fc.boolean(), into: fc.boolean() }),
  fc.record({ op: fc.constant('move' as const), at: fc.nat(), to: fc.nat() }),
);
const ops = fc.array(op, { maxLength: 6 });

describe('mergeDocument properties', () => {
  it('loses nothing either side changed, converges, and a second cycle changes nothing', () => {
    fc.assert(
      fc.property(baseDoc, ops, ops, (doc, localOps, remoteOps) => {
        const base = toBase(toRemote(doc));
        const localTree = applyOps(doc, localOps, 'L');
        const remoteTree = applyOps(doc, remoteOps, 'R');
        const { m, cs, after } = runMerge(base, toLocal(localTree), toRemote(remoteTree));
        const file = outlineOfMerged(m.nodes, 'file');

        // An edit beats a delete: what the service changed or added is never deleted without its text
        // living on (a block the file moved into a new page is re-created there).
        const remoteNow = toRemote(remoteTree);
        const subtree = (id: string): RemoteBlock[] => [
          ...remoteNow.filter((r) => r.id === id),
          ...remoteNow.filter((r) => r.parentId === id).flatMap((r) => subtree(r.id)),
        ];
        const serviceTexts = texts(outlineOfMerged(m.nodes, 'service'));
        for (const id of cs.deletes) {
          for (const r of subtree(id)) if (base.find((b) => b.id === r.id)?.markdown !== r.markdown) expect(serviceTexts.has(r.markdown)).toBe(true);
        }

        // Convergence: the service ends up holding the merged document, and the file shows it.
        expect(outlineOfRemote(after)).toEqual(outlineOfMerged(m.nodes, 'service'));
        expect(file).toEqual(outlineOfMerged(m.nodes, 'service'));
        expect(m.problems).toEqual([]);

        // Nothing lost: every text either side changed or added is in the result or, for the file's, in the conflict copy.
        const baseTexts = new Set(base.map((b) => b.markdown));
        const result = texts(file);
        const kept = new Set(m.conflicts.map((c) => c.local));
        for (const t of texts(outlineOfLocal(toLocal(localTree)))) if (!baseTexts.has(t)) expect(result.has(t) || kept.has(t)).toBe(true);
        for (const t of texts(outlineOfLocal(toLocal(remoteTree)))) if (!baseTexts.has(t)) expect(result.has(t)).toBe(true);

        // Identity: blocks nobody touched keep their ids (also when moved into a page created now).
        const remoteIds = new Map(toRemote(remoteTree).map((r) => [r.id, r.markdown]));
        const afterIds = new Set(after.map((r) => r.id));
        const untouched = (ts: T[]) =>
          ts.forEach((t) => {
            if (t.id !== null && remoteIds.get(t.id) === t.md && base.find((b) => b.id === t.id)?.markdown === t.md) expect(afterIds.has(t.id)).toBe(true);
            untouched(t.children);
          });
        untouched(localTree);

        // Idempotence: the next cycle, from what was recorded and written, sends nothing and rewrites nothing.
        const next = runMerge(toBase(after), localFromMerged(m.nodes), after);
        expect(next.cs).toMatchObject({ edits: [], moves: [], inserts: [], deletes: [] });
        expect(next.m.fileChanged).toBe(false);
        expect(next.m.conflicts).toEqual([]);
      }),
      { numRuns: Number(process.env.CORE_PROPERTY_RUNS ?? 1500) },
    );
  });

  it('is the identity when the file already shows the service (merging a side with itself)', () => {
    fc.assert(
      fc.property(baseDoc, ops, (doc, remoteOps) => {
        const base = toBase(toRemote(doc));
        const remoteTree = applyOps(doc, remoteOps, 'R');
        const { m, cs } = runMerge(base, toLocal(remoteTree), toRemote(remoteTree));
        expect(isEmptyChangeSet(cs)).toBe(true);
        expect(m.conflicts).toEqual([]);
        expect(m.fileChanged).toBe(false);
      }),
      { numRuns: Number(process.env.CORE_PROPERTY_RUNS ?? 800) },
    );
  });

  it('applying the changes of a local-only edit to base gives the file', () => {
    fc.assert(
      fc.property(baseDoc, ops, (doc, localOps) => {
        const base = toBase(toRemote(doc));
        const localTree = applyOps(doc, localOps, 'L');
        const { m, after } = runMerge(base, toLocal(localTree), undefined);
        expect(outlineOfRemote(after)).toEqual(outlineOfLocal(toLocal(localTree)));
        expect(m.fileChanged).toBe(false);
      }),
      { numRuns: Number(process.env.CORE_PROPERTY_RUNS ?? 800) },
    );
  });

  it('takes the short way for a file-only change with the same result as the full merge', () => {
    fc.assert(
      fc.property(baseDoc, ops, (doc, localOps) => {
        const base = toBase(toRemote(doc));
        const local = toLocal(applyOps(doc, localOps, 'L'));
        const short = runMerge(base, local, undefined);
        const full = runMerge(base, local, base);
        expect({ ...short.cs, expected: undefined }).toEqual({ ...full.cs, expected: undefined });
        expect(outlineOfRemote(short.after)).toEqual(outlineOfRemote(full.after));
        expect(short.m.fileChanged).toBe(full.m.fileChanged);
      }),
      { numRuns: Number(process.env.CORE_PROPERTY_RUNS ?? 800) },
    );
  });

  it('recovers from a push cut short at any phase: the next cycle ends where the full push would have, nothing doubled', () => {
    fc.assert(
      fc.property(baseDoc, ops, fc.integer({ min: 0, max: 3 }), (doc, localOps, phase) => {
        const base = toBase(toRemote(doc));
        const local = toLocal(applyOps(doc, localOps, 'L'));
        const { cs } = runMerge(base, local, undefined);
        // What reached the service before the crash: edits, then moves, then inserts (and late moves); never the deletes.
        const partial = {
          ...cs,
          moves: phase >= 1 ? cs.moves : [],
          inserts: phase >= 2 ? cs.inserts : [],
          lateMoves: phase >= 3 ? cs.lateMoves : [],
          deletes: [],
        };
        if (phase < 2 && cs.lateMoves.length > 0) partial.lateMoves = [];
        let n = 0;
        const ids = new Map<string, string>();
        const crashed = applyChanges(base, partial, (ref) => {
          if (!ids.has(ref)) ids.set(ref, `X${++n}`);
          return ids.get(ref)!;
        });
        // The journal still holds the old base (nothing was recorded); the file is unchanged.
        const next = runMerge(base, local, crashed);
        expect(next.m.conflicts).toEqual([]);
        expect(outlineOfRemote(next.after)).toEqual(outlineOfLocal(local));
        expect(next.m.fileChanged).toBe(false);
      }),
      { numRuns: Number(process.env.CORE_PROPERTY_RUNS ?? 800) },
    );
  });
});

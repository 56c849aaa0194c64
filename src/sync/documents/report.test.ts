import { describe, expect, it } from 'vitest';
import type { SyncContext } from '../context/index.js';
import { emptyPullResult, type PullCycleResult } from './pull/pullDocuments.js';
import type { PushResult } from './push/pushDocuments.js';
import { pullPart, pushPart } from './report.js';
const cycle = (over: Partial<PullCycleResult>): PullCycleResult => ({ ...emptyPullResult(''), requests: 3, ...over });

const step = (method: string) => ({ method, path: '/x', describe: '', blocks: 0, docs: [] });

function push(
  tasks: Array<{ doc: string; path: string; title: string; decision: Record<string, unknown>; record?: { id: string; title: string; path: string } }>,
  folders: Array<{ path: string }> = [],
): PushResult {
  return {
    plan: {
      refused: null,
      heldBack: [],
      steps: [],
      problems: [],
      pendingIntents: 0,
      reads: 0,
      folders: folders.length
        ? {
            creates: folders.map((f, i) => ({ ref: `r${i}`, name: f.path, parent: null, path: f.path })),
            renames: [],
            moves: [],
            deletes: [],
            folderOfDir: new Map(),
            problems: [],
          }
        : null,
      tasks: tasks.map((t) => ({
        doc: t.doc,
        record: t.record ?? null,
        decision: { content: 'none', conflicts: [], problems: [], ...t.decision },
        next: { path: t.path, title: t.title },
      })),
    },
    outcome: {
      sent: [step('PUT'), step('GET')],
      documents: tasks.map((t) => ({ id: t.doc, path: t.path, state: 'recorded', fileWritten: false, conflicts: [], conflictCopy: null })),
      failed: [],
      stale: [],
      blocksWritten: 1,
      conflicts: 0,
      aborted: false,
    },
    requests: 2,
  } as unknown as PushResult;
}

/** A context whose journal knows documents' titles by id. */
const ctx = (titles: Record<string, string> = {}) =>
  ({ journal: { getDocument: (id: string) => (titles[id] ? { title: titles[id] } : undefined) } }) as unknown as SyncContext;

describe("the documents' part of a report", () => {
  it('a push: each document by title with what happened, a rename with the old title, a new folder as a folder', () => {
    const part = pushPart(
      push(
        [
          {
            doc: 'D1',
            path: 'Projects/Plans.md',
            title: 'Plans',
            decision: { rename: 'Plans' },
            record: { id: 'D1', title: 'Roadmap', path: 'Projects/Roadmap.md' },
          },
          { doc: 'D2', path: 'Inbox.md', title: 'Inbox', decision: { content: 'push' } },
          { doc: 'D3', path: 'Trash/Old.md', title: 'Old', decision: { trash: true } },
        ],
        [{ path: 'Work/Ideas' }],
      ),
    );
    expect(part.changes).toEqual([
      { kind: 'document', side: 'local', action: 'renamed', path: 'Projects/Plans.md', title: 'Plans', from: 'Roadmap' },
      { kind: 'document', side: 'local', action: 'updated', path: 'Inbox.md', title: 'Inbox' },
      { kind: 'document', side: 'local', action: 'deleted', path: 'Trash/Old.md', title: 'Old', detail: "moved to the space's trash" },
      { kind: 'folder', side: 'local', action: 'created', path: 'Work/Ideas', title: 'Ideas' },
    ]);
    expect(part.requests).toBe(2);
    expect(part.blocksWritten).toBe(1);
  });

  it('a pull: titles from the journal, a rename with its old name, and the trash of a first pull not called deleted', () => {
    const c = ctx({ a: 'Quick idea!', b: 'Recipes', c: 'Renamed' });
    expect(pullPart(c, cycle({ written: [{ id: 'a', path: 'Unsorted/Quick idea_.md', mode: 'splice' }] }), false).changes).toEqual([
      { kind: 'document', side: 'remote', action: 'updated', path: 'Unsorted/Quick idea_.md', title: 'Quick idea!' },
    ]);
    const trash = cycle({ written: [{ id: 'b', path: 'Trash/Recipes.md', mode: 'new' }] });
    expect(pullPart(c, trash, false).changes![0]).toMatchObject({ action: 'deleted', detail: 'kept in Trash/' });
    expect(pullPart(c, trash, true).changes![0]).toMatchObject({ action: 'created', detail: "in the space's trash" });
    expect(pullPart(c, cycle({ moved: [{ id: 'c', from: 'Work/Old name.md', to: 'Work/Renamed.md' }] }), false).changes).toEqual([
      { kind: 'document', side: 'remote', action: 'renamed', path: 'Work/Renamed.md', title: 'Renamed', from: 'Old name' },
    ]);
    expect(pullPart(c, cycle({ createdDirs: ['Unsorted'] }), false).changes).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { PullCycleResult } from '../sync/index.js';
import type { PushResult } from '../sync/index.js';
import { describePull, describePush } from './describeCycle.js';
import { nameList } from './format.js';

const cycle = (over: Partial<PullCycleResult>): PullCycleResult => ({
  startedAt: '',
  finishedAt: '',
  refused: null,
  aborted: false,
  fullScan: false,
  listed: [],
  remoteChanged: [],
  localChanged: [],
  written: [],
  unchanged: [],
  moved: [],
  folderMoves: [],
  relinked: [],
  anchored: [],
  createdDirs: [],
  removedDirs: [],
  purged: [],
  localPending: [],
  blocked: [],
  failed: [],
  ignored: [],
  unplaced: [],
  requests: 3,
  quiet: false,
  listing: 'full',
  plan: null,
  ...over,
});

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

describe('the lines a cycle prints', () => {
  it('names up to three, then counts', () => {
    expect(nameList(['a', 'b'])).toBe('a, b');
    expect(nameList(['a', 'b', 'c', 'd', 'e'])).toBe('a, b, c and 2 more');
  });

  it('a push names each document with what happened to it, and a new folder as a folder', () => {
    expect(
      describePush(
        push([
          {
            doc: 'D1',
            path: 'Projects/Plans.md',
            title: 'Plans',
            decision: { rename: 'Plans' },
            record: { id: 'D1', title: 'Roadmap', path: 'Projects/Roadmap.md' },
          },
          { doc: 'D2', path: 'Inbox.md', title: 'Inbox', decision: { content: 'push' } },
        ]),
      ),
    ).toBe('Pushed: Plans (renamed from "Roadmap"), Inbox (edited); 1 request, 1 block written.');
    expect(describePush(push([], [{ path: 'Work/Ideas' }]))).toBe('Pushed: folder Work/Ideas (new); 1 request, 1 block written.');
    expect(describePush(push([{ doc: 'D3', path: 'Trash/Old.md', title: 'Old', decision: { trash: true } }]))).toContain(
      "Old (deleted here: moved to the space's trash)",
    );
  });

  it('a pull says new, updated, moved, and a file of a deleted document kept in Trash/ is not "new"', () => {
    expect(describePull(cycle({ written: [{ id: 'a', path: 'Unsorted/Quick idea.md', mode: 'splice' }] }))).toBe('Pulled: 1 updated (3 requests): Quick idea.');
    expect(describePull(cycle({ written: [{ id: 'a', path: 'Trash/Recipes.md', mode: 'new' }] }))).toBe(
      'Pulled: 1 deleted, kept in Trash/ (3 requests): Recipes.',
    );
    expect(
      describePull(
        cycle({
          written: [
            { id: 'a', path: 'A.md', mode: 'new' },
            { id: 'b', path: 'B.md', mode: 'render' },
          ],
          moved: [{ id: 'c', from: 'C.md', to: 'Work/C.md' }],
        }),
      ),
    ).toBe('Pulled: 1 new, 1 updated, 1 moved (3 requests): A (new), B (updated), C to Work/ (moved).');
    expect(describePull(cycle({ createdDirs: ['Unsorted'] }))).toBeNull();
  });
});

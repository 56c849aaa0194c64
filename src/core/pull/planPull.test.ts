import { describe, expect, it } from 'vitest';
import { planLayout } from './layout.js';
import { planPull, type PullInput } from './planPull.js';
import type { LocalChange, PullFolderRecord, PullRecord } from './PullPlan.js';
import type { Placement, RemoteDocument, RemoteFolder } from '../remoteTypes.js';

const AT = '2026-09-01T00:00:00.000Z';
const LATER = '2026-09-02T00:00:00.000Z';
const unsorted: Placement = { location: 'unsorted', folderId: null, dailyNoteDate: null };
const inFolder = (folderId: string): Placement => ({ location: 'folder', folderId, dailyNoteDate: null });

interface Doc {
  id: string;
  title: string;
  at?: Placement;
  was?: Placement;
  modified?: string;
  path?: string;
  fileHash?: string | null;
  listed?: boolean;
}

/** A world of documents (recorded where `path` says, listed unless `listed: false`) and folders. */
function input(
  docs: Doc[],
  opts: { folders?: Array<RemoteFolder & { path?: string }>; local?: Array<[string, LocalChange]>; found?: string[]; ignored?: string[] } = {},
): PullInput {
  const listed = docs.filter((d) => d.listed !== false);
  const documents = new Map<string, RemoteDocument>(
    listed.map((d) => [d.id, { id: d.id, title: d.title, lastModifiedAt: d.modified ?? AT, createdAt: `2026-01-0${d.id.length}T00:00:00Z` }]),
  );
  const placements = new Map(listed.map((d) => [d.id, d.at ?? unsorted]));
  const folders = opts.folders ?? [];
  const records: PullRecord[] = docs
    .filter((d) => d.path !== undefined)
    .map((d) => ({
      id: d.id,
      path: d.path!,
      title: d.title,
      ...(d.was ?? d.at ?? unsorted),
      remoteModifiedAt: AT,
      fileHash: d.fileHash === undefined ? `h-${d.id}` : d.fileHash,
    }));
  const folderRecords: PullFolderRecord[] = folders.filter((f) => f.path !== undefined).map((f) => ({ id: f.id, path: f.path! }));
  const layout = planLayout({
    documents: listed.map((d) => ({ id: d.id, title: d.title, ...(d.at ?? unsorted), createdAt: documents.get(d.id)!.createdAt })),
    folders,
  });
  return {
    listing: { documents, placements, folders, unplaced: [] },
    records,
    folderRecords,
    local: new Map(opts.local ?? []),
    found: new Set(opts.found ?? []),
    layout,
    ignored: (p) => (opts.ignored ?? []).includes(p),
    missingDirs: [],
  };
}

describe('planPull', () => {
  it('writes new documents, splices changed ones, leaves documents in step alone', () => {
    const plan = planPull(
      input([
        { id: 'A', title: 'New' },
        { id: 'B', title: 'Changed', path: 'Unsorted/Changed.md', modified: LATER },
        { id: 'C', title: 'Same', path: 'Unsorted/Same.md' },
        { id: 'D', title: 'Unwritten', path: 'Unsorted/Unwritten.md', fileHash: null },
      ]),
    );
    expect(plan.documents).toEqual([
      { kind: 'splice', id: 'B', path: 'Unsorted/Changed.md', reason: 'remote_changed' },
      { kind: 'write', id: 'A', path: 'Unsorted/New.md', reason: 'new_document' },
      { kind: 'write', id: 'D', path: 'Unsorted/Unwritten.md', reason: 'never_written' },
    ]);
    expect(plan.folders).toEqual([]);
  });

  it('never writes over a file changed here: an edit on both sides is only read, to see whether it already says the same', () => {
    const plan = planPull(
      input(
        [
          { id: 'A', title: 'Both', path: 'Unsorted/Both.md', modified: LATER },
          { id: 'B', title: 'Here', path: 'Unsorted/Here.md' },
          { id: 'C', title: 'Gone', path: 'Unsorted/Gone.md', modified: LATER },
        ],
        {
          local: [
            ['A', 'edited'],
            ['B', 'edited'],
            ['C', 'missing'],
          ],
        },
      ),
    );
    expect(plan.documents).toEqual(
      [
        { kind: 'keep', id: 'A', path: 'Unsorted/Both.md', change: 'edited', remoteChanged: true, check: true, reason: 'changed_both_sides' },
        { kind: 'keep', id: 'C', path: 'Unsorted/Gone.md', change: 'missing', remoteChanged: true, check: false, reason: 'changed_both_sides' },
        { kind: 'keep', id: 'B', path: 'Unsorted/Here.md', change: 'edited', remoteChanged: false, check: false, reason: 'changed_here' },
      ].sort((a, b) => (a.path < b.path ? -1 : 1)),
    );
  });

  it('purges documents no longer listed, except a file edited here', () => {
    const plan = planPull(
      input(
        [
          { id: 'A', title: 'Old', path: 'Unsorted/Old.md', listed: false },
          { id: 'B', title: 'Mine', path: 'Unsorted/Mine.md', listed: false },
        ],
        { local: [['B', 'edited']] },
      ),
    );
    expect(plan.documents.filter((s) => s.kind === 'purge')).toEqual([{ kind: 'purge', id: 'A', path: 'Unsorted/Old.md' }]);
    expect(plan.documents.some((s) => s.kind === 'keep' && s.id === 'B')).toBe(true);
  });

  it('a renamed folder carries its files: one folder move, no document move', () => {
    const plan = planPull(
      input([{ id: 'A', title: 'Inside', at: inFolder('F'), path: 'Old name/Inside.md' }], {
        folders: [{ id: 'F', name: 'New name', parentId: null, documentCount: 1, path: 'Old name' }],
      }),
    );
    expect(plan.folders).toEqual([{ kind: 'move', id: 'F', from: 'Old name', to: 'New name' }]);
    expect(plan.documents).toEqual([]);
  });

  it('moves a document whose placement changed; a move into a path a kept file holds waits (blocked), its containers listed again', () => {
    const plan = planPull(
      input([{ id: 'A', title: 'Note', at: inFolder('F'), was: unsorted, path: 'Unsorted/Note.md' }], {
        folders: [{ id: 'F', name: 'Projects', parentId: null, documentCount: 2, path: 'Projects' }],
      }),
    );
    expect(plan.documents).toContainEqual({
      kind: 'move',
      id: 'A',
      from: 'Unsorted/Note.md',
      to: 'Projects/Note.md',
      placement: inFolder('F'),
      reason: 'placement_changed',
    });
    const trade = planPull(
      input(
        [
          { id: 'A', title: 'Note', at: inFolder('F'), was: unsorted, path: 'Unsorted/Note.md' },
          { id: 'B', title: 'Other', at: inFolder('F'), path: 'Projects/Note.md' },
        ],
        { folders: [{ id: 'F', name: 'Projects', parentId: null, documentCount: 2, path: 'Projects' }], local: [['B', 'edited']] },
      ),
    );
    // B keeps Projects/Note.md (changed here), so A cannot move there this cycle.
    expect(trade.documents).toContainEqual({ kind: 'blocked', id: 'A', path: 'Unsorted/Note.md', reason: 'path_held' });
    expect(trade.unsettled).toEqual(['F', 'unsorted']);
  });

  it('a file found, unchanged, where the layout puts it is recorded there, not kept as missing; an ignored new path is blocked', () => {
    const plan = planPull(
      input(
        [
          { id: 'A', title: 'Note', at: inFolder('F'), was: unsorted, path: 'Unsorted/Note.md' },
          { id: 'B', title: 'Secret' },
        ],
        {
          folders: [{ id: 'F', name: 'Projects', parentId: null, documentCount: 1, path: 'Projects' }],
          local: [['A', 'missing']],
          found: ['A'],
          ignored: ['Unsorted/Secret.md'],
        },
      ),
    );
    expect(plan.documents).toEqual([
      { kind: 'blocked', id: 'B', path: 'Unsorted/Secret.md', reason: 'ignored' },
      { kind: 'move', id: 'A', from: 'Unsorted/Note.md', to: 'Projects/Note.md', placement: inFolder('F'), reason: 'found_there' },
    ]);
  });
});

describe('a folder held back by a symbolic link', () => {
  it('holds back what the space adds to it, and its new subfolders: nothing is laid out where its folder should be (chaos seed 1060026)', () => {
    // Beta moved into Alpha in the space; here "Beta" is a link, so the move waits.
    const folders = [
      { id: 'F-A', name: 'Alpha', parentId: null, documentCount: 0, path: 'Alpha' },
      { id: 'F-B', name: 'Beta', parentId: 'F-A', documentCount: 1, path: 'Beta' },
      { id: 'F-C', name: 'New', parentId: 'F-B', documentCount: 0 },
    ];
    const base = input([{ id: 'NEW', title: 'Added there', at: inFolder('F-B') }], { folders });
    const plan = planPull({ ...base, held: (p) => p === 'Beta' || p.startsWith('Beta/') });
    expect(plan.documents).toContainEqual({ kind: 'blocked', id: 'NEW', path: 'Alpha/Beta/Added there.md', reason: 'symlink' });
    expect(plan.documents.some((d) => d.kind === 'write')).toBe(false);
    expect(plan.folders).toEqual([]);
  });
});

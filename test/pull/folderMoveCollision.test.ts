// A folder moved in the space, run document by document (its name is taken on disk), where another
// document's record already holds one of the new paths: that document stays where it was (the next
// scan finds it), and the pull goes on, instead of failing on the journal's one-record-per-path rule
// at every cycle (chaos seed 930023).
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import { runPull, type SyncSession } from '../../src/sync/index.js';
import { usePulledMirror, type Space } from './harness.js';

const fixture: SpaceFixture = {
  version: 1,
  space: { id: 'S-MOVE', name: 'Moves', timezone: 'UTC', userId: 'U1' },
  folders: [
    { id: 'F-PROJ', name: 'Projects', createdAt: '2026-01-01T00:00:00Z' },
    { id: 'F-HOME', name: 'Home', createdAt: '2026-01-02T00:00:00Z' },
  ],
  documents: [
    { id: 'D-PLAN', title: 'Plan', folderId: 'F-PROJ', createdAt: '2026-08-01T10:00:00Z', content: [{ id: 'B-1', markdown: 'the plan' }] },
    { id: 'D-NOTES', title: 'Notes', folderId: 'F-PROJ', createdAt: '2026-08-02T10:00:00Z', content: [{ id: 'B-2', markdown: 'notes' }] },
  ],
};

let space: Space;
let root: string;
let session: SyncSession;
usePulledMirror(fixture, (m) => ({ space, root, session } = m));

it('leaves the document whose new path another record holds where it was, and moves the others', async () => {
  const { journal } = session.ctx;
  // The name is taken on disk (a directory the user made), so the move runs document by document…
  fs.mkdirSync(path.join(root, 'Home', 'Projects'), { recursive: true });
  // …and a record (a document created from a file whose own record kept its old path) holds one new path.
  const plan = journal.getDocument('D-PLAN')!;
  journal.upsertDocument({ ...plan, id: 'D-OTHER', path: 'Home/Projects/Plan.md', fileHash: null });
  await space.call('PUT', '/folders/move', { folderIds: ['F-PROJ'], destination: { parentFolderId: 'F-HOME' } });

  const pull = await runPull(session.ctx, { fullScan: true });
  expect(pull.aborted).toBe(false);
  expect(journal.getDocument('D-NOTES')!.path).toBe('Home/Projects/Notes.md');
  expect(journal.getDocument('D-PLAN')!.path).toBe('Projects/Plan.md');
  expect(fs.existsSync(path.join(root, 'Home', 'Projects', 'Notes.md'))).toBe(true);
});

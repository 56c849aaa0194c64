// A document renamed on both sides, differently: the space's title stays (the file takes its name),
// the file's title is kept in a conflict copy named by it, with the file's text, and the conflict is
// recorded (exit 3) — neither title is lost.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import { runPull, syncOnce, type SyncSession } from '../../src/sync/index.js';
import { isConflictCopy } from '../../src/mirror/index.js';
import { makeRoot, openSession, startSpace, type Space } from '../pull/harness.js';

const fixture: SpaceFixture = {
  version: 1,
  space: { id: 'S-TITLES', name: 'Titles', timezone: 'UTC', userId: 'U1' },
  folders: [],
  documents: [
    {
      id: 'D1',
      title: 'Old',
      createdAt: '2026-09-01T08:00:00Z',
      content: [
        { id: 'B1', markdown: 'one' },
        { id: 'B2', markdown: 'two' },
      ],
    },
  ],
};

let space: Space;
let root: string;
let session: SyncSession;

beforeEach(async () => {
  space = await startSpace(fixture);
  root = makeRoot();
  session = await openSession(root, space);
  expect((await syncOnce(session.ctx)).exitCode).toBe(0);
});
afterEach(async () => {
  session.close();
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

it("keeps the space's title on the document and the file's in a conflict copy, recorded (chaos seed 634512377)", async () => {
  await space.call('PUT', '/blocks', { blocks: [{ id: 'D1', markdown: 'Space Title' }] });
  const old = path.join(root, 'Unsorted/Old.md');
  fs.writeFileSync(old, fs.readFileSync(old, 'utf8').replace('two', 'two edited'));
  // The pull sees the rename while the file holds an unsent edit: it leaves the file where it is.
  expect((await runPull(session.ctx)).localPending.map((p) => p.path)).toEqual(['Unsorted/Old.md']);
  fs.renameSync(old, path.join(root, 'Unsorted/Local Title.md'));
  const r = await syncOnce(session.ctx);
  expect(r.exitCode).toBe(3);
  const doc = await space.call('GET', '/blocks', undefined, { id: 'D1' });
  expect(doc.markdown).toBe('Space Title');
  expect((doc.content as Array<{ markdown: string }>).map((b) => b.markdown)).toEqual(['one', 'two edited']);
  const files = fs.readdirSync(path.join(root, 'Unsorted')).sort();
  const copy = files.find((f) => isConflictCopy(f));
  expect(copy).toMatch(/^Local Title \(conflict .*\)\.md$/);
  expect(fs.readFileSync(path.join(root, 'Unsorted', copy!), 'utf8')).toContain('two edited');
  expect(files.filter((f) => f !== copy)).toEqual(['Space Title.md']);
  const [conflict] = session.ctx.journal.listConflicts();
  expect(conflict).toMatchObject({ docId: 'D1', copyPath: `Unsorted/${copy}`, details: { title: { local: 'Local Title', remote: 'Space Title' } } });
  // Settled: the next cycle sends nothing and keeps the copy.
  await space.clearRequests();
  expect((await syncOnce(session.ctx)).exitCode).toBe(0);
  expect((await space.requests()).filter((q) => q.method !== 'GET')).toEqual([]);
});

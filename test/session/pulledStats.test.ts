// The stat cache learns from the pull's own writes: after a first sync, the next cycle's scan
// reads no file back (a first pull of thousands of documents would otherwise be read again whole).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSpace } from '../../src/server/index.js';
import { syncOnce, type SyncSession } from '../../src/sync/index.js';
import { scanLocal } from '../../src/sync/documents/push/scanLocal.js';
import { makeRoot, openSession, startSpace, type Space } from '../pull/harness.js';

const DOCS = 60;
let space: Space;
let root: string;
let session: SyncSession;
beforeAll(async () => {
  space = await startSpace(generateSpace({ documents: DOCS, blocksPerDocument: 3, folders: 2, seed: 3 }));
  root = makeRoot();
  session = await openSession(root, space);
});
afterAll(async () => {
  session.close();
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

it('after a first sync the next scan reads no file; a file edited since is read', async () => {
  // The cycle's clock 10 s ahead: every file was then written long enough before the end of the
  // pull to be trusted (without it, those written in the pull's last two seconds are read once).
  session.ctx.now = () => new Date(Date.now() + 10_000);
  const first = await syncOnce(session.ctx);
  expect(first.exitCode).toBe(0);
  expect(first.pull?.written).toHaveLength(DOCS);

  const idle = await scanLocal(session.ctx);
  expect(idle.filesSeen).toBeGreaterThanOrEqual(DOCS);
  expect(idle.filesRead).toBe(0);
  expect(idle.changed).toEqual([]);

  const file = path.join(root, first.pull!.written[0]!.path);
  fs.appendFileSync(file, '\nA line added here.\n');
  const edited = await scanLocal(session.ctx);
  expect(edited.filesRead).toBe(1);
  expect(edited.changed.map((c) => c.record.path)).toEqual([first.pull!.written[0]!.path]);
});

// The stat cache: a full scan reads only files whose stat moved since their hash was recorded (or
// whose record is too recent to trust); content still decides what changed.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { SyncSession } from '../../src/sync/index.js';
import { pushLocal } from '../../src/sync/index.js';
import { scanLocal } from '../../src/sync/documents/push/scanLocal.js';
import { demoSpace } from '../pull/demoSpace.js';
import { usePulledMirror, type Space } from '../pull/harness.js';

let space: Space;
let root: string;
let session: SyncSession;

usePulledMirror(demoSpace, (m) => ({ space, root, session } = m));

/** The scans' clock, 10 s ahead: every file then changed long enough before its record to be trusted. */
const later = () => {
  session.ctx.now = () => new Date(Date.now() + 10_000);
};

it('a touched but unchanged file is read once, then not again, and sends nothing', async () => {
  later();
  const first = await scanLocal(session.ctx);
  expect(first.filesRead).toBe(first.filesSeen);
  expect(first.filesSeen).toBeGreaterThan(5);
  const idle = await scanLocal(session.ctx);
  expect(idle.filesRead).toBe(0);

  const file = path.join(root, 'Unsorted/Unsorted note.md');
  const t = new Date(Date.now() - 60_000);
  fs.utimesSync(file, t, t);
  const touched = await scanLocal(session.ctx);
  expect(touched.filesRead).toBe(1);
  expect(touched.changed).toEqual([]);
  expect((await scanLocal(session.ctx)).filesRead).toBe(0);
  await space.clearRequests();
  const push = await pushLocal(session.ctx);
  expect(push.requests).toBe(0);
  expect(await space.requests()).toEqual([]);
});

it('a file rewritten with the same size inside the same second is still seen', async () => {
  const file = path.join(root, 'Unsorted/Unsorted note.md');
  const text = fs.readFileSync(file, 'utf8');
  const first = text.replace('hello world', 'hello there');
  const second = text.replace('hello world', 'hello again');
  expect(second.length).toBe(first.length);
  fs.writeFileSync(file, first);
  const st = fs.statSync(file);
  const scanned = await scanLocal(session.ctx);
  expect(scanned.changed.map((c) => c.local.text)).toEqual([first]);
  // The same size, and the mtime put back: only the racy rule (and the ctime) can tell.
  fs.writeFileSync(file, second);
  fs.utimesSync(file, st.atime, st.mtime);
  const again = await scanLocal(session.ctx);
  expect(again.changed.map((c) => c.local.text)).toEqual([second]);
});

it('with the cache off every file is read on every scan (the benchmarks compare the two)', async () => {
  later();
  session.ctx.settings = { ...session.ctx.settings, statCache: false };
  await scanLocal(session.ctx);
  const again = await scanLocal(session.ctx);
  expect(again.filesRead).toBe(again.filesSeen);
});

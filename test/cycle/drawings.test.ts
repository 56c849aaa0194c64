// A drawing block's picture is an asset like an image's: downloaded once beside its document and
// linked from the body, so a backup of the mirror shows it offline; the next cycle sends, downloads
// and writes nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import { syncOnce, type SyncSession } from '../../src/sync/index.js';
import { makeRoot, openSession, readTree, startSpace, type Space } from '../pull/harness.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
const fixture: SpaceFixture = {
  version: 1,
  space: { id: 'S-DRAW', name: 'Drawings', timezone: 'UTC', userId: 'U1' },
  assets: [{ id: 'A-NAPKIN', contentType: 'image/png', fileName: 'napkin.png', base64: PNG.toString('base64') }],
  documents: [
    {
      id: 'D-SKETCH',
      title: 'Sketch',
      createdAt: '2026-09-01T08:00:00Z',
      content: [
        { id: 'S1', markdown: 'The napkin drawing:' },
        { id: 'DRAW1234-0000', type: 'drawing', url: 'asset:A-NAPKIN' },
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
});
afterEach(async () => {
  session.close();
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

it('downloads the picture of a drawing block beside its document and links it; the next cycle sends, downloads and writes nothing', async () => {
  const r = await syncOnce(session.ctx);
  expect(r.exitCode).toBe(0);
  const asset = 'Unsorted/Sketch.assets/drawing-DRAW1234.png';
  expect(fs.readFileSync(path.join(root, asset))).toEqual(PNG);
  expect(fs.readFileSync(path.join(root, 'Unsorted/Sketch.md'), 'utf8')).toContain('The napkin drawing:\n\n![Image](Sketch.assets/drawing-DRAW1234.png)\n');
  const before = readTree(root);
  await space.clearRequests();
  const again = await syncOnce(session.ctx);
  expect(again.media?.downloaded).toEqual([]);
  expect((await space.requests()).filter((q) => q.method !== 'GET')).toEqual([]);
  for (const [p, v] of readTree(root)) expect(v.mtimeMs, p).toBe(before.get(p)?.mtimeMs);
});

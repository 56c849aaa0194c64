// The daemon's media downloads run beside its cycles: a slow asset holds up neither the first cycle
// nor the push of an edit saved meanwhile; once it ends, it is applied between the operations (the
// file written, the line linked), and nothing is sent for it.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import { runDaemon, type SyncSession } from '../../src/sync/index.js';
import { type DaemonHandle } from '../../src/sync/daemon/index.js';
import { armFault, adminFetch } from '../client/admin.js';
import { makeRoot, openSession, startSpace, type Space } from '../pull/harness.js';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(3000, 9)]);
const fixture: SpaceFixture = {
  version: 1,
  space: { id: 'S-SLOW', name: 'Slow', timezone: 'UTC', userId: 'U1' },
  assets: [{ id: 'A-SLOW', contentType: 'image/png', fileName: 'photo.png', base64: PNG.toString('base64') }],
  documents: [
    {
      id: 'D-NOTE',
      title: 'Note',
      createdAt: '2026-09-01T08:00:00Z',
      content: [
        { id: 'N1', markdown: 'first paragraph' },
        { id: 'AB12CD34-IMG', type: 'image', url: 'asset:A-SLOW', altText: 'Photo' },
        { id: 'N2', markdown: 'second paragraph' },
      ],
    },
  ],
};
const DOC = 'Unsorted/Note.md';
const ASSET = 'Unsorted/Note.assets/photo-AB12CD34.png';
const SLOW_MS = 4000;

let space: Space;
let root: string;
let session: SyncSession;
let daemon: DaemonHandle | undefined;
const abs = (p: string) => path.join(root, p);
const assetReads = async () => ((await (await adminFetch(space.server, '/asset-reads')).json()) as { items: unknown[] }).items.length;
const writes = async () => (await space.requests()).filter((r) => r.method !== 'GET');

async function waitFor(what: string, cond: () => Promise<boolean> | boolean, ms = 15_000): Promise<void> {
  for (const until = Date.now() + ms; !(await cond());) {
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeEach(async () => {
  space = await startSpace(fixture);
  root = makeRoot();
  session = await openSession(root, space);
});
afterEach(async () => {
  await daemon?.stop();
  session.close();
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

it('a slow asset delays neither the first cycle nor the push of an edit; it is linked once it is in', async () => {
  await armFault(space.server, { kind: 'delay', delayMs: SLOW_MS, match: { path: '^/assets/A-SLOW' } });
  const t0 = Date.now();
  daemon = runDaemon({ ctx: session.ctx, pollMinMs: 60_000, pollMaxMs: 60_000, debounceMs: 80, stabilityMs: 150 });
  await daemon.ready;
  expect(Date.now() - t0).toBeLessThan(SLOW_MS);
  expect(fs.readFileSync(abs(DOC), 'utf8')).toMatch(/!\[Photo\]\(http:\/\/[^)]*\/assets\/A-SLOW\?/);
  await space.clearRequests();

  fs.writeFileSync(abs(DOC), fs.readFileSync(abs(DOC), 'utf8').replace('second paragraph', 'second, edited'));
  await waitFor('the edit in the space', async () => (await writes()).length > 0);
  // Sent while the download was still out.
  expect(await assetReads()).toBe(0);
  expect(Date.now() - t0).toBeLessThan(SLOW_MS);
  expect((await writes()).map((r) => `${r.method} ${r.path}`)).toEqual(['PUT /blocks']);

  await waitFor(
    'the asset in place and linked',
    () => fs.existsSync(abs(ASSET)) && fs.readFileSync(abs(DOC), 'utf8').includes('![Photo](Note.assets/photo-AB12CD34.png)'),
  );
  expect(fs.readFileSync(abs(ASSET))).toEqual(PNG);
  expect(fs.readFileSync(abs(DOC), 'utf8')).toContain('second, edited');
  expect((await writes()).map((r) => `${r.method} ${r.path}`)).toEqual(['PUT /blocks']);
  expect(await assetReads()).toBe(1);
});

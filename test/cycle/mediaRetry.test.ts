// Media down, a failing download: it holds nothing up, keeps the signed link in the file, and is
// tried again after a backoff per block (1 minute, doubling), not on every cycle before; a new URL
// for the block (a new asset) is tried at once. The sync's clock is a fake one.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import { syncOnce, type SyncSession } from '../../src/sync/index.js';
import { armFault, adminFetch } from '../client/admin.js';
import { makeRoot, openSession, startSpace, type Space } from '../pull/harness.js';

const bytes = Buffer.alloc(2000, 3);
const fixture: SpaceFixture = {
  version: 1,
  space: { id: 'S-RETRY', name: 'Retry', timezone: 'UTC', userId: 'U1' },
  assets: [
    { id: 'A-GOOD', contentType: 'image/png', fileName: 'chart.png', base64: bytes.toString('base64') },
    // No bytes: the service answers 404 for it.
    { id: 'A-GONE', contentType: 'image/png', fileName: 'gone.png' },
  ],
  documents: [
    {
      id: 'D-NOTE',
      title: 'Note',
      createdAt: '2026-09-01T08:00:00Z',
      content: [
        { id: 'N1', markdown: 'first' },
        { id: 'C0FFEE00-IMG', type: 'image', url: 'asset:A-GOOD', altText: 'Chart' },
        { id: 'DEAD0000-IMG', type: 'image', url: 'asset:A-GONE', altText: 'Gone' },
      ],
    },
  ],
};
const DOC = 'Unsorted/Note.md';
const CHART = 'Unsorted/Note.assets/chart-C0FFEE00.png';

let space: Space;
let root: string;
let session: SyncSession;
let now: number;
const cycle = () => syncOnce(session.ctx);
const reads = async () => ((await (await adminFetch(space.server, '/asset-reads')).json()) as { items: Array<{ assetId: string; status: number }> }).items;
const readsOf = async (assetId: string) => (await reads()).filter((r) => r.assetId === assetId).map((r) => r.status);
const read = () => fs.readFileSync(path.join(root, DOC), 'utf8');

beforeEach(async () => {
  space = await startSpace(fixture);
  root = makeRoot();
  now = Date.parse('2026-09-05T12:00:00Z');
  session = await openSession(root, space, { now: () => new Date(now) });
});
afterEach(async () => {
  session.close();
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('a failing download backs off', () => {
  it('a 500 is tried again after a minute, not before; a second failure waits two', async () => {
    await armFault(space.server, { kind: '500', count: 2, match: { path: '^/assets/A-GOOD' } });
    const first = await cycle();
    expect(first.exitCode).toBe(0);
    expect(first.media?.failed.map((f) => f.blockId).sort()).toEqual(['C0FFEE00-IMG', 'DEAD0000-IMG']);
    expect(read()).toMatch(/!\[Chart\]\(http:\/\/[^)]*\/assets\/A-GOOD\?/);
    expect(await readsOf('A-GOOD')).toEqual([500]);
    now += 59_000;
    const early = await cycle();
    expect(early.media?.waiting.sort()).toEqual(['C0FFEE00-IMG', 'DEAD0000-IMG']);
    expect(await readsOf('A-GOOD')).toEqual([500]);
    now += 1_000;
    await cycle();
    expect(await readsOf('A-GOOD')).toEqual([500, 500]);
    now += 119_000;
    await cycle();
    expect(await readsOf('A-GOOD')).toEqual([500, 500]);
    now += 1_000;
    const last = await cycle();
    expect(await readsOf('A-GOOD')).toEqual([500, 500, 200]);
    expect(last.media?.downloaded).toEqual([CHART]);
    expect(fs.readFileSync(path.join(root, CHART))).toEqual(bytes);
    expect(read()).toContain('![Chart](Note.assets/chart-C0FFEE00.png)');
    expect(session.journal.getState('media-retry:C0FFEE00-IMG')).toBeUndefined();
  });

  it('a 404 keeps its signed link and is asked again only after each backoff, however many cycles run meanwhile', async () => {
    await cycle();
    // Twelve cycles over two minutes: asked at 0 and at 1 minute; the next at 3 minutes.
    for (let i = 0; i < 12; i++) {
      now += 10_000;
      await cycle();
    }
    expect(await readsOf('A-GONE')).toEqual([404, 404]);
    expect(read()).toMatch(/!\[Gone\]\(http:\/\/[^)]*\/assets\/A-GONE\?/);
    expect(session.journal.getState('media-retry:DEAD0000-IMG')).toMatchObject({ failures: 2 });
  });

  it('a block given a new asset in the space is downloaded at once, its backoff forgotten', async () => {
    await cycle();
    const up = await fetch(`${space.server.baseUrl}/upload?position=end&pageId=D-NOTE`, {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body: bytes,
    });
    const { blockId, assetUrl } = (await up.json()) as { blockId: string; assetUrl: string };
    await space.call('DELETE', '/blocks', { blockIds: [blockId] });
    await space.call('PUT', '/blocks', { blocks: [{ id: 'DEAD0000-IMG', markdown: `![Gone](${assetUrl})` }] });
    now += 5_000;
    const r = await cycle();
    expect(r.media?.downloaded).toEqual(['Unsorted/Note.assets/gone-DEAD0000.png']);
    expect(session.journal.getState('media-retry:DEAD0000-IMG')).toBeUndefined();
  });
});

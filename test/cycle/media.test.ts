// Media down, against the real server: an image block's asset is downloaded beside its document and
// the body links it; the next cycles send and write nothing; a re-signed URL downloads nothing; new
// bytes at the service are downloaded again; an asset over assets.maxMiB keeps its signed link and
// says so, and is not fetched again until the setting holds it; an edit of the image's alt text sends the service's URL; the asset follows its document
// and leaves with its block.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import { execFileSync } from 'node:child_process';
import { afterReport, lookedAt, syncOnce, type SyncSession } from '../../src/sync/index.js';
import { type SyncOnceResult } from '../../src/sync/cycle/index.js';
import { captureLogger, makeRoot, openSession, readTree, startSpace, type CapturedLogger, type Space } from '../pull/harness.js';
import { adminFetch } from '../client/admin.js';

const bytes = (n: number, fill: number) => Buffer.alloc(n, fill);

const fixture: SpaceFixture = {
  version: 1,
  space: { id: 'S-MEDIA', name: 'Media', timezone: 'UTC', userId: 'U1' },
  assets: [
    { id: 'A-DIAG', contentType: 'image/png', fileName: 'diagram.png', base64: bytes(3000, 1).toString('base64') },
    { id: 'A-BIG', contentType: 'video/mp4', fileName: 'talk.mp4', base64: bytes(300_000, 2).toString('base64') },
  ],
  documents: [
    {
      id: 'D-ROAD',
      title: 'Road map',
      createdAt: '2026-09-01T08:00:00Z',
      content: [
        { id: 'R1', markdown: 'The plan:' },
        { id: '1A2B3C4D-IMG', type: 'image', url: 'asset:A-DIAG', altText: 'Diagram' },
        { id: 'V-BIG', type: 'video', url: 'asset:A-BIG' },
        { id: 'R2', markdown: 'closing words' },
      ],
    },
  ],
};

const DOC = 'Unsorted/Road map.md';
const ASSET = 'Unsorted/Road map.assets/diagram-1A2B3C4D.png';
const LINK = '![Diagram](<Road map.assets/diagram-1A2B3C4D.png>)';

let space: Space;
let root: string;
let session: SyncSession;
let log: CapturedLogger;
/** The first cycle, which pulled the document. */
let first: SyncOnceResult;
const read = (p: string) => fs.readFileSync(path.join(root, p), 'utf8');
const writes = async () => (await space.requests()).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
const cycle = () => syncOnce(session.ctx);
const assetReads = async () =>
  ((await (await adminFetch(space.server, '/asset-reads')).json()) as { items: Array<{ assetId: string }> }).items.map((r) => r.assetId);

beforeEach(async () => {
  space = await startSpace(fixture);
  root = makeRoot();
  log = captureLogger();
  // 0.1 MiB: the diagram (3,000 bytes) fits, the video (300,000 bytes) does not.
  session = await openSession(root, space, { logger: log.logger, settings: { assets: { maxMiB: 0.1 } } });
  first = await cycle();
  expect(first.exitCode).toBe(0);
  await space.clearRequests();
});
afterEach(async () => {
  session.close();
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('media assets beside their document', () => {
  it('downloads the image once and links it; the next cycles send, download and write nothing', async () => {
    expect(fs.readFileSync(path.join(root, ASSET))).toEqual(bytes(3000, 1));
    expect(read(DOC)).toContain(`The plan:\n\n${LINK}\n\n`);
    const before = readTree(root);
    for (let i = 0; i < 2; i++) {
      const r = await cycle();
      expect(r.exitCode).toBe(0);
      expect(r.media?.downloaded).toEqual([]);
    }
    expect(await writes()).toEqual([]);
    const after = readTree(root);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [p, v] of after) expect(v.mtimeMs, p).toBe(before.get(p)!.mtimeMs);
  });

  it('a new document is written once, already linking the asset that came in while it was pulled', async () => {
    expect(first.pull?.written).toEqual([{ id: 'D-ROAD', path: DOC, mode: 'new' }]);
    expect(first.media?.downloaded).toEqual([ASSET]);
    // No second write of the file to link it.
    expect(first.media?.linked).toEqual([]);
    expect(read(DOC)).toContain(LINK);
  });

  it('keeps the signed link of an asset over assets.maxMiB and names the file, size and setting', async () => {
    expect(read(DOC)).toMatch(/!\[Image\]\(http:\/\/[^)]*\/assets\/A-BIG\?[^)]*\)/);
    expect(fs.existsSync(path.join(root, 'Unsorted/Road map.assets/video-VBIG.mp4'))).toBe(false);
    const message = log.lines.find((l) => l.includes('assets.maxMiB'));
    expect(message).toContain('Unsorted/Road map.assets/video-VBIG.mp4');
    expect(message).toContain('0.3 MiB');
    // Not tried again while the setting cannot hold it: nothing is downloaded, nothing sent.
    await adminFetch(space.server, '/asset-reads', { method: 'DELETE' });
    for (let i = 0; i < 2; i++) {
      const r = await cycle();
      expect(r.exitCode).toBe(0);
      expect(r.media?.failed).toEqual([]);
      expect(r.media?.waiting).toEqual(['V-BIG']);
    }
    expect(await assetReads()).toEqual([]);
    expect(await writes()).toEqual([]);
    // The setting raised to hold it: the next cycle downloads it.
    session.ctx.settings.assets.maxMiB = 1;
    const r = await cycle();
    expect(r.media?.downloaded).toEqual(['Unsorted/Road map.assets/video-VBIG.mp4']);
    expect(await assetReads()).toEqual(['A-BIG']);
  });

  it('a re-signed URL downloads nothing; new bytes at the service are downloaded again', async () => {
    await space.call('PUT', '/blocks', { blocks: [{ id: 'R2', markdown: 'closing words, edited' }] });
    const quiet = await cycle();
    expect(quiet.media?.downloaded).toEqual([]);
    expect(read(DOC)).toContain(`${LINK}\n`);
    expect(read(DOC)).toContain('closing words, edited');

    // The image replaced in the space: a new upload, its URL put on the block.
    const up = await fetch(`${space.server.baseUrl}/upload?position=end&pageId=D-ROAD`, {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body: bytes(2000, 7),
    });
    const { blockId, assetUrl } = (await up.json()) as { blockId: string; assetUrl: string };
    await space.call('DELETE', '/blocks', { blockIds: [blockId] });
    await space.call('PUT', '/blocks', { blocks: [{ id: '1A2B3C4D-IMG', markdown: `![Diagram](${assetUrl})` }] });
    await space.clearRequests();
    const r = await cycle();
    expect(r.media?.downloaded).toEqual([ASSET]);
    expect(fs.readFileSync(path.join(root, ASSET))).toEqual(bytes(2000, 7));
    expect(read(DOC)).toContain(`${LINK}\n`);
    expect(await writes()).toEqual([]);
    // The git backup takes the new bytes with the document that links them.
    await afterReport(session.ctx, r.report, { looked: lookedAt('cycle'), autoCommit: true });
    expect(execFileSync('git', ['show', `HEAD:${ASSET}`], { cwd: root })).toEqual(bytes(2000, 7));
    expect((await cycle()).media?.downloaded).toEqual([]);
  });

  it("an edit of the image's alt text sends the service's URL, never the local path", async () => {
    fs.writeFileSync(path.join(root, DOC), read(DOC).replace(LINK, '![Chart](<Road map.assets/diagram-1A2B3C4D.png>)'));
    await cycle();
    const puts = (await space.requests()).filter((r) => r.method === 'PUT' && r.path === '/blocks');
    expect(puts).toHaveLength(1);
    // What the service stored is its own asset (read back signed anew), not a path of the mirror.
    const remote = (await space.call('GET', '/blocks', undefined, { id: '1A2B3C4D-IMG' })) as { markdown: string };
    expect(remote.markdown).toMatch(/^!\[Chart\]\(http:\/\/[^)]*\/assets\/A-DIAG\?/);
    // The file links the asset again, and the next cycle sends nothing.
    expect(read(DOC)).toContain('![Chart](<Road map.assets/diagram-1A2B3C4D.png>)');
    await space.clearRequests();
    await cycle();
    expect(await writes()).toEqual([]);
  });

  it('writes an asset deleted by hand again, from a URL signed anew, and leaves the document as it is', async () => {
    const doc = read(DOC);
    fs.rmSync(path.join(root, ASSET));
    const r = await cycle();
    expect(r.media?.downloaded).toEqual([ASSET]);
    expect(fs.readFileSync(path.join(root, ASSET))).toEqual(bytes(3000, 1));
    expect(read(DOC)).toBe(doc);
    expect(await writes()).toEqual([]);
  });

  it('the asset follows its document on a rename and leaves with its block', async () => {
    fs.renameSync(path.join(root, DOC), path.join(root, 'Unsorted/Plans.md'));
    await cycle();
    expect(fs.existsSync(path.join(root, 'Unsorted/Plans.assets/diagram-1A2B3C4D.png'))).toBe(true);
    expect(fs.existsSync(path.join(root, ASSET))).toBe(false);
    await space.call('DELETE', '/blocks', { blockIds: ['1A2B3C4D-IMG'] });
    await cycle();
    expect(fs.existsSync(path.join(root, 'Unsorted/Plans.assets/diagram-1A2B3C4D.png'))).toBe(false);
  });
});

// Media up, against the real server: a local image or attachment referenced from a document becomes
// a block through POST /upload at its place; the next cycles send, download and rewrite nothing;
// removing the reference deletes the block; unreferenced, symbolic-link, outside-the-mirror and
// too-large files are not uploaded.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import { syncOnce, type SyncSession } from '../../src/sync/index.js';
import { captureLogger, makeRoot, openSession, startSpace, type CapturedLogger, type Space } from '../pull/harness.js';
import { armFault } from '../client/admin.js';

const fixture: SpaceFixture = {
  version: 1,
  space: { id: 'S-UP', name: 'Up', timezone: 'UTC', userId: 'U1' },
  documents: [
    {
      id: 'D-ROAD',
      title: 'Road map',
      createdAt: '2026-09-01T08:00:00Z',
      content: [
        { id: 'R1', markdown: 'The plan:' },
        { id: 'R2', markdown: 'closing words' },
      ],
    },
  ],
};

const DOC = 'Unsorted/Road map.md';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

let space: Space;
let root: string;
let session: SyncSession;
let log: CapturedLogger;
const abs = (p: string) => path.join(root, p);
const read = (p: string) => fs.readFileSync(abs(p), 'utf8');
const put = (p: string, bytes: Buffer | string) => {
  fs.mkdirSync(path.dirname(abs(p)), { recursive: true });
  fs.writeFileSync(abs(p), bytes);
};
const edit = (from: string, to: string) => fs.writeFileSync(abs(DOC), read(DOC).replace(from, to));
const requests = async () => (await space.requests()).map((r) => `${r.method} ${r.path}`);
const writes = async () => (await requests()).filter((r) => !r.startsWith('GET'));
const cycle = () => syncOnce(session.ctx);
const remote = async () =>
  ((await space.call('GET', '/blocks', undefined, { id: 'D-ROAD' })) as { content: Array<{ id: string; type: string; markdown: string; fileName?: string }> })
    .content;

beforeEach(async () => {
  space = await startSpace(fixture);
  root = makeRoot();
  log = captureLogger();
  session = await openSession(root, space, { logger: log.logger, settings: { assets: { maxMiB: 0.01 } } });
  expect((await cycle()).exitCode).toBe(0);
  await space.clearRequests();
});
afterEach(async () => {
  session.close();
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('media up', () => {
  it('uploads an image referenced from the .assets folder at its place; nothing is sent, downloaded or rewritten after', async () => {
    put('Unsorted/Road map.assets/new.png', PNG);
    put('Unsorted/Road map.assets/unreferenced.png', PNG);
    edit('The plan:\n', 'The plan:\n\n![](<Road map.assets/new.png>)\n');
    const text = read(DOC);
    const r = await cycle();
    expect(r.exitCode).toBe(0);
    expect(r.media?.uploaded).toEqual(['Unsorted/Road map.assets/new.png']);
    expect(await writes()).toEqual(['POST /upload']);
    const blocks = await remote();
    expect(blocks.map((b) => b.type)).toEqual(['text', 'image', 'text']);
    expect(blocks[1]!.markdown).toMatch(/^!\[Image\]\(http/);
    const served = await fetch(/\((http[^)]*)\)/.exec(blocks[1]!.markdown)![1]!);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    expect(read(DOC)).toBe(text);
    // The next cycles: nothing sent, nothing downloaded, the file as it was; also after the space
    // changes another block of the document (the pull reads it, links the image to the same file).
    await space.clearRequests();
    for (let i = 0; i < 2; i++) {
      const again = await cycle();
      expect(again.media?.downloaded).toEqual([]);
      expect(again.media?.uploaded).toEqual([]);
    }
    expect(await writes()).toEqual([]);
    await space.call('PUT', '/blocks', { blocks: [{ id: 'R2', markdown: 'closing words, edited' }] });
    await space.clearRequests();
    await cycle();
    await cycle();
    expect(await writes()).toEqual([]);
    expect(read(DOC)).toBe(text.replace('closing words', 'closing words, edited'));
    expect(fs.readFileSync(abs('Unsorted/Road map.assets/new.png'))).toEqual(PNG);
    // The space renames the document: the file, its asset and the line as the user typed it follow.
    await space.call('PUT', '/blocks', { blocks: [{ id: 'D-ROAD', markdown: 'Plans' }] });
    await cycle();
    await space.clearRequests();
    await cycle();
    expect(read('Unsorted/Plans.md')).toContain('The plan:\n\n![](Plans.assets/new.png)\n');
    expect(fs.readFileSync(abs('Unsorted/Plans.assets/new.png'))).toEqual(PNG);
    expect(await writes()).toEqual([]);
    // Removing the reference deletes the block; the file, the user's, stays; so does the one nobody linked.
    fs.writeFileSync(abs('Unsorted/Plans.md'), read('Unsorted/Plans.md').replace('![](Plans.assets/new.png)\n', ''));
    await cycle();
    expect(await writes()).toEqual(['DELETE /blocks']);
    expect((await remote()).map((b) => b.type)).toEqual(['text', 'text']);
    expect(fs.existsSync(abs('Unsorted/Plans.assets/new.png'))).toBe(true);
    expect(fs.existsSync(abs('Unsorted/Road map.assets/unreferenced.png'))).toBe(true);
  });

  it('a replaced asset file (new bytes, same name) is uploaded again: a new block in the place of the old one, the line as it was', async () => {
    put('Unsorted/Road map.assets/new.png', PNG);
    edit('The plan:\n', 'The plan:\n\n![](<Road map.assets/new.png>)\n');
    await cycle();
    const text = read(DOC);
    const old = (await remote())[1]!.id;
    const bytes = Buffer.concat([PNG, Buffer.from('more')]);
    put('Unsorted/Road map.assets/new.png', bytes);
    await space.clearRequests();
    const r = await cycle();
    expect(r.exitCode).toBe(0);
    expect(await writes()).toEqual(['POST /upload', 'DELETE /blocks']);
    const blocks = await remote();
    expect(blocks.map((b) => b.type)).toEqual(['text', 'image', 'text']);
    expect(blocks[1]!.id).not.toBe(old);
    const served = await fetch(/\((http[^)]*)\)/.exec(blocks[1]!.markdown)![1]!);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
    expect(read(DOC)).toBe(text);
    await space.clearRequests();
    const quiet = await cycle();
    expect(quiet.media?.downloaded).toEqual([]);
    expect(await writes()).toEqual([]);
    // A touch (same bytes, new time) sends nothing.
    fs.utimesSync(abs('Unsorted/Road map.assets/new.png'), new Date(2030, 0, 1), new Date(2030, 0, 1));
    await cycle();
    expect(await writes()).toEqual([]);
  });

  it('copies a file referenced from elsewhere in the mirror into the .assets folder and links the copy; an attachment line becomes a file block', async () => {
    put('pics/x.png', PNG);
    put('Unsorted/report.pdf', '%PDF-1.4 tiny');
    edit('closing words', 'closing words\n\n![](../pics/x.png)\n\n[report](report.pdf)');
    const r = await cycle();
    expect(r.exitCode).toBe(0);
    expect(r.media?.uploaded).toEqual(['Unsorted/Road map.assets/x.png', 'Unsorted/Road map.assets/report.pdf']);
    // (pics/ is a folder of the mirror, so it becomes one in the space too.)
    expect(await writes()).toEqual(['POST /folders', 'POST /upload', 'POST /upload']);
    const blocks = await remote();
    expect(blocks.map((b) => b.type)).toEqual(['text', 'text', 'image', 'file']);
    expect(blocks[3]!.fileName).toBe('report');
    expect(read(DOC)).toContain('closing words\n\n![](<Road map.assets/x.png>)\n\n[report](<Road map.assets/report.pdf>)');
    expect(fs.readFileSync(abs('Unsorted/Road map.assets/x.png'))).toEqual(PNG);
    expect(fs.existsSync(abs('pics/x.png'))).toBe(true);
    const text = read(DOC);
    await space.clearRequests();
    await cycle();
    await space.call('PUT', '/blocks', { blocks: [{ id: 'R1', markdown: 'The plan, edited:' }] });
    await cycle();
    await cycle();
    expect((await writes()).filter((w) => w !== 'PUT /blocks')).toEqual([]);
    expect(read(DOC)).toBe(text.replace('The plan:', 'The plan, edited:'));
  });

  it('does not upload a symbolic link, a path outside the mirror or a file over assets.maxMiB: the line stays, unsent, and the message says why', async () => {
    put('Unsorted/Road map.assets/real.png', PNG);
    fs.symlinkSync(abs('Unsorted/Road map.assets/real.png'), abs('Unsorted/Road map.assets/link.png'));
    put('Unsorted/Road map.assets/big.png', Buffer.alloc(20_000, 1));
    edit('The plan:\n', 'The plan:\n\n![](<Road map.assets/link.png>)\n\n![](../../outside.png)\n\n![](<Road map.assets/big.png>)\n');
    const text = read(DOC);
    const r = await cycle();
    expect(r.exitCode).toBe(0);
    expect(r.media?.uploaded).toEqual([]);
    expect(r.media?.notUploaded.map((f) => f.message)).toEqual([
      expect.stringContaining('is a symbolic link'),
      expect.stringContaining('points outside the mirror'),
      expect.stringContaining('more than assets.maxMiB'),
    ]);
    expect(await writes()).toEqual([]);
    expect((await remote()).map((b) => b.type)).toEqual(['text', 'text']);
    expect(read(DOC)).toBe(text);
    // The too-large file made small: the next cycle uploads it, the document unchanged meanwhile.
    put('Unsorted/Road map.assets/big.png', PNG);
    expect((await cycle()).media?.uploaded).toEqual(['Unsorted/Road map.assets/big.png']);
    expect((await remote()).map((b) => b.type)).toEqual(['text', 'image', 'text']);
  });

  it('a line written over with a reference to a local file: the old block goes and the file is uploaded in its place (chaos seed 564211609)', async () => {
    put('Unsorted/Road map.assets/over.png', PNG);
    edit('closing words', '![](<Road map.assets/over.png>)');
    const r = await cycle();
    expect(r.exitCode).toBe(0);
    expect(r.media?.uploaded).toEqual(['Unsorted/Road map.assets/over.png']);
    const blocks = await remote();
    expect(blocks.map((b) => b.type)).toEqual(['text', 'image']);
    expect(blocks.map((b) => b.id)).not.toContain('R2');
    // The image's bytes, not a link to a path of this machine.
    expect(blocks[1]!.markdown).toMatch(/^!\[[^\]]*\]\(http/);
    await space.clearRequests();
    expect((await cycle()).exitCode).toBe(0);
    expect(await writes()).toEqual([]);
  });

  it('a file moved to another folder takes its .assets folder along: an image added before the move is uploaded, one uploaded before keeps its record (chaos seed 22695820)', async () => {
    put('Unsorted/Road map.assets/first.png', PNG);
    edit('The plan:\n', 'The plan:\n\n![](<Road map.assets/first.png>)\n');
    expect((await cycle()).media?.uploaded).toEqual(['Unsorted/Road map.assets/first.png']);
    put('Unsorted/Road map.assets/second.png', Buffer.concat([PNG, Buffer.from('2')]));
    edit('closing words', '![](<Road map.assets/second.png>)\n\nclosing words');
    fs.mkdirSync(abs('Work'));
    fs.renameSync(abs(DOC), abs('Work/Road map.md'));
    const r = await cycle();
    expect(r.exitCode).toBe(0);
    expect(r.push?.plan?.problems).toEqual([]);
    expect(r.media?.uploaded).toEqual(['Work/Road map.assets/second.png']);
    expect(fs.existsSync(abs('Unsorted/Road map.assets'))).toBe(false);
    expect(fs.readdirSync(abs('Work/Road map.assets')).sort()).toEqual(['first.png', 'second.png']);
    expect((await remote()).map((b) => b.type)).toEqual(['text', 'image', 'image', 'text']);
    await space.clearRequests();
    const again = await cycle();
    expect(again.media?.downloaded).toEqual([]);
    expect(await writes()).toEqual([]);
  });

  it('a file renamed, given an image, then moved to another folder before a push: both its .assets folders go along (chaos seed 354121441)', async () => {
    put('Unsorted/Road map.assets/first.png', PNG);
    edit('The plan:\n', 'The plan:\n\n![](<Road map.assets/first.png>)\n');
    expect((await cycle()).media?.uploaded).toEqual(['Unsorted/Road map.assets/first.png']);
    fs.renameSync(abs(DOC), abs('Unsorted/Plan.md'));
    put('Unsorted/Plan.assets/later.png', Buffer.concat([PNG, Buffer.from('3')]));
    fs.writeFileSync(abs('Unsorted/Plan.md'), read('Unsorted/Plan.md').replace('closing words', '![](Plan.assets/later.png)\n\nclosing words'));
    fs.mkdirSync(abs('Work'));
    fs.renameSync(abs('Unsorted/Plan.md'), abs('Work/Plan.md'));
    const r = await cycle();
    expect(r.exitCode).toBe(0);
    expect(r.push?.plan?.problems).toEqual([]);
    expect(r.media?.uploaded).toEqual(['Work/Plan.assets/later.png']);
    expect((await remote()).map((b) => b.type)).toEqual(['text', 'image', 'image', 'text']);
    expect(fs.existsSync(abs('Unsorted/Road map.assets')) || fs.existsSync(abs('Unsorted/Plan.assets'))).toBe(false);
    await space.clearRequests();
    expect((await cycle()).exitCode).toBe(0);
    expect(await writes()).toEqual([]);
  });

  it('a file the pull moves to another folder takes its .assets folder, an image not yet uploaded included (chaos seed 7661210)', async () => {
    put('Unsorted/Road map.assets/pending.png', PNG);
    edit('closing words', '![](<Road map.assets/pending.png>)\n\nclosing words');
    const folder = (await space.call('POST', '/folders', { folders: [{ name: 'Archive' }] })).items[0].id as string;
    await space.call('PUT', '/documents/move', { documentIds: ['D-ROAD'], destination: { folderId: folder } });
    // The pull moves the file first; the push that follows reads the image line from its new folder.
    await syncOnce(session.ctx, { paths: [] });
    const r = await cycle();
    expect(r.exitCode).toBe(0);
    expect(fs.existsSync(abs('Archive/Road map.md'))).toBe(true);
    expect(fs.existsSync(abs('Archive/Road map.assets/pending.png'))).toBe(true);
    expect((await remote()).map((b) => b.type)).toEqual(['text', 'image', 'text']);
    await space.clearRequests();
    expect((await cycle()).exitCode).toBe(0);
    expect(await writes()).toEqual([]);
  });

  it('a file moved out of a folder renamed in the same scan takes its .assets folder from where that folder went (chaos seed 775821784)', async () => {
    fs.mkdirSync(abs('Work/Sub'), { recursive: true });
    fs.renameSync(abs(DOC), abs('Work/Sub/Road map.md'));
    expect((await cycle()).exitCode).toBe(0);
    put('Work/Sub/Road map.assets/later.png', PNG);
    fs.writeFileSync(abs('Work/Sub/Road map.md'), read('Work/Sub/Road map.md').replace('closing words', '![](<Road map.assets/later.png>)\n\nclosing words'));
    // The folder renamed, then the file moved out of it, both before the next look.
    fs.renameSync(abs('Work'), abs('Job'));
    fs.mkdirSync(abs('Archive'));
    fs.renameSync(abs('Job/Sub/Road map.md'), abs('Archive/Road map.md'));
    const r = await cycle();
    expect(r.exitCode).toBe(0);
    expect(r.push?.plan?.problems).toEqual([]);
    expect(r.media?.uploaded).toEqual(['Archive/Road map.assets/later.png']);
    expect(fs.existsSync(abs('Job/Sub/Road map.assets'))).toBe(false);
    expect((await remote()).map((b) => b.type)).toEqual(['text', 'image', 'text']);
    await space.clearRequests();
    expect((await cycle()).exitCode).toBe(0);
    expect(await writes()).toEqual([]);
  });

  it('a file moved, then given an image beside it before a push: the files of its old .assets folder join the new one (chaos seed 340309295)', async () => {
    put('Unsorted/Road map.assets/first.png', PNG);
    edit('The plan:\n', 'The plan:\n\n![](<Road map.assets/first.png>)\n');
    fs.mkdirSync(abs('Work'));
    fs.renameSync(abs(DOC), abs('Work/Road map.md'));
    // The editor saves a new image beside the moved file: a new .assets folder where the old one would go.
    put('Work/Road map.assets/second.png', Buffer.concat([PNG, Buffer.from('2')]));
    fs.writeFileSync(abs('Work/Road map.md'), read('Work/Road map.md').replace('closing words', '![](<Road map.assets/second.png>)\n\nclosing words'));
    const r = await cycle();
    expect(r.exitCode).toBe(0);
    expect(r.push?.plan?.problems).toEqual([]);
    expect(r.media?.uploaded).toEqual(['Work/Road map.assets/first.png', 'Work/Road map.assets/second.png']);
    expect(fs.readdirSync(abs('Work/Road map.assets')).sort()).toEqual(['first.png', 'second.png']);
    expect(fs.existsSync(abs('Unsorted/Road map.assets'))).toBe(false);
    expect((await remote()).map((b) => b.type)).toEqual(['text', 'image', 'image', 'text']);
    await space.clearRequests();
    expect((await cycle()).exitCode).toBe(0);
    expect(await writes()).toEqual([]);
  });

  it('holds back a line whose file is not there yet, and uploads it once it is (chaos seed 564211609)', async () => {
    // Sent as text, the line would make an image block pointing nowhere, which no later upload replaces.
    edit('The plan:\n', 'The plan:\n\n![](<Road map.assets/later.png>)\n');
    const r = await cycle();
    expect(r.push?.plan?.problems.map((p) => p.message)).toEqual([expect.stringContaining('links "Unsorted/Road map.assets/later.png", which is not there')]);
    expect(await writes()).toEqual([]);
    expect((await remote()).map((b) => b.type)).toEqual(['text', 'text']);
    put('Unsorted/Road map.assets/later.png', PNG);
    expect((await cycle()).media?.uploaded).toEqual(['Unsorted/Road map.assets/later.png']);
    expect((await remote()).map((b) => b.type)).toEqual(['text', 'image', 'text']);
    await space.clearRequests();
    expect((await cycle()).exitCode).toBe(0);
    expect(await writes()).toEqual([]);
  });
});

describe('media up: an upload whose answer was lost is never sent twice', () => {
  const IMG = 'Unsorted/Road map.assets/new.png';
  const addImage = () => {
    put(IMG, PNG);
    edit('The plan:\n', 'The plan:\n\n![](<Road map.assets/new.png>)\n');
  };
  const uploadIntents = () => session.journal.pendingIntents().filter((i) => i.op === 'POST /upload');
  /** The image blocks of the document, with the bytes each one's asset holds. */
  const images = async () =>
    Promise.all(
      (await remote())
        .filter((b) => b.type === 'image')
        .map(async (b) => ({ id: b.id, bytes: Buffer.from(await (await fetch(/\((http[^)]*)\)/.exec(b.markdown)![1]!)).arrayBuffer()) })),
    );

  it('the connection reset after the service applied the upload: the next cycle finds the block by its bytes and adopts it, sending nothing', async () => {
    addImage();
    const text = read(DOC);
    await armFault(space.server, { kind: 'reset-after-apply', match: { method: 'POST', path: '^/upload$' } });
    const first = await cycle();
    expect(first.exitCode).toBe(0);
    expect(first.media?.uploaded).toEqual([]);
    expect(first.media?.notUploaded.map((f) => f.message)).toEqual([expect.stringContaining('may have been uploaded')]);
    expect(uploadIntents()).toHaveLength(1);
    const landed = await images();
    expect(landed.map((i) => i.bytes)).toEqual([PNG]);
    await space.clearRequests();
    const second = await cycle();
    expect(second.exitCode).toBe(0);
    expect(await writes()).toEqual([]);
    expect(uploadIntents()).toEqual([]);
    expect((await images()).map((i) => i.id)).toEqual([landed[0]!.id]);
    expect(read(DOC)).toBe(text);
    expect(session.journal.getState(`media:${landed[0]!.id}`)).toMatchObject({ file: IMG, uploaded: true });
    // Settled: the next cycles send, download and rewrite nothing.
    await space.clearRequests();
    const third = await cycle();
    expect(third.media?.downloaded).toEqual([]);
    expect(third.media?.uploaded).toEqual([]);
    expect(await writes()).toEqual([]);
    expect(read(DOC)).toBe(text);
    expect((await remote()).map((b) => b.type)).toEqual(['text', 'image', 'text']);
  });

  it('an upload the service refused before applying it (a 500) is found missing and sent again, once', async () => {
    addImage();
    await armFault(space.server, { kind: '500', match: { method: 'POST', path: '^/upload$' } });
    await cycle();
    expect(uploadIntents()).toHaveLength(1);
    expect(await images()).toEqual([]);
    await space.clearRequests();
    const again = await cycle();
    expect(again.media?.uploaded).toEqual([IMG]);
    expect(await writes()).toEqual(['POST /upload']);
    expect(uploadIntents()).toEqual([]);
    expect((await images()).map((i) => i.bytes)).toEqual([PNG]);
    await space.clearRequests();
    await cycle();
    expect(await writes()).toEqual([]);
  });

  it('a replaced asset whose upload answer was lost: the new block is adopted in the place of the old one, which is deleted', async () => {
    addImage();
    await cycle();
    const text = read(DOC);
    const old = (await images())[0]!.id;
    const bytes = Buffer.concat([PNG, Buffer.from('new bytes')]);
    put(IMG, bytes);
    await armFault(space.server, { kind: 'reset-after-apply', match: { method: 'POST', path: '^/upload$' } });
    await cycle();
    expect(uploadIntents()).toHaveLength(1);
    expect((await images()).map((i) => i.id)).toContain(old);
    await space.clearRequests();
    await cycle();
    expect(await writes()).toEqual(['DELETE /blocks']);
    const now = await images();
    expect(now).toHaveLength(1);
    expect(now[0]!.id).not.toBe(old);
    expect(now[0]!.bytes).toEqual(bytes);
    expect(read(DOC)).toBe(text);
    expect(uploadIntents()).toEqual([]);
    await space.clearRequests();
    await cycle();
    expect(await writes()).toEqual([]);
    expect(read(DOC)).toBe(text);
  });
});

// Scenarios 12 and 17: a request of a push that fails (a 500 after its retries, a connection reset
// after the service applied it) is detected by reading the document again and merging, never by
// sending it blindly; a document is never recorded in step when it is not. A file changed while
// its push is out is not lost.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { pushLocal, runPull } from '../../src/sync/index.js';
import { listRemote } from '../../src/sync/documents/pull/listRemote.js';
import { syncOnce } from '../../src/sync/cycle/syncOnce.js';
import {
  applyLocal,
  applyRemote,
  closeWorld,
  expectConverged,
  expectIdle,
  openWorld,
  remoteBlocks,
  scenarioSpace,
  writesOf,
  type World,
} from './pushHarness.js';
import { adminFetch } from '../client/admin.js';

let w: World;
beforeEach(async () => {
  w = await openWorld();
});
afterEach(async () => {
  await closeWorld(w);
});

/** The folders' paths as the journal records them. */
const folderPaths = () =>
  w.session.journal
    .listFolders()
    .map((f) => f.path)
    .sort();

/** The full listing a cycle gives its push. */
async function fullListing() {
  const snapshot = await listRemote(w.session.ctx);
  return { documents: snapshot.documents, placements: snapshot.placements, folders: snapshot.folders };
}

async function fault(spec: object): Promise<void> {
  await adminFetch(w.space.server, '/faults', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
}

it('a POST reset after the service applied it: read again and merged in the same cycle, no block twice', async () => {
  applyLocal(w, [{ edit: 'Unsorted/Note.md', from: 'third paragraph', to: 'third paragraph\n\na new ending' }]);
  await fault({ kind: 'reset-after-apply', match: { method: 'POST', path: '^/blocks' }, count: 1 });
  await w.space.clearRequests();
  const r = await syncOnce(w.session.ctx);
  expect(r.exitCode).toBe(0);
  // Sent once; the second look finds the block there and takes it.
  expect(await writesOf(w.space)).toEqual(['POST /blocks']);
  expect((await remoteBlocks(w.space, 'D-NOTE')).map((b) => b.markdown)).toEqual(['first paragraph', 'second paragraph', 'third paragraph', 'a new ending']);
  expect(w.session.journal.pendingIntents()).toEqual([]);
  await expectConverged(w);
  await expectIdle(w);
});

it('a POST reset after the service applied it, its line linking a document whose folder the same push moved: the link follows the move (chaos seed 920075)', async () => {
  applyLocal(w, [{ edit: 'Unsorted/Note.md', from: 'third paragraph', to: 'third paragraph\n\nsee [deep](<../Projects/Sub/Deep.md>)' }]);
  fs.renameSync(w.file('Projects/Sub'), w.file('Home/Sub'));
  await fault({ kind: 'reset-after-apply', match: { method: 'POST', path: '^/blocks' }, count: 1 });
  const r = await syncOnce(w.session.ctx);
  expect(r.exitCode).toBe(0);
  expect(w.read('Unsorted/Note.md')).toContain('see [deep](../Home/Sub/Deep.md)');
  await expectConverged(w);
  await expectIdle(w);
});

it('a POST reset after the service applied it, its block moved in the file before the next push: moved, not sent twice (chaos seed 463335517)', async () => {
  applyLocal(w, [{ edit: 'Unsorted/Note.md', from: 'third paragraph', to: 'third paragraph\n\na new ending' }]);
  await fault({ kind: 'reset-after-apply', match: { method: 'POST', path: '^/blocks' }, count: 1 });
  const push = await pushLocal(w.session.ctx);
  expect(push.outcome!.failed).toHaveLength(1);
  // The inserted block is in the space at the end; the file moves it to the start before the next push.
  applyLocal(w, [
    { edit: 'Unsorted/Note.md', from: '\n\na new ending', to: '' },
    { edit: 'Unsorted/Note.md', from: 'first paragraph', to: 'a new ending\n\nfirst paragraph' },
  ]);
  await w.space.clearRequests();
  const r = await syncOnce(w.session.ctx);
  expect(r.exitCode).toBe(0);
  expect(await writesOf(w.space)).toEqual(['PUT /blocks/move']);
  expect((await remoteBlocks(w.space, 'D-NOTE')).map((b) => b.markdown)).toEqual(['a new ending', 'first paragraph', 'second paragraph', 'third paragraph']);
  expect(w.session.journal.pendingIntents()).toEqual([]);
  await expectConverged(w);
  await expectIdle(w);
});

it('a folder renamed here while the space moved its grandchild folder up into it: every recorded folder path stays whole (chaos seed 949925233)', async () => {
  await closeWorld(w);
  w = await openWorld({
    ...scenarioSpace,
    folders: [
      {
        id: 'F-PROJ',
        name: 'Projects',
        createdAt: '2026-01-01T00:00:00Z',
        folders: [
          { id: 'F-SUB', name: 'Sub', createdAt: '2026-01-02T00:00:00Z', folders: [{ id: 'F-INNER', name: 'Inner', createdAt: '2026-01-02T00:00:00Z' }] },
        ],
      },
      { id: 'F-HOME', name: 'Home', createdAt: '2026-01-03T00:00:00Z' },
    ],
    documents: [
      ...scenarioSpace.documents!,
      { id: 'D-INNER', title: 'Innermost', folderId: 'F-INNER', createdAt: '2026-09-01T10:00:00Z', content: [{ id: 'IN1', markdown: 'innermost text' }] },
    ],
  });
  // A name shorter than the old one: a path cut at the old name's length would show.
  applyLocal(w, [{ move: 'Projects', to: 'W' }]);
  await applyRemote(w, [{ method: 'PUT', path: '/folders/move', body: { folderIds: ['F-INNER'], destination: { parentFolderId: 'F-PROJ' } } }]);
  // The push (with the listing a cycle gives it) moves Inner along with Sub, where the mirror has its
  // directory; the space's move of it is the pull's to bring.
  const push = await pushLocal(w.session.ctx, { listing: fullListing });
  expect(push.outcome!.failed).toEqual([]);
  expect(folderPaths()).toEqual(['Home', 'W', 'W/Sub', 'W/Sub/Inner']);
  const r = await syncOnce(w.session.ctx);
  expect(r.exitCode).toBe(0);
  expect(folderPaths()).toEqual(['Home', 'W', 'W/Inner', 'W/Sub']);
  expect(w.read('W/Inner/Innermost.md')).toMatch(/innermost text/);
  await expectConverged(w);
  await expectIdle(w);
});

it('a folder renamed here while the space moved its child folder elsewhere: the child is moved from where the rename took its directory, none left behind (chaos seed 855387185)', async () => {
  await closeWorld(w);
  w = await openWorld({
    ...scenarioSpace,
    folders: [
      { id: 'F-PROJ', name: 'Projects', createdAt: '2026-01-01T00:00:00Z', folders: [{ id: 'F-SUB', name: 'Sub', createdAt: '2026-01-02T00:00:00Z' }] },
      { id: 'F-HOME', name: 'Home', createdAt: '2026-01-03T00:00:00Z' },
    ],
    documents: [
      ...scenarioSpace.documents!,
      { id: 'D-INNER', title: 'Inner', folderId: 'F-SUB', createdAt: '2026-09-01T10:00:00Z', content: [{ id: 'IN1', markdown: 'inner text' }] },
    ],
  });
  // Renamed, then the one file of its subfolder moved out, all before the sync looks.
  applyLocal(w, [
    { move: 'Projects', to: 'W' },
    { move: 'W/Sub/Inner.md', to: 'Unsorted/Inner.md' },
  ]);
  await applyRemote(w, [{ method: 'PUT', path: '/folders/move', body: { folderIds: ['F-SUB'], destination: { parentFolderId: 'F-HOME' } } }]);
  // The push (with the listing a cycle gives it) renames Projects; Sub, which the space has in Home now,
  // is recorded where the rename took its directory, for the pull to move it from there.
  const push = await pushLocal(w.session.ctx, { listing: fullListing });
  expect(push.outcome!.failed).toEqual([]);
  expect(folderPaths()).toEqual(['Home', 'W', 'W/Sub']);
  const r = await syncOnce(w.session.ctx);
  expect(r.exitCode).toBe(0);
  expect(folderPaths()).toEqual(['Home', 'Home/Sub', 'W']);
  expect(w.read('Unsorted/Inner.md')).toMatch(/inner text/);
  // The rename carried Sub's directory to W/Sub; left there, a full scan would make it a folder again.
  expect(fs.existsSync(w.file('W/Sub'))).toBe(false);
  await expectConverged(w);
  await expectIdle(w);
});

it('a file edited while the space purged its document from the trash becomes one new document, its record taking the path (chaos seed 949925233)', async () => {
  await applyRemote(w, [{ method: 'DELETE', path: '/documents', body: { documentIds: ['D-IDEA'] } }]);
  await adminFetch(w.space.server, '/clock', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceMs: 31 * 86_400_000 }),
  });
  applyLocal(w, [{ edit: 'Unsorted/Ideas.md', from: 'an idea', to: 'an idea, edited' }]);
  await w.space.clearRequests();
  const r = await syncOnce(w.session.ctx);
  expect(r.exitCode).toBe(0);
  expect(await writesOf(w.space)).toEqual(['POST /documents', 'POST /blocks']);
  const ideas = ((await w.space.call('GET', '/documents')).items as Array<{ id: string; title: string }>).filter((d) => d.title === 'Ideas');
  expect(ideas).toHaveLength(1);
  expect((await remoteBlocks(w.space, ideas[0]!.id)).map((b) => b.markdown)).toEqual(['an idea, edited']);
  expect(w.session.journal.getDocument('D-IDEA')).toBeUndefined();
  expect(w.session.journal.getDocumentByPath('Unsorted/Ideas.md')!.id).toBe(ideas[0]!.id);
  expect(w.read('Unsorted/Ideas.md')).toContain(`id: ${ideas[0]!.id}`);
  await expectConverged(w);
  await expectIdle(w);
});

it("a new document whose create was reset after the service applied it is adopted by the pull that sees it first, not taken for the service's own", async () => {
  // The daemon's second push of a cycle can be the one that loses the answer; the pull of the same
  // cycle then lists the new document before any push has looked at the intent.
  applyLocal(w, [{ write: 'Projects/Fresh.md', text: 'a fresh note\n\n- with a point\n' }]);
  await fault({ kind: 'reset-after-apply', match: { method: 'POST', path: '^/documents$' }, count: 1 });
  const push = await pushLocal(w.session.ctx);
  expect(push.outcome!.failed).toHaveLength(1);
  const pull = await runPull(w.session.ctx);
  expect(pull.blocked).toEqual([]);
  const record = w.session.journal.getDocumentByPath('Projects/Fresh.md');
  expect(record).toMatchObject({ title: 'Fresh', folderId: 'F-PROJ' });
  expect(record!.fileHash).not.toBeNull();
  const again = await syncOnce(w.session.ctx);
  expect(again.exitCode).toBe(0);
  const docs = (await w.space.call('GET', '/documents')).items as Array<{ id: string; title: string }>;
  expect(docs.filter((d) => d.title === 'Fresh')).toEqual([expect.objectContaining({ id: record!.id })]);
  expect(w.read('Projects/Fresh.md')).toContain(`id: ${record!.id}`);
  expect((await remoteBlocks(w.space, record!.id)).map((b) => b.markdown)).toEqual(['a fresh note', '- with a point']);
  expect(w.session.journal.pendingIntents()).toEqual([]);
  await expectConverged(w);
  await expectIdle(w);
});

for (const c of [
  { to: 'Home/Fresher.md', edit: false, pullFirst: true, title: 'Fresher' },
  { to: 'Home/Fresh.md', edit: true, pullFirst: false, title: 'Fresh' },
]) {
  it(`a new document whose create was cut short, its file then ${c.edit ? 'edited and ' : ''}moved to ${c.to}: one document, moved there (chaos seed 940071)`, async () => {
    applyLocal(w, [{ write: 'Projects/Fresh.md', text: 'a fresh note\n\n- with a point\n' }]);
    await fault({ kind: 'reset-after-apply', match: { method: 'POST', path: '^/documents$' }, count: 1 });
    expect((await pushLocal(w.session.ctx)).outcome!.failed).toHaveLength(1);
    applyLocal(w, [{ move: 'Projects/Fresh.md', to: c.to }, ...(c.edit ? [{ edit: c.to, from: 'a point', to: 'a sharper point' }] : [])]);
    if (c.pullFirst) expect((await runPull(w.session.ctx)).blocked).toEqual([]);
    expect((await syncOnce(w.session.ctx)).exitCode).toBe(0);
    const docs = ((await w.space.call('GET', '/documents')).items as Array<{ id: string; title: string }>).filter((d) => d.title.startsWith('Fresh'));
    expect(docs).toEqual([expect.objectContaining({ title: c.title })]);
    const inHome = (await w.space.call('GET', '/documents?folderId=F-HOME')).items as Array<{ id: string }>;
    expect(inHome.map((d) => d.id)).toContain(docs[0]!.id);
    expect(w.read(c.to)).toContain(`id: ${docs[0]!.id}`);
    expect((await remoteBlocks(w.space, docs[0]!.id)).map((b) => b.markdown)).toEqual(['a fresh note', c.edit ? '- with a sharper point' : '- with a point']);
    expect(w.session.journal.pendingIntents()).toEqual([]);
    await expectConverged(w);
    await expectIdle(w);
  });
}

it('a PUT that keeps failing is reported, the document stays pending with its intent, and the next cycle sends it', async () => {
  applyLocal(w, [{ edit: 'Unsorted/Note.md', from: 'second paragraph', to: 'second, edited' }]);
  const before = w.session.journal.getDocument('D-NOTE')!;
  await fault({ kind: '500', match: { method: 'PUT', path: '^/blocks$' }, count: 100 });
  const r = await syncOnce(w.session.ctx);
  expect(r.exitCode).toBe(1);
  expect(r.push.outcome!.failed[0]).toMatchObject({ path: 'Unsorted/Note.md', code: 'server' });
  const after = w.session.journal.getDocument('D-NOTE')!;
  expect(after.fileHash).toBe(before.fileHash);
  expect(w.session.journal.getBaseBlocks('D-NOTE').map((b) => b.markdown)).toContain('second paragraph');
  expect(w.session.journal.pendingIntents().map((i) => i.docId)).toContain('D-NOTE');
  expect(w.read('Unsorted/Note.md')).toContain('second, edited');

  await adminFetch(w.space.server, '/faults', { method: 'DELETE' });
  const again = await syncOnce(w.session.ctx);
  expect(again.exitCode).toBe(0);
  expect((await remoteBlocks(w.space, 'D-NOTE')).map((b) => b.markdown)).toEqual(['first paragraph', 'second, edited', 'third paragraph']);
  expect(w.session.journal.pendingIntents()).toEqual([]);
  await expectConverged(w);
  await expectIdle(w);
});

it('a file edited again while its push is out keeps the newer edit; the next cycle sends it', async () => {
  applyLocal(w, [{ edit: 'Unsorted/Note.md', from: 'first paragraph', to: 'first, edit one' }]);
  await fault({ kind: 'delay', delayMs: 400, match: { method: 'PUT', path: '^/blocks$' }, count: 1 });
  const cycle = syncOnce(w.session.ctx);
  await new Promise((r) => setTimeout(r, 150));
  applyLocal(w, [{ edit: 'Unsorted/Note.md', from: 'third paragraph', to: 'third, edit two' }]);
  const r = await cycle;
  expect(r.exitCode).toBe(0);
  expect(w.read('Unsorted/Note.md')).toContain('third, edit two');
  expect(w.read('Unsorted/Note.md')).toContain('first, edit one');
  await syncOnce(w.session.ctx);
  expect((await remoteBlocks(w.space, 'D-NOTE')).map((b) => b.markdown)).toEqual(['first, edit one', 'second paragraph', 'third, edit two']);
  await expectConverged(w);
  await expectIdle(w);
});

it('a block edited again while its own edit is out: the next cycle sends the newer text, with no conflict with the first', async () => {
  applyLocal(w, [{ edit: 'Unsorted/Note.md', from: 'first paragraph', to: 'first, edit one' }]);
  await fault({ kind: 'delay', delayMs: 400, match: { method: 'PUT', path: '^/blocks$' }, count: 1 });
  const cycle = syncOnce(w.session.ctx);
  await new Promise((r) => setTimeout(r, 150));
  applyLocal(w, [{ edit: 'Unsorted/Note.md', from: 'first, edit one', to: 'first, edit two' }]);
  await cycle;
  // The space holds edit one, which this mirror sent: the same block's edit two follows it, as any later edit.
  const again = await syncOnce(w.session.ctx);
  expect(again.exitCode).toBe(0);
  expect((await remoteBlocks(w.space, 'D-NOTE')).map((b) => b.markdown)).toEqual(['first, edit two', 'second paragraph', 'third paragraph']);
  expect(w.read('Unsorted/Note.md')).toBe('---\nid: D-NOTE\n---\nfirst, edit two\n\nsecond paragraph\n\nthird paragraph\n');
  expect(fs.readdirSync(w.file('Unsorted')).filter((n) => n.includes('conflict'))).toEqual([]);
  await expectConverged(w);
  await expectIdle(w);
});

it("a block edited again while its own edit goes out in a merged push: no conflict with the first, and the space's edit kept", async () => {
  applyLocal(w, [{ edit: 'Unsorted/Note.md', from: 'first paragraph', to: 'first, edit one' }]);
  await applyRemote(w, [{ method: 'PUT', path: '/blocks', body: { blocks: [{ id: 'N2', markdown: 'second, from the app' }] } }]);
  await fault({ kind: 'delay', delayMs: 400, match: { method: 'PUT', path: '^/blocks$' }, count: 1 });
  const cycle = syncOnce(w.session.ctx);
  await new Promise((r) => setTimeout(r, 200));
  // Saved again over the text the push read (the space's edit is not in the file yet: the merge would have written it).
  fs.writeFileSync(w.file('Unsorted/Note.md'), w.read('Unsorted/Note.md').replace('first, edit one', 'first, edit two'));
  await cycle;
  const again = await syncOnce(w.session.ctx);
  expect(again.exitCode).toBe(0);
  expect((await remoteBlocks(w.space, 'D-NOTE')).map((b) => b.markdown)).toEqual(['first, edit two', 'second, from the app', 'third paragraph']);
  expect(w.read('Unsorted/Note.md')).toBe('---\nid: D-NOTE\n---\nfirst, edit two\n\nsecond, from the app\n\nthird paragraph\n');
  expect(fs.readdirSync(w.file('Unsorted')).filter((n) => n.includes('conflict'))).toEqual([]);
  await expectConverged(w);
  await expectIdle(w);
});

it('a file edited again while a merged push is out: nothing of either side is lost', async () => {
  applyLocal(w, [{ edit: 'Unsorted/Note.md', from: 'first paragraph', to: 'first, edit one' }]);
  await applyRemote(w, [{ method: 'PUT', path: '/blocks', body: { blocks: [{ id: 'N2', markdown: 'second, from the app' }] } }]);
  await fault({ kind: 'delay', delayMs: 400, match: { method: 'PUT', path: '^/blocks$' }, count: 1 });
  const cycle = syncOnce(w.session.ctx);
  await new Promise((r) => setTimeout(r, 200));
  const text = w.read('Unsorted/Note.md').replace('third paragraph', 'third, edit two');
  fs.writeFileSync(w.file('Unsorted/Note.md'), text);
  await cycle;
  expect(w.read('Unsorted/Note.md')).toContain('third, edit two');
  await syncOnce(w.session.ctx);
  expect((await remoteBlocks(w.space, 'D-NOTE')).map((b) => b.markdown)).toEqual(['first, edit one', 'second, from the app', 'third, edit two']);
  expect(w.read('Unsorted/Note.md')).toBe('---\nid: D-NOTE\n---\nfirst, edit one\n\nsecond, from the app\n\nthird, edit two\n');
  await expectConverged(w);
  await expectIdle(w);
});

it("a file renamed and then emptied stays its document's, held back, when a push looks only at the old name", async () => {
  const documents = async () => ((await w.space.call('GET', '/documents')).items as unknown[]).length;
  const before = await documents();
  fs.renameSync(w.file('Unsorted/Note.md'), w.file('Unsorted/Renamed.md'));
  fs.writeFileSync(w.file('Unsorted/Renamed.md'), '---\nid: D-NOTE\n---\n');
  // The watcher reports the two halves of the rename apart: the new name first (held back: it would wipe its document)…
  const first = await pushLocal(w.session.ctx, { paths: ['Unsorted/Renamed.md'] });
  expect(first.plan.heldBack.map((h) => [h.path, h.reason])).toEqual([['Unsorted/Renamed.md', 'wipe']]);
  // …then the old one alone: the document is not taken for deleted.
  const second = await pushLocal(w.session.ctx, { paths: ['Unsorted/Note.md'] });
  expect(await writesOf(w.space)).toEqual([]);
  expect(second.outcome?.sent ?? []).toEqual([]);
  expect(await documents()).toBe(before);
  expect((await remoteBlocks(w.space, 'D-NOTE')).map((b) => b.markdown)).toEqual(['first paragraph', 'second paragraph', 'third paragraph']);
  expect(w.read('Unsorted/Renamed.md')).toBe('---\nid: D-NOTE\n---\n');
});

for (const there of ['trash', 'move'] as const) {
  it(`a file edited as the space ${there === 'trash' ? 'trashed' : 'moved'} its document, on a poll that did not look at it: the pull moves it with the edit, and the edit is sent (chaos seed 950022)`, async () => {
    applyLocal(w, [{ edit: 'Unsorted/Note.md', from: 'second paragraph', to: 'second, edited here' }]);
    if (there === 'trash') await applyRemote(w, [{ method: 'DELETE', path: '/documents', body: { documentIds: ['D-NOTE'] } }]);
    else await applyRemote(w, [{ method: 'PUT', path: '/documents/move', body: { documentIds: ['D-NOTE'], destination: { folderId: 'F-HOME' } } }]);
    // A poll with no file named by the watcher yet (the save's event comes after the cycle took its paths).
    const poll = await syncOnce(w.session.ctx, { paths: [] });
    const moved = there === 'trash' ? 'Trash/Note.md' : 'Home/Note.md';
    expect(w.read(moved)).toContain('second, edited here');
    expect(poll.pull!.localPending).toEqual([expect.objectContaining({ id: 'D-NOTE', path: moved, change: 'edited' })]);
    // The daemon looks at what the pull left, on its next cycle.
    expect((await syncOnce(w.session.ctx, { paths: poll.pull!.localPending.map((p) => p.path) })).exitCode).toBe(0);
    expect((await remoteBlocks(w.space, 'D-NOTE')).map((b) => b.markdown)).toEqual(['first paragraph', 'second, edited here', 'third paragraph']);
    await expectConverged(w);
    await expectIdle(w);
  });
}

it('a folder replaced by a symbolic link while its push is out: the file is not written through the link, the document waits with its intents, the push goes on (chaos seed 1040034)', async () => {
  // A new file: once created, the push writes the document's id into it.
  applyLocal(w, [{ write: 'Projects/Fresh.md', text: 'a fresh note\n' }]);
  await fault({ kind: 'delay', delayMs: 400, count: 1, match: { method: 'POST', path: '^/blocks$' } });
  const push = pushLocal(w.session.ctx);
  await new Promise((r) => setTimeout(r, 200));
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-outside-'));
  const held = path.join(outside, 'Projects');
  fs.renameSync(w.file('Projects'), held);
  fs.symlinkSync(held, w.file('Projects'));
  const r = await push;
  expect(r.outcome!.failed).toEqual([]);
  expect(fs.readFileSync(path.join(held, 'Fresh.md'), 'utf8')).toBe('a fresh note\n');
  const fresh = w.session.journal.getDocumentByPath('Projects/Fresh.md')!;
  expect(w.session.journal.pendingIntents().map((i) => i.docId)).toContain(fresh.id);
  // The link replaced by the folder again: the next cycle settles the document, its text sent once.
  fs.rmSync(w.file('Projects'));
  fs.renameSync(held, w.file('Projects'));
  fs.rmSync(outside, { recursive: true, force: true });
  expect((await syncOnce(w.session.ctx)).exitCode).toBe(0);
  expect((await remoteBlocks(w.space, fresh.id)).map((b) => b.markdown)).toEqual(['a fresh note']);
  expect(w.read('Projects/Fresh.md')).toContain(`id: ${fresh.id}`);
  expect(w.session.journal.pendingIntents()).toEqual([]);
  await expectConverged(w);
  await expectIdle(w);
});

it('a folder deleted here as the space moved a document into it: the document the service put in its parent is placed there, though every count stayed (chaos seed 1130099)', async () => {
  // Projects/Sub renamed here: a new folder, Deep moved into it, and the old folder deleted.
  applyLocal(w, [{ move: 'Projects/Sub', to: 'Projects/Subway' }]);
  await fault({ kind: 'delay', delayMs: 400, match: { method: 'DELETE', path: '^/folders$' }, count: 1 });
  const cycle = syncOnce(w.session.ctx);
  await new Promise((r) => setTimeout(r, 150));
  // Meanwhile the space puts Ideas into the old folder (the delete carries it up into Projects) and
  // takes Plan out of Projects: Projects and Unsorted keep their counts.
  await applyRemote(w, [
    { method: 'PUT', path: '/documents/move', body: { documentIds: ['D-IDEA'], destination: { folderId: 'F-SUB' } } },
    { method: 'PUT', path: '/documents/move', body: { documentIds: ['D-PLAN'], destination: { destination: 'unsorted' } } },
  ]);
  await cycle;
  await syncOnce(w.session.ctx);
  expect(w.session.journal.getDocument('D-IDEA')!.path).toBe('Projects/Ideas.md');
  expect(w.session.journal.getDocument('D-PLAN')!.path).toBe('Unsorted/Plan.md');
  await expectConverged(w);
  await expectIdle(w);
});

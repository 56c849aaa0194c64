// Each kind of change made in the space shows up in the mirror after one cycle, with the fewest
// requests (counted in the server's request log), moving files rather than re-creating them.
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runPull, type SyncSession } from '../../src/sync/index.js';
import { type PullCycleResult } from '../../src/sync/documents/index.js';
import { demoSpace } from './demoSpace.js';
import { describeRequests, expectMirrorMatches, readTree, usePulledMirror, type Space } from './harness.js';

let space: Space;
let root: string;
let session: SyncSession;

usePulledMirror(demoSpace, (m) => ({ space, root, session } = m));
beforeEach(() => space.clearRequests());

const LISTING = ['GET /documents?fetchMetadata=true', 'GET /folders'];
const read = (p: string) => fs.readFileSync(path.join(root, p), 'utf8');
const inode = (p: string) => fs.statSync(path.join(root, p)).ino;

/** One cycle; returns its result and the requests it sent. */
async function cycle(): Promise<{ result: PullCycleResult; requests: string[] }> {
  await space.clearRequests();
  const result = await runPull(session.ctx);
  const requests = describeRequests(await space.requests());
  return { result, requests };
}

describe('remote changes after one cycle', () => {
  it('a one-block edit rewrites only that block and costs one read on top of the listing', async () => {
    const before = read('Projects/Roadmap.md');
    await space.call('PUT', '/blocks', { blocks: [{ id: 'B-P', markdown: 'Ship the **pull** engine' }] });
    const { result, requests } = await cycle();
    expect(requests).toEqual([...LISTING, 'GET /blocks?id=D-ROAD'].sort());
    expect(result.written).toEqual([{ id: 'D-ROAD', path: 'Projects/Roadmap.md', mode: 'splice' }]);
    // Byte for byte the old file with one range replaced: the image keeps its (re-signed) URL as it was.
    expect(read('Projects/Roadmap.md')).toBe(before.replace('Ship the **sync** engine', 'Ship the **pull** engine'));
    await expectMirrorMatches(root, space);
  });

  it('a renamed document moves its file (same inode) and costs one read', async () => {
    const ino = inode('Personal/Diary.md');
    await space.call('PUT', '/blocks', { blocks: [{ id: 'D-PERS', markdown: 'Journal' }] });
    const { result, requests } = await cycle();
    expect(requests).toEqual([...LISTING, 'GET /blocks?id=D-PERS'].sort());
    expect(result.moved).toEqual([{ id: 'D-PERS', from: 'Personal/Diary.md', to: 'Personal/Journal.md' }]);
    // Moved, then read: the file already says everything, so it is not written at all.
    expect(result.written).toEqual([]);
    expect(result.unchanged).toEqual(['D-PERS']);
    expect(fs.existsSync(path.join(root, 'Personal/Diary.md'))).toBe(false);
    expect(inode('Personal/Journal.md')).toBe(ino);
    expect(read('Personal/Journal.md')).toBe('---\nid: D-PERS\n---\ndear diary\n');
    await expectMirrorMatches(root, space);
  });

  it('a document moved to another folder moves its file; only the destination is listed', async () => {
    const ino = inode('Personal/Diary.md');
    await space.call('PUT', '/documents/move', { documentIds: ['D-PERS'], destination: { folderId: 'F-PROJ' } });
    const { result, requests } = await cycle();
    // Personal is now empty (its count says so): it needs no listing. Projects' listing is recursive
    // (it names its subfolders' documents too), so a document coming into it might sit in a subfolder
    // whose count another kept by leaving: the non-empty subfolders are listed too.
    expect(requests).toEqual([...LISTING, 'GET /documents?folderId=F-PROJ', 'GET /documents?folderId=F-ARCH', 'GET /documents?folderId=F-OLD'].sort());
    expect(result.moved).toEqual([{ id: 'D-PERS', from: 'Personal/Diary.md', to: 'Projects/Diary.md' }]);
    expect(inode('Projects/Diary.md')).toBe(ino);
    expect(result.written).toEqual([]);
    // The folder stays, empty, because it still exists in the space.
    expect(fs.statSync(path.join(root, 'Personal')).isDirectory()).toBe(true);
    await expectMirrorMatches(root, space);
  });

  it('a trashed document moves to Trash/ and a restored one moves back', async () => {
    await space.call('DELETE', '/documents', { documentIds: ['D-UNS'] });
    const trashed = await cycle();
    expect(trashed.requests).toEqual([...LISTING, 'GET /documents?location=trash', 'GET /documents?location=unsorted'].sort());
    expect(trashed.result.moved).toEqual([{ id: 'D-UNS', from: 'Unsorted/Unsorted note.md', to: 'Trash/Unsorted note.md' }]);
    await space.call('PUT', '/documents/move', { documentIds: ['D-UNS'], destination: { folderId: 'F-PERS' } });
    const restored = await cycle();
    expect(restored.requests).toEqual([...LISTING, 'GET /documents?folderId=F-PERS', 'GET /documents?location=trash'].sort());
    expect(restored.result.moved).toEqual([{ id: 'D-UNS', from: 'Trash/Unsorted note.md', to: 'Personal/Unsorted note.md' }]);
    await expectMirrorMatches(root, space);
  });

  it('a new folder becomes a directory and a removed one goes, its documents moving up', async () => {
    const created = await space.call('POST', '/folders', { folders: [{ name: 'Ideas', parentFolderId: 'F-PROJ' }] });
    const added = await cycle();
    expect(added.requests).toEqual(LISTING);
    expect(fs.statSync(path.join(root, 'Projects/Ideas')).isDirectory()).toBe(true);
    expect(session.journal.getFolder(created.items[0].id)?.path).toBe('Projects/Ideas');

    await space.call('DELETE', '/folders', { folderIds: ['F-PERS'] });
    const removed = await cycle();
    expect(removed.requests).toEqual([...LISTING, 'GET /documents?location=unsorted'].sort());
    expect(removed.result.moved).toEqual([{ id: 'D-PERS', from: 'Personal/Diary.md', to: 'Unsorted/Diary.md' }]);
    expect(fs.existsSync(path.join(root, 'Personal'))).toBe(false);
    expect(session.journal.getFolder('F-PERS')).toBeUndefined();
    await expectMirrorMatches(root, space);
  });

  it('a folder moved in the space is one directory rename; nothing is listed or read', async () => {
    const ino = inode('Projects/Archive/Old plan.md');
    fs.writeFileSync(path.join(root, 'Projects/Archive/photo.jpg'), 'not a document');
    await space.call('PUT', '/folders/move', { folderIds: ['F-ARCH'], destination: 'root' });
    const { result, requests } = await cycle();
    expect(requests).toEqual(LISTING);
    expect(result.folderMoves).toEqual([{ id: 'F-ARCH', from: 'Projects/Archive', to: 'Archive' }]);
    expect(result.moved).toEqual([]);
    expect(inode('Archive/Old plan.md')).toBe(ino);
    expect(read('Archive/photo.jpg')).toBe('not a document');
    expect(session.journal.getDocument('D-OLD')?.path).toBe('Archive/Old/Ancient.md');
    await expectMirrorMatches(root, space);
  });

  it('a new document is listed in its folder and read once', async () => {
    const created = await space.call('POST', '/documents', { documents: [{ title: 'Launch' }], destination: { folderId: 'F-PERS' } });
    const id = created.items[0].id as string;
    await space.call('POST', '/blocks', { markdown: 'go live', position: { position: 'end', pageId: id } });
    const { result, requests } = await cycle();
    expect(requests).toEqual([...LISTING, 'GET /documents?folderId=F-PERS', `GET /blocks?id=${id}`].sort());
    expect(result.written).toEqual([{ id, path: 'Personal/Launch.md', mode: 'new' }]);
    expect(read('Personal/Launch.md')).toBe(`---\nid: ${id}\n---\ngo live\n`);
  });

  it("a new document in a folder with subfolders: they are listed too, since the folder's recursive listing cannot say where it is", async () => {
    const created = await space.call('POST', '/documents', { documents: [{ title: 'Launch' }], destination: { folderId: 'F-PROJ' } });
    const id = created.items[0].id as string;
    await space.call('POST', '/blocks', { markdown: 'go live', position: { position: 'end', pageId: id } });
    const { result, requests } = await cycle();
    expect(requests).toEqual(
      [...LISTING, 'GET /documents?folderId=F-PROJ', 'GET /documents?folderId=F-ARCH', 'GET /documents?folderId=F-OLD', `GET /blocks?id=${id}`].sort(),
    );
    expect(result.written).toEqual([{ id, path: 'Projects/Launch.md', mode: 'new' }]);
    expect(read('Projects/Launch.md')).toBe(`---\nid: ${id}\n---\ngo live\n`);
  });

  it('a new document in a subfolder whose count stayed (one in, one out) is placed there, not in the folder above', async () => {
    // F-ARCH keeps its count (one in, one out), so only F-PROJ and F-PERS are listed at first.
    const deep = (await space.call('POST', '/documents', { documents: [{ title: 'Deep new' }], destination: { folderId: 'F-ARCH' } })).items[0].id as string;
    const top = (await space.call('POST', '/documents', { documents: [{ title: 'Top new' }], destination: { folderId: 'F-PROJ' } })).items[0].id as string;
    await space.call('PUT', '/documents/move', { documentIds: ['D-ARCH'], destination: { folderId: 'F-PERS' } });
    const { result } = await cycle();
    expect(result.written).toContainEqual({ id: deep, path: 'Projects/Archive/Deep new.md', mode: 'new' });
    expect(result.written).toContainEqual({ id: top, path: 'Projects/Top new.md', mode: 'new' });
    expect(result.moved).toContainEqual({ id: 'D-ARCH', from: 'Projects/Archive/Old plan.md', to: 'Personal/Old plan.md' });
    await expectMirrorMatches(root, space);
  });

  it('documents moved within a folder whose subfolder kept its count (one up, one up from below) are placed where they are', async () => {
    // Archive keeps its count: its document moves up into Projects, Old's moves up into Archive.
    // Projects' recursive listing names both and its count says one more is its own: the guess
    // that each stayed where it was known cannot hold, so the subfolders are listed.
    await space.call('PUT', '/documents/move', { documentIds: ['D-ARCH'], destination: { folderId: 'F-PROJ' } });
    await space.call('PUT', '/documents/move', { documentIds: ['D-OLD'], destination: { folderId: 'F-ARCH' } });
    const { result } = await cycle();
    expect(result.moved).toContainEqual({ id: 'D-ARCH', from: 'Projects/Archive/Old plan.md', to: 'Projects/Old plan.md' });
    expect(result.moved).toContainEqual({ id: 'D-OLD', from: 'Projects/Archive/Old/Ancient.md', to: 'Projects/Archive/Ancient.md' });
    await expectMirrorMatches(root, space);
  });

  it('a new daily note is found in the daily notes listing', async () => {
    await space.call('POST', '/blocks', { markdown: 'planned', position: { position: 'end', date: '2026-09-07' } });
    const { result, requests } = await cycle();
    const id = result.written[0]?.id;
    expect(requests).toEqual([...LISTING, 'GET /documents?location=daily_notes', `GET /blocks?id=${id}`].sort());
    expect(result.written).toEqual([{ id, path: 'Daily Notes/2026-09-07.md', mode: 'new' }]);
  });

  it('a document purged from trash leaves the mirror but is kept in .spacesync/purged/', async () => {
    const text = read('Trash/Deleted thing.md');
    space.clock.t += 31 * 24 * 3600 * 1000; // the server purges trash older than 30 days
    const { result } = await cycle();
    const day = new Date().toISOString().slice(0, 10);
    expect(result.purged).toEqual([{ id: 'D-TRASH', from: 'Trash/Deleted thing.md', to: `.spacesync/purged/${day}/Trash/Deleted thing.md` }]);
    expect(fs.existsSync(path.join(root, 'Trash/Deleted thing.md'))).toBe(false);
    expect(read(`.spacesync/purged/${day}/Trash/Deleted thing.md`)).toBe(text);
    expect(session.journal.getDocument('D-TRASH')).toBeUndefined();
    expect(fs.statSync(path.join(root, 'Trash')).isDirectory()).toBe(true);
    await expectMirrorMatches(root, space);
  });

  it('a name freed by a trashed document goes to the next one, whose front matter then drops the title', async () => {
    await space.call('DELETE', '/documents', { documentIds: ['D-MEET1'] });
    const { result } = await cycle();
    expect(result.moved).toContainEqual({ id: 'D-MEET2', from: 'Unsorted/Meeting (DMEET2).md', to: 'Unsorted/Meeting.md' });
    expect(read('Unsorted/Meeting.md')).toBe('---\nid: D-MEET2\n---\nsecond meeting\n');
    expect(read('Trash/Meeting.md')).toBe('---\nid: D-MEET1\n---\nfirst meeting\n');
    const again = await cycle();
    expect(again.result.written).toEqual([]);
    expect(again.result.moved).toEqual([]);
  });

  it('two documents trading titles swap files without losing either', async () => {
    await space.call('PUT', '/blocks', {
      blocks: [
        { id: 'D-UNS', markdown: 'Caf\u00e9 notes' },
        { id: 'D-CAFE', markdown: 'Unsorted note' },
      ],
    });
    const { result } = await cycle();
    expect(result.moved.map((m) => m.id).sort()).toEqual(['D-CAFE', 'D-UNS']);
    expect([...readTree(root).keys()].filter((p) => p.includes('moving'))).toEqual([]);
    expect(read('Unsorted/Caf\u00e9 notes.md')).toBe('---\nid: D-UNS\n---\nhello world\n\nsecond paragraph\n');
    expect(read('Unsorted/Unsorted note.md')).toBe('---\nid: D-CAFE\n---\nun caf\u00e9\n');
    await expectMirrorMatches(root, space);
  });

  it('a document moved up from a subfolder while a new one came into it is told apart from it', async () => {
    const deep = (await space.call('POST', '/documents', { documents: [{ title: 'Deep new' }], destination: { folderId: 'F-ARCH' } })).items[0].id as string;
    await space.call('PUT', '/documents/move', { documentIds: ['D-ARCH'], destination: { folderId: 'F-PROJ' } });
    const { result } = await cycle();
    expect(result.written).toContainEqual({ id: deep, path: 'Projects/Archive/Deep new.md', mode: 'new' });
    expect(result.moved).toContainEqual({ id: 'D-ARCH', from: 'Projects/Archive/Old plan.md', to: 'Projects/Old plan.md' });
    await expectMirrorMatches(root, space);
  });

  it('moves that leave every count as it was are seen by the periodic full scan', async () => {
    await space.call('PUT', '/documents/move', { documentIds: ['D-UNS'], destination: { folderId: 'F-PERS' } });
    await space.call('PUT', '/documents/move', { documentIds: ['D-PERS'], destination: { destination: 'unsorted' } });
    const quick = await cycle();
    expect(quick.requests).toEqual(LISTING);
    expect(quick.result.moved).toEqual([]);
    await space.clearRequests();
    const full = await runPull(session.ctx, { fullScan: true });
    expect(full.fullScan).toBe(true);
    expect(full.moved.map((m) => m.to).sort()).toEqual(['Personal/Unsorted note.md', 'Unsorted/Diary.md']);
    await expectMirrorMatches(root, space);
  });

  it('a move kept back by a file changed here keeps its folders listed, even after a later move brings their counts back', async () => {
    const synced = read('Personal/Diary.md');
    fs.writeFileSync(path.join(root, 'Personal/Diary.md'), `${synced}an edit not sent yet\n`);
    await space.call('PUT', '/documents/move', { documentIds: ['D-PERS'], destination: { destination: 'unsorted' } });
    const kept = await cycle();
    expect(kept.result.moved).toEqual([]); // changed here: it stays where it is for now
    // The other way round: every count is back to what it was before the first move.
    await space.call('PUT', '/documents/move', { documentIds: ['D-UNS'], destination: { folderId: 'F-PERS' } });
    const next = await cycle();
    expect(next.result.moved).toEqual([{ id: 'D-UNS', from: 'Unsorted/Unsorted note.md', to: 'Personal/Unsorted note.md' }]);
    // Once the file says what it said, the first move is applied too.
    fs.writeFileSync(path.join(root, 'Personal/Diary.md'), synced);
    const last = await cycle();
    expect(last.result.moved).toEqual([{ id: 'D-PERS', from: 'Personal/Diary.md', to: 'Unsorted/Diary.md' }]);
    await expectMirrorMatches(root, space);
  });

  it('an idle cycle after changes writes nothing and sends only the listing', async () => {
    await space.call('PUT', '/blocks', { blocks: [{ id: 'B-HELLO', markdown: 'hello there' }] });
    await space.call('PUT', '/documents/move', { documentIds: ['D-ARCH'], destination: { folderId: 'F-PERS' } });
    await cycle();
    const before = readTree(root);
    const idle = await cycle();
    expect(idle.requests).toEqual(LISTING);
    expect(idle.result.written).toEqual([]);
    const after = readTree(root);
    for (const [p, v] of after) expect(v.mtimeMs, p).toBe(before.get(p)?.mtimeMs);
  });

  it('lists every container again once fullScanMinutes have passed', async () => {
    const quick = await cycle();
    expect(quick.result.fullScan).toBe(false);
    const now = session.ctx.now;
    session.ctx.now = () => new Date(now().getTime() + 31 * 60_000);
    const later = await cycle();
    expect(later.result.fullScan).toBe(true);
    expect(later.requests.filter((r) => r.includes('location=') || r.includes('folderId='))).toHaveLength(9);
    const next = await cycle();
    expect(next.requests).toEqual(LISTING);
  });
});

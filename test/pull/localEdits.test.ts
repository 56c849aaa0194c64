// A pull never overwrites, moves or removes a file changed locally since the daemon last wrote
// it: the file is left as it is and reported as localPending for the merge. The daemon's own
// writes are recognised as its own.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashText } from '../../src/mirror/index.js';
import { runPull, type SyncSession } from '../../src/sync/index.js';
import { detectLocalChanges } from '../../src/sync/documents/pull/detectLocalChanges.js';
import { demoSpace } from './demoSpace.js';
import { describeRequests, usePulledMirror, type Space } from './harness.js';

let space: Space;
let root: string;
let session: SyncSession;

usePulledMirror(demoSpace, (m) => ({ space, root, session } = m));

const file = (p: string) => path.join(root, p);
const read = (p: string) => fs.readFileSync(file(p), 'utf8');

describe('local changes are never overwritten by a pull', () => {
  it('an edited file whose document also changed remotely is left as it is, and the base does not move', async () => {
    const mine = read('Unsorted/Unsorted note.md').replace('hello world', 'hello from my editor');
    fs.writeFileSync(file('Unsorted/Unsorted note.md'), mine);
    const before = session.journal.getDocument('D-UNS')!;
    await space.call('PUT', '/blocks', { blocks: [{ id: 'B-HELLO2', markdown: 'remote second' }] });
    const result = await runPull(session.ctx);
    expect(read('Unsorted/Unsorted note.md')).toBe(mine);
    expect(result.localChanged).toEqual([{ id: 'D-UNS', path: 'Unsorted/Unsorted note.md', change: 'edited' }]);
    expect(result.localPending).toEqual([{ id: 'D-UNS', path: 'Unsorted/Unsorted note.md', change: 'edited', remoteChanged: true }]);
    expect(result.remoteChanged).toEqual(['D-UNS']);
    expect(result.written).toEqual([]);
    const after = session.journal.getDocument('D-UNS')!;
    expect(after.remoteModifiedAt).toBe(before.remoteModifiedAt);
    expect(after.fileHash).toBe(before.fileHash);
    // Still seen as changed on both sides next time.
    const again = await runPull(session.ctx);
    expect(again.localPending).toEqual(result.localPending);
  });

  it('a deleted file is not brought back by a remote edit', async () => {
    fs.rmSync(file('Personal/Diary.md'));
    await space.call('PUT', '/blocks', { blocks: [{ id: 'B-DIARY', markdown: 'remote diary' }] });
    const result = await runPull(session.ctx);
    expect(fs.existsSync(file('Personal/Diary.md'))).toBe(false);
    expect(result.localPending).toEqual([{ id: 'D-PERS', path: 'Personal/Diary.md', change: 'missing', remoteChanged: true }]);
  });

  it('an edited file is not moved when its document moves, and its containers are listed again until it is settled', async () => {
    fs.appendFileSync(file('Personal/Diary.md'), '\nmore\n');
    await space.call('PUT', '/documents/move', { documentIds: ['D-PERS'], destination: { folderId: 'F-PROJ' } });
    await space.clearRequests();
    const result = await runPull(session.ctx);
    expect(result.moved).toEqual([]);
    expect(fs.existsSync(file('Personal/Diary.md'))).toBe(true);
    expect(session.journal.getDocument('D-PERS')).toMatchObject({ path: 'Personal/Diary.md', folderId: 'F-PERS' });
    await space.clearRequests();
    await runPull(session.ctx);
    expect(describeRequests(await space.requests())).toContain('GET /documents?folderId=F-PROJ');
  });

  it('an edited file is not moved to Trash/ when its document is trashed, nor set aside when it is purged', async () => {
    fs.appendFileSync(file('Trash/Deleted thing.md'), '\nstill mine\n');
    fs.appendFileSync(file('Unsorted/Unsorted note.md'), '\nmine\n');
    await space.call('DELETE', '/documents', { documentIds: ['D-UNS'] });
    space.clock.t += 31 * 24 * 3600 * 1000;
    const result = await runPull(session.ctx);
    expect(read('Trash/Deleted thing.md')).toContain('still mine');
    expect(read('Unsorted/Unsorted note.md')).toContain('mine');
    expect(result.purged).toEqual([]);
    expect(result.moved).toEqual([]);
    expect(session.journal.getDocument('D-TRASH')).toBeDefined();
  });

  it('a file of the user where a new document belongs is never overwritten', async () => {
    fs.writeFileSync(file('Projects/Launch.md'), 'my own notes\n');
    await space.call('POST', '/documents', { documents: [{ title: 'Launch' }], destination: { folderId: 'F-PROJ' } });
    const result = await runPull(session.ctx);
    expect(read('Projects/Launch.md')).toBe('my own notes\n');
    expect(result.blocked).toHaveLength(1);
    expect(result.blocked[0]!.message).toMatch(/already exists.*not overwritten.*Rename or move that file/);
  });

  it("the daemon's own writes and moves are its own: no local change, and the watcher's registry claims them", async () => {
    expect((await detectLocalChanges(session.ctx)).size).toBe(0);
    const text = read('Unsorted/Unsorted note.md');
    expect(session.ctx.ownWrites.consume('Unsorted/Unsorted note.md', hashText(text))).toBe(true);
    await space.call('PUT', '/blocks', { blocks: [{ id: 'D-UNS', markdown: 'Renamed note' }] });
    await space.call('PUT', '/blocks', { blocks: [{ id: 'B-HELLO', markdown: 'hello again' }] });
    await runPull(session.ctx);
    expect(session.ctx.ownWrites.consume('Unsorted/Unsorted note.md', null)).toBe(true);
    expect(session.ctx.ownWrites.consume('Unsorted/Renamed note.md', hashText(read('Unsorted/Renamed note.md')))).toBe(true);
    expect((await detectLocalChanges(session.ctx)).size).toBe(0);
  });

  it('the same edit made on both sides is taken as is: no write, nothing pending, the base moves', async () => {
    const edited = read('Unsorted/Unsorted note.md').replace('hello world', 'hello both');
    fs.writeFileSync(file('Unsorted/Unsorted note.md'), edited);
    const ino = fs.statSync(file('Unsorted/Unsorted note.md')).ino;
    await space.call('PUT', '/blocks', { blocks: [{ id: 'B-HELLO', markdown: 'hello both' }] });
    const result = await runPull(session.ctx);
    expect(result.localPending).toEqual([]);
    expect(result.unchanged).toEqual(['D-UNS']);
    expect(result.written).toEqual([]);
    expect(fs.statSync(file('Unsorted/Unsorted note.md')).ino).toBe(ino);
    expect(session.journal.getDocument('D-UNS')!.fileHash).toBe(hashText(edited));
    expect(session.journal.getBaseBlocks('D-UNS')[0]!.markdown).toBe('hello both');
    expect((await runPull(session.ctx)).localChanged).toEqual([]);
  });

  it('a move a stopped run made on disk but did not record is recorded, not taken for a deleted file', async () => {
    await space.call('PUT', '/documents/move', { documentIds: ['D-PERS'], destination: { folderId: 'F-PROJ' } });
    fs.renameSync(file('Personal/Diary.md'), file('Projects/Diary.md'));
    const result = await runPull(session.ctx);
    expect(result.localChanged).toEqual([]);
    expect(result.localPending).toEqual([]);
    expect(session.journal.getDocument('D-PERS')).toMatchObject({ path: 'Projects/Diary.md', folderId: 'F-PROJ' });
  });
});

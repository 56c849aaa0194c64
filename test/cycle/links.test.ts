// Links between documents, against the real server: the pull shows `block://` and `date://` links as
// relative links to the documents' files; a relative link typed in a file is sent as `block://`; a
// cycle right after a pull sends nothing; unknown ids and out-of-scope links stay as they are; a
// document renamed on either side rewrites the links to it in the other files, sending nothing for them.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import { runPull, syncOnce, type SyncSession } from '../../src/sync/index.js';
import { makeRoot, openSession, readTree, startSpace, type Space } from '../pull/harness.js';

const fixture: SpaceFixture = {
  version: 1,
  space: { id: 'S-LINKS', name: 'Links', timezone: 'UTC', userId: 'U1' },
  folders: [{ id: 'F-PROJ', name: 'Projects' }],
  documents: [
    { id: 'D-ROAD', title: 'Roadmap', folderId: 'F-PROJ', createdAt: '2026-09-01T08:00:00Z', content: [{ id: 'R1', markdown: 'The plan.' }] },
    {
      id: 'D-NOTES',
      title: 'Notes',
      createdAt: '2026-09-02T08:00:00Z',
      content: [
        {
          id: 'N1',
          markdown: 'See [the plan](block://D-ROAD), [a day](date://2026-11-20), [lost](block://NOPE), [far](invalid:out_of_scope), `[code](block://D-ROAD)`.',
        },
        { id: 'N2', markdown: 'second' },
      ],
    },
  ],
};

const NOTES = 'Unsorted/Notes.md';
const SHOWN =
  'See [the plan](../Projects/Roadmap.md), [a day](<../Daily Notes/2026-11-20.md>), [lost](block://NOPE), [far](invalid:out_of_scope), `[code](block://D-ROAD)`.';

let space: Space;
let root: string;
let session: SyncSession;
const read = (p: string) => fs.readFileSync(path.join(root, p), 'utf8');
const write = (p: string, text: string) => fs.writeFileSync(path.join(root, p), text);
const sent = async () => (await space.requests()).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
const blocksOf = async (id: string): Promise<string[]> =>
  ((await space.call('GET', '/blocks', undefined, { id })).content as Array<{ markdown: string }>).map((b) => b.markdown);

beforeEach(async () => {
  space = await startSpace(fixture);
  root = makeRoot();
  session = await openSession(root, space);
  expect((await syncOnce(session.ctx)).exitCode).toBe(0);
  await space.clearRequests();
});
afterEach(async () => {
  session.close();
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('links between documents as relative links', () => {
  it('the pull shows them relatively; the next cycle sends and writes nothing', async () => {
    expect(read(NOTES)).toContain(`\n${SHOWN}\n\nsecond\n`);
    const before = readTree(root);
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(await sent()).toEqual([]);
    for (const [p, v] of readTree(root)) expect(v.mtimeMs, p).toBe(before.get(p)?.mtimeMs);
  });

  it('a relative link typed in the file is sent as block:// (date:// for a daily note); a link to a file that is no document as it is', async () => {
    write(
      NOTES,
      read(NOTES).replace(
        'second',
        'second, [again](../Projects/Roadmap.md)\n\nAlso [road](<../Projects/Roadmap.md>), [day](../Daily%20Notes/2026-12-01.md), [pic](pic.png).',
      ),
    );
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(await blocksOf('D-NOTES')).toEqual([
      fixture.documents![1]!.content![0]!.markdown,
      'second, [again](block://D-ROAD)',
      'Also [road](block://D-ROAD), [day](date://2026-12-01), [pic](pic.png).',
    ]);
    // The new block shows as the space holds it, written back as the pull would write it.
    const file = read(NOTES);
    expect(file).toContain(
      'second, [again](../Projects/Roadmap.md)\n\nAlso [road](../Projects/Roadmap.md), [day](<../Daily Notes/2026-12-01.md>), [pic](pic.png).',
    );
    await space.clearRequests();
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(await sent()).toEqual([]);
    expect(read(NOTES)).toBe(file);
  });

  it('a document renamed in the space: the file linking it is rewritten here, and nothing is read or sent for it', async () => {
    await space.call('PUT', '/blocks', { blocks: [{ id: 'D-ROAD', markdown: 'Road map (v2)' }] });
    await space.clearRequests();
    const r = await syncOnce(session.ctx);
    expect(r.exitCode).toBe(0);
    expect(r.pull?.relinked).toEqual([NOTES]);
    expect(read(NOTES)).toContain('See [the plan](<../Projects/Road map (v2).md>), [a day]');
    const requests = (await space.requests()).map((q) => `${q.method} ${q.path} ${JSON.stringify(q.query)}`);
    expect(requests.filter((q) => !q.startsWith('GET') || q.includes('D-NOTES'))).toEqual([]);
    await space.clearRequests();
    const before = read(NOTES);
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(await sent()).toEqual([]);
    expect(read(NOTES)).toBe(before);
    expect(await blocksOf('D-NOTES')).toEqual(fixture.documents![1]!.content!.map((b) => b.markdown));
  });

  it('links between new files are sent as block:// of the documents the same push creates; the next cycle sends nothing', async () => {
    fs.mkdirSync(path.join(root, 'Ideas'));
    write('Ideas/First idea.md', 'See [the second](<Second idea.md>) and [the plan](../Projects/Roadmap.md).\n');
    write('Ideas/Second idea.md', 'Back to [the first](<First idea.md#top>)? No: [the first](<First idea.md>).\n');
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    const ids = new Map(((await space.call('GET', '/documents')).items as Array<{ id: string; title: string }>).map((d) => [d.title, d.id] as const));
    expect(await blocksOf(ids.get('First idea')!)).toEqual([`See [the second](block://${ids.get('Second idea')}) and [the plan](block://D-ROAD).`]);
    // A link with an anchor the mirror cannot name stays as typed.
    expect(await blocksOf(ids.get('Second idea')!)).toEqual([`Back to [the first](<First idea.md#top>)? No: [the first](block://${ids.get('First idea')}).`]);
    const before = readTree(root);
    await space.clearRequests();
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(await sent()).toEqual([]);
    for (const [p, v] of readTree(root)) expect(v.text, p).toBe(before.get(p)?.text);
  });

  it('a link typed in a file whose folder the space then moves is still read from where it was typed (chaos seed 143645335)', async () => {
    write('Projects/Roadmap.md', read('Projects/Roadmap.md').replace('The plan.', 'The plan, with [notes](../Unsorted/Notes.md).'));
    const work = (await space.call('POST', '/folders', { folders: [{ name: 'Work' }] })).items[0].id as string;
    await space.call('PUT', '/folders/move', { folderIds: ['F-PROJ'], destination: { parentFolderId: work } });
    // The pull moves the folder, the edited file with it, before the push reads the file.
    await runPull(session.ctx);
    expect(read('Work/Projects/Roadmap.md')).toContain('[notes](../Unsorted/Notes.md)');
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(await blocksOf('D-ROAD')).toEqual(['The plan, with [notes](block://D-NOTES).']);
    expect(read('Work/Projects/Roadmap.md')).toContain('The plan, with [notes](../../Unsorted/Notes.md).');
    await space.clearRequests();
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(await sent()).toEqual([]);
  });

  it('a run killed between a rename and the relink: the next run makes the links follow (chaos seed 634512377)', async () => {
    await space.call('PUT', '/blocks', { blocks: [{ id: 'D-ROAD', markdown: 'Plan' }] });
    // What a pull that was killed right after recording the rename leaves: the file moved, the journal
    // at the new path and title, the files linking it not yet rewritten.
    const { journal } = session.ctx;
    const rec = journal.getDocument('D-ROAD')!;
    fs.renameSync(path.join(root, 'Projects/Roadmap.md'), path.join(root, 'Projects/Plan.md'));
    const listed = ((await space.call('GET', '/documents', undefined, { fetchMetadata: 'true' })).items as Array<{ id: string; lastModifiedAt: string }>).find(
      (d) => d.id === 'D-ROAD',
    )!;
    journal.upsertDocument({ ...rec, path: 'Projects/Plan.md', title: 'Plan', remoteModifiedAt: listed.lastModifiedAt });
    expect(read(NOTES)).toContain('See [the plan](../Projects/Roadmap.md), [a day]');
    const r = await syncOnce(session.ctx);
    expect(r.exitCode).toBe(0);
    expect(r.pull?.relinked).toEqual([NOTES]);
    expect(read(NOTES)).toContain('See [the plan](../Projects/Plan.md), [a day]');
    expect(journal.pendingMoves()).toEqual([]);
    expect(await blocksOf('D-NOTES')).toEqual(fixture.documents![1]!.content!.map((b) => b.markdown));
  });

  it('a file moved while being edited: its own links follow its new folder once it holds what the sync wrote again (chaos seed 775821851)', async () => {
    const old = (await space.call('POST', '/folders', { folders: [{ name: 'Old', parentFolderId: 'F-PROJ' }] })).items[0].id as string;
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    await space.call('PUT', '/documents/move', { documentIds: ['D-NOTES'], destination: { folderId: old } });
    // What the pull records of that move: the file in its new folder, a level deeper, the journal with it.
    const { journal } = session.ctx;
    const rec = journal.getDocument('D-NOTES')!;
    const MOVED = 'Projects/Old/Notes.md';
    fs.renameSync(path.join(root, NOTES), path.join(root, MOVED));
    const listed = ((await space.call('GET', '/documents', undefined, { fetchMetadata: 'true' })).items as Array<{ id: string; lastModifiedAt: string }>).find(
      (d) => d.id === 'D-NOTES',
    )!;
    journal.upsertDocument({ ...rec, path: MOVED, folderId: old, location: 'folder', remoteModifiedAt: listed.lastModifiedAt });
    // Being edited when the relink looks: its links are left as they are, for later.
    const saved = read(MOVED);
    write(MOVED, saved.replace('second', 'second, being edited'));
    expect((await runPull(session.ctx)).relinked).toEqual([]);
    expect(read(MOVED)).toContain('See [the plan](../Projects/Roadmap.md), [a day]');
    // The edit undone: the file holds what the sync wrote again, and its links now follow its new folder.
    write(MOVED, saved);
    await space.clearRequests();
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(read(MOVED)).toContain('See [the plan](../Roadmap.md), [a day](<../../Daily Notes/2026-11-20.md>)');
    expect(await sent()).toEqual([]);
    expect(await blocksOf('D-NOTES')).toEqual(fixture.documents![1]!.content!.map((b) => b.markdown));
    const before = read(MOVED);
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(await sent()).toEqual([]);
    expect(read(MOVED)).toBe(before);
  });

  it('a file renamed here: the links to it follow, and nothing is sent for the files holding them', async () => {
    const modified = async () =>
      ((await space.call('GET', '/documents')).items as Array<{ id: string; lastModifiedAt: string }>).find((d) => d.id === 'D-NOTES')!.lastModifiedAt;
    const was = await modified();
    fs.renameSync(path.join(root, 'Projects/Roadmap.md'), path.join(root, 'Projects/Plan.md'));
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(read(NOTES)).toContain('See [the plan](../Projects/Plan.md), [a day]');
    // Nothing was sent for Notes: the space's document did not change.
    expect(await modified()).toBe(was);
    expect(await blocksOf('D-NOTES')).toEqual(fixture.documents![1]!.content!.map((b) => b.markdown));
    await space.clearRequests();
    const before = read(NOTES);
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(await sent()).toEqual([]);
    expect(read(NOTES)).toBe(before);
  });

  it('a file being edited while the document it links is renamed keeps its text; its old link is still sent as block://, then follows', async () => {
    write(NOTES, read(NOTES).replace('second', 'second, see [old name](../Projects/Roadmap.md)'));
    await space.call('PUT', '/blocks', { blocks: [{ id: 'D-ROAD', markdown: 'Plan' }] });
    const pulled = await runPull(session.ctx);
    expect(pulled.relinked).toEqual([]);
    expect(read(NOTES)).toContain('See [the plan](../Projects/Roadmap.md), [a day]');
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(await blocksOf('D-NOTES')).toEqual([fixture.documents![1]!.content![0]!.markdown, 'second, see [old name](block://D-ROAD)']);
    expect(read(NOTES)).toContain('See [the plan](../Projects/Plan.md), [a day]');
    expect(read(NOTES)).toContain('second, see [old name](../Projects/Plan.md)');
    await space.clearRequests();
    const before = read(NOTES);
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(await sent()).toEqual([]);
    expect(read(NOTES)).toBe(before);
  });

  it('a folder moved here: the links of the files in it follow their new depth, and nothing is sent for them', async () => {
    await space.call('PUT', '/blocks', { blocks: [{ id: 'R1', markdown: 'The plan, [a day](date://2026-11-20).' }] });
    await syncOnce(session.ctx);
    expect(read('Projects/Roadmap.md')).toContain('[a day](<../Daily Notes/2026-11-20.md>)');
    fs.mkdirSync(path.join(root, 'Work'));
    fs.renameSync(path.join(root, 'Projects'), path.join(root, 'Work/Projects'));
    await space.clearRequests();
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(read('Work/Projects/Roadmap.md')).toContain('[a day](<../../Daily Notes/2026-11-20.md>)');
    expect(await sent()).not.toContain('PUT /blocks');
    expect(await blocksOf('D-ROAD')).toEqual(['The plan, [a day](date://2026-11-20).']);
    await space.clearRequests();
    await syncOnce(session.ctx);
    expect(await sent()).toEqual([]);
  });
});

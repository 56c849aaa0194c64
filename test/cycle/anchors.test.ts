// Links to blocks inside documents, against the real server: the pull shows `block://<block id>` as a
// link to the block's file with an anchor (a heading's text, else `^<short id>` with the marker
// ` ^<short id>` on the block's line); a typed anchor link is sent as `block://`; a heading renamed on
// either side renames the links to it; a first link puts the marker on its block, the last one takes
// it off; none of that is sent, and a cycle after it sends and rewrites nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import { runPull, syncOnce, type SyncSession } from '../../src/sync/index.js';
import { makeRoot, openSession, readTree, startSpace, type Space } from '../pull/harness.js';

const LINKS = 'See [goals](block://GOALS001), [plan](block://PARA0001), [ship](block://TASK0001), [q3](block://Q3PARA01).';
const fixture: SpaceFixture = {
  version: 1,
  space: { id: 'S-ANCHORS', name: 'Anchors', timezone: 'UTC', userId: 'U1' },
  folders: [{ id: 'F-PROJ', name: 'Projects' }],
  documents: [
    {
      id: 'D-ROAD',
      title: 'Roadmap',
      folderId: 'F-PROJ',
      createdAt: '2026-09-01T08:00:00Z',
      content: [
        { id: 'GOALS001', markdown: '# Goals for 2026' },
        { id: 'PARA0001', markdown: 'The plan is simple.' },
        { id: 'TASK0001', markdown: '- [ ] ship it', taskInfo: { state: 'todo', scheduleDate: '2026-12-01' } },
        { id: 'OTHER001', markdown: 'Another paragraph.' },
      ],
    },
    {
      id: 'D-Q3',
      title: 'Q3 plan',
      folderId: 'F-PROJ',
      createdAt: '2026-09-01T09:00:00Z',
      content: [
        { id: 'BUDGET01', markdown: '## Budget' },
        { id: 'Q3PARA01', markdown: 'Costs stay flat.' },
      ],
    },
    {
      id: 'D-NOTES',
      title: 'Notes',
      createdAt: '2026-09-02T08:00:00Z',
      content: [
        { id: 'N1', markdown: LINKS },
        { id: 'N2', markdown: 'second' },
      ],
    },
  ],
};

const NOTES = 'Unsorted/Notes.md';
const ROAD = 'Projects/Roadmap.md';
const Q3 = 'Projects/Q3 plan.md';
const SHOWN =
  'See [goals](../Projects/Roadmap.md#Goals%20for%202026), [plan](../Projects/Roadmap.md#^para0001), [ship](../Projects/Roadmap.md#^task0001), [q3](<../Projects/Q3 plan.md#^q3para01>).';

let space: Space;
let root: string;
let session: SyncSession;
const read = (p: string) => fs.readFileSync(path.join(root, p), 'utf8');
const write = (p: string, text: string) => fs.writeFileSync(path.join(root, p), text);
const edit = (p: string, from: string, to: string) => {
  const text = read(p);
  expect(text).toContain(from);
  write(p, text.replace(from, to));
};
const sent = async () => (await space.requests()).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
const blocksOf = async (id: string): Promise<string[]> =>
  ((await space.call('GET', '/blocks', undefined, { id })).content as Array<{ markdown: string }>).map((b) => b.markdown);
const modified = async (id: string) =>
  ((await space.call('GET', '/documents')).items as Array<{ id: string; lastModifiedAt: string }>).find((d) => d.id === id)!.lastModifiedAt;

/** One more cycle sends nothing and rewrites no file. */
async function settled(): Promise<void> {
  await space.clearRequests();
  const before = readTree(root);
  expect((await syncOnce(session.ctx)).exitCode).toBe(0);
  expect(await sent()).toEqual([]);
  for (const [p, v] of readTree(root)) expect(v.mtimeMs, p).toBe(before.get(p)?.mtimeMs);
}

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

describe('links to blocks inside documents as anchors', () => {
  it('the pull shows a heading by its text and other blocks by ^short id, whose lines carry the marker; the next cycle sends and writes nothing', async () => {
    expect(read(NOTES)).toContain(`\n${SHOWN}\n\nsecond\n`);
    expect(read(ROAD)).toContain('# Goals for 2026\n\nThe plan is simple. ^para0001\n\n- [ ] ship it ⏳ 2026-12-01 ^task0001\n\nAnother paragraph.\n');
    expect(read(Q3)).toContain('## Budget\n\nCosts stay flat. ^q3para01\n');
    await settled();
    // The space never sees a marker or a path.
    expect(await blocksOf('D-ROAD')).toEqual(['# Goals for 2026', 'The plan is simple.', '- [ ] ship it', 'Another paragraph.']);
    expect(await blocksOf('D-NOTES')).toEqual([LINKS, 'second']);
  });

  it('a typed anchor link is sent as block://; a first link to a paragraph puts its marker in its file, and nothing is sent for the marker', async () => {
    edit(NOTES, 'second', 'second, [other](../Projects/Roadmap.md#^other001), [b](<../Projects/Q3 plan.md#budget>)');
    const r = await syncOnce(session.ctx);
    expect(r.exitCode).toBe(0);
    expect(await sent()).toEqual(['PUT /blocks']);
    // The answer's block:// went into the file as its anchor at once; only the target got its marker afterwards.
    expect(r.push.anchored).toEqual([ROAD]);
    expect(await blocksOf('D-NOTES')).toEqual([LINKS, 'second, [other](block://OTHER001), [b](block://BUDGET01)']);
    // The heading typed by its slug reads back by its text, as the pull writes it.
    expect(read(NOTES)).toContain('second, [other](../Projects/Roadmap.md#^other001), [b](<../Projects/Q3 plan.md#Budget>)\n');
    expect(read(ROAD)).toContain('\nAnother paragraph. ^other001\n');
    expect(await blocksOf('D-ROAD')).toEqual(['# Goals for 2026', 'The plan is simple.', '- [ ] ship it', 'Another paragraph.']);
    await settled();
  });

  it('a typed link to a block a killed run made, not yet recorded, is sent as block:// in the push that settles it (chaos seed 775821864)', async () => {
    // What a run killed right after its POST leaves: the line in the file, the block in the space, the intent, no base.
    edit(ROAD, 'Another paragraph.', 'Another paragraph.\n\nA fresh idea.');
    const body = { blocks: [{ type: 'text', markdown: 'A fresh idea.' }], position: { position: 'after', siblingId: 'OTHER001' } };
    const made = ((await space.call('POST', '/blocks', body)).items as Array<{ id: string }>)[0]!.id;
    session.ctx.journal.addIntent({ docId: 'D-ROAD', op: 'POST /blocks', payload: { step: { method: 'POST', path: '/blocks', body }, paths: [ROAD] } });
    // The user links it by its short id before the next push, which reads the Roadmap again to settle it.
    const short = made
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(0, 8)
      .toLowerCase();
    edit(NOTES, 'second', `second, [idea](../Projects/Roadmap.md#^${short})`);
    await space.clearRequests();
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(await blocksOf('D-NOTES')).toEqual([LINKS, `second, [idea](block://${made})`]);
    expect(await blocksOf('D-ROAD')).toEqual(['# Goals for 2026', 'The plan is simple.', '- [ ] ship it', 'Another paragraph.', 'A fresh idea.']);
    expect(read(ROAD)).toContain(`\nA fresh idea. ^${short}\n`);
    await settled();
  });

  it('a first link made in the space: its file shows the anchor and the block gets its marker; nothing is sent', async () => {
    await space.call('PUT', '/blocks', { blocks: [{ id: 'N2', markdown: 'second [other](block://OTHER001)' }] });
    const road = await modified('D-ROAD');
    await space.clearRequests();
    const r = await syncOnce(session.ctx);
    expect(r.exitCode).toBe(0);
    expect(await sent()).toEqual([]);
    // The pull wrote the link as the space holds it, then its anchor once the block was placed.
    expect(r.pull?.anchored.sort()).toEqual([ROAD, NOTES].sort());
    expect(read(NOTES)).toContain('\nsecond [other](../Projects/Roadmap.md#^other001)\n');
    expect(read(ROAD)).toContain('\nAnother paragraph. ^other001\n');
    expect(await modified('D-ROAD')).toBe(road);
    await settled();
  });

  it('a heading renamed in the space: the links to it follow, and nothing is read or sent for the file holding them', async () => {
    await space.call('PUT', '/blocks', { blocks: [{ id: 'GOALS001', markdown: '# Aims for *2027*' }] });
    await space.clearRequests();
    const r = await syncOnce(session.ctx);
    expect(r.exitCode).toBe(0);
    expect(r.pull?.anchored).toEqual([NOTES]);
    expect(read(NOTES)).toContain('See [goals](../Projects/Roadmap.md#Aims%20for%202027), [plan]');
    const requests = (await space.requests()).map((q) => `${q.method} ${q.path} ${JSON.stringify(q.query)}`);
    expect(requests.filter((q) => !q.startsWith('GET') || q.includes('D-NOTES'))).toEqual([]);
    expect(await blocksOf('D-NOTES')).toEqual([LINKS, 'second']);
    await settled();
  });

  it('a heading renamed in its file: the heading is sent, the links to it follow, nothing is sent for the file holding them', async () => {
    const notes = await modified('D-NOTES');
    edit(ROAD, '# Goals for 2026', '# Goals for 2027');
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(await sent()).toEqual(['PUT /blocks']);
    expect((await blocksOf('D-ROAD'))[0]).toBe('# Goals for 2027');
    expect(read(NOTES)).toContain('See [goals](../Projects/Roadmap.md#Goals%20for%202027), [plan]');
    expect(await modified('D-NOTES')).toBe(notes);
    await settled();
  });

  it("editing a linked block's text keeps its marker and sends only the text", async () => {
    edit(ROAD, 'The plan is simple. ^para0001', 'The plan is clear. ^para0001');
    edit(ROAD, '- [ ] ship it ⏳ 2026-12-01 ^task0001', '- [ ] ship it now ⏳ 2026-12-02 ^task0001');
    const r = await syncOnce(session.ctx);
    expect(r.exitCode).toBe(0);
    // The base recorded from the answers holds the markers: the file needed no second write for them.
    expect(r.push.anchored).toBeUndefined();
    expect(await blocksOf('D-ROAD')).toEqual(['# Goals for 2026', 'The plan is clear.', '- [ ] ship it now', 'Another paragraph.']);
    const task = (await space.call('GET', '/blocks', undefined, { id: 'TASK0001' })) as { taskInfo: { scheduleDate: string } };
    expect(task.taskInfo.scheduleDate).toBe('2026-12-02');
    expect(read(ROAD)).toContain('The plan is clear. ^para0001\n\n- [ ] ship it now ⏳ 2026-12-02 ^task0001\n');
    await settled();
  });

  it('a marker taken off a linked block sends nothing and comes back', async () => {
    edit(ROAD, 'The plan is simple. ^para0001', 'The plan is simple.');
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(await sent()).toEqual([]);
    expect(read(ROAD)).toContain('\nThe plan is simple. ^para0001\n');
    await settled();
  });

  it('the last link gone takes the markers off, and nothing is sent for their file', async () => {
    const road = await modified('D-ROAD');
    edit(NOTES, `${SHOWN}\n\n`, '');
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(await sent()).toEqual(['DELETE /blocks']);
    expect(read(ROAD)).toContain('# Goals for 2026\n\nThe plan is simple.\n\n- [ ] ship it ⏳ 2026-12-01\n\nAnother paragraph.\n');
    expect(read(Q3)).toContain('\nCosts stay flat.\n');
    expect(await modified('D-ROAD')).toBe(road);
    await settled();
  });

  it('a link to an anchor no block answers to, or a marker typed on a block nothing links to, is sent as typed', async () => {
    edit(NOTES, 'second', 'second [x](../Projects/Roadmap.md#^nothere) [y](../Projects/Roadmap.md#No%20such%20heading)');
    edit(ROAD, 'Another paragraph.', 'Another paragraph. ^mine');
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(await blocksOf('D-NOTES')).toEqual([LINKS, 'second [x](../Projects/Roadmap.md#^nothere) [y](../Projects/Roadmap.md#No%20such%20heading)']);
    expect((await blocksOf('D-ROAD'))[3]).toBe('Another paragraph. ^mine');
    expect(read(NOTES)).toContain('\nsecond [x](../Projects/Roadmap.md#^nothere) [y](../Projects/Roadmap.md#No%20such%20heading)\n');
    await settled();
  });

  it('a file being edited while a heading it links is renamed keeps its text; its old link is still read back, then follows', async () => {
    edit(NOTES, 'second', 'second, edited');
    await space.call('PUT', '/blocks', { blocks: [{ id: 'GOALS001', markdown: '# Aims' }] });
    const pulled = await runPull(session.ctx);
    expect(pulled.anchored).toEqual([]);
    expect(read(NOTES)).toContain('See [goals](../Projects/Roadmap.md#Goals%20for%202026), [plan]');
    // The link's line edited too: it is sent as the same block://.
    edit(NOTES, 'See [goals]', 'See now [goals]');
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(await blocksOf('D-NOTES')).toEqual([LINKS.replace('See [goals]', 'See now [goals]'), 'second, edited']);
    expect(read(NOTES)).toContain('See now [goals](../Projects/Roadmap.md#Aims), [plan]');
    await settled();
  });

  it("a linked block's file being edited when its first link comes: the marker follows with the push of that file, not sent", async () => {
    edit(ROAD, 'The plan is simple.', 'The plan is simple, edited.');
    await space.call('PUT', '/blocks', { blocks: [{ id: 'N2', markdown: 'second [other](block://OTHER001)' }] });
    const pulled = await runPull(session.ctx);
    expect(pulled.anchored).toEqual([NOTES]);
    expect(read(ROAD)).toContain('\nAnother paragraph.\n');
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(await blocksOf('D-ROAD')).toEqual(['# Goals for 2026', 'The plan is simple, edited.', '- [ ] ship it', 'Another paragraph.']);
    expect(read(ROAD)).toContain('The plan is simple, edited. ^para0001\n');
    expect(read(ROAD)).toContain('\nAnother paragraph. ^other001\n');
    await settled();
  });

  it('a linked block deleted in the space: the link shows as the space holds it', async () => {
    await space.call('DELETE', '/blocks', { blockIds: ['PARA0001'] });
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
    expect(read(NOTES)).toContain('[plan](block://PARA0001), [ship]');
    await settled();
  });
});

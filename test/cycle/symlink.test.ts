// A folder of the mirror replaced by a symbolic link to a folder outside: nothing is written outside
// the mirror whatever the space holds there, and nothing of that folder is taken as deleted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFixtureFile } from '../../src/server/index.js';
import { findLocalChanges, syncOnce } from '../../src/sync/index.js';
import { pushSaved } from '../../src/sync/cycle/index.js';
import { makeRoot, openSession, startSpace, type Space } from '../pull/harness.js';

const demo = readFixtureFile('fixtures/spaces/demo.json');

let space: Space;
let root: string;
let outside: string;
/** The folder the link replaced, kept to put back. */
let kept: string;

async function cycle() {
  const session = await openSession(root, space);
  try {
    return await syncOnce(session.ctx);
  } finally {
    session.close();
  }
}
const writes = async () => (await space.requests()).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
const listOutside = () => fs.readdirSync(outside, { recursive: true }).map(String).sort();

beforeEach(async () => {
  space = await startSpace(demo);
  root = makeRoot();
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-outside-'));
  expect((await cycle()).exitCode).toBe(0);
  // The user (or someone with the disk) swaps Work/Meetings for a link to a folder outside the mirror.
  fs.writeFileSync(path.join(outside, 'private.txt'), 'not the space’s');
  kept = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-kept-'));
  fs.renameSync(path.join(root, 'Work', 'Meetings'), path.join(kept, 'Meetings'));
  fs.symlinkSync(outside, path.join(root, 'Work', 'Meetings'));
}, 60_000);
afterEach(async () => {
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
  fs.rmSync(kept, { recursive: true, force: true });
});

describe('a folder that is a symbolic link', () => {
  it('is held back: nothing of it is deleted in the space, and what the space adds there is not written through the link', async () => {
    type Folder = { id: string; name: string; folders: Folder[] };
    const all = (list: Folder[]): Folder[] => list.flatMap((f) => [f, ...all(f.folders)]);
    const meetings = all((await space.call('GET', '/folders')).items).find((f) => f.name === 'Meetings')!;
    // Whoever edits the space picks the name and the content.
    const made = await space.call('POST', '/documents', { documents: [{ title: 'Planted' }], destination: { folderId: meetings.id } });
    await space.call('POST', '/blocks', { documentId: made.items[0].id, blocks: [{ type: 'text', markdown: 'written by the space' }] }).catch(() => undefined);
    await space.clearRequests();

    const r = await cycle();
    expect(await writes()).toEqual([]);
    expect(listOutside()).toEqual(['private.txt']);
    expect(r.push.plan.heldBack).toEqual([expect.objectContaining({ path: 'Work/Meetings', reason: 'symlink' })]);
    expect(r.push.plan.heldBack[0]!.message).toContain('"Work/Meetings" is a symbolic link');
    expect(r.pull!.plan!.documents).toContainEqual(expect.objectContaining({ id: made.items[0].id, kind: 'blocked', reason: 'symlink' }));
    expect(fs.lstatSync(path.join(root, 'Work', 'Meetings')).isSymbolicLink()).toBe(true);

    // Put back as a real folder, the next cycle syncs it again: the document planted there arrives inside the mirror.
    fs.rmSync(path.join(root, 'Work', 'Meetings'));
    fs.mkdirSync(path.join(root, 'Work', 'Meetings'));
    await cycle();
    expect(fs.existsSync(path.join(root, 'Work', 'Meetings', 'Planted.md'))).toBe(true);
    expect(listOutside()).toEqual(['private.txt']);
  }, 60_000);

  it('may hold a file moved into it: that document is not trashed until the link is the folder again, then its move is sent (chaos seed 1110045)', async () => {
    // Moved into the folder the instant before the folder became a link: here, under the link.
    fs.renameSync(path.join(root, 'Personal', 'Groceries.md'), path.join(outside, 'Groceries.md'));
    await space.clearRequests();
    // The daemon's push of the path the watcher named: no scan of the whole folder saw the link.
    const session = await openSession(root, space);
    try {
      const saved = await pushSaved(session.ctx, ['Personal/Groceries.md']);
      expect(saved.push.plan.heldBack).toContainEqual(expect.objectContaining({ path: 'Personal/Groceries.md', reason: 'deletion' }));
      // `status` and `revert` say the same: neither it nor the notes under the link are deletions.
      const pending = await findLocalChanges(root, session.ctx.journal, []);
      expect(pending.changes.filter((c) => c.change === 'missing')).toEqual([]);
    } finally {
      session.close();
    }
    expect(await writes()).toEqual([]);
    const r = await cycle();
    expect(await writes()).toEqual([]);
    const held = r.push.plan.heldBack.find((h) => h.reason === 'deletion');
    expect(held).toMatchObject({ path: 'Personal/Groceries.md' });
    expect(held!.message).toBe(
      '"Personal/Groceries.md" is gone, but the folder "Work/Meetings" is a symbolic link it may have been moved into: its document is not moved to the trash until the link is replaced with the real folder.',
    );

    // The link replaced with the real folder, the file in it: the move is what is sent.
    fs.rmSync(path.join(root, 'Work', 'Meetings'));
    fs.renameSync(path.join(kept, 'Meetings'), path.join(root, 'Work', 'Meetings'));
    fs.renameSync(path.join(outside, 'Groceries.md'), path.join(root, 'Work', 'Meetings', 'Groceries.md'));
    await space.clearRequests();
    expect((await cycle()).exitCode).toBe(0);
    expect(await writes()).toEqual(['PUT /documents/move']);
    expect(fs.existsSync(path.join(root, 'Work', 'Meetings', 'Groceries.md'))).toBe(true);
  }, 60_000);

  it('a file moved out of it the instant before it became a link is neither sent as new nor its document trashed once it is back (chaos seed 1100018)', async () => {
    const name = fs.readdirSync(path.join(kept, 'Meetings')).find((f) => f.endsWith('.md'))!;
    fs.renameSync(path.join(kept, 'Meetings', name), path.join(root, 'Work', name));
    // A link typed to it where it is now names its document all the same (chaos seed 1160026).
    fs.writeFileSync(path.join(root, 'Work', 'Links.md'), `See [it](<${name}>).\n`);
    await space.clearRequests();
    const session = await openSession(root, space);
    try {
      await pushSaved(session.ctx, [`Work/${name}`]);
    } finally {
      session.close();
    }
    const r = await cycle();
    expect(await writes()).toEqual(['POST /documents', 'POST /blocks']);
    const docs = (await space.call('GET', '/documents')).items as Array<{ id: string; title: string }>;
    const moved = fs.readFileSync(path.join(root, 'Work', name), 'utf8').match(/^id: (\S+)$/m)![1]!;
    const links = docs.find((d) => d.title === 'Links')!;
    expect(JSON.stringify(await space.call('GET', '/blocks', undefined, { id: links.id }))).toContain(`[it](block://${moved})`);
    expect(r.push.plan.heldBack).toContainEqual(expect.objectContaining({ path: `Work/${name}`, reason: 'link_claim' }));
    expect(r.push.plan.heldBack.find((h) => h.reason === 'link_claim')!.message).toBe(
      `"Work/${name}" names the document of "Work/Meetings/${name}", which is under the symbolic link "Work/Meetings": it may be that file, moved out, or a copy of it. It is not sent until the link is replaced with the real folder.`,
    );

    // The folder back without it: the file was moved out, and that move is what is sent.
    fs.rmSync(path.join(root, 'Work', 'Meetings'));
    fs.renameSync(path.join(kept, 'Meetings'), path.join(root, 'Work', 'Meetings'));
    await space.clearRequests();
    expect((await cycle()).exitCode).toBe(0);
    expect(await writes()).toEqual(['PUT /documents/move']);
  }, 60_000);

  it('is no deleted folder: a cycle with other changes to send leaves the folder in the space and sends nothing of it', async () => {
    // Something else to send, so the cycle plans (and decides the folders from the directories).
    fs.renameSync(path.join(root, 'Personal', 'Groceries.md'), path.join(root, 'Work', 'Groceries.md'));
    await space.clearRequests();
    const r = await cycle();
    expect(r.exitCode).toBe(4);
    expect(await writes()).toEqual(['PUT /documents/move']);
    expect(r.push.plan.folders?.deletes ?? []).toEqual([]);
    type Folder = { name: string; folders: Folder[] };
    const all = (list: Folder[]): Folder[] => list.flatMap((f) => [f, ...all(f.folders)]);
    expect(all((await space.call('GET', '/folders')).items).map((f) => f.name)).toContain('Meetings');
  }, 60_000);
});

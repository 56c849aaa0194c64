// A folder of the mirror replaced by a symbolic link to a folder outside: nothing is written outside
// the mirror whatever the space holds there, and nothing of that folder is taken as deleted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFixtureFile } from '../../src/server/index.js';
import { syncOnce } from '../../src/sync/index.js';
import { makeRoot, openSession, startSpace, type Space } from '../pull/harness.js';

const demo = readFixtureFile('fixtures/spaces/demo.json');

let space: Space;
let root: string;
let outside: string;

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
  fs.rmSync(path.join(root, 'Work', 'Meetings'), { recursive: true });
  fs.symlinkSync(outside, path.join(root, 'Work', 'Meetings'));
}, 60_000);
afterEach(async () => {
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
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

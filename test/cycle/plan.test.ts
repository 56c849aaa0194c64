// One plan for the cycle: the files the next cycle writes are exactly the files the plan named,
// whatever kind of content they hold (documents, assets, scenes, task files).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFixtureFile } from '../../src/server/index.js';
import { planCycle, syncOnce, type CyclePlan } from '../../src/sync/index.js';
import { makeRoot, openSession, readTree, startSpace, type Space } from '../pull/harness.js';

const demo = readFixtureFile('fixtures/spaces/demo.json');

let space: Space;
let root: string;

beforeEach(async () => {
  space = await startSpace(demo);
  root = makeRoot();
});
afterEach(async () => {
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

/** `backup`: the mirror in backup mode (config `mode`). */
const modeOf = (backup: boolean) => (backup ? { settings: { mode: 'backup' as const } } : {});

async function plan(backup = false): Promise<CyclePlan> {
  const session = await openSession(root, space, { readOnly: true, ...modeOf(backup) });
  try {
    return await planCycle(session.ctx);
  } finally {
    session.close();
  }
}

/** Files a cycle writes: new ones, and those whose bytes or inode changed. */
async function cycleWrites(backup = false): Promise<string[]> {
  const before = readTree(root);
  const session = await openSession(root, space, modeOf(backup));
  try {
    await syncOnce(session.ctx, { downloads: 'wait' });
  } finally {
    session.close();
  }
  const after = readTree(root);
  return [...after]
    .filter(([p, v]) => v.text !== null || fs.statSync(path.join(root, p)).isFile())
    .filter(([p, v]) => {
      const b = before.get(p);
      return !b || b.ino !== v.ino || b.mtimeMs !== v.mtimeMs;
    })
    .map(([p]) => p)
    .filter((p) => fs.statSync(path.join(root, p)).isFile())
    .sort();
}

/** The mirror after a first cycle: what the changes below start from. */
async function firstSync(): Promise<void> {
  const session = await openSession(root, space);
  try {
    await syncOnce(session.ctx, { downloads: 'wait' });
  } finally {
    session.close();
  }
}
const file = (p: string) => path.join(root, ...p.split('/'));

describe('the plan names every file the cycle writes', () => {
  it('a first pull of the demo space: documents, assets, scenes and task files', async () => {
    const p = await plan();
    expect(fs.readdirSync(root)).toEqual([]);
    const written = await cycleWrites();
    expect(written.filter((f) => f.includes('.assets/')).length).toBeGreaterThan(3);
    expect(written).toContain('Tasks/Inbox.md');
    expect(p.files.write).toEqual(written);
  });

  it('a local image referenced from a note: the upload is planned, and the files it writes are named', async () => {
    await firstSync();
    fs.mkdirSync(file('Personal/Groceries.assets'), { recursive: true });
    fs.writeFileSync(file('Personal/Groceries.assets/red.png'), Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    fs.appendFileSync(file('Personal/Groceries.md'), '\n![A red square](<Groceries.assets/red.png>)\n');
    const p = await plan();
    expect(p.changes).toContainEqual(expect.objectContaining({ kind: 'asset', side: 'local', action: 'uploaded', path: 'Personal/Groceries.md' }));
    // The file already links the asset where the upload keeps it: the upload writes no file.
    expect(p.files.write).toEqual([]);
    expect(p.files.write).toEqual(await cycleWrites());
  });

  it('a whiteboard edited in its scene file: the board is sent, no file is written', async () => {
    await firstSync();
    const scene = fs.readdirSync(file('Work/Projects/Architecture sketch.assets')).find((f) => f.endsWith('.excalidraw'))!;
    const rel = `Work/Projects/Architecture sketch.assets/${scene}`;
    const json = JSON.parse(fs.readFileSync(file(rel), 'utf8')) as { elements: Array<{ x: number }> };
    json.elements[0]!.x += 40;
    fs.writeFileSync(file(rel), JSON.stringify(json, null, 2));
    const p = await plan();
    expect(p.changes).toContainEqual(expect.objectContaining({ kind: 'scene', side: 'local', action: 'updated', path: rel }));
    expect(p.files.write).toEqual([]);
    expect(p.files.write).toEqual(await cycleWrites());
  });

  it('backup mode: a note changed on both sides is written over from the space, said so, and nothing is sent', async () => {
    await firstSync();
    fs.appendFileSync(file('Personal/Groceries.md'), '\nline EDITED LOCALLY\n');
    const docs = (await space.call('GET', '/documents')).items as Array<{ id: string; title: string }>;
    const groceries = docs.find((d) => d.title === 'Groceries')!;
    const tree = await space.call('GET', '/blocks', undefined, { id: groceries.id });
    await space.call('PUT', '/blocks', { blocks: [{ id: tree.content[0].id, markdown: 'EDITED REMOTELY' }] });
    const before = (await space.requests()).length;
    const p = await plan(true);
    expect(p.requests).toEqual([]);
    expect(p.notes.join(' ')).toContain('Backup mode: nothing is sent to the space');
    expect(p.changes).toContainEqual(
      expect.objectContaining({
        kind: 'document',
        side: 'remote',
        action: 'updated',
        path: 'Personal/Groceries.md',
        detail: expect.stringContaining('written over'),
      }),
    );
    expect(p.files.write).toEqual(['Personal/Groceries.md']);
    expect(p.files.write).toEqual(await cycleWrites(true));
    expect((await space.requests()).slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('a task added in Tasks/Inbox.md: the task is named, and the inbox file rewritten from the space', async () => {
    await firstSync();
    fs.appendFileSync(file('Tasks/Inbox.md'), '- [ ] water the plants\n');
    const p = await plan();
    expect(p.changes).toContainEqual({ kind: 'task', side: 'local', action: 'created', path: 'Tasks/Inbox.md', title: 'water the plants' });
    expect(p.files.write).toEqual(['Tasks/Inbox.md']);
    expect(p.files.write).toEqual(await cycleWrites());
  });
});

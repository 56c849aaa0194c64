// What a sync session does around its cycles: one per folder (the lock), temp files of a killed
// run cleared at start, and a dry run that says exactly what the next cycle then does.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempFileName } from '../../src/mirror/index.js';
import { runPull, summarizePullPlan, type SyncSession } from '../../src/sync/index.js';
import { readPullPlan } from '../../src/sync/documents/index.js';
import { demoSpace } from '../pull/demoSpace.js';
import { makeRoot, openSession, readTree, startSpace, type Space } from '../pull/harness.js';

let space: Space;
let root: string;
const open: SyncSession[] = [];

beforeEach(async () => {
  space = await startSpace(demoSpace);
  root = makeRoot();
});
afterEach(async () => {
  for (const s of open.splice(0)) s.close();
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const session = async (extra = {}) => {
  const s = await openSession(root, space, extra);
  open.push(s);
  return s;
};

describe('sync session', () => {
  it('is refused while another one holds the folder', async () => {
    await session();
    await expect(session()).rejects.toMatchObject({ code: 'locked' });
  });

  it('removes the temp files a killed run left, and nothing else', async () => {
    fs.mkdirSync(path.join(root, 'Unsorted'));
    const temp = path.join(root, 'Unsorted', tempFileName('Note.md'));
    fs.writeFileSync(temp, 'half a fi');
    fs.writeFileSync(path.join(root, 'Unsorted', 'mine.md'), 'mine');
    const s = await session();
    expect(s.removedTempFiles).toEqual([`Unsorted/${path.basename(temp)}`]);
    expect(fs.existsSync(temp)).toBe(false);
    expect(fs.readFileSync(path.join(root, 'Unsorted', 'mine.md'), 'utf8')).toBe('mine');
  });

  it('refuses a missing root and never creates it', async () => {
    const gone = path.join(root, 'gone');
    await expect(openSession(gone, space)).rejects.toMatchObject({ code: 'mirror_io' });
    expect(fs.existsSync(gone)).toBe(false);
  });

  it('a dry run changes nothing and lists exactly what the next cycle does', async () => {
    const s = await session();
    await runPull(s.ctx);
    await space.call('PUT', '/blocks', { blocks: [{ id: 'B-DIARY', markdown: 'edited' }] });
    await space.call('PUT', '/documents/move', { documentIds: ['D-ARCH'], destination: { folderId: 'F-PERS' } });
    await space.call('DELETE', '/documents', { documentIds: ['D-Q1'] });
    await space.call('POST', '/documents', { documents: [{ title: 'Fresh' }] });
    await space.call('POST', '/folders', { folders: [{ name: 'New folder' }] });
    fs.appendFileSync(path.join(root, 'Unsorted/Unsorted note.md'), 'mine\n');
    const tree = readTree(root);
    const journalBefore = JSON.stringify(s.journal.listDocuments());

    const reading = await readPullPlan(s.ctx);
    const plan = { ...summarizePullPlan(reading.plan), plan: reading.plan };
    expect(JSON.stringify(s.journal.listDocuments())).toBe(journalBefore);
    expect([...readTree(root)].map(([p, v]) => [p, v.mtimeMs])).toEqual([...tree].map(([p, v]) => [p, v.mtimeMs]));
    expect(plan).toMatchObject({
      createFolders: ['New folder'],
      create: ['Unsorted/Fresh.md'],
      update: ['Personal/Diary.md'],
      move: expect.arrayContaining([
        { from: 'Projects/Archive/Old plan.md', to: 'Personal/Old plan.md' },
        { from: 'Notes_ 2026_Q1/Plan.md', to: 'Trash/Plan.md' },
      ]),
      keep: [{ path: 'Unsorted/Unsorted note.md', change: 'edited' }],
      purge: [],
    });

    const result = await runPull(s.ctx);
    // The plan printed is the plan run, step for step, with the same reasons.
    expect(result.plan).toEqual(plan.plan);
    expect(result.written.filter((w) => w.mode === 'new').map((w) => w.path)).toEqual(plan.create);
    expect(result.written.filter((w) => w.mode !== 'new').map((w) => w.path)).toEqual(plan.update);
    expect(result.moved.map(({ from, to }) => ({ from, to })).sort((a, b) => (a.from < b.from ? -1 : 1))).toEqual(
      [...plan.move].sort((a, b) => (a.from < b.from ? -1 : 1)),
    );
    expect(result.localPending.map((p) => p.path)).toEqual(plan.keep.map((k) => k.path));
    expect(fs.statSync(path.join(root, 'New folder')).isDirectory()).toBe(true);
  });
});

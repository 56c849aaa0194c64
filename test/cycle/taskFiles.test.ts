// The task inbox and its logbook as Tasks/Inbox.md and Tasks/Logbook.md, against the real server:
// pulled in the service's order with their dates; the inbox file's edits sent as POST, PUT and
// DELETE /tasks and merged with the space's; the logbook read-only; one request per idle cycle; and
// a space folder named Tasks laid out beside them.
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import { syncOnce, type SyncSession } from '../../src/sync/index.js';
import { describeRequests, expectMirrorMatches, expectTaskFilesMatch, usePulledMirror, type Space } from '../pull/harness.js';

const fixture = {
  version: 1,
  space: { id: 'S-TASKS', name: 'Tasks', timezone: 'UTC', userId: 'U1' },
  folders: [{ id: 'F-TASKS', name: 'Tasks', createdAt: '2026-09-01T08:00:00Z' }],
  documents: [
    {
      id: 'D-PLAN',
      title: 'Plan',
      folderId: 'F-TASKS',
      createdAt: '2026-09-01T08:00:00Z',
      content: [{ id: 'DT1', markdown: '- [x] a document task', taskInfo: { state: 'done', completedAt: '2026-09-02T08:00:00Z' } }],
    },
  ],
  inbox: [
    { id: 'I1', markdown: '- [ ] call Ana', taskInfo: { state: 'todo', scheduleDate: '2026-12-01' } },
    { id: 'I2', markdown: '- [ ] pay rent', taskInfo: { state: 'todo', deadlineDate: '2026-12-05' } },
    { id: 'I3', markdown: '- [ ] sweep' },
    { id: 'I4', markdown: '- [x] old errand', taskInfo: { state: 'done', completedAt: '2026-09-03T08:00:00Z' } },
  ],
} as unknown as SpaceFixture;

let space: Space;
let root: string;
let session: SyncSession;
usePulledMirror(fixture, (m) => ({ space, root, session } = m));

const read = (p: string) => fs.readFileSync(path.join(root, p), 'utf8');
const write = (p: string, text: string) => fs.writeFileSync(path.join(root, p), text);

async function cycle() {
  await space.clearRequests();
  const r = await syncOnce(session.ctx, { paths: [] });
  return { r, requests: describeRequests(await space.requests()) };
}

beforeEach(async () => {
  session.ctx.now = () => new Date(Date.now() + 10_000);
  await syncOnce(session.ctx);
});

describe('pull', () => {
  it('writes the inbox and the logbook of inbox tasks in the service order with their dates; a space folder named Tasks takes its suffix', async () => {
    expect(read('Tasks/Inbox.md')).toBe('- [ ] call Ana ⏳ 2026-12-01\n- [ ] pay rent 📅 2026-12-05\n- [ ] sweep\n');
    expect(read('Tasks/Logbook.md')).toBe('- [x] old errand\n');
    expect(fs.existsSync(path.join(root, 'Tasks (FTASKS)/Plan.md'))).toBe(true);
    await expectMirrorMatches(root, space);
  });

  it('an idle cycle costs one request for the task files and writes nothing', async () => {
    const before = fs.statSync(path.join(root, 'Tasks/Inbox.md')).mtimeMs;
    const { r, requests } = await cycle();
    expect(requests.filter((q) => q.startsWith('GET /tasks'))).toEqual(['GET /tasks?scope=inbox']);
    expect(r.tasks).toMatchObject({ quiet: true, requests: 1, written: [] });
    expect(fs.statSync(path.join(root, 'Tasks/Inbox.md')).mtimeMs).toBe(before);
  });

  it('a task completed in the space leaves the inbox file and joins the logbook file', async () => {
    await space.call('PUT', '/tasks', { tasksToUpdate: [{ id: 'I2', taskInfo: { state: 'done' } }] });
    const { r } = await cycle();
    expect(r.tasks?.written.sort()).toEqual(['Tasks/Inbox.md', 'Tasks/Logbook.md']);
    expect(read('Tasks/Inbox.md')).toBe('- [ ] call Ana ⏳ 2026-12-01\n- [ ] sweep\n');
    expect(read('Tasks/Logbook.md')).toBe('- [x] pay rent 📅 2026-12-05\n- [x] old errand\n');
    await expectTaskFilesMatch(root, space);
  });

  it('a task added and closed in the app between two polls shows in the logbook file at the next cycle over the whole mirror (chaos seed 22695823)', async () => {
    const added = await space.call('POST', '/tasks', { tasks: [{ markdown: 'quick one', location: { type: 'inbox' } }] });
    await space.call('PUT', '/tasks', { tasksToUpdate: [{ id: added.items[0].id, taskInfo: { state: 'done' } }] });
    // The inbox looks as it did: a poll has no reason to list the logbook.
    const { r } = await cycle();
    expect(r.tasks?.quiet).toBe(true);
    await space.clearRequests();
    const full = await syncOnce(session.ctx);
    expect(full.tasks?.written).toEqual(['Tasks/Logbook.md']);
    expect(read('Tasks/Logbook.md')).toBe('- [x] quick one\n- [x] old errand\n');
    await expectTaskFilesMatch(root, space);
  });
});

describe('push', () => {
  it('sends an added line, a ticked line, a changed date and a deleted line, and the next cycle changes nothing', async () => {
    write('Tasks/Inbox.md', '- [ ] call Ana ⏳ 2026-12-03\n- [x] pay rent 📅 2026-12-05\n- [ ] water plants 📅 2026-12-07\n');
    const { r, requests } = await cycle();
    expect(r.exitCode).toBe(0);
    expect(requests.filter((q) => !q.startsWith('GET'))).toEqual(['DELETE /tasks', 'POST /tasks', 'PUT /tasks']);
    expect(r.tasks!.sent.map((c) => c.action).sort()).toEqual(['completed', 'created', 'deleted', 'updated']);
    expect(read('Tasks/Inbox.md')).toBe('- [ ] water plants 📅 2026-12-07\n- [ ] call Ana ⏳ 2026-12-03\n');
    expect(read('Tasks/Logbook.md')).toBe('- [x] pay rent 📅 2026-12-05\n- [x] old errand\n');
    await expectTaskFilesMatch(root, space);
    const again = await cycle();
    expect(again.requests.filter((q) => !q.startsWith('GET'))).toEqual([]);
    expect(again.r.tasks?.written).toEqual([]);
  });

  it('merges with the space by field and keeps an edit over a delete', async () => {
    await space.call('PUT', '/tasks', {
      tasksToUpdate: [
        { id: 'I1', markdown: 'call Ana and Bo' },
        { id: 'I3', taskInfo: { deadlineDate: '2026-12-08' } },
      ],
    });
    write('Tasks/Inbox.md', '- [ ] call Ana ⏳ 2026-12-02\n- [ ] pay rent 📅 2026-12-05\n');
    const { r } = await cycle();
    expect(r.tasks?.sent.filter((c) => c.action === 'deleted')).toEqual([]);
    expect(read('Tasks/Inbox.md')).toBe('- [ ] call Ana and Bo ⏳ 2026-12-02\n- [ ] pay rent 📅 2026-12-05\n- [ ] sweep 📅 2026-12-08\n');
    await expectTaskFilesMatch(root, space);
  });

  it('a line added on a second machine that the space already has is not created twice', async () => {
    await space.call('POST', '/tasks', { tasks: [{ markdown: 'buy milk', location: { type: 'inbox' } }] });
    write('Tasks/Inbox.md', `- [ ] buy milk\n${read('Tasks/Inbox.md')}`);
    const { r } = await cycle();
    expect(r.tasks?.sent.filter((c) => c.action === 'created')).toEqual([]);
    expect(read('Tasks/Inbox.md').match(/buy milk/g)).toHaveLength(1);
  });

  it('another file put in Tasks/ is not sent, and the cycle says so', async () => {
    write('Tasks/Notes.md', 'my own notes\n');
    const { r, requests } = await cycle();
    expect(requests.filter((q) => !q.startsWith('GET'))).toEqual([]);
    expect(r.tasks?.held).toEqual([
      {
        path: 'Tasks/Notes.md',
        message: '"Tasks/Notes.md" is not synced: Tasks/ holds only the task files (Inbox.md, Logbook.md). Move it to another folder to make it a document.',
      },
    ]);
    expect(read('Tasks/Notes.md')).toBe('my own notes\n');
  });

  it('a deleted inbox file deletes no task: it is written again', async () => {
    fs.rmSync(path.join(root, 'Tasks/Inbox.md'));
    const { r, requests } = await cycle();
    expect(requests.filter((q) => !q.startsWith('GET'))).toEqual([]);
    expect(r.tasks?.written).toEqual(['Tasks/Inbox.md']);
    await expectTaskFilesMatch(root, space);
  });
});

describe('the logbook is read-only', () => {
  it('an edit is not sent, is reported, is kept in the version history, and the file is written again from the space', async () => {
    write('Tasks/Logbook.md', '- [ ] old errand\n- [x] something else\n');
    const { r, requests } = await cycle();
    expect(requests.filter((q) => !q.startsWith('GET'))).toEqual([]);
    expect(r.tasks?.notices.join('\n')).toMatch(/Tasks\/Logbook\.md" is read-only.*your edit was not sent/);
    expect(read('Tasks/Logbook.md')).toBe('- [x] old errand\n');
    expect(session.journal.listHistory({ path: 'Tasks/Logbook.md' })).toHaveLength(1);
    const again = await cycle();
    expect(again.r.tasks?.notices).toEqual([]);
  });
});

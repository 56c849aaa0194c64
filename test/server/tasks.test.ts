// Conformance: GET/POST/PUT/DELETE /tasks, the task states and scope membership (docs/api.md
// "Task", "States and transitions: Task", "Endpoints: Tasks"). The space's zone is Europe/Berlin
// and the clock starts at 2026-09-05 12:00 there, so today is 2026-09-05.
import { describe, expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import { flatten, START, startHarness, useHarness } from './harness.js';
import { fixture, ids } from './spaceFixture.js';

const taskFixture: SpaceFixture = {
  ...fixture,
  documents: [
    ...fixture.documents!.map((d) => (d.id === ids.today ? { ...d, content: [...d.content!, { id: 'T-DAILY', markdown: '- [ ] daily chore' }] } : d)),
    {
      id: 'D-TASKS',
      title: 'Task list',
      createdAt: '2026-09-01T10:00:00Z',
      content: [
        { id: 'T-UP', markdown: '- [ ] future work', taskInfo: { state: 'todo', scheduleDate: '2026-09-07' } },
        { id: 'T-DL', markdown: '- [ ] due tomorrow', taskInfo: { state: 'todo', deadlineDate: '2026-09-06' } },
        { id: 'T-LATE', markdown: '- [ ] overdue', taskInfo: { state: 'todo', deadlineDate: '2026-09-01' } },
        { id: 'T-WINS', markdown: '- [ ] schedule wins', taskInfo: { state: 'todo', scheduleDate: '2026-09-08', deadlineDate: '2026-09-03' } },
        { id: 'T-NODATE', markdown: '- [ ] someday' },
        { id: 'T-PLAIN', markdown: 'not a task' },
        {
          id: 'T-PAGE',
          type: 'page',
          title: 'Nested',
          content: [{ id: 'T-NESTED', markdown: '- [ ] nested task', taskInfo: { state: 'todo', scheduleDate: '2026-09-05' } }],
        },
      ],
    },
    {
      id: 'D-GONE',
      title: 'Deleted tasks',
      location: 'trash',
      trashedAt: '2026-09-04T10:00:00Z',
      content: [{ id: 'T-TRASH', markdown: '- [ ] in the trash', taskInfo: { state: 'todo', scheduleDate: '2026-09-05' } }],
    },
  ],
  inbox: [
    { id: 'T-IN1', markdown: '- [ ] call the bank' },
    { id: 'T-IN2', markdown: '- [ ] pay rent', taskInfo: { state: 'todo', scheduleDate: '2026-09-04' } },
    { id: 'T-IN3', markdown: '- [x] filed taxes', taskInfo: { state: 'done', completedAt: '2026-09-02T08:00:00.000Z' } },
  ],
};

const h = useHarness({ fixture: taskFixture });

const list = async (scope: string, extra: Record<string, string> = {}) => h.api('GET', '/tasks', { query: { scope, ...extra } });
const idsOf = async (scope: string, extra: Record<string, string> = {}) => (await list(scope, extra)).body.items.map((t: any) => t.id).sort();
const create = (tasks: unknown[]) => h.api('POST', '/tasks', { body: { tasks } });
const update = (tasksToUpdate: unknown[]) => h.api('PUT', '/tasks', { body: { tasksToUpdate } });
const block = async (id: string) => (await h.api('GET', '/blocks', { query: { id } })).body;
const children = async (id: string) => (await block(id)).content.map((b: any) => b.id);

describe('GET /tasks: query validation', () => {
  it('scope is required', async () => {
    const r = await h.api('GET', '/tasks');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'Validation failed', code: 'VALIDATION_ERROR', details: [{ path: ['scope'] }] });
  });

  it('scope outside active, upcoming, inbox, logbook, document, all is refused', async () => {
    expect((await list('today')).status).toBe(400);
  });

  it('scope=document without documentId is refused', async () => {
    const r = await list('document');
    expect(r.status).toBe(400);
    expect(r.body.details[0].message).toMatch(/documentId/);
  });

  it('scope=document with an unknown document is a 404', async () => {
    expect((await list('document', { documentId: 'NOPE' })).status).toBe(404);
  });
});

describe('GET /tasks: scope membership', () => {
  it('active: open tasks whose task date is today or earlier', async () => {
    expect(await idsOf('active')).toEqual(['B-TODO', 'T-IN2', 'T-LATE', 'T-NESTED'].sort());
  });

  it('upcoming: open tasks whose task date is tomorrow or later', async () => {
    expect(await idsOf('upcoming')).toEqual(['T-DL', 'T-UP', 'T-WINS'].sort());
  });

  it('the task date is the schedule date when present, else the deadline date', async () => {
    // T-WINS: deadline past, schedule in two days: upcoming, not active. T-LATE: deadline only, past: active.
    expect(await idsOf('active')).not.toContain('T-WINS');
    expect(await idsOf('upcoming')).toContain('T-WINS');
    expect(await idsOf('active')).toContain('T-LATE');
  });

  it('task dates are whole days in the space time zone', async () => {
    // 22:30 UTC on the 5th is 00:30 on the 6th in Berlin: the task due on the 6th is now active.
    h.clock.t = Date.parse('2026-09-05T22:30:00Z');
    expect(await idsOf('active')).toContain('T-DL');
    expect(await idsOf('upcoming')).not.toContain('T-DL');
    h.clock.t = START;
    expect(await idsOf('active')).not.toContain('T-DL');
  });

  it('inbox: the tasks in the inbox (done ones are in the logbook)', async () => {
    expect(await idsOf('inbox')).toEqual(['T-IN1', 'T-IN2']);
  });

  it('logbook: completed and canceled tasks', async () => {
    expect(await idsOf('logbook')).toEqual(['B-CANC', 'B-DONE', 'T-IN3'].sort());
  });

  it('document: every task block of that document, whatever its state or date', async () => {
    expect(await idsOf('document', { documentId: ids.roadmap })).toEqual(['B-CANC', 'B-DONE', 'B-TODO']);
    expect(await idsOf('document', { documentId: 'D-TASKS' })).toEqual(['T-DL', 'T-LATE', 'T-NESTED', 'T-NODATE', 'T-UP', 'T-WINS']);
  });

  it('all: every task block, including undated document tasks and finished ones; not a union of the other scopes', async () => {
    const all = await idsOf('all');
    expect(all).toEqual(
      ['B-CANC', 'B-DONE', 'B-TODO', 'T-DAILY', 'T-DL', 'T-IN1', 'T-IN2', 'T-IN3', 'T-LATE', 'T-NESTED', 'T-NODATE', 'T-UP', 'T-WINS'].sort(),
    );
    const union = new Set<string>();
    for (const s of ['active', 'upcoming', 'inbox', 'logbook']) for (const id of await idsOf(s)) union.add(id);
    expect(union.has('T-NODATE')).toBe(false);
    expect(all).toContain('T-NODATE');
  });

  it('tasks of deleted documents are left out, except when their document is asked for', async () => {
    expect(await idsOf('all')).not.toContain('T-TRASH');
    expect(await idsOf('active')).not.toContain('T-TRASH');
    expect(await idsOf('document', { documentId: 'D-GONE' })).toEqual(['T-TRASH']);
  });

  it('answers {items} of tasks with id, markdown, taskInfo and location', async () => {
    const items = (await list('all')).body.items as any[];
    const by = new Map(items.map((t) => [t.id, t]));
    expect(by.get('B-TODO')).toEqual({
      id: 'B-TODO',
      markdown: 'write tests',
      taskInfo: { state: 'todo', scheduleDate: '2026-09-05', deadlineDate: '2026-09-10' },
      location: { type: 'document', documentId: ids.roadmap, title: 'Roadmap' },
    });
    expect(by.get('T-IN1')).toEqual({ id: 'T-IN1', markdown: 'call the bank', taskInfo: { state: 'todo' }, location: { type: 'inbox' } });
    expect(by.get('T-DAILY')).toMatchObject({ location: { type: 'dailyNote', date: '2026-09-05' } });
  });

  it('done tasks carry completedAt, canceled tasks canceledAt', async () => {
    const by = new Map(((await list('logbook')).body.items as any[]).map((t) => [t.id, t]));
    expect(by.get('T-IN3')).toMatchObject({ taskInfo: { state: 'done' }, completedAt: '2026-09-02T08:00:00.000Z' });
    expect(by.get('B-DONE').completedAt).toBe('2026-09-01T10:00:00.000Z');
    expect(by.get('B-CANC')).toMatchObject({ taskInfo: { state: 'canceled' }, canceledAt: expect.any(String) });
    expect(by.get('B-CANC').completedAt).toBeUndefined();
  });

  it('each task listed counts as one block read', async () => {
    await h.admin('DELETE', '/requests');
    const n = (await list('all')).body.items.length;
    const log = (await h.admin('GET', '/requests')).body.items;
    expect(log.at(-1)).toMatchObject({ method: 'GET', path: '/tasks', blocksCharged: n });
  });
});

describe('GET /tasks and the block budget', () => {
  it('answers carry X-BlockBudget-* once the tasks read are counted', async () => {
    const limited = await startHarness({ fixture: taskFixture, limits: 'spec' });
    try {
      const r = await limited.api('GET', '/tasks', { query: { scope: 'all' } });
      expect(r.headers['x-blockbudget-limit']).toBe('20000');
      expect(r.headers['x-blockbudget-remaining']).toBe(String(20000 - r.body.items.length));
    } finally {
      await limited.close();
    }
  });
});

describe('POST /tasks', () => {
  it('creates a todo task at the top of the inbox', async () => {
    const r = await create([{ markdown: 'buy milk', location: { type: 'inbox' } }]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ items: [{ id: expect.any(String), markdown: 'buy milk', taskInfo: { state: 'todo' } }] });
    const inbox = (await list('inbox')).body.items.map((t: any) => t.id);
    expect(inbox[0]).toBe(r.body.items[0].id);
  });

  it('several tasks for one location keep their order at its top', async () => {
    const r = await create([
      { markdown: 'one', location: { type: 'inbox' } },
      { markdown: 'two', location: { type: 'inbox' } },
    ]);
    expect((await list('inbox')).body.items.map((t: any) => t.markdown)).toEqual(['one', 'two', 'call the bank', 'pay rent']);
    expect(r.body.items.map((t: any) => t.markdown)).toEqual(['one', 'two']);
  });

  it('resolves today, tomorrow and yesterday in the space time zone', async () => {
    const r = await create([{ markdown: 'dated', taskInfo: { scheduleDate: 'tomorrow', deadlineDate: 'yesterday' }, location: { type: 'inbox' } }]);
    expect(r.body.items[0].taskInfo).toEqual({ state: 'todo', scheduleDate: '2026-09-06', deadlineDate: '2026-09-04' });
    const r2 = await create([{ markdown: 'dated', taskInfo: { scheduleDate: '2026-10-01' }, location: { type: 'inbox' } }]);
    expect(r2.body.items[0].taskInfo.scheduleDate).toBe('2026-10-01');
  });

  it('into a daily note: at its top, the note created when missing', async () => {
    const r = await create([{ markdown: 'plan the trip', location: { type: 'dailyNote', date: '2026-09-09' } }]);
    expect(r.status).toBe(200);
    const note = (await h.api('GET', '/blocks', { query: { date: '2026-09-09' } })).body;
    expect(note.content.map((b: any) => b.id)).toEqual([r.body.items[0].id]);
    const r2 = await create([{ markdown: 'first today', location: { type: 'dailyNote', date: 'today' } }]);
    expect((await children(ids.today))[0]).toBe(r2.body.items[0].id);
  });

  it('a daily note location without a date means today', async () => {
    const r = await create([{ markdown: 'no date given', location: { type: 'dailyNote' } }]);
    expect((await children(ids.today))[0]).toBe(r.body.items[0].id);
  });

  it('into a document: an ordinary task block at its top, the same in GET /blocks', async () => {
    const r = await create([{ markdown: 'ship it', taskInfo: { deadlineDate: '2026-09-12' }, location: { type: 'document', documentId: ids.unsorted } }]);
    const b = await block(ids.unsorted);
    expect(b.content[0]).toEqual({
      id: r.body.items[0].id,
      type: 'text',
      markdown: '- [ ] ship it',
      listStyle: 'task',
      taskInfo: { state: 'todo', deadlineDate: '2026-09-12' },
    });
    expect(await idsOf('document', { documentId: ids.unsorted })).toEqual([r.body.items[0].id]);
  });

  it('takes the text with or without a task prefix, normalised like any block', async () => {
    const r = await create([
      { markdown: '- [ ] with _prefix_', location: { type: 'inbox' } },
      { markdown: '- [x] born open', location: { type: 'inbox' } },
    ]);
    expect(r.body.items.map((t: any) => [t.markdown, t.taskInfo.state])).toEqual([
      ['with *prefix*', 'todo'],
      ['born open', 'todo'],
    ]);
  });

  it('refuses a missing or unknown location, a document location without documentId, and bad dates', async () => {
    expect((await create([{ markdown: 'x' }])).status).toBe(400);
    expect((await create([{ markdown: 'x', location: { type: 'logbook' } }])).status).toBe(400);
    expect((await create([{ markdown: 'x', location: { type: 'document' } }])).status).toBe(400);
    expect((await create([{ markdown: 'x', location: { type: 'inbox' }, taskInfo: { scheduleDate: 'next week' } }])).status).toBe(400);
    expect((await create([{ markdown: 'x', location: { type: 'dailyNote', date: '2026-02-30' } }])).status).toBe(400);
  });

  it('an unknown document is a 404, and nothing of the request is written', async () => {
    const r = await create([
      { markdown: 'first', location: { type: 'inbox' } },
      { markdown: 'second', location: { type: 'document', documentId: 'NOPE' } },
    ]);
    expect(r.status).toBe(404);
    expect(await idsOf('inbox')).toEqual(['T-IN1', 'T-IN2']);
  });

  it('refuses empty text and text that makes more than one block', async () => {
    expect((await create([{ markdown: '', location: { type: 'inbox' } }])).status).toBe(400);
    expect((await create([{ markdown: 'one\n\ntwo', location: { type: 'inbox' } }])).status).toBe(400);
    const table = await create([{ markdown: '| a | b |\n|---|---|\n| 1 | 2 |', location: { type: 'inbox' } }]);
    expect(table.status).toBe(400);
    expect(table.body.details[0]).toMatchObject({ message: expect.stringMatching(/text of a task/), path: ['tasks', 0, 'markdown'] });
  });
});

describe('PUT /tasks', () => {
  it('done on an inbox task: completedAt appears and the task moves to the logbook', async () => {
    const r = await update([{ id: 'T-IN1', taskInfo: { state: 'done' } }]);
    expect(r.status).toBe(200);
    expect(r.body.items[0]).toMatchObject({ id: 'T-IN1', taskInfo: { state: 'done' }, completedAt: new Date(START).toISOString() });
    expect(await idsOf('inbox')).toEqual(['T-IN2']);
    expect(await idsOf('logbook')).toContain('T-IN1');
  });

  it('canceled on an inbox task: canceledAt appears and the task moves to the logbook', async () => {
    const r = await update([{ id: 'T-IN2', taskInfo: { state: 'canceled' } }]);
    expect(r.body.items[0]).toMatchObject({ taskInfo: { state: 'canceled' }, canceledAt: new Date(START).toISOString() });
    expect(r.body.items[0].completedAt).toBeUndefined();
    expect(await idsOf('inbox')).toEqual(['T-IN1']);
    expect(await idsOf('logbook')).toContain('T-IN2');
    expect(await idsOf('active')).not.toContain('T-IN2');
  });

  it('back to todo: the stamp goes and an inbox task is back in the inbox', async () => {
    const r = await update([{ id: 'T-IN3', taskInfo: { state: 'todo' } }]);
    expect(r.body.items[0].completedAt).toBeUndefined();
    expect(await idsOf('inbox')).toContain('T-IN3');
    expect(await idsOf('logbook')).not.toContain('T-IN3');
  });

  it('a state change on a document task changes its block; it stays in its document', async () => {
    await update([{ id: 'B-TODO', taskInfo: { state: 'done' } }]);
    const b = await block('B-TODO');
    expect(b).toMatchObject({
      markdown: '- [x] write tests',
      taskInfo: { state: 'done', completedAt: new Date(START).toISOString(), scheduleDate: '2026-09-05' },
    });
    expect(await idsOf('document', { documentId: ids.roadmap })).toContain('B-TODO');
    expect(await idsOf('logbook')).toContain('B-TODO');
  });

  it('only the fields sent change: new text keeps state and dates; dates change or clear with null', async () => {
    await update([{ id: 'B-TODO', markdown: 'write **more** tests' }]);
    expect(await block('B-TODO')).toMatchObject({
      markdown: '- [ ] write **more** tests',
      taskInfo: { state: 'todo', scheduleDate: '2026-09-05', deadlineDate: '2026-09-10' },
    });
    const r = await update([{ id: 'B-TODO', taskInfo: { scheduleDate: 'tomorrow', deadlineDate: null } }]);
    expect(r.body.items[0]).toMatchObject({ markdown: 'write **more** tests', taskInfo: { state: 'todo', scheduleDate: '2026-09-06' } });
    expect(r.body.items[0].taskInfo.deadlineDate).toBeUndefined();
    expect(await idsOf('upcoming')).toContain('B-TODO');
  });

  it('a location change moves the task to the top of its new location', async () => {
    const r = await update([{ id: 'T-IN1', location: { type: 'document', documentId: ids.unsorted } }]);
    expect(r.body.items[0].location).toEqual({ type: 'document', documentId: ids.unsorted, title: 'Unsorted note' });
    expect(await children(ids.unsorted)).toEqual(['T-IN1', 'B-HELLO']);
    expect(await idsOf('inbox')).toEqual(['T-IN2']);
    await update([{ id: 'T-NESTED', location: { type: 'inbox' } }]);
    expect((await list('inbox')).body.items[0]).toMatchObject({ id: 'T-NESTED', location: { type: 'inbox' } });
    expect(await children('T-PAGE')).toEqual([]);
    await update([{ id: 'T-NESTED', location: { type: 'dailyNote', date: '2026-09-04' } }]);
    expect((await children(ids.yesterday))[0]).toBe('T-NESTED');
  });

  it('an unknown id, or a block that is not a task, is a 404 and changes nothing', async () => {
    expect(
      (
        await update([
          { id: 'T-IN1', taskInfo: { state: 'done' } },
          { id: 'NOPE', taskInfo: { state: 'done' } },
        ])
      ).status,
    ).toBe(404);
    expect((await update([{ id: 'T-PLAIN', taskInfo: { state: 'done' } }])).status).toBe(404);
    expect(await idsOf('inbox')).toEqual(['T-IN1', 'T-IN2']);
  });

  it('refuses a state outside todo, done, canceled', async () => {
    expect((await update([{ id: 'T-IN1', taskInfo: { state: 'started' } }])).status).toBe(400);
  });
});

describe('DELETE /tasks', () => {
  it('deletes tasks in any location and answers {items: [{id}]}', async () => {
    const r = await h.api('DELETE', '/tasks', { body: { idsToDelete: ['T-IN1', 'B-TODO', 'T-DAILY', 'T-NESTED'] } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ items: [{ id: 'T-IN1' }, { id: 'B-TODO' }, { id: 'T-DAILY' }, { id: 'T-NESTED' }] });
    const all = await idsOf('all');
    for (const id of ['T-IN1', 'B-TODO', 'T-DAILY', 'T-NESTED']) expect(all).not.toContain(id);
    expect((await h.api('GET', '/blocks', { query: { id: 'B-TODO' } })).status).toBe(404);
  });

  it('an unknown id is a 404 and nothing is deleted', async () => {
    expect((await h.api('DELETE', '/tasks', { body: { idsToDelete: ['T-IN1', 'NOPE'] } })).status).toBe(404);
    expect(await idsOf('inbox')).toEqual(['T-IN1', 'T-IN2']);
  });

  it('refuses a non-task block', async () => {
    expect((await h.api('DELETE', '/tasks', { body: { idsToDelete: ['T-PLAIN'] } })).status).toBe(404);
    expect((await block('T-PLAIN')).markdown).toBe('not a task');
  });
});

describe('tasks are blocks: the two views agree', () => {
  it('a task written with POST /blocks is listed; a state set with PUT /blocks shows in GET /tasks', async () => {
    const r = await h.api('POST', '/blocks', { body: { markdown: '- [ ] from blocks', position: { position: 'end', pageId: ids.unsorted } } });
    const id = r.body.items[0].id;
    expect(await idsOf('document', { documentId: ids.unsorted })).toEqual([id]);
    await h.api('PUT', '/blocks', { body: { blocks: [{ id, markdown: '- [x] from blocks' }] } });
    const t = (await list('logbook')).body.items.find((x: any) => x.id === id);
    expect(t).toMatchObject({ markdown: 'from blocks', taskInfo: { state: 'done' }, completedAt: expect.any(String) });
  });

  it('GET /tasks shows what GET /blocks shows for every task of a document', async () => {
    const tasks = (await list('document', { documentId: 'D-TASKS' })).body.items as any[];
    const blocks = new Map(flatten(await block('D-TASKS')).map((b) => [b.id, b]));
    for (const t of tasks) {
      const b = blocks.get(t.id);
      expect(b.listStyle).toBe('task');
      const { completedAt: _c, canceledAt: _x, ...info } = b.taskInfo;
      expect(t.taskInfo).toEqual(info);
      expect(b.markdown.endsWith(t.markdown)).toBe(true);
    }
  });
});

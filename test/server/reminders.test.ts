// Conformance: block reminders (docs/api.md "Reminder", "States and transitions: Reminder",
// "Endpoints: Reminders", the availability conditions and the limits of GET /reminders).
// The clock starts at 2026-09-05T10:00:00Z.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import { startHarness, START, type Harness } from './harness.js';
import { fixture } from './spaceFixture.js';

const reminderFixture: SpaceFixture = {
  ...fixture,
  reminders: [
    { id: 'R-OVERDUE', blockId: 'B-HELLO', remindAt: '2026-09-05T08:00:00Z', createdAt: '2026-09-01T10:00:00Z' },
    { id: 'R-FUTURE', blockId: 'B-P', remindAt: '2026-09-06T08:00:00Z', createdAt: '2026-09-02T10:00:00Z' },
    { id: 'R-LATER', blockId: 'B-BUL', createdAt: '2026-09-03T10:00:00Z' },
    {
      id: 'R-DONE',
      blockId: 'B-NUM',
      remindAt: '2026-09-04T08:00:00Z',
      isCompleted: true,
      completedAt: '2026-09-04T09:00:00Z',
      createdAt: '2026-09-03T10:00:00Z',
    },
  ],
};

let h: Harness;
let closed: Harness;
beforeAll(async () => {
  h = await startHarness({ fixture: reminderFixture });
  closed = await startHarness({ fixture: reminderFixture, soleParticipant: false });
});
beforeEach(async () => {
  await h.reset();
});
afterAll(async () => {
  await h.close();
  await closed.close();
});

const list = (query: Record<string, string | number> = {}) => h.api('GET', '/reminders', { query });
const idsOf = async (query: Record<string, string | number> = {}) => (await list(query)).body.items.map((r: any) => r.id);
const create = (reminders: unknown) => h.api('POST', '/reminders', { body: { reminders } });
const update = (remindersToUpdate: unknown) => h.api('PUT', '/reminders', { body: { remindersToUpdate } });

describe('availability', () => {
  it('when the link creator is not the only active participant, every reminder request gets an explicit availability error', async () => {
    const calls = [
      closed.api('GET', '/reminders'),
      closed.api('POST', '/reminders', { body: { reminders: [{ blockId: 'B-HELLO' }] } }),
      closed.api('PUT', '/reminders', { body: { remindersToUpdate: [{ id: 'R-LATER', isCompleted: true }] } }),
      closed.api('DELETE', '/reminders', { body: { idsToDelete: ['R-LATER'] } }),
    ];
    for (const r of await Promise.all(calls)) {
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: expect.stringMatching(/not available/), code: 'REMINDERS_UNAVAILABLE' });
    }
    const snap = (await closed.admin('GET', '/snapshot')).body;
    expect(snap.reminders).toHaveLength(4);
  });

  it('the rest of the interface works as usual without reminders', async () => {
    expect((await closed.api('GET', '/blocks', { query: { id: 'B-HELLO' } })).status).toBe(200);
  });

  it('with the link creator alone in the space, reminders are available', async () => {
    expect((await list()).status).toBe(200);
  });
});

describe('GET /reminders', () => {
  it('answers {items, pagination: {cursor}} of reminders with id, blockId, title, remindAt, isCompleted', async () => {
    const r = await list({ status: 'all' });
    expect(r.status).toBe(200);
    expect(r.body.items[0]).toEqual({ id: 'R-OVERDUE', blockId: 'B-HELLO', title: 'hello world', remindAt: '2026-09-05T08:00:00.000Z', isCompleted: false });
    expect(r.body.items.find((x: any) => x.id === 'R-DONE')).toEqual({
      id: 'R-DONE',
      blockId: 'B-NUM',
      title: 'step one',
      remindAt: '2026-09-04T08:00:00.000Z',
      isCompleted: true,
      completedAt: '2026-09-04T09:00:00.000Z',
    });
    expect(r.body.items.find((x: any) => x.id === 'R-LATER').remindAt).toBeUndefined();
    expect(r.body.pagination).toEqual({ cursor: null });
  });

  it('status defaults to incomplete, which includes saved-for-later and overdue reminders', async () => {
    expect(await idsOf()).toEqual(['R-OVERDUE', 'R-FUTURE', 'R-LATER']);
    expect(await idsOf({ status: 'incomplete' })).toEqual(['R-OVERDUE', 'R-FUTURE', 'R-LATER']);
  });

  it('upcoming: incomplete reminders with a future time or no time', async () => {
    expect(await idsOf({ status: 'upcoming' })).toEqual(['R-FUTURE', 'R-LATER']);
    h.clock.t = Date.parse('2026-09-06T09:00:00Z');
    expect(await idsOf({ status: 'upcoming' })).toEqual(['R-LATER']);
  });

  it('completed: the completed ones; all: every reminder, completed included', async () => {
    expect(await idsOf({ status: 'completed' })).toEqual(['R-DONE']);
    expect(await idsOf({ status: 'all' })).toEqual(['R-OVERDUE', 'R-FUTURE', 'R-DONE', 'R-LATER']);
  });

  it('orders by creation time, then id', async () => {
    // R-LATER and R-DONE were created at the same instant: id order decides.
    expect(await idsOf({ status: 'all' })).toEqual(['R-OVERDUE', 'R-FUTURE', 'R-DONE', 'R-LATER']);
    const made = await create([{ blockId: 'B-LAST' }]);
    expect((await idsOf({ status: 'all' })).at(-1)).toBe(made.body.items[0].id);
  });

  it('refuses a status outside incomplete, completed, upcoming, all', async () => {
    expect((await list({ status: 'overdue' })).status).toBe(400);
  });

  it('limit is a whole number from 1 to 200', async () => {
    for (const limit of [0, 201, 'ten', 1.5]) expect((await list({ limit })).status).toBe(400);
    expect((await list({ limit: 1 })).body.items).toHaveLength(1);
    expect((await list({ limit: 200 })).status).toBe(200);
  });

  it('limit defaults to 50, and the cursor pages through the rest with the same status', async () => {
    const blocks = Array.from({ length: 60 }, (_, i) => ({ id: `B-R${String(i).padStart(2, '0')}`, markdown: `line ${i}` }));
    await h.reset({
      ...fixture,
      documents: [...fixture.documents!, { id: 'D-MANY', title: 'Many', content: blocks }],
      reminders: blocks.map((b, i) => ({ id: `R-${String(i).padStart(2, '0')}`, blockId: b.id, createdAt: new Date(START - 1000 * (60 - i)).toISOString() })),
    });
    const first = await list();
    expect(first.body.items).toHaveLength(50);
    const cursor = first.body.pagination.cursor;
    expect(typeof cursor).toBe('string');
    expect(cursor.length).toBeLessThanOrEqual(256);
    const second = await list({ cursor });
    expect(second.body.items.map((r: any) => r.id)).toEqual(Array.from({ length: 10 }, (_, i) => `R-${50 + i}`));
    expect(second.body.pagination.cursor).toBeNull();
    const small = await list({ limit: 25 });
    const next = await list({ limit: 25, cursor: small.body.pagination.cursor });
    expect(next.body.items[0].id).toBe('R-25');
  });

  it('a cursor stays valid when the reminder it stopped at is deleted', async () => {
    const page = await list({ status: 'all', limit: 2 });
    await h.api('DELETE', '/reminders', { body: { idsToDelete: ['R-FUTURE'] } });
    expect((await list({ status: 'all', cursor: page.body.pagination.cursor })).body.items.map((r: any) => r.id)).toEqual(['R-DONE', 'R-LATER']);
  });

  it('refuses a cursor longer than 256 characters, one made for another status, and one that is not a cursor', async () => {
    expect((await list({ cursor: 'x'.repeat(257) })).status).toBe(400);
    const c = (await list({ status: 'all', limit: 1 })).body.pagination.cursor;
    const other = await list({ status: 'incomplete', cursor: c });
    expect(other.status).toBe(400);
    expect(other.body.details[0].message).toMatch(/without a cursor/);
    expect((await list({ cursor: 'not-a-cursor' })).status).toBe(400);
  });
});

describe('POST /reminders', () => {
  it('with remindAt: scheduled; the input offset is read and the output is UTC', async () => {
    const r = await create([{ blockId: 'B-LAST', remindAt: '2026-09-07T09:30:00+02:00' }]);
    expect(r.status).toBe(200);
    expect(r.body.items).toEqual([{ id: expect.any(String), blockId: 'B-LAST', title: 'the end', remindAt: '2026-09-07T07:30:00.000Z', isCompleted: false }]);
    expect(await idsOf({ status: 'upcoming' })).toContain(r.body.items[0].id);
  });

  it('without remindAt: saved for later (no time)', async () => {
    const r = await create([{ blockId: 'B-LAST' }]);
    expect(r.body.items[0].remindAt).toBeUndefined();
    expect(r.body.items[0].isCompleted).toBe(false);
  });

  it('on a block that already has a reminder, the new one replaces it', async () => {
    const r = await create([{ blockId: 'B-HELLO', remindAt: '2026-09-08T08:00:00Z' }]);
    const all = (await list({ status: 'all' })).body.items.filter((x: any) => x.blockId === 'B-HELLO');
    expect(all).toEqual([r.body.items[0]]);
    expect(all[0].id).not.toBe('R-OVERDUE');
  });

  it('refuses a remindAt without an offset or not a date-time; an unknown block is a 404', async () => {
    expect((await create([{ blockId: 'B-LAST', remindAt: '2026-09-07T09:30:00' }])).status).toBe(400);
    expect((await create([{ blockId: 'B-LAST', remindAt: 'tomorrow' }])).status).toBe(400);
    expect((await create([{ blockId: 'NOPE' }])).status).toBe(404);
    expect((await create([])).status).toBe(400);
  });

  it('a reminder and the task dates of its block live side by side', async () => {
    const r = await create([{ blockId: 'B-TODO', remindAt: '2026-09-07T08:00:00Z' }]);
    await h.api('PUT', '/tasks', { body: { tasksToUpdate: [{ id: 'B-TODO', taskInfo: { scheduleDate: '2026-09-09' } }] } });
    expect(await idsOf()).toContain(r.body.items[0].id);
    expect((await h.api('GET', '/blocks', { query: { id: 'B-TODO' } })).body.taskInfo.scheduleDate).toBe('2026-09-09');
  });
});

describe('PUT /reminders', () => {
  it('remindAt null: saved for later', async () => {
    const r = await update([{ id: 'R-FUTURE', remindAt: null }]);
    expect(r.status).toBe(200);
    expect(r.body.items[0]).toEqual({ id: 'R-FUTURE', blockId: 'B-P', title: 'Ship the **sync** engine', isCompleted: false });
  });

  it('a new remindAt: rescheduled', async () => {
    const r = await update([{ id: 'R-OVERDUE', remindAt: '2026-09-10T12:00:00Z' }]);
    expect(r.body.items[0].remindAt).toBe('2026-09-10T12:00:00.000Z');
    expect(await idsOf({ status: 'upcoming' })).toContain('R-OVERDUE');
  });

  it('isCompleted true: completed, with completedAt; only the fields sent change', async () => {
    const r = await update([{ id: 'R-FUTURE', isCompleted: true }]);
    expect(r.body.items[0]).toEqual({
      id: 'R-FUTURE',
      blockId: 'B-P',
      title: 'Ship the **sync** engine',
      remindAt: '2026-09-06T08:00:00.000Z',
      isCompleted: true,
      completedAt: new Date(START).toISOString(),
    });
    expect(await idsOf({ status: 'completed' })).toEqual(['R-FUTURE', 'R-DONE']);
    const back = await update([{ id: 'R-FUTURE', isCompleted: false }]);
    expect(back.body.items[0].completedAt).toBeUndefined();
  });

  it('an unknown id is a 404 and nothing changes', async () => {
    expect(
      (
        await update([
          { id: 'R-FUTURE', isCompleted: true },
          { id: 'R-NOPE', isCompleted: true },
        ])
      ).status,
    ).toBe(404);
    expect(await idsOf({ status: 'completed' })).toEqual(['R-DONE']);
    expect((await update([{ id: 'R-FUTURE', remindAt: 'soon' }])).status).toBe(400);
  });
});

describe('DELETE /reminders', () => {
  it('removes the reminders, answers their ids as strings, and the block stays', async () => {
    const r = await h.api('DELETE', '/reminders', { body: { idsToDelete: ['R-OVERDUE', 'R-DONE'] } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ items: ['R-OVERDUE', 'R-DONE'] });
    expect(await idsOf({ status: 'all' })).toEqual(['R-FUTURE', 'R-LATER']);
    expect((await h.api('GET', '/blocks', { query: { id: 'B-HELLO' } })).body.markdown).toBe('hello world');
  });

  it('an unknown id is a 404 and nothing is removed', async () => {
    expect((await h.api('DELETE', '/reminders', { body: { idsToDelete: ['R-OVERDUE', 'R-NOPE'] } })).status).toBe(404);
    expect(await idsOf({ status: 'all' })).toHaveLength(4);
  });

  it('a reminder whose block is deleted is not exposed', async () => {
    await h.api('DELETE', '/blocks', { body: { blockIds: ['B-HELLO'] } });
    expect(await idsOf({ status: 'all' })).not.toContain('R-OVERDUE');
  });
});

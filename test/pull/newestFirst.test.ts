// A pull reads the newest documents first: the last week's daily notes, then every other document
// most recently modified first, so that in a large space what the user opens first arrives first.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import type { FixtureDocument } from '../../src/server/fixture/types.js';
import { runPull, type SyncSession } from '../../src/sync/index.js';
import { makeRoot, openSession, START, startSpace, type Space } from './harness.js';
import fs from 'node:fs';

// Modification times spread over a year and shuffled, so the journal's order (by path) is not theirs.
const order = Array.from({ length: 40 }, (_, i) => (i * 17) % 40);
const notes: FixtureDocument[] = order.map((age, i) => ({
  id: `D-N${i}`,
  title: `Note ${String(i).padStart(2, '0')}`,
  lastModifiedAt: new Date(START - (age + 1) * 8 * 86_400_000).toISOString(),
  content: [{ id: `B-N${i}`, markdown: `note ${i}` }],
}));
const days: FixtureDocument[] = [
  // Recent daily notes, last modified long ago: still first, the newest day first.
  { id: 'D-DAY-3', title: '2026.09.02', dailyNoteDate: '2026-09-02', lastModifiedAt: '2026-01-01T00:00:00Z', content: [{ id: 'B-D3', markdown: 'day 3' }] },
  { id: 'D-DAY-0', title: '2026.09.05', dailyNoteDate: '2026-09-05', lastModifiedAt: '2026-01-02T00:00:00Z', content: [{ id: 'B-D0', markdown: 'today' }] },
  // A month old: among the others by its modification time.
  { id: 'D-DAY-30', title: '2026.08.06', dailyNoteDate: '2026-08-06', lastModifiedAt: '2026-08-06T20:00:00Z', content: [{ id: 'B-D30', markdown: 'old day' }] },
];
const fixture: SpaceFixture = { version: 1, space: { id: 'S-NEWEST', name: 'Newest', timezone: 'UTC' }, documents: [...notes, ...days] };

let space: Space;
let root: string;
let session: SyncSession;
beforeAll(async () => {
  space = await startSpace(fixture);
  root = makeRoot();
  session = await openSession(root, space);
});
afterAll(async () => {
  session.close();
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

it('reads the recent daily notes first, then the documents by lastModifiedAt, newest first', async () => {
  // One read at a time, on the space's day: the request log is the order of the reads.
  session.ctx.settings = { ...session.ctx.settings, concurrency: 1 };
  session.ctx.now = () => new Date(START);
  const pull = await runPull(session.ctx);
  expect(pull.written).toHaveLength(43);
  const reads = (await space.requests()).filter((r) => r.method === 'GET' && r.path === '/blocks').map((r) => r.query.id);
  const byTime = [...notes, days[2]!].sort((a, b) => Date.parse(b.lastModifiedAt!) - Date.parse(a.lastModifiedAt!)).map((d) => d.id);
  expect(reads).toEqual(['D-DAY-0', 'D-DAY-3', ...byTime]);
});

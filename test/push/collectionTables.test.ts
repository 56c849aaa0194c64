// Collection tables against the real server: an edited cell is one PUT of that property only, a
// select value that is not an option yet is added by the request (allowNewSelectOptions), a changed
// header sends nothing and is restored from the space (the user's version kept), a table that
// cannot be read and a cell its type cannot hold are reported and kept in the file, and a pull
// after a push gives the same bytes (no ping-pong).
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { SyncSession } from '../../src/sync/index.js';
import type { SyncOnceResult } from '../../src/sync/cycle/index.js';
import { syncOnce } from '../../src/sync/cycle/syncOnce.js';
import { pushCollections } from '../../src/sync/collections/pushCollections.js';
import { planCycle, pushLocal } from '../../src/sync/index.js';
import { versionsOf } from '../../src/sync/versions/index.js';
import { describeRequests, usePulledMirror, type Space } from '../pull/harness.js';
import { collectionSpace as fixture } from './collectionSpace.js';

const FILE = 'Unsorted/Books.md';
const TABLE = [
  '<collection name="Reading list">',
  '',
  '| title | status | due | pages |',
  '| --- | --- | --- | --- |',
  '| Dune | Reading | 2026-12-01 | 412 |',
  '| Emma | Done |  |  |',
  '',
  '</collection>',
].join('\n');

let space: Space;
let root: string;
let session: SyncSession;
usePulledMirror(fixture, (m) => ({ space, root, session } = m));

const read = () => fs.readFileSync(path.join(root, FILE), 'utf8');
const write = (text: string) => fs.writeFileSync(path.join(root, FILE), text);
const edit = (from: string, to: string) => {
  const text = read();
  expect(text).toContain(from);
  write(text.replace(from, to));
};
async function cycle() {
  await space.clearRequests();
  const r = await syncOnce(session.ctx);
  const requests = describeRequests(await space.requests());
  return { r, requests, writes: requests.filter((q) => !q.startsWith('GET ')) };
}
const items = async () =>
  (await space.call('GET', '/collections/C1/items', undefined, { maxDepth: '0' })).items as Array<{
    id: string;
    title: string;
    properties: Record<string, unknown>;
  }>;

it('pulls the collection as its table', () => {
  expect(read()).toBe(`---\nid: D-BOOKS\n---\nWhat we read\n\n${TABLE}\n`);
});

it('sends an edited cell as a PUT of that property only (a cell the app changed meanwhile stays), adding a new select option, and the next pull gives the same bytes', async () => {
  edit('| Dune | Reading | 2026-12-01 | 412 |', '| Dune | Paused | 2026-12-01 | 412 |');
  // Meanwhile the app changes another cell of that row: a push of the whole row would undo it.
  await space.call('PUT', '/collections/C1/items', { itemsToUpdate: [{ id: 'I1', properties: { pages: 500 } }] });
  const first = await cycle();
  expect(first.r.exitCode).toBe(0);
  expect(first.writes).toEqual(['PUT /collections/C1/items']);
  expect((await items()).find((i) => i.id === 'I1')?.properties).toEqual({ status: 'Paused', due: '2026-12-01', pages: 500 });
  const schema = await space.call('GET', '/collections/C1/schema', undefined, { format: 'schema' });
  expect(schema.properties[0].options).toEqual(['Reading', 'Done', 'Paused']);
  const after = read();
  expect(after).toContain('| Dune | Paused | 2026-12-01 | 500 |');
  const again = await cycle();
  expect(again.writes).toEqual([]);
  expect(read()).toBe(after);
});

it("is in the cycle's plan: the table's item request and, when the space changed the table too, its file written; nothing sent by the plan", async () => {
  edit('| Dune | Reading | 2026-12-01 | 412 |', '| Dune | Paused | 2026-12-01 | 412 |');
  const planned = async () => {
    await space.clearRequests();
    const p = await planCycle({ ...session.ctx, readOnly: true });
    expect(describeRequests(await space.requests()).filter((q) => !q.startsWith('GET '))).toEqual([]);
    return p;
  };
  const alone = await planned();
  expect(alone.changes).toContainEqual(
    expect.objectContaining({ kind: 'table', side: 'local', action: 'updated', path: FILE, title: 'Reading list', detail: '1 row changed' }),
  );
  expect(alone.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['PUT /collections/{collectionId}/items']);
  expect(alone.files.write).not.toContain(FILE);
  await space.call('PUT', '/collections/C1/items', { itemsToUpdate: [{ id: 'I1', properties: { pages: 500 } }] });
  const both = await planned();
  expect(both.files.write).toContain(FILE);
  const before = read();
  const ran = await cycle();
  expect(ran.writes).toEqual(['PUT /collections/C1/items']);
  expect(read()).not.toBe(before);
});

it('sends a cell edited back to what the file held when it was last synced, after a run stopped between the table and the blocks', async () => {
  const writes = async () => describeRequests(await space.requests()).filter((q) => !q.startsWith('GET '));
  edit('| Emma | Done |  |  |', '| Emma | Reading |  |  |');
  // The table is sent; the run stops before the blocks' push (a kill), which would have recorded the file.
  await space.clearRequests();
  await pushCollections(session.ctx, { paths: [FILE] });
  expect(await writes()).toEqual(['PUT /collections/C1/items']);
  // Then the file as it was before the first edit, byte for byte.
  edit('| Emma | Reading |  |  |', '| Emma | Done |  |  |');
  await space.clearRequests();
  await pushCollections(session.ctx, { paths: [FILE] });
  await pushLocal(session.ctx, { paths: [FILE], listingMaxAgeMs: 0 });
  expect(await writes()).toEqual(['PUT /collections/C1/items']);
  expect((await items()).find((i) => i.id === 'I2')?.properties).toMatchObject({ status: 'Done' });
  expect((await cycle()).writes).toEqual([]);
});

/** The problems a cycle reports (what the terminal and status say), as path and message. */
const said = (r: SyncOnceResult) => r.report.problems.map(({ path, message }) => ({ path, message }));

it('holds back a changed header, restores the table from the space and keeps the version replaced', async () => {
  edit('| title | status | due | pages |', '| title | state | due | pages |');
  // The plan names the file: the table is restored from the space.
  expect((await planCycle({ ...session.ctx, readOnly: true })).files.write).toContain(FILE);
  const r = await cycle();
  expect(r.writes).toEqual([]);
  expect(said(r.r)).toEqual([
    { path: FILE, message: expect.stringMatching(/^the header of the collection "Reading list" changed .* restored from the space/) },
  ]);
  expect(read()).toBe(`---\nid: D-BOOKS\n---\nWhat we read\n\n${TABLE}\n`);
  expect(versionsOf(session.ctx.journal, FILE).map((v) => v.cause)).toContain('conflict');
});

it('reports a table it cannot read and a cell its type cannot hold, keeping both in the file and asking nothing again', async () => {
  edit('| Emma | Done |  |  |', '| Emma | Done |  |  | extra |');
  // The plan says it as the run does: once, the table's problem.
  const planned = await planCycle({ ...session.ctx, readOnly: true });
  expect(planned.problems.filter((p) => p.path === FILE).map((p) => p.message)).toEqual([
    expect.stringMatching(/collection "Reading list", line 6 of the collection: the row has 5 cells and the header 4/),
  ]);
  expect(planned.files.write).not.toContain(FILE);
  const bad = await cycle();
  expect(bad.requests.filter((q) => q.includes('/collections') || q.startsWith('GET /blocks?id=C1'))).toEqual([]);
  expect(said(bad.r)).toEqual([
    { path: FILE, message: expect.stringMatching(/collection "Reading list", line 6 of the collection: the row has 5 cells and the header 4/) },
  ]);
  expect(read()).toContain('| extra |');

  edit('| Emma | Done |  |  | extra |', '| Emma | Done | soon | 300 |');
  // The space changes another row meanwhile: with a cell held back the file keeps its table.
  await space.call('PUT', '/collections/C1/items', { itemsToUpdate: [{ id: 'I1', properties: { pages: 777 } }] });
  const held = await cycle();
  expect(read()).toContain('| Dune | Reading | 2026-12-01 | 412 |');
  expect(held.writes).toEqual(['PUT /collections/C1/items']);
  expect((await items()).find((i) => i.id === 'I2')?.properties).toEqual({ status: 'Done', pages: 300 });
  expect(said(held.r)).toEqual([{ path: FILE, message: expect.stringMatching(/row "Emma", column due .* YYYY-MM-DD/) }]);
  expect(read()).toContain('| Emma | Done | soon | 300 |');
  // Untouched since: said again, nothing read from the collection.
  const still = await cycle();
  expect(still.requests.filter((q) => q.includes('/collections'))).toEqual([]);
  expect(said(still.r)).toHaveLength(1);
});

it('a file saved again while its rows are sent is looked at again from its old base: a cell the space changed meanwhile is not sent back over', async () => {
  // The app changes a cell the file (not pulled since) still shows as it was; the file adds a row.
  await space.call('PUT', '/collections/C1/items', { itemsToUpdate: [{ id: 'I1', properties: { pages: 500 } }] });
  edit('| Emma | Done |  |  |', '| Emma | Done |  |  |\n| Gatsby | Reading |  |  |');
  // While the row's POST is out, the file is saved again with one more row: the table cannot be written over.
  const client = session.ctx.client;
  const real = client.addCollectionItems.bind(client);
  client.addCollectionItems = async (...args: Parameters<typeof real>) => {
    const r = await real(...args);
    client.addCollectionItems = real;
    edit('| Gatsby | Reading |  |  |', '| Gatsby | Reading |  |  |\n| Ulysses | Done |  |  |');
    return r;
  };
  let first: Awaited<ReturnType<typeof cycle>>;
  try {
    first = await cycle();
  } finally {
    client.addCollectionItems = real;
  }
  // Looked at again at once, from the old base: the new row goes, the space's cell stays, no conflict.
  expect(first.writes).toEqual(['POST /collections/C1/items', 'POST /collections/C1/items']);
  expect(first.r.report.conflicts ?? []).toEqual([]);
  const now = await items();
  expect(now.find((i) => i.id === 'I1')?.properties).toMatchObject({ pages: 500 });
  expect(now.map((i) => i.title).sort()).toEqual(['Dune', 'Emma', 'Gatsby', 'Ulysses']);
  expect((await cycle()).writes).toEqual([]);
  expect(read()).toContain('| Dune | Reading | 2026-12-01 | 500 |');
  expect(read()).toContain('| Ulysses | Done |  |  |');
});

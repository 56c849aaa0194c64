// The client and its scheduler against the real server with the spec's limits, time-scaled:
// budgets under a burst, injected 429s, a reset after the service applied a POST, priorities.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, httpTransport, resolveLimits, Scheduler, type SchedulerEvent, type SpaceClient, type Transport } from '../../src/client/index.js';
import { isSpacesyncError } from '../../src/errors.js';
import { generateSpace, startServer, type RunningServer } from '../../src/server/index.js';
import { armFault, clearLog, maxInWindow, requestLog } from './admin.js';

const SCALE = 0.005;
const limits = resolveLimits({ scale: SCALE });
const space = generateSpace({ documents: 60, blocksPerDocument: 400, folders: 3, seed: 7 });
const docIds = space.documents!.map((d) => d.id!);
const blockIds = space.documents!.map((d) => d.content![7]!.id!);

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ port: 0, seed: space, limits: 'spec', limitScale: SCALE, admin: true });
});

afterAll(async () => {
  await server.close();
});

function clientWithEvents(extra: { transport?: Transport; random?: () => number; maxInFlight?: number } = {}) {
  const events: SchedulerEvent[] = [];
  const scheduler = new Scheduler({
    limits,
    onEvent: (e) => events.push(e),
    ...(extra.random ? { random: extra.random } : {}),
    ...(extra.maxInFlight ? { maxInFlight: extra.maxInFlight } : {}),
  });
  const transport = extra.transport ?? httpTransport();
  const client = createClient({ link: server.baseUrl, scheduler, transport });
  const close = () => {
    scheduler.close();
    (transport as { close?: () => void }).close?.();
  };
  return { client, scheduler, events, close };
}

/** Waits until the service's windows have surely passed, so one test's spending does not hold up the next. */
const quiet = () => new Promise((r) => setTimeout(r, limits.spaceRequests.windowMs * 1.2));

describe('the scheduler against the server', () => {
  it('keeps every window within all three budgets under a burst of 1,000 queued requests, with no 429', async () => {
    await quiet();
    await clearLog(server);
    const { client, events, close } = clientWithEvents();
    const calls: Array<Promise<unknown>> = [];
    for (let i = 0; i < 1000; i++) {
      const doc = docIds[i % docIds.length]!;
      const r = i % 20;
      if (r < 8) calls.push(client.getBlocks({ id: doc }, { priority: 'bulk', ...(i % 2 ? { blockCost: 401 } : {}) }));
      else if (r < 10) calls.push(client.getBlocks({ id: doc, maxDepth: 0 }, { priority: 'recent' }));
      else if (r < 15) calls.push(client.listDocuments({ fetchMetadata: true }, { priority: 'poll' }));
      else if (r < 18) calls.push(client.listFolders({ priority: 'poll' }));
      else calls.push(client.updateBlocks({ blocks: [{ id: blockIds[i % blockIds.length]!, font: 'serif' }] }, { priority: 'user' }));
    }
    const results = await Promise.allSettled(calls);
    close();
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);

    const log = await requestLog(server);
    expect(log).toHaveLength(1000);
    expect(log.filter((e) => e.status === 429)).toEqual([]);

    // What the client sent, by the time it sent it: never over a budget in any sliding window.
    const admits = events.filter((e): e is Extract<SchedulerEvent, { type: 'admit' }> => e.type === 'admit');
    const blocksOf = new Map(events.flatMap((e) => (e.type === 'settle' ? [[e.seq, e.blocks] as const] : [])));
    expect(admits).toHaveLength(1000);
    expect(maxInWindow(admits, limits.spaceRequests.windowMs)).toBeLessThanOrEqual(limits.spaceRequests.limit);
    expect(maxInWindow(admits, limits.addressRequests.windowMs)).toBeLessThanOrEqual(limits.addressRequests.limit);
    expect(
      maxInWindow(
        admits.map((a) => ({ at: a.at, weight: blocksOf.get(a.seq) ?? 0 })),
        limits.blocks.windowMs,
      ),
    ).toBeLessThanOrEqual(limits.blocks.limit);
    // The block budget really was in play: the reads moved more blocks than one window allows.
    expect(log.reduce((n, e) => n + e.blocksCharged, 0)).toBeGreaterThan(5 * limits.blocks.limit);
  });

  it('honours an injected 429 with Retry-After as a floor for every request of the space', async () => {
    await quiet();
    await clearLog(server);
    await armFault(server, { kind: '429', count: 1, retryAfter: 1, match: { method: 'GET', path: '^/folders$' } });
    const { client, close } = clientWithEvents();
    const folders = client.listFolders();
    // Queued while the first answer is awaited; it must wait out the same floor.
    await new Promise((r) => setTimeout(r, 20));
    const documents = client.listDocuments();
    await Promise.all([folders, documents]);
    close();
    const log = await requestLog(server);
    const limited = log.find((e) => e.status === 429)!;
    const after = log.filter((e) => e !== limited);
    expect(after.map((e) => e.path).sort()).toEqual(['/documents', '/folders']);
    for (const e of after) expect(e.t - limited.t).toBeGreaterThanOrEqual(1000);
    expect(client.stats().rateLimited).toBe(1);
  });

  it('backs off with jitter after a 429 without Retry-After, and then succeeds', async () => {
    await quiet();
    await clearLog(server);
    // The test server always sends Retry-After; a proxy in front of a live service may not.
    const http = httpTransport();
    const stripped: Transport = async (req) => {
      const res = await http(req);
      if (res.status !== 429) return res;
      const { 'retry-after': _ra, 'retry-after-ms': _ms, ...headers } = res.headers;
      return { ...res, headers };
    };
    await armFault(server, { kind: '429', count: 2, match: { path: '^/connection$' } });
    const { client, events, close } = clientWithEvents({ transport: stripped, random: () => 0.99 });
    const info = await client.getConnection();
    close();
    http.close();
    expect(info.space.timezone).toBe('UTC');
    const retries = events.flatMap((e) => (e.type === 'retry' ? [e] : []));
    expect(retries.map((r) => r.cause)).toEqual(['429', '429']);
    // Full jitter under a doubling ceiling: base 1 s × scale, then 2 s × scale (random 0.99).
    expect(retries.map((r) => r.delayMs)).toEqual([Math.floor(0.99 * 1000 * SCALE), Math.floor(0.99 * 2000 * SCALE)]);
    const log = (await requestLog(server)).filter((e) => e.path === '/connection');
    expect(log.map((e) => e.status)).toEqual([429, 429, 200]);
    expect(log[1]!.t - log[0]!.t).toBeGreaterThanOrEqual(retries[0]!.delayMs);
    expect(log[2]!.t - log[1]!.t).toBeGreaterThanOrEqual(retries[1]!.delayMs);
  });

  it('surfaces a reset after the service applied a POST as maybe_applied and does not send it again', async () => {
    await quiet();
    await clearLog(server);
    await armFault(server, { kind: 'reset-after-apply', count: 1, match: { method: 'POST', path: '^/documents$' } });
    const { client, close } = clientWithEvents();
    const error = await client.createDocuments({ documents: [{ title: 'Reset after apply' }] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isSpacesyncError(error, 'maybe_applied')).toBe(true);
    expect((error as Error).message).toMatch(/re-read/);
    const posts = (await requestLog(server)).filter((e) => e.method === 'POST');
    expect(posts).toHaveLength(1);
    // The caller re-reads and finds the document the service did create.
    const listed = await client.listDocuments();
    expect(listed.items.filter((d) => d.title === 'Reset after apply')).toHaveLength(1);
    close();
  });

  it('sends an idempotent write again after a reset, and it lands once', async () => {
    await quiet();
    await clearLog(server);
    await armFault(server, { kind: 'reset-after-apply', count: 1, match: { method: 'PUT', path: '^/blocks$' } });
    const { client, close } = clientWithEvents();
    const res = await client.updateBlocks({ blocks: [{ id: blockIds[0]!, markdown: 'Rewritten once' }] });
    close();
    expect(res.items[0]!.markdown).toBe('Rewritten once');
    expect((await requestLog(server)).filter((e) => e.method === 'PUT').map((e) => e.status)).toEqual([0, 200]);
  });

  it('sends a user edit queued behind 500 bulk reads next', async () => {
    await quiet();
    await clearLog(server);
    const { client, events, scheduler, close } = clientWithEvents({ maxInFlight: 4 });
    const bulk = Array.from({ length: 500 }, (_, i) =>
      client.getBlocks({ id: docIds[i % docIds.length]!, maxDepth: 0 }, { priority: 'bulk' }).catch(() => 'cancelled'),
    );
    const admittedBefore = events.filter((e) => e.type === 'admit').length;
    await client.updateBlocks({ blocks: [{ id: blockIds[1]!, font: 'mono' }] }, { priority: 'user' });
    const sentBeforeEdit = events.filter((e) => e.type === 'admit').findIndex((e) => e.type === 'admit' && e.label === 'PUT /blocks');
    const stillQueued = scheduler.stats().queued.bulk;
    close();
    await Promise.all(bulk);
    expect(admittedBefore).toBe(4);
    expect(sentBeforeEdit).toBe(admittedBefore);
    expect(stillQueued).toBeGreaterThan(400);
    // The server saw it among the first requests too: only the four already in flight came before.
    const order = (await requestLog(server)).map((e) => e.method);
    expect(order.indexOf('PUT')).toBeLessThanOrEqual(4);
  });
});

describe('the client against the server', () => {
  let client: SpaceClient;
  beforeAll(() => {
    client = createClient({ link: server.baseUrl, limits: { scale: SCALE } });
  });
  afterAll(() => client.close());

  it('reads and writes through the typed endpoints', async () => {
    await quiet();
    const info = await client.getConnection();
    expect(info.space.name).toContain('Generated');
    const folders = await client.listFolders();
    expect(folders.items.map((f) => f.id)).toEqual(expect.arrayContaining(['unsorted', 'trash', 'templates']));
    const created = await client.createDocuments({ documents: [{ title: 'Client round trip' }] });
    const id = created.items[0]!.id;
    const inserted = await client.createBlocks({ markdown: 'first\n\nsecond', position: { position: 'end', pageId: id } });
    expect(inserted.items.map((b) => b.markdown)).toEqual(['first', 'second']);
    const doc = await client.getBlocks({ id });
    expect(doc.content?.map((b) => b.markdown)).toEqual(['first', 'second']);
    const text = await client.getBlocks({ id, format: 'markdown' });
    expect(text).toContain('<pageTitle>Client round trip</pageTitle>');
    await client.moveBlocks({ blockIds: [inserted.items[1]!.id], position: { position: 'before', siblingId: inserted.items[0]!.id } });
    await client.deleteBlocks({ blockIds: [inserted.items[0]!.id] });
    expect((await client.getBlocks({ id })).content?.map((b) => b.markdown)).toEqual(['second']);
    const hits = await client.searchBlocks({ blockId: id, pattern: 'sec.nd' });
    expect(hits.items).toHaveLength(1);
    await expect(client.deleteDocuments({ documentIds: [id] })).resolves.toEqual({ items: [id] });
    const trash = await client.listDocuments({ location: 'trash' });
    expect(trash.items.map((d) => d.id)).toContain(id);
    await client.moveDocuments({ documentIds: [id], destination: { destination: 'unsorted' } });
  });

  it("maps the server's errors to their codes, without the link", async () => {
    const notFound = await client.updateBlocks({ blocks: [{ id: 'NO-SUCH-BLOCK', markdown: 'x' }] }).catch((e: unknown) => e);
    expect(notFound).toMatchObject({ code: 'not_found' });
    const invalid = await client.getBlocks({} as { id: string }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ code: 'validation' });
    const regex = await client.searchBlocks({ blockId: docIds[0]!, pattern: '(' }).catch((e: unknown) => e);
    expect(regex).toMatchObject({ code: 'validation' });
    const dead = createClient({ link: server.baseUrl.replace(server.linkId, 'revokedLinkId123'), limits: { scale: SCALE } });
    const gone = await dead.getConnection().catch((e: unknown) => e);
    const goneWrite = await dead.updateBlocks({ blocks: [{ id: blockIds[0]!, markdown: 'x' }] }).catch((e: unknown) => e);
    dead.close();
    expect(gone).toMatchObject({ code: 'link_not_found' });
    expect(goneWrite).toMatchObject({ code: 'link_not_found' });
    for (const e of [notFound, invalid, regex, gone, goneWrite]) {
      expect(JSON.stringify({ m: (e as Error).message, d: (e as { details?: unknown }).details })).not.toContain(server.linkId);
      expect((e as Error).message).not.toContain('revokedLinkId123');
    }
  });

  it('tells a missing API key from a wrong one', async () => {
    const keyed = await startServer({ port: 0, limits: 'off', apiKey: 'right-key-1234' });
    try {
      const missing = createClient({ link: keyed.baseUrl });
      const wrong = createClient({ link: keyed.baseUrl, apiKey: 'wrong-key-5678' });
      const right = createClient({ link: keyed.baseUrl, apiKey: 'right-key-1234' });
      await expect(missing.listFolders()).rejects.toMatchObject({ code: 'auth_missing' });
      const e = await wrong.listFolders().catch((err: unknown) => err);
      expect(e).toMatchObject({ code: 'auth_rejected' });
      expect(JSON.stringify({ m: (e as Error).message, d: (e as { details?: unknown }).details })).not.toContain('wrong-key-5678');
      await expect(right.listFolders()).resolves.toMatchObject({ items: expect.any(Array) });
      for (const c of [missing, wrong, right]) c.close();
    } finally {
      await keyed.close();
    }
  });
});

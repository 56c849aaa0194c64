import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isSpacesyncError, type SpacesyncError } from '../errors.js';
import { createLogger } from '../log.js';
import { createClient, type ClientOptions } from './createClient.js';
import { TransportError, type TransportRequest, type TransportResponse } from './transport.js';

const LINK_ID = 'Zq81secretLinkId77';
const LINK = `https://space.example/links/${LINK_ID}/api/v1`;
const KEY = 'sk-very-secret-key-123';

type Reply = TransportResponse | Error | ((req: TransportRequest) => TransportResponse | Error);

function json(status: number, body: unknown, headers: Record<string, string> = {}): TransportResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: Buffer.from(JSON.stringify(body)) };
}

/** A transport that answers from a script and records what it was asked. */
function fakeTransport(replies: Reply[]) {
  const requests: TransportRequest[] = [];
  const transport = async (req: TransportRequest): Promise<TransportResponse> => {
    requests.push(req);
    const next = replies.length > 1 ? replies.shift()! : replies[0]!;
    const r = typeof next === 'function' ? next(req) : next;
    if (r instanceof Error) throw r;
    return r;
  };
  return { transport, requests };
}

function client(replies: Reply[], extra: Partial<ClientOptions> = {}) {
  const fake = fakeTransport(replies);
  // Short windows and backoff so retries take milliseconds.
  const c = createClient({ link: LINK, transport: fake.transport, limits: { scale: 0.001 }, ...extra });
  return { c, ...fake };
}

async function failure(p: Promise<unknown>): Promise<SpacesyncError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!isSpacesyncError(e)) throw new Error(`expected a SpacesyncError, got ${String(e)}`);
  return e;
}

const CONNECTION = {
  space: { id: 'S', name: 'My Space', timezone: 'UTC', time: '2026-09-05T12:00:00', friendlyDate: '5 Sep' },
  utc: { time: '2026-09-05T12:00:00Z' },
  urlTemplates: { app: 'x' },
};
const doc = {
  id: 'DOC1',
  type: 'page',
  markdown: 'Title',
  content: [
    { id: 'B1', type: 'text', markdown: 'hello' },
    { id: 'B2', type: 'text', markdown: '' },
  ],
};

describe('requests on the wire', () => {
  it('sends arrays as repeated query keys, booleans as true/false, and names itself', async () => {
    const { c, requests } = client([json(200, { items: [] })]);
    await c.searchDocuments({ include: ['alpha', 'beta'], documentIds: 'D1', fetchBlocks: true });
    const url = new URL(requests[0]!.url);
    expect(url.pathname).toBe(`/links/${LINK_ID}/api/v1/documents/search`);
    expect(url.searchParams.getAll('include')).toEqual(['alpha', 'beta']);
    expect(url.searchParams.getAll('documentIds')).toEqual(['D1']);
    expect(url.searchParams.get('fetchBlocks')).toBe('true');
    expect(requests[0]!.headers['user-agent']).toMatch(/^spacesync\/\d+\.\d+\.\d+/);
    expect(requests[0]!.headers.authorization).toBeUndefined();
  });

  it('puts the position object in the JSON body and sends the API key as a bearer token', async () => {
    const { c, requests } = client([json(200, { items: [{ id: 'N1', type: 'text', markdown: 'x' }] })], { apiKey: KEY });
    const res = await c.createBlocks({ markdown: 'x', position: { position: 'after', siblingId: 'B1' } });
    expect(res.items[0]!.id).toBe('N1');
    expect(requests[0]!.method).toBe('POST');
    expect(JSON.parse(requests[0]!.body!.toString())).toEqual({ markdown: 'x', position: { position: 'after', siblingId: 'B1' } });
    expect(requests[0]!.headers['content-type']).toBe('application/json');
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('asks for text/markdown when the rendered document is wanted', async () => {
    const text = '<page id="DOC1">\n  <pageTitle>Title</pageTitle>\n</page>';
    const { c, requests } = client([{ status: 200, headers: { 'content-type': 'text/markdown' }, body: Buffer.from(text) }]);
    await expect(c.getBlocks({ id: 'DOC1', format: 'markdown' })).resolves.toBe(text);
    expect(requests[0]!.headers.accept).toBe('text/markdown');
    expect(new URL(requests[0]!.url).searchParams.get('format')).toBeNull();
  });

  it('encodes ids in paths so an id cannot change the route', async () => {
    const { c, requests } = client([json(200, { items: [] })]);
    await c.listCollectionItems('a/b?c', { maxDepth: 0 });
    expect(new URL(requests[0]!.url).pathname).toBe(`/links/${LINK_ID}/api/v1/collections/a%2Fb%3Fc/items`);
  });

  it('sends uploads as raw bytes with their content type and the target in the query', async () => {
    const { c, requests } = client([json(200, { blockId: 'IMG', assetUrl: 'https://cdn/x.png' })]);
    await c.upload(new Uint8Array([1, 2, 3]), 'image/png', { position: 'end', pageId: 'DOC1', fileName: 'x.png' });
    expect(requests[0]!.headers['content-type']).toBe('image/png');
    expect([...requests[0]!.body!]).toEqual([1, 2, 3]);
    expect(new URL(requests[0]!.url).searchParams.get('pageId')).toBe('DOC1');
  });

  it('refuses a link of the wrong form without echoing it whole', () => {
    let err: unknown;
    try {
      createClient({ link: `https://space.example/nope/${LINK_ID}` });
    } catch (e) {
      err = e;
    }
    expect(isSpacesyncError(err, 'config_invalid')).toBe(true);
  });
});

describe('answers', () => {
  it('returns a validated block tree and charges later reads what the document really holds', async () => {
    const { c } = client([json(200, doc)]);
    const block = await c.getBlocks({ id: 'DOC1' });
    expect(block.content?.map((b) => b.id)).toEqual(['B1', 'B2']);
    expect(c.stats().budgets.blocks.used).toBe(3);
    await c.getBlocks({ id: 'DOC1' });
    expect(c.stats().blocksSpent).toBe(6);
  });

  it('charges an unread document the mean size of those read so far', async () => {
    const big = { id: 'BIG', type: 'page', content: Array.from({ length: 299 }, (_, i) => ({ id: `b${i}`, type: 'text', markdown: 'x' })) };
    const { c } = client([json(200, big), json(200, doc)]);
    const admitted: number[] = [];
    await c.getBlocks({ id: 'BIG' });
    expect(c.stats().budgets.blocks.used).toBe(300);
    // DOC1 has never been read: it is charged 300 (the mean so far) until its answer says 3.
    const pending = c.getBlocks({ id: 'DOC1' });
    admitted.push(c.stats().budgets.blocks.used);
    await pending;
    expect(admitted).toEqual([600]);
    expect(c.stats().budgets.blocks.used).toBe(303);
  });

  it('tells what its requests wait for without the rest of the stats', async () => {
    // One request per window: the second read waits for the space budget until the first one's window ends.
    const { c } = client([json(200, doc)], { limits: { requestsPerMinute: 1, scale: 0.001 } });
    expect(c.waitingFor()).toBeUndefined();
    await c.getBlocks({ id: 'DOC1' });
    const second = c.getBlocks({ id: 'DOC1' });
    expect(c.waitingFor()).toBe('space');
    expect(c.stats().waitingFor).toBe('space');
    await second;
    expect(c.waitingFor()).toBeUndefined();
  });

  it('rejects an answer whose shape would corrupt the journal', async () => {
    const { c } = client([json(200, { id: 'DOC1', type: 'page', content: [{ type: 'text', markdown: 'no id' }] })]);
    const e = await failure(c.getBlocks({ id: 'DOC1' }));
    expect(e.code).toBe('bad_response');
    expect(e.message).toContain('content.0.id');
    const { c: c2 } = client([{ status: 200, headers: {}, body: Buffer.from('<html>') }]);
    expect((await failure(c2.listFolders())).code).toBe('bad_response');
  });

  it('reads each delete answer in its own shape', async () => {
    const { c } = client([json(200, { items: ['D1'] }), json(200, { items: [{ id: 'B1' }] })]);
    await expect(c.deleteDocuments({ documentIds: ['D1'] })).resolves.toEqual({ items: ['D1'] });
    await expect(c.deleteBlocks({ blockIds: ['B1'] })).resolves.toEqual({ items: [{ id: 'B1' }] });
  });
});

describe('errors', () => {
  it.each([
    ['shape 1', json(400, { error: 'Cannot create documents in trash', code: 'VALIDATION_ERROR' }), 'validation', 'Cannot create documents in trash'],
    [
      'shape 2',
      json(400, { error: 'Validation failed', code: 'VALIDATION_ERROR', details: [{ code: 'custom', message: "Either 'date' or 'id' must be specified." }] }),
      'validation',
      "Either 'date' or 'id' must be specified.",
    ],
    ['shape 3', json(404, { errors: [{ code: 'NOT_FOUND_ERROR', message: 'Block not found' }] }), 'not_found', 'Block not found'],
    [
      'shape 4',
      json(400, { error: 'Invalid regular expression', code: 'INVALID_REGEX_ERROR', details: { pattern: '(', reason: 'missing )' } }),
      'validation',
      'missing )',
    ],
    ['401', json(401, { error: 'Invalid Authorization header', code: 'INVALID_AUTH_HEADER' }), 'auth_missing', 'SPACESYNC_API_KEY'],
    ['413', json(413, { error: 'Body too large' }), 'too_large', 'smaller'],
  ])('turns %s into its code with the request and the service message', async (_name, reply, code, text) => {
    // The second answer is for the check that the link still exists, after a 404.
    const { c } = client([reply, json(200, CONNECTION)]);
    const e = await failure(c.updateBlocks({ blocks: [{ id: 'B1', markdown: 'x' }] }));
    expect(e.code).toBe(code);
    expect(e.message).toContain('PUT /blocks');
    expect(e.message).toContain(text);
    expect(e.details).toMatchObject({ method: 'PUT', path: '/blocks' });
  });

  it('says a 404 on a root listing means the link is dead, and what to do', async () => {
    for (const call of [
      (c: ReturnType<typeof createClient>) => c.getConnection(),
      (c: ReturnType<typeof createClient>) => c.listDocuments(),
      (c: ReturnType<typeof createClient>) => c.listFolders(),
    ]) {
      const { c } = client([json(404, { error: 'Link not found', code: 'NOT_FOUND_ERROR' })]);
      const e = await failure(call(c));
      expect(e.code).toBe('link_not_found');
      expect(e.message).toMatch(/deleted or revoked/);
      expect(e.message).toContain('spacesync init');
    }
  });

  it('checks the link after a 404 elsewhere, so a revoked link never reads as deleted content', async () => {
    const gone = json(404, { error: 'Link not found', code: 'NOT_FOUND_ERROR' });
    const { c, requests } = client([json(404, { errors: [{ code: 'NOT_FOUND_ERROR', message: 'Block not found' }] }), gone]);
    const e = await failure(c.updateBlocks({ blocks: [{ id: 'B1', markdown: 'x' }] }));
    expect(e.code).toBe('link_not_found');
    expect(e.message).toContain('PUT /blocks');
    expect(e.message).toContain('spacesync init');
    expect(requests.map((r) => new URL(r.url).pathname.split('/api/v1')[1])).toEqual(['/blocks', '/connection']);
    expect(c.stats().errors).toEqual({ link_not_found: 1 });
    const { c: alive } = client([json(404, { errors: [{ code: 'NOT_FOUND_ERROR', message: 'Block not found' }] }), json(200, CONNECTION)]);
    expect((await failure(alive.updateBlocks({ blocks: [{ id: 'B1' }] }))).code).toBe('not_found');
  });

  it('does not ask again when a later request already proved the link alive', async () => {
    let answerFirst!: () => void;
    const requests: string[] = [];
    const transport = async (req: TransportRequest): Promise<TransportResponse> => {
      const path = new URL(req.url).pathname.split('/api/v1')[1]!;
      requests.push(path);
      if (path === '/blocks') {
        await new Promise<void>((r) => (answerFirst = r));
        return json(404, { errors: [{ code: 'NOT_FOUND_ERROR', message: 'Block not found' }] });
      }
      return json(200, { items: [] });
    };
    const c = createClient({ link: LINK, transport, limits: { scale: 0.001 } });
    const first = failure(c.updateBlocks({ blocks: [{ id: 'B1' }] }));
    await new Promise((r) => setTimeout(r, 5));
    await c.listFolders();
    answerFirst();
    expect((await first).code).toBe('not_found');
    expect(requests).toEqual(['/blocks', '/folders']);
  });

  it('reads an HTML 404 page as an unknown route', async () => {
    const page = `<!DOCTYPE html><html><head><title>Cannot PUT /links/${LINK_ID}/api/v1/blocks</title></head><body>nope</body></html>`;
    const { c } = client([{ status: 404, headers: { 'content-type': 'text/html' }, body: Buffer.from(page) }, json(200, CONNECTION)]);
    const e = await failure(c.updateBlocks({ blocks: [{ id: 'B1' }] }));
    expect(e.code).toBe('not_found');
    expect(e.message).toContain('no route');
    expect(e.message).not.toContain(LINK_ID);
  });

  it('tells a rejected key from a missing one, and unavailable reminders from both', async () => {
    const { c } = client([json(403, { error: 'Forbidden', code: 'FORBIDDEN' })], { apiKey: KEY });
    expect((await failure(c.listFolders())).code).toBe('auth_rejected');
    const { c: c2 } = client([json(403, { error: 'Reminders are not available for this connection', code: 'FORBIDDEN' })]);
    expect((await failure(c2.listReminders())).code).toBe('unavailable');
  });

  it('gives up on a request the service keeps rate-limiting with rate_limited', async () => {
    const { c, requests } = client([json(429, { error: 'Too many requests' }, { 'retry-after': '0' })]);
    const e = await failure(c.listFolders());
    expect(e.code).toBe('rate_limited');
    expect(requests).toHaveLength(9);
    expect(c.stats().rateLimited).toBe(9);
  });

  it('logs the pauses and retries it makes, for the log file (info), not the terminal', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: new Writable({ write: (chunk, _enc, cb) => (lines.push(String(chunk)), cb()) }) });
    const { c } = client([json(429, { error: 'slow down' }, { 'retry-after': '0.002' }), json(500, { error: 'oops' }), json(200, { items: [] })], { logger });
    await c.listFolders();
    const records = lines.map((l) => JSON.parse(l) as { level: number; msg: string; waitMs?: number });
    expect(records.map((r) => r.msg)).toEqual([
      expect.stringContaining('every request of the space waits 2 ms'),
      expect.stringMatching(/^GET \/folders failed \(5xx\); sending it again in \d+ ms$/),
    ]);
    // Info, below the terminal's floor (warnings): they go to the log file only.
    expect(records.map((r) => r.level)).toEqual([30, 30]);
  });

  it('retries a GET after a reset and a 500, and then succeeds', async () => {
    const { c, requests } = client([new TransportError('reset', 'reset', true), json(500, { error: 'oops' }), json(200, { items: [] })]);
    await expect(c.listFolders()).resolves.toEqual({ items: [] });
    expect(requests).toHaveLength(3);
  });

  it('surfaces a POST that broke after it was sent as maybe_applied, and does not send it again', async () => {
    const { c, requests } = client([new TransportError('The connection broke', 'reset', true), json(200, { items: [] })]);
    const e = await failure(c.createDocuments({ documents: [{ title: 'x' }] }));
    expect(e.code).toBe('maybe_applied');
    expect(e.message).toMatch(/re-read/);
    expect(e.details).toMatchObject({ maybeApplied: true, method: 'POST', path: '/documents' });
    expect(requests).toHaveLength(1);
    const { c: c2, requests: r2 } = client([json(502, { error: 'bad gateway' })]);
    expect((await failure(c2.createBlocks({ markdown: 'x', position: { position: 'end', pageId: 'D' } }))).code).toBe('maybe_applied');
    expect(r2).toHaveLength(1);
  });

  it('sends a POST again when it never left, and treats an unknown transport failure as sent', async () => {
    const { c, requests } = client([new TransportError('ECONNREFUSED', 'connect', false), json(200, { items: [{ id: 'D1', title: 'x' }] })]);
    await expect(c.createDocuments({ documents: [{ title: 'x' }] })).resolves.toMatchObject({ items: [{ id: 'D1' }] });
    expect(requests).toHaveLength(2);
    const { c: c2, requests: r2 } = client([new Error('something odd')]);
    expect((await failure(c2.createDocuments({ documents: [{ title: 'x' }] }))).code).toBe('maybe_applied');
    expect(r2).toHaveLength(1);
  });

  it('reports network and timeout failures of reads after retrying them', async () => {
    const { c, requests } = client([new TransportError('Could not send the request (ECONNREFUSED)', 'connect', false)]);
    const e = await failure(c.listFolders());
    expect(e.code).toBe('network');
    expect(e.message).toContain('space.example');
    expect(requests).toHaveLength(5);
    const { c: c2 } = client([new TransportError('No answer within 10 ms', 'timeout', true)]);
    expect((await failure(c2.getConnection())).code).toBe('timeout');
    expect(c2.stats().errors).toEqual({ timeout: 1 });
  });
});

describe('secrets', () => {
  it('never puts the link or the API key in errors or logs', async () => {
    const lines: string[] = [];
    const destination = new Writable({ write: (chunk, _enc, cb) => (lines.push(String(chunk)), cb()) });
    const logger = createLogger({ level: 'debug', destination });
    // Every way a secret could leak: echoed by the service, in a transport error, in its cause.
    const echo = `${LINK} with Bearer ${KEY} and ${KEY}`;
    const cases: Array<[Reply, (c: ReturnType<typeof createClient>) => Promise<unknown>]> = [
      [json(400, { error: `bad request to ${echo}`, code: 'VALIDATION_ERROR', details: [{ message: echo }] }), (c) => c.listDocuments()],
      [new TransportError(`connect failed for ${echo}`, 'connect', false, { cause: new Error(echo) }), (c) => c.listFolders()],
      [new TransportError(`reset for ${echo}`, 'reset', true, { cause: new Error(echo) }), (c) => c.createDocuments({ documents: [{ title: 't' }] })],
      [json(500, { errors: [{ code: 'X', message: echo }] }), (c) => c.updateBlocks({ blocks: [{ id: 'B' }] })],
      [{ status: 404, headers: { 'content-type': 'text/html' }, body: Buffer.from(`<title>${echo}</title>`) }, (c) => c.getConnection()],
      [json(200, { id: 'x', type: 'page', content: 'nope', note: echo }), (c) => c.getBlocks({ id: 'x' })],
    ];
    const errors: SpacesyncError[] = [];
    for (const [reply, call] of cases) {
      const { c } = client([reply], { apiKey: KEY, logger });
      errors.push(await failure(call(c)));
    }
    expect(errors.map((e) => e.code)).toEqual(['validation', 'network', 'maybe_applied', 'server', 'link_not_found', 'bad_response']);
    for (const e of errors) {
      const shown = [e.message, e.stack, JSON.stringify(e.details), inspect(e, { depth: 10 }), String(e.cause && inspect(e.cause, { depth: 10 }))].join('\n');
      expect(shown).not.toContain(LINK_ID);
      expect(shown).not.toContain(KEY);
    }
    const log = lines.join('');
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toContain(LINK_ID);
    expect(log).not.toContain(KEY);
  });
});

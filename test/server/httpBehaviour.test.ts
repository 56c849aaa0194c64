// The live behaviours of docs/api.md that are not one endpoint's: the link, the API key,
// envelopes and error shapes, unknown routes and parameters, query encoding.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { fixture, ids } from './spaceFixture.js';

let h: Harness;
let keyed: Harness;
beforeAll(async () => {
  h = await startHarness({ fixture, linkId: 'test-link-0001' });
  keyed = await startHarness({ fixture, apiKey: 'sekrit-key' });
});
afterAll(async () => {
  await h.close();
  await keyed.close();
});

describe('the link', () => {
  it('the base URL has the form <host>/links/<LINK_ID>/api/v1', () => {
    expect(h.server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/links\/test-link-0001\/api\/v1$/);
    expect(keyed.server.linkId).toMatch(/^[A-Za-z0-9_-]{16,}$/);
  });

  it('an unknown link is a 404 on every path under it, without NOT_FOUND_ERROR (the live form)', async () => {
    for (const path of ['/connection', '/blocks?id=D-ROAD', '/nothing/here', '']) {
      const r = await h.raw('GET', `/links/wrong-link/api/v1${path}`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Not found', code: '' });
    }
    expect((await h.raw('DELETE', '/links/wrong-link/api/v1/documents', { body: { documentIds: [ids.roadmap] } })).status).toBe(404);
  });

  it('a link that differs from the right one only in its last character, or is a prefix or an extension of it, is unknown', async () => {
    for (const link of ['test-link-0002', 'test-link-000', 'test-link-00010', 'TEST-LINK-0001']) {
      expect((await h.raw('GET', `/links/${link}/api/v1/connection`)).status, link).toBe(404);
    }
    expect((await h.raw('GET', '/links/test-link-0001/api/v1/connection')).status).toBe(200);
  });

  it('no header is needed when the link has no key', async () => {
    expect((await h.api('GET', '/connection')).status).toBe(200);
  });
});

describe('the API key', () => {
  it('a missing Authorization header is a 401 INVALID_AUTH_HEADER', async () => {
    const r = await keyed.api('GET', '/connection');
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: 'Invalid Authorization header', code: 'INVALID_AUTH_HEADER' });
  });

  it('a header that is not a bearer token is a 401', async () => {
    expect((await keyed.api('GET', '/connection', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
  });

  it('a wrong key is a 403', async () => {
    expect((await keyed.api('GET', '/connection', { headers: { authorization: 'Bearer nope' } })).status).toBe(403);
  });

  it('a key that is a prefix, an extension or a near miss of the right one is a 403', async () => {
    for (const key of ['sekrit-ke', 'sekrit-key2', 'sekrit-kez', 'SEKRIT-KEY']) {
      expect((await keyed.api('GET', '/connection', { headers: { authorization: `Bearer ${key}` } })).status, key).toBe(403);
    }
  });

  it('the right key is let in', async () => {
    expect((await keyed.api('GET', '/connection', { headers: { authorization: 'Bearer sekrit-key' } })).status).toBe(200);
  });
});

describe('envelopes and errors', () => {
  it('success is 200 also for creates', async () => {
    expect((await h.api('POST', '/folders', { body: { folders: [{ name: 'x' }] } })).status).toBe(200);
  });

  it('an unknown route is an HTML 404 page that does not show the link', async () => {
    const r = await h.api('GET', '/does-not-exist');
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.text).toContain('<html');
    expect(r.text).not.toContain('test-link-0001');
  });

  it('a wrong method on a known path is an HTML 404 too', async () => {
    const r = await h.api('PATCH', '/blocks');
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
  });

  it('unknown query parameters are ignored', async () => {
    const r = await h.api('GET', '/documents', { query: { location: 'templates', frobnicate: 'yes', page: 3 } });
    expect(r.status).toBe(200);
    expect(r.body.items.map((d: any) => d.id)).toEqual([ids.template]);
  });

  it('array parameters come as repeated keys, and a single value is accepted', async () => {
    const many = await h.api('GET', '/documents', { query: { documentIds: [ids.roadmap, ids.diary] } });
    expect(many.body.items).toHaveLength(2);
    const one = await h.api('GET', '/documents', { query: { documentIds: ids.roadmap } });
    expect(one.body.items).toHaveLength(1);
  });

  it('booleans in queries are true or false; anything else is a validation error', async () => {
    expect((await h.api('GET', '/documents', { query: { fetchMetadata: 'false' } })).body.items[0].createdAt).toBeUndefined();
    const r = await h.api('GET', '/documents', { query: { fetchMetadata: 'yes' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION_ERROR');
  });

  it('a body that is not JSON is a validation error', async () => {
    const r = await h.api('POST', '/folders', { body: '{"folders": [', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'Validation failed', code: 'VALIDATION_ERROR' });
  });

  it('a body of the wrong shape is a Zod-style issue list', async () => {
    const r = await h.api('POST', '/documents', { body: { documents: 'nope' } });
    expect(r.status).toBe(400);
    expect(r.body.details[0]).toMatchObject({ code: expect.any(String), message: expect.any(String), path: ['documents'] });
  });

  it('a JSON body without a content type is still read', async () => {
    const r = await fetch(`${h.server.baseUrl}/folders`, {
      method: 'POST',
      body: JSON.stringify({ folders: [{ name: 'plain' }] }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(r.status).toBe(200);
  });
});

describe('logging', () => {
  it('one line per request, with the path after the link: the link never reaches the log', async () => {
    const { Writable } = await import('node:stream');
    const { createLogger } = await import('../../src/log.js');
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logged = await startHarness({ fixture, linkId: 'logged-link-9999', log: createLogger({ destination }) });
    try {
      await logged.api('GET', '/blocks', { query: { id: ids.unsorted } });
    } finally {
      await logged.close();
    }
    const entry = JSON.parse(lines.find((l) => l.includes('"request"'))!);
    expect(entry).toMatchObject({ method: 'GET', path: '/blocks', status: 200, blocks: 2 });
    expect(lines.join('')).not.toContain('logged-link-9999');
  });
});

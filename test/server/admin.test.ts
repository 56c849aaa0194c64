// The test-only admin routes: reset, snapshot, clock, injected faults, request log.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { fixture, ids } from './spaceFixture.js';
import { startServer } from '../../src/server/index.js';
import { isSpacesyncError } from '../../src/errors.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ fixture, linkId: 'admin-link-1234' });
});
beforeEach(async () => {
  await h.reset();
  await h.admin('POST', '/clock', { restore: true });
});
afterAll(async () => {
  await h.close();
});

describe('admin routes', () => {
  it('exist only when the server was started with admin on', async () => {
    const plain = await startHarness({ fixture, admin: false });
    try {
      const r = await plain.admin('GET', '/snapshot');
      expect(r.status).toBe(404);
      expect(r.headers['content-type']).toMatch(/^text\/html/);
    } finally {
      await plain.close();
    }
  });

  it('reset brings the seed back', async () => {
    await h.api('DELETE', '/documents', { body: { documentIds: [ids.roadmap] } });
    await h.admin('POST', '/reset');
    const trash = await h.api('GET', '/documents', { query: { location: 'trash' } });
    expect(trash.body.items.map((d: any) => d.id)).toEqual([ids.trashed]);
  });

  it('reset with a fixture loads that space instead', async () => {
    await h.admin('POST', '/reset', { fixture: { version: 1, space: { id: 'S2', name: 'Other' }, documents: [{ id: 'X', title: 'Only one' }] } });
    expect((await h.api('GET', '/documents')).body.items).toEqual([{ id: 'X', title: 'Only one' }]);
    expect((await h.api('GET', '/connection')).body.space).toMatchObject({ id: 'S2', name: 'Other', timezone: 'UTC' });
  });

  it('reset refuses a broken fixture with a message naming the problem, and keeps the space', async () => {
    const r = await h.admin('POST', '/reset', { fixture: { version: 2 } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/version/);
    expect((await h.api('GET', '/connection')).body.space.id).toBe('SPACE-1');
  });

  it('snapshot is the whole space as a fixture; loading it gives the same space', async () => {
    await h.api('POST', '/blocks', { body: { markdown: 'added ==x==\n\n- [x] done', position: { position: 'end', pageId: ids.unsorted } } });
    const snap = (await h.admin('GET', '/snapshot')).body;
    expect(snap.version).toBe(1);
    expect(snap.documents.find((d: any) => d.id === ids.unsorted).content.map((b: any) => b.body)).toEqual([
      'hello world',
      'added <highlight color="yellow">x</highlight>',
      'done',
    ]);
    await h.reset(snap);
    expect((await h.admin('GET', '/snapshot')).body).toEqual(snap);
  });

  it('the clock can be set and advanced; the space follows it', async () => {
    await h.admin('POST', '/clock', { set: '2027-01-01T12:00:00Z' });
    expect((await h.api('GET', '/connection')).body.space.time).toMatch(/^2027-01-01T13:00:/);
    const c = await h.admin('POST', '/clock', { advanceMs: 86_400_000, frozen: true });
    expect(c.body).toMatchObject({ frozen: true });
    expect((await h.api('GET', '/connection')).body.utc.time).toMatch(/^2027-01-02T12:00:/);
    await h.admin('POST', '/clock', { restore: true });
    expect((await h.api('GET', '/connection')).body.utc.time).toBe('2026-09-05T10:00:00Z');
  });

  it('refuses a clock time that is not a time', async () => {
    expect((await h.admin('POST', '/clock', { set: 'soon' })).status).toBe(400);
  });
});

describe('the admin credential', () => {
  const call = (method: string, path: string, authorization?: string) =>
    fetch(`${h.server.adminUrl}${path}`, { method, headers: authorization === undefined ? {} : { authorization } });

  it('every admin route needs the bearer token: 401 without it, 403 with another, and nothing happens', async () => {
    await h.api('POST', '/documents', { body: { documents: [{ title: 'Kept' }] } });
    for (const [method, path] of [
      ['GET', '/snapshot'],
      ['POST', '/reset'],
      ['POST', '/clock'],
      ['GET', '/requests'],
      ['POST', '/faults'],
      ['POST', '/limits'],
    ] as const) {
      const none = await call(method, path);
      expect(none.status, `${method} ${path}`).toBe(401);
      expect(await none.json()).toMatchObject({ code: 'INVALID_AUTH_HEADER', error: expect.stringMatching(/Authorization: Bearer/) });
      const wrong = await call(method, path, `Bearer ${h.server.adminToken!.slice(0, -1)}x`);
      expect(wrong.status, `${method} ${path}`).toBe(403);
      expect(await wrong.text()).not.toContain('"documents"');
    }
    expect((await h.api('GET', '/documents')).body.items.map((d: any) => d.title)).toContain('Kept');
    expect((await h.api('GET', '/connection')).body.utc.time).toBe('2026-09-05T10:00:00Z');
    expect((await call('GET', '/snapshot', `Bearer ${h.server.adminToken}`)).status).toBe(200);
  });

  it('is random for each start when the server has no API key', async () => {
    const other = await startServer({ admin: true, limits: 'off' });
    try {
      expect(other.adminToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      expect(other.adminToken).not.toBe(h.server.adminToken);
      expect((await fetch(`${other.adminUrl}/snapshot`, { headers: { authorization: `Bearer ${h.server.adminToken}` } })).status).toBe(403);
    } finally {
      await other.close();
    }
  });

  it('is the API key when the server has one', async () => {
    const keyed = await startServer({ admin: true, limits: 'off', apiKey: 'key-for-both' });
    try {
      expect(keyed.adminToken).toBe('key-for-both');
      expect((await fetch(`${keyed.adminUrl}/snapshot`, { headers: { authorization: 'Bearer key-for-both' } })).status).toBe(200);
      expect((await fetch(`${keyed.adminUrl}/snapshot`)).status).toBe(401);
    } finally {
      await keyed.close();
    }
  });

  it('is not made without admin', async () => {
    const plain = await startServer({ limits: 'off' });
    await plain.close();
    expect(plain.adminToken).toBeUndefined();
  });

  it('admin on a host other machines reach is refused unless confirmed', async () => {
    const refused = await startServer({ admin: true, host: '0.0.0.0' }).then(
      async (s) => {
        await s.close();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(isSpacesyncError(refused, 'usage')).toBe(true);
    expect((refused as Error).message).toMatch(/--admin-any-host/);
    const confirmed = await startServer({ admin: true, host: '0.0.0.0', adminAnyHost: true, limits: 'off' });
    await confirmed.close();
    for (const host of ['localhost', '127.0.0.1', '::1']) {
      const s = await startServer({ admin: true, host, limits: 'off' }).catch((e: Error) => e);
      expect(s).not.toBeInstanceOf(Error);
      if (!(s instanceof Error)) await s.close();
    }
  });
});

describe('injected faults', () => {
  it('429 with Retry-After for the next N matching requests, then normal answers', async () => {
    await h.admin('POST', '/faults', { match: { method: 'GET', path: '^/documents$' }, count: 2, kind: '429', retryAfter: 7 });
    const a = await h.api('GET', '/documents');
    expect(a.status).toBe(429);
    expect(a.headers['retry-after']).toBe('7');
    expect((await h.api('GET', '/folders')).status).toBe(200);
    expect((await h.api('GET', '/documents')).status).toBe(429);
    expect((await h.api('GET', '/documents')).status).toBe(200);
    expect((await h.admin('GET', '/faults')).body.items).toEqual([]);
  });

  it('500 answers an internal error and changes nothing', async () => {
    await h.admin('POST', '/faults', { match: { method: 'POST' }, kind: '500' });
    const r = await h.api('POST', '/folders', { body: { folders: [{ name: 'never' }] } });
    expect(r.status).toBe(500);
    expect(JSON.stringify((await h.api('GET', '/folders')).body)).not.toContain('never');
  });

  it('delay answers normally, later', async () => {
    await h.admin('POST', '/faults', { match: { path: '^/connection' }, kind: 'delay', delayMs: 20 });
    expect((await h.api('GET', '/connection')).status).toBe(200);
    expect((await h.admin('GET', '/faults')).body.items).toEqual([]);
  });

  it('reset-after-apply applies the change and then drops the connection', async () => {
    await h.admin('POST', '/faults', { match: { method: 'POST', path: '^/documents$' }, kind: 'reset-after-apply' });
    await expect(h.api('POST', '/documents', { body: { documents: [{ title: 'Landed anyway' }] } })).rejects.toThrow();
    const docs = await h.api('GET', '/documents');
    expect(docs.body.items.map((d: any) => d.title)).toContain('Landed anyway');
    const log = (await h.admin('GET', '/requests')).body.items;
    expect(log.find((e: any) => e.method === 'POST')).toMatchObject({ path: '/documents', status: 0 });
  });

  it('refuses an unknown fault kind', async () => {
    expect((await h.admin('POST', '/faults', { kind: 'explode' })).status).toBe(400);
  });

  it('faults can be cleared', async () => {
    await h.admin('POST', '/faults', { kind: '500', count: 5 });
    await h.admin('DELETE', '/faults');
    expect((await h.api('GET', '/connection')).status).toBe(200);
  });
});

describe('the request log', () => {
  it('records method, path without the link, query, status, blocks charged, and when it came and went', async () => {
    await h.api('GET', '/blocks', { query: { id: ids.unsorted, maxDepth: 1 } });
    await h.api('GET', '/nope');
    const items = (await h.admin('GET', '/requests')).body.items;
    expect(items).toEqual([
      {
        t: Date.parse('2026-09-05T10:00:00Z'),
        receivedAt: Date.parse('2026-09-05T10:00:00Z'),
        method: 'GET',
        path: '/blocks',
        query: { id: ids.unsorted, maxDepth: '1' },
        status: 200,
        blocksCharged: 2,
      },
      { t: expect.any(Number), receivedAt: expect.any(Number), method: 'GET', path: '/nope', query: {}, status: 404, blocksCharged: 0 },
    ]);
    expect(JSON.stringify(items)).not.toContain('admin-link-1234');
  });

  it('can be cleared', async () => {
    await h.api('GET', '/connection');
    await h.admin('DELETE', '/requests');
    expect((await h.admin('GET', '/requests')).body.items).toEqual([]);
  });
});

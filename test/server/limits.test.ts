// The limits of docs/api.md: 50 requests / 10 s per source address, 100 / 60 s per space,
// 20,000 blocks read or written / 60 s per space; their headers, 429s with Retry-After,
// `limits: 'off'` and `limitScale`. Time is the server's fake clock: nothing waits.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { fixture, ids } from './spaceFixture.js';
import { generateSpace } from '../../src/server/index.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ fixture, limits: 'spec' });
});
beforeEach(async () => {
  await h.reset(fixture);
});
afterAll(async () => {
  await h.close();
});

const burst = async (n: number, path = '/connection') => {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await h.api('GET', path)).status);
  return statuses;
};

describe('request limits', () => {
  it('every answer carries the space budget in X-RateLimit-Limit, -Remaining and -Reset', async () => {
    const first = await h.api('GET', '/connection');
    expect(first.headers['x-ratelimit-limit']).toBe('100');
    expect(first.headers['x-ratelimit-remaining']).toBe('99');
    expect(first.headers['x-ratelimit-reset']).toBe('60');
    h.clock.advance(5000);
    const second = await h.api('GET', '/folders');
    expect(second.headers['x-ratelimit-remaining']).toBe('98');
    expect(second.headers['x-ratelimit-reset']).toBe('55');
  });

  it('the 51st request from one address within 10 s is a 429 with Retry-After and without X-RateLimit headers', async () => {
    expect(await burst(50)).toEqual(Array(50).fill(200));
    h.clock.advance(4000);
    const r = await h.api('GET', '/connection');
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('6');
    expect(r.headers['x-ratelimit-limit']).toBeUndefined();
    h.clock.advance(6000);
    expect((await h.api('GET', '/connection')).status).toBe(200);
  });

  it('the 101st request to the space within 60 s is a 429 with Retry-After and X-RateLimit-Remaining 0', async () => {
    expect(await burst(50)).toEqual(Array(50).fill(200));
    h.clock.advance(10_000);
    expect(await burst(50)).toEqual(Array(50).fill(200));
    h.clock.advance(10_000);
    const r = await h.api('GET', '/connection');
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('40');
    expect(r.headers['x-ratelimit-remaining']).toBe('0');
    expect(r.body).toEqual({ error: expect.any(String), code: expect.any(String) });
    h.clock.advance(40_000);
    expect((await h.api('GET', '/connection')).status).toBe(200);
  });

  it('a request refused with 429 changes nothing', async () => {
    await burst(50);
    const r = await h.api('POST', '/folders', { body: { folders: [{ name: 'refused' }] } });
    expect(r.status).toBe(429);
    h.clock.advance(10_000);
    const folders = await h.api('GET', '/folders');
    expect(JSON.stringify(folders.body)).not.toContain('refused');
  });

  it('an unknown link counts against the address too', async () => {
    for (let i = 0; i < 50; i++) await h.raw('GET', '/links/wrong/api/v1/connection');
    expect((await h.api('GET', '/connection')).status).toBe(429);
  });
});

describe('the block budget', () => {
  it('block operations carry X-BlockBudget-* once the window has usage; other endpoints do not', async () => {
    const r = await h.api('GET', '/blocks', { query: { id: ids.unsorted } });
    expect(r.headers['x-blockbudget-limit']).toBe('20000');
    expect(r.headers['x-blockbudget-remaining']).toBe('19998');
    expect(r.headers['x-blockbudget-reset']).toBe('60');
    const w = await h.api('PUT', '/blocks', { body: { blocks: [{ id: 'B-HELLO', markdown: 'hi' }] } });
    expect(w.headers['x-blockbudget-remaining']).toBe('19997');
    expect((await h.api('GET', '/folders')).headers['x-blockbudget-limit']).toBeUndefined();
  });

  it('counts every block read, nested ones included, and every block written', async () => {
    await h.api('DELETE', '/requests');
    await h.api('GET', '/blocks', { query: { id: ids.roadmap } });
    await h.api('POST', '/blocks', { body: { markdown: 'a\n\nb\n\nc', position: { position: 'end', pageId: ids.unsorted } } });
    await h.api('DELETE', '/blocks', { body: { blockIds: ['B-PAGE'] } });
    const log = (await h.admin('GET', '/requests')).body.items.filter((e: any) => e.status === 200);
    expect(log.map((e: any) => [e.method, e.path, e.blocksCharged])).toEqual([
      ['GET', '/blocks', 32],
      ['POST', '/blocks', 3],
      ['DELETE', '/blocks', 4],
    ]);
  });

  it('20,000 blocks per 60 s: a read that would go over is a 429 with Retry-After and is not charged', async () => {
    await h.reset(generateSpace({ documents: 1, blocksPerDocument: 6999, folders: 0 }));
    const docId = (await h.api('GET', '/documents')).body.items[0].id;
    expect((await h.api('GET', '/blocks', { query: { id: docId } })).status).toBe(200);
    h.clock.advance(20_000);
    const second = await h.api('GET', '/blocks', { query: { id: docId } });
    expect(second.headers['x-blockbudget-remaining']).toBe('6000');
    const third = await h.api('GET', '/blocks', { query: { id: docId } });
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBe('40');
    expect(third.headers['x-blockbudget-remaining']).toBe('6000');
    expect((await h.api('GET', '/blocks', { query: { id: docId, maxDepth: 0 } })).headers['x-blockbudget-remaining']).toBe('5999');
    h.clock.advance(40_000);
    expect((await h.api('GET', '/blocks', { query: { id: docId } })).status).toBe(200);
  });
});

describe('limits off and limit scale', () => {
  it('limits "off" never refuses and sends no budget headers', async () => {
    const off = await startHarness({ fixture, limits: 'off' });
    try {
      for (let i = 0; i < 120; i++) {
        const r = await off.api('GET', '/connection');
        expect(r.status).toBe(200);
        expect(r.headers['x-ratelimit-limit']).toBeUndefined();
      }
    } finally {
      await off.close();
    }
  });

  it('limitScale multiplies every window: at 0.01 the space allows 100 requests per 0.6 s', async () => {
    const fast = await startHarness({ fixture, limits: 'spec', limitScale: 0.01 });
    try {
      for (let i = 0; i < 100; i++) {
        if (i % 50 === 0 && i > 0) fast.clock.advance(100);
        expect((await fast.api('GET', '/connection')).status).toBe(200);
      }
      fast.clock.advance(100);
      const r = await fast.api('GET', '/connection');
      expect(r.status).toBe(429);
      expect(r.headers['retry-after']).toBe('1');
      expect(r.headers['retry-after-ms']).toBe('400');
      expect(r.headers['x-ratelimit-reset']).toBe('0.4');
      fast.clock.advance(400);
      expect((await fast.api('GET', '/connection')).status).toBe(200);
    } finally {
      await fast.close();
    }
  });

  it('the admin route switches limits at run time', async () => {
    await h.admin('POST', '/limits', { mode: 'off' });
    expect(await burst(60)).toEqual(Array(60).fill(200));
    await h.admin('POST', '/limits', { mode: 'spec' });
  });
});

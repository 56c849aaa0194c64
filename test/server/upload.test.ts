// Conformance: POST /upload (docs/api.md "Upload"): a raw body, the Content-Type decides the
// block type, an explicit position in the query, {blockId, assetUrl}, the asset served back,
// and a clear 413 over the upload limit.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryString, startHarness, type Harness } from './harness.js';
import { fixture, ids, PNG_BASE64 } from './spaceFixture.js';

const PNG = Buffer.from(PNG_BASE64, 'base64');

let h: Harness;
let small: Harness;
beforeAll(async () => {
  h = await startHarness({ fixture });
  small = await startHarness({ fixture, maxUploadBytes: 1024 });
});
beforeEach(async () => {
  await h.reset();
});
afterAll(async () => {
  await h.close();
  await small.close();
});

async function upload(query: Record<string, string>, body: Buffer | string, contentType = 'application/octet-stream', on: Harness = h) {
  const r = await fetch(`${on.server.baseUrl}/upload${queryString(query)}`, { method: 'POST', headers: { 'content-type': contentType }, body });
  const text = await r.text();
  return { status: r.status, body: (r.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
}
const read = async (id: string) => (await h.api('GET', '/blocks', { query: { id } })).body;
const atEnd = { position: 'end', pageId: ids.unsorted };

describe('POST /upload', () => {
  it('an image/* body becomes an image block; the answer is {blockId, assetUrl} and the asset is served there', async () => {
    const r = await upload(atEnd, PNG, 'image/png');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ blockId: expect.any(String), assetUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/assets\//) });
    const b = await read(r.body.blockId);
    expect(b).toMatchObject({ type: 'image', markdown: expect.stringMatching(/^!\[Image\]\(http/), url: expect.stringContaining('/assets/') });
    const served = await fetch(r.body.assetUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    expect((await read(ids.unsorted)).content.map((x: any) => x.id)).toEqual(['B-HELLO', r.body.blockId]);
  });

  it('a video/* body becomes a video block', async () => {
    const r = await upload(atEnd, Buffer.from('not really a movie'), 'video/mp4');
    expect((await read(r.body.blockId)).type).toBe('video');
  });

  it('any other type becomes a file block titled with fileName; the bytes come back as sent', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const r = await upload({ ...atEnd, fileName: 'data.bin' }, bytes);
    expect(await read(r.body.blockId)).toMatchObject({ type: 'file', fileName: 'data.bin', markdown: expect.stringMatching(/^\[data\.bin\]\(http/) });
    expect(Buffer.from(await (await fetch(r.body.assetUrl)).arrayBuffer())).toEqual(bytes);
    const pdf = await upload({ ...atEnd, fileName: 'report.pdf' }, Buffer.from('%PDF-1.4'), 'application/pdf');
    expect((await read(pdf.body.blockId)).type).toBe('file');
    const txt = await upload({ ...atEnd, fileName: 'notes.txt' }, 'plain words', 'text/plain');
    expect(await (await fetch(txt.body.assetUrl)).text()).toBe('plain words');
  });

  it('keeps JSON and text bodies byte for byte, even JSON that does not parse', async () => {
    for (const [type, text] of [
      ['application/json', '{ "a" :  1 }\n'],
      ['application/json', '{not json'],
      ['text/plain; charset=utf-8', 'h\u00e9llo\r\n'],
    ]) {
      const r = await upload({ ...atEnd, fileName: 'f' }, Buffer.from(text!, 'utf8'), type);
      expect(r.status).toBe(200);
      const served = await fetch(r.body.assetUrl);
      expect(served.headers.get('content-type')).toBe(type);
      expect(Buffer.from(await served.arrayBuffer()).toString('utf8')).toBe(text);
    }
  });

  it('fileName is empty when omitted, ignored for image and video blocks, and cannot be sent empty', async () => {
    const file = await upload(atEnd, Buffer.from('x'));
    expect((await read(file.body.blockId)).fileName).toBe('');
    const img = await upload({ ...atEnd, fileName: 'ignored.png' }, PNG, 'image/png');
    expect((await read(img.body.blockId)).fileName).toBeUndefined();
    expect((await upload({ ...atEnd, fileName: '' }, Buffer.from('x'))).status).toBe(400);
  });

  it('position start/end with pageId, or with date (the daily note is created when missing)', async () => {
    const a = await upload({ position: 'start', pageId: ids.unsorted }, Buffer.from('a'));
    expect((await read(ids.unsorted)).content[0].id).toBe(a.body.blockId);
    const b = await upload({ position: 'end', date: '2026-09-20' }, Buffer.from('b'));
    expect((await h.api('GET', '/blocks', { query: { date: '2026-09-20' } })).body.content.map((x: any) => x.id)).toEqual([b.body.blockId]);
    const c = await upload({ position: 'start', date: 'today' }, Buffer.from('c'));
    expect((await read(ids.today)).content[0].id).toBe(c.body.blockId);
  });

  it('position before/after with siblingId', async () => {
    const a = await upload({ position: 'before', siblingId: 'B-HELLO' }, Buffer.from('a'));
    const b = await upload({ position: 'after', siblingId: 'B-HELLO' }, Buffer.from('b'));
    expect((await read(ids.unsorted)).content.map((x: any) => x.id)).toEqual([a.body.blockId, 'B-HELLO', b.body.blockId]);
  });

  it('an explicit target is required: position, pageId or date with start/end, siblingId with before/after', async () => {
    expect((await upload({}, Buffer.from('x'))).status).toBe(400);
    expect((await upload({ position: 'end' }, Buffer.from('x'))).status).toBe(400);
    expect((await upload({ position: 'after' }, Buffer.from('x'))).status).toBe(400);
    expect((await upload({ position: 'end', siblingId: 'B-HELLO' }, Buffer.from('x'))).status).toBe(400);
    expect((await upload({ position: 'end', pageId: ids.unsorted, date: 'today' }, Buffer.from('x'))).status).toBe(400);
    expect((await upload({ position: 'top', pageId: ids.unsorted }, Buffer.from('x'))).status).toBe(400);
    expect((await upload({ position: 'end', date: 'someday' }, Buffer.from('x'))).status).toBe(400);
    expect((await upload({ position: 'end', pageId: 'NOPE' }, Buffer.from('x'))).status).toBe(404);
    expect((await read(ids.unsorted)).content).toHaveLength(1);
  });

  it('refuses an empty body', async () => {
    expect((await upload(atEnd, Buffer.alloc(0))).status).toBe(400);
  });

  it('a body over the upload limit is a 413 that says the size and the limit, and nothing is written', async () => {
    await small.reset();
    const r = await upload(atEnd, Buffer.alloc(2000, 7), 'application/octet-stream', small);
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ error: expect.stringMatching(/2000 bytes.*limit.*1024 bytes/), code: 'PAYLOAD_TOO_LARGE' });
    expect((await small.api('GET', '/blocks', { query: { id: ids.unsorted } })).body.content).toHaveLength(1);
    expect((await upload(atEnd, Buffer.alloc(1024, 7), 'application/octet-stream', small)).status).toBe(200);
  });

  it('counts one block written, shown in X-BlockBudget-* when limits are on', async () => {
    await h.admin('DELETE', '/requests');
    await upload(atEnd, PNG, 'image/png');
    expect((await h.admin('GET', '/requests')).body.items[0]).toMatchObject({ path: '/upload', status: 200, blocksCharged: 1 });
    await h.admin('POST', '/limits', { mode: 'spec' });
    try {
      const r = await fetch(`${h.server.baseUrl}/upload${queryString(atEnd)}`, { method: 'POST', headers: { 'content-type': 'image/png' }, body: PNG });
      expect(r.headers.get('x-blockbudget-remaining')).toBe('19999');
    } finally {
      await h.admin('POST', '/limits', { mode: 'off' });
    }
  });
});

describe('assets at their signed URLs', () => {
  it('are counted apart from the API requests, and meet only faults whose path names them', async () => {
    const r = await upload(atEnd, PNG, 'image/png');
    await h.admin('DELETE', '/requests');
    await h.admin('DELETE', '/asset-reads');
    // A fault armed for every GET is the API's: the asset is served.
    await h.admin('POST', '/faults', { kind: '500', match: { method: 'GET' } });
    expect((await fetch(r.body.assetUrl)).status).toBe(200);
    await h.admin('DELETE', '/faults');
    await h.admin('POST', '/faults', [
      { kind: '500', match: { path: '^/assets/' } },
      { kind: 'delay', delayMs: 150, match: { path: '^/assets/' } },
    ]);
    expect((await fetch(r.body.assetUrl)).status).toBe(500);
    const t0 = Date.now();
    const slow = await fetch(r.body.assetUrl);
    expect(Buffer.from(await slow.arrayBuffer())).toEqual(PNG);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    expect((await h.admin('GET', '/asset-reads')).body.items.map((x: { status: number }) => x.status)).toEqual([200, 500, 200]);
    expect((await h.admin('GET', '/requests')).body.items).toEqual([]);
  });
});

// How fast the embedded server answers the two requests a sync leans on: reading a large
// document and writing one block. The service allows 100 requests a minute per space, so the
// server is never the bottleneck of a sync when it answers hundreds per second.
import type { Figure } from './figure.js';
import { generateSpace, startServer } from '../src/server/index.js';

async function rate(n: number, concurrency: number, one: (i: number) => Promise<void>): Promise<number> {
  for (let i = 0; i < Math.min(20, n); i++) await one(i); // warm up
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await one(next++);
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

export default async function serverBench(): Promise<Figure[]> {
  const space = generateSpace({ documents: 1, blocksPerDocument: 1000, folders: 0, seed: 42 });
  const server = await startServer({ seed: space, limits: 'off' });
  try {
    const docId = space.documents![0]!.id!;
    // Plain paragraphs only, so every edit is a valid text edit.
    const blockIds = space.documents![0]!.content!.filter((b) => /^[a-z]/.test(b.markdown ?? '')).map((b) => b.id!);
    const get = async () => {
      const r = await fetch(`${server.baseUrl}/blocks?id=${docId}`);
      if (r.status !== 200) throw new Error(`GET /blocks answered ${r.status}`);
      await r.arrayBuffer();
    };
    const put = async (i: number) => {
      const r = await fetch(`${server.baseUrl}/blocks`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ blocks: [{ id: blockIds[(i * 7) % blockIds.length]!, markdown: `edited paragraph number ${i}` }] }),
      });
      if (r.status !== 200) throw new Error(`PUT /blocks answered ${r.status}: ${await r.text()}`);
      await r.arrayBuffer();
    };
    const getRate = await rate(200, 4, get);
    const putRate = await rate(2000, 4, put);
    return [
      {
        name: 'GET /blocks of a 1,000-block document, limits off',
        measured: Math.round(getRate),
        unit: 'requests/s',
        target: { op: '>=', value: 50 },
        note: '4 concurrent clients; the service allows 100 requests/min',
      },
      {
        name: 'PUT /blocks of one block in a 1,000-block document, limits off',
        measured: Math.round(putRate),
        unit: 'requests/s',
        target: { op: '>=', value: 200 },
        note: '4 concurrent clients',
      },
    ];
  } finally {
    await server.close();
  }
}

// How well the scheduler spends the rate budget, against the server with the spec's limits at
// limitScale 0.01 (100 requests and 20,000 blocks per 0.6 s): 1,000 mixed requests queued at once
// (reads of whole documents, listings, user edits) should fill every window of the request
// budget and never be refused; a pull of large documents should fill the block budget instead.
import { createClient, resolveLimits, Scheduler, type SpaceClient } from '../src/client/index.js';
import { generateSpace, startServer, type LoggedRequest, type SpaceFixture } from '../src/server/index.js';
import type { Figure } from './figure.js';
import { adminFetch } from './serverProcess.js';

const SCALE = 0.01;
const limits = resolveLimits({ scale: SCALE });
const windowMs = limits.spaceRequests.windowMs;

interface Run {
  log: LoggedRequest[];
  failed: number;
  elapsed: number;
  stalledMs: number;
  extra: number[];
}

/** Starts a server seeded with `space`, queues the requests `queue` makes at once, and collects the server's log. */
async function run(space: SpaceFixture, queue: (client: SpaceClient, timings: number[]) => Array<Promise<unknown>>): Promise<Run> {
  const server = await startServer({ port: 0, seed: space, limits: 'spec', limitScale: SCALE, admin: true });
  const client = createClient({ link: server.baseUrl, scheduler: new Scheduler({ limits }) });
  try {
    const started = Date.now();
    const timings: number[] = [];
    const results = await Promise.allSettled(queue(client, timings));
    const elapsed = Date.now() - started;
    const log = ((await (await adminFetch(server, '/requests')).json()) as { items: LoggedRequest[] }).items;
    return { log, failed: results.filter((r) => r.status === 'rejected').length, elapsed, stalledMs: client.stats().stalledMs, extra: timings };
  } finally {
    client.close();
    await server.close();
  }
}

/**
 * Budget use in a window of the budget's length, averaged over every position of that window
 * between the first request and the last: 1 for a client that keeps every window full.
 */
function slidingUse(log: LoggedRequest[], weight: (e: LoggedRequest) => number, limit: number): number {
  const sorted = [...log].sort((a, b) => a.t - b.t);
  const first = sorted[0]!.t;
  const last = sorted.at(-1)!.t - windowMs;
  const positions = 2000;
  let sum = 0;
  for (let i = 0; i < positions; i++) {
    const start = first + ((last - first) * i) / (positions - 1);
    sum += sorted.filter((e) => e.t >= start && e.t < start + windowMs).reduce((n, e) => n + weight(e), 0);
  }
  return sum / positions / limit;
}

/** Requests in each full window of the server (a window opens with the first request after the previous one ended) ÷ the limit. */
function meanPerServerWindow(log: LoggedRequest[], limit: number): { mean: number; windows: number } {
  const counts: number[] = [];
  let start = -Infinity;
  for (const t of log.map((e) => e.t).sort((a, b) => a - b)) {
    if (t >= start + windowMs) {
      counts.push(0);
      start = t;
    }
    counts[counts.length - 1]!++;
  }
  const full = counts.slice(0, -1);
  return { mean: full.reduce((a, b) => a + b, 0) / full.length / limit, windows: full.length };
}

export default async function schedulerBench(): Promise<Figure[]> {
  // Mixed requests: documents small enough that the request budget binds, not the block budget.
  const mixedSpace = generateSpace({ documents: 50, blocksPerDocument: 150, folders: 3, seed: 11 });
  const docs = mixedSpace.documents!;
  const mixed = await run(mixedSpace, (client, userWaits) =>
    Array.from({ length: 1000 }, (_, i) => {
      const doc = docs[i % docs.length]!;
      const r = i % 20;
      if (r < 8) return client.getBlocks({ id: doc.id! }, { priority: 'bulk' });
      if (r < 10) return client.getBlocks({ id: doc.id!, maxDepth: 0 }, { priority: 'recent' });
      if (r < 15) return client.listDocuments({ fetchMetadata: true }, { priority: 'poll' });
      if (r < 18) return client.listFolders({ priority: 'poll' });
      const at = Date.now();
      return client
        .updateBlocks({ blocks: [{ id: doc.content![3]!.id!, markdown: `edited ${i}` }] }, { priority: 'user' })
        .finally(() => userWaits.push(Date.now() - at));
    }),
  );
  const served = mixed.log.filter((e) => e.status === 200);
  const perWindow = meanPerServerWindow(mixed.log, limits.spaceRequests.limit);

  // A first pull of large documents whose sizes the journal knows: the block budget binds.
  const bigSpace = generateSpace({ documents: 40, blocksPerDocument: 600, folders: 0, seed: 12 });
  const bigDocs = bigSpace.documents!;
  const pull = await run(bigSpace, (client) =>
    Array.from({ length: 240 }, (_, i) => client.getBlocks({ id: bigDocs[i % bigDocs.length]!.id! }, { priority: 'bulk', blockCost: 601 })),
  );
  const pulled = pull.log.filter((e) => e.status === 200);
  const blocks = pulled.reduce((n, e) => n + e.blocksCharged, 0);

  const userWaits = mixed.extra.sort((a, b) => a - b);
  return [
    {
      name: `requests per window ÷ allowed, any ${windowMs} ms window, over ${served.length} mixed requests`,
      measured: round(slidingUse(served, () => 1, limits.spaceRequests.limit)),
      unit: '×',
      target: { op: '>=', value: 0.95 },
    },
    {
      name: "requests per window ÷ allowed, mean over the server's full windows",
      measured: round(perWindow.mean),
      unit: '×',
      target: { op: '>=', value: 0.95 },
      note: `${perWindow.windows} windows of ${windowMs} ms`,
    },
    { name: '429 answers, mixed requests', measured: mixed.log.filter((e) => e.status === 429).length, unit: 'responses', target: { op: '=', value: 0 } },
    { name: 'failed requests, mixed requests', measured: mixed.failed, unit: 'requests', target: { op: '=', value: 0 } },
    {
      name: 'user edits: longest time from call to answer',
      measured: userWaits.at(-1) ?? 0,
      unit: 'ms',
      note: `${userWaits.length} edits queued with ${1000 - userWaits.length} other requests; window ${windowMs} ms`,
    },
    {
      name: 'blocks per window ÷ allowed, any window, over a pull of 240 documents of 601 blocks',
      measured: round(slidingUse(pulled, (e) => e.blocksCharged, limits.blocks.limit)),
      unit: '×',
      target: { op: '>=', value: 0.95 },
      note: `${blocks} blocks; at most ${Math.floor(limits.blocks.limit / 601) * 601} of ${limits.blocks.limit} fit a window`,
    },
    { name: '429 answers, pull', measured: pull.log.filter((e) => e.status === 429).length, unit: 'responses', target: { op: '=', value: 0 } },
    {
      name: 'wall time, mixed requests + pull',
      measured: mixed.elapsed + pull.elapsed,
      unit: 'ms',
      note: `stalled on budgets ${Math.round(mixed.stalledMs + pull.stalledMs)} ms`,
    },
  ];
}

const round = (n: number) => Math.round(n * 1000) / 1000;

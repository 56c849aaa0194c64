// Media down in a first pull, against the server with the spec's limits at limitScale 0.05 (100
// requests and 20,000 blocks per 3 s) and at 0.01 (per 0.6 s, where a 2-core machine's CPU binds
// before the budget): 200 documents × 40 blocks holding 200 images of 200 KiB each (the issue's
// photographs: 39 MiB in all),
// pulled by one full cycle (`syncOnce`, as `sync --once` runs it: the mirror is
// whole when it returns, every asset in its `.assets` folder and linked). Its wall time against the
// rate-limit bound of the API requests and blocks it used (the downloads must not slow the block
// pull), the API requests it made beyond the same space's first cycle without images, the
// downloads per asset (the server counts them apart: they are not API requests), and the downloads
// of an idle cycle after it. The server runs in its own process.
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { resolveLimits } from '../src/client/index.js';
import { createLogger } from '../src/log.js';
import { generateSpace, type LoggedRequest } from '../src/server/index.js';
import { openSyncSession, syncOnce } from '../src/sync/index.js';
import { benchTempDir, type Figure } from './figure.js';
import { adminFetch, startServerProcess, type ServerProcess } from './serverProcess.js';

/** The limits' scale of the headline figure, and the faster one measured beside it. */
const SCALE = 0.05;
const FAST_SCALE = 0.01;
const DOCUMENTS = 200;
const BLOCKS = 40;
const IMAGES = 200;
const IMAGE_BYTES = 200 * 1024;

interface Run {
  wallMs: number;
  requests: number;
  blocks: number;
  rateLimited: number;
  assetReads: number;
  idleAssetReads: number;
  idleRequests: number;
  files: number;
}

async function firstPull(tmp: string, name: string, images: number, scale: number): Promise<Run> {
  const fixtureFile = path.join(tmp, `${name}.json`);
  const space = generateSpace({ documents: DOCUMENTS, blocksPerDocument: BLOCKS, folders: 5, seed: 18, images, imageBytes: IMAGE_BYTES });
  fs.writeFileSync(fixtureFile, JSON.stringify(space));
  const root = path.join(tmp, name);
  fs.mkdirSync(root);
  const server: ServerProcess = await startServerProcess(fixtureFile, ['--limits', 'spec', '--limit-scale', String(scale)]);
  const admin = async <T>(p: string, method = 'GET') => ((await (await adminFetch(server, p, { method })).json()) as { items: T[] }).items;
  const silent = createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) });
  const session = await openSyncSession({ root, link: server.link, logger: silent, budget: { scale } });
  try {
    const t0 = performance.now();
    const first = await syncOnce(session.ctx);
    const wallMs = performance.now() - t0;
    if (first.exitCode !== 0) throw new Error(`the first cycle exited ${first.exitCode}`);
    const log = await admin<LoggedRequest>('/requests');
    const reads = await admin<{ status: number }>('/asset-reads');
    const files = fs
      .readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((p) => /\.assets[\\/][^\\/]+\.png$/.test(p) && !p.includes('.spacesync')).length;
    if (files !== images || (first.media?.downloaded.length ?? 0) !== images) throw new Error(`${files} of ${images} assets downloaded`);
    // Every image linked: no signed URL left in a file.
    for (const r of first.pull?.written ?? []) {
      if (/\]\(http:\/\/[^)]*\/assets\//.test(fs.readFileSync(path.join(root, r.path), 'utf8'))) throw new Error(`${r.path} still links a signed URL`);
    }
    await admin('/requests', 'DELETE');
    await admin('/asset-reads', 'DELETE');
    const idle = await syncOnce(session.ctx);
    if (idle.exitCode !== 0) throw new Error(`the idle cycle exited ${idle.exitCode}`);
    return {
      wallMs,
      requests: log.length,
      blocks: log.reduce((n, r) => n + r.blocksCharged, 0),
      rateLimited: log.filter((r) => r.status === 429).length,
      assetReads: reads.length,
      idleAssetReads: (await admin('/asset-reads')).length,
      idleRequests: (await admin('/requests')).length,
      files,
    };
  } finally {
    session.close();
    server.child.kill();
  }
}

export default async function mediaBench(): Promise<Figure[]> {
  const tmp = benchTempDir('media');
  try {
    const bound = (r: Run, scale: number) => {
      const limits = resolveLimits({ scale });
      const windows = Math.max(r.requests / limits.spaceRequests.limit, r.blocks / limits.blocks.limit);
      return { windows, ms: windows * limits.spaceRequests.windowMs, windowMs: limits.spaceRequests.windowMs };
    };
    const ratioFigure = (scale: number, plain: Run, media: Run): Figure => {
      const b = bound(media, scale);
      const pb = bound(plain, scale);
      return {
        name: `first pull ${DOCUMENTS}×${BLOCKS} with ${IMAGES} images of ${IMAGE_BYTES / 1024} KiB, limitScale ${scale}: wall time ÷ rate-limit bound`,
        measured: media.wallMs / b.ms,
        unit: 'ratio',
        target: { op: '<=', value: 1.1 },
        note: `${(media.wallMs / 1000).toFixed(2)} s against ${(b.ms / 1000).toFixed(2)} s (${b.windows.toFixed(2)} windows of ${b.windowMs} ms, ${media.requests} requests, ${media.blocks} blocks), every asset in place and linked; the same space without its images: ${(plain.wallMs / pb.ms).toFixed(3)}× (${(plain.wallMs / 1000).toFixed(2)} s)`,
      };
    };
    // The same space without its images first: the API requests and the time a first cycle costs without media.
    const plain = await firstPull(tmp, 'plain', 0, SCALE);
    const media = await firstPull(tmp, 'media', IMAGES, SCALE);
    const fastPlain = await firstPull(tmp, 'fast-plain', 0, FAST_SCALE);
    const fastMedia = await firstPull(tmp, 'fast-media', IMAGES, FAST_SCALE);
    return [
      ratioFigure(SCALE, plain, media),
      ratioFigure(FAST_SCALE, fastPlain, fastMedia),
      {
        name: 'first pull with images: API requests per asset beyond the same pull without them',
        measured: (media.requests - plain.requests) / IMAGES,
        unit: 'requests',
        target: { op: '<=', value: 0 },
        note: `${media.requests} requests with the images, ${plain.requests} without`,
      },
      {
        name: 'first pull with images: downloads per asset',
        measured: media.assetReads / IMAGES,
        unit: 'ratio',
        target: { op: '=', value: 1 },
        note: `${media.assetReads} downloads for ${IMAGES} assets (not API requests: outside the link, uncounted by the limits)`,
      },
      { name: 'first pull with images: 429 answers', measured: media.rateLimited + fastMedia.rateLimited, unit: 'responses', target: { op: '<=', value: 0 } },
      {
        name: 'idle cycle after the first pull: asset downloads',
        measured: media.idleAssetReads,
        unit: 'downloads',
        target: { op: '=', value: 0 },
        note: `${media.idleRequests} API requests (the listings, the task inbox and the logbook)`,
      },
    ];
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

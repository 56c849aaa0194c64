// The downloads of media assets, beside the cycles: a few at a time (eight), each into a temp file of the
// state directory, never touching the mirror or the journal. The pull hands it each document's
// signed URLs as it reads them (so assets come in while the pull waits for its budget) and the media
// step the ones still missing; what ends is kept until the media step applies it between cycles
// (`take`), so a slow or failing download never holds a cycle and never races one. A one-shot run
// waits for them (`idle`); the daemon is told when one ends (`onSettled`) and applies it when idle.
import { promises as fsp } from 'node:fs';
import { unsignedUrl } from '../../core/media/linkAssets.js';
import { fetchAsset, type Fetched } from './fetchAsset.js';
import { statePath } from '../../stateDir.js';

/** A download that ended, with what it was for. */
export type FetchedAsset = Fetched & { blockId: string; docId: string; url: string };

interface Job {
  blockId: string;
  docId: string;
  url: string;
  abort: AbortController;
  result?: FetchedAsset;
  running: boolean;
}

export interface AssetDownloadsOptions {
  /** Where temp files go (`.spacesync/downloads/`, cleared when a session opens). */
  tmpDir: string;
  /** The size cap, read when a download starts (assets.maxMiB). */
  maxBytes: () => number;
  /** Stops every download (SIGINT/SIGTERM). */
  signal?: AbortSignal;
  /** Downloads at once: few, so that they never crowd out the document reads. */
  concurrency?: number;
  timeoutMs?: number;
}

const CONCURRENCY = 8;
const TIMEOUT_MS = 60_000;

export class AssetDownloads {
  private readonly jobs = new Map<string, Job>();
  private readonly queue: Job[] = [];
  private running = 0;
  private waiters: Array<() => void> = [];
  /** Checks of `settledFor`, run each time a download ends. */
  private readonly watchers = new Set<() => void>();
  private closed = false;
  /** Told each time a download ends (the daemon applies the results when it is idle). */
  onSettled: (() => void) | undefined;

  constructor(private readonly opts: AssetDownloadsOptions) {
    opts.signal?.addEventListener('abort', () => this.close(), { once: true });
  }

  /**
   * Downloads the asset of block `blockId` at the signed `url`, unless it is under way or done for the
   * same asset (signature aside); a download of the block's earlier asset is dropped. True when started.
   */
  want(blockId: string, docId: string, url: string): boolean {
    if (this.closed) return false;
    const held = this.jobs.get(blockId);
    if (held && unsignedUrl(held.url) === unsignedUrl(url)) return false;
    if (held) this.drop(held);
    const job: Job = { blockId, docId, url, abort: new AbortController(), running: false };
    this.jobs.set(blockId, job);
    this.queue.push(job);
    this.pump();
    return true;
  }

  /** Downloads queued or running. */
  get busy(): number {
    return this.queue.length + this.running;
  }

  /** Downloads that ended and were not taken yet. */
  get settled(): number {
    let n = 0;
    for (const job of this.jobs.values()) if (job.result) n++;
    return n;
  }

  /** The downloads that ended since the last call (those `which` accepts, when given); each is handed out once. */
  take(which?: (f: FetchedAsset) => boolean): FetchedAsset[] {
    const out: FetchedAsset[] = [];
    for (const [id, job] of this.jobs) {
      if (!job.result || (which && !which(job.result))) continue;
      out.push(job.result);
      this.jobs.delete(id);
    }
    return out;
  }

  /** Resolves once each of these blocks' downloads ended (or is no longer held), or after `ms` (at once when stopped). */
  settledFor(blockIds: readonly string[], ms: number): Promise<void> {
    const done = () => this.closed || blockIds.every((id) => this.jobs.get(id)?.result !== undefined || !this.jobs.has(id));
    if (done()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.watchers.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.watchers.delete(check);
        resolve();
      }, ms);
      this.watchers.add(check);
    });
  }

  /** Resolves once nothing is queued or running (at once when stopped). */
  idle(): Promise<void> {
    if (this.busy === 0 || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Stops every download; their temp files go (and any a later session finds is cleared when it opens). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    for (const job of this.jobs.values()) {
      job.abort.abort();
      if (job.result?.ok) void fsp.rm(job.result.tmp, { force: true });
    }
    this.jobs.clear();
    for (const check of [...this.watchers]) check();
    this.wake();
  }

  private drop(job: Job): void {
    job.abort.abort();
    const at = this.queue.indexOf(job);
    if (at >= 0) this.queue.splice(at, 1);
    if (job.result?.ok) void fsp.rm(job.result.tmp, { force: true });
    this.jobs.delete(job.blockId);
  }

  private pump(): void {
    while (!this.closed && this.running < (this.opts.concurrency ?? CONCURRENCY) && this.queue.length > 0) {
      const job = this.queue.shift()!;
      job.running = true;
      this.running++;
      void this.run(job);
    }
    if (this.busy === 0) this.wake();
  }

  private async run(job: Job): Promise<void> {
    const signals = [job.abort.signal, ...(this.opts.signal ? [this.opts.signal] : [])];
    let fetched: Fetched;
    try {
      fetched = await fetchAsset(job.url, this.opts.tmpDir, {
        maxBytes: this.opts.maxBytes(),
        timeoutMs: this.opts.timeoutMs ?? TIMEOUT_MS,
        signal: AbortSignal.any(signals),
      });
    } catch (e) {
      fetched = { ok: false, reason: 'failed', message: (e as Error).message };
    }
    this.running--;
    job.running = false;
    if (this.jobs.get(job.blockId) === job && !this.closed) {
      job.result = { ...fetched, blockId: job.blockId, docId: job.docId, url: job.url };
      for (const check of [...this.watchers]) check();
      this.onSettled?.();
    } else if (fetched.ok) {
      // Dropped meanwhile (a newer asset, or stopped): its bytes are no one's.
      await fsp.rm(fetched.tmp, { force: true });
    }
    this.pump();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

/** The part of the context that holds the session's downloads (SyncContext.assets). */
interface DownloadsHolder {
  root: string;
  settings: { assets: { maxMiB: number } };
  signal?: AbortSignal;
  assets?: AssetDownloads;
}

/** The session's downloads, made the first time they are needed. */
export function assetDownloadsOf(ctx: DownloadsHolder): AssetDownloads {
  ctx.assets ??= new AssetDownloads({
    tmpDir: statePath(ctx.root, 'downloads'),
    maxBytes: () => ctx.settings.assets.maxMiB * 1024 * 1024,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  return ctx.assets;
}

// The downloads a pull puts in place itself, and those the daemon applies between its operations:
// what they did is kept until the next media step reports it.
import { assetDownloadsOf, type AssetDownloads, type SyncContext } from '../context/index.js';
import type { BaseBlock } from '../../core/types.js';
import { applyFetched, relinkAll } from './applyFetched.js';
import { emptyResult, type MediaSyncResult } from './mediaRecord.js';

/** What a pull applied of the downloads (applyBesidePull), reported by the next media step. */
const appliedInPull = new WeakMap<AssetDownloads, MediaSyncResult>();
const lastPassAt = new WeakMap<AssetDownloads, number>();
const passing = new WeakSet<AssetDownloads>();
/** A pass beside the pull at most this often, unless this many downloads wait. */
const PASS_EVERY_MS = 100;
const PASS_AT = 8;

/** Notes what a pull did of the downloads itself (awaitNewAssets), for the next media step to report. */
export function reportInPull(ctx: SyncContext, done: { downloaded?: string[]; failed?: MediaSyncResult['failed'] }): void {
  const d = assetDownloadsOf(ctx);
  const acc = appliedInPull.get(d) ?? emptyResult();
  appliedInPull.set(d, acc);
  acc.downloaded.push(...(done.downloaded ?? []));
  acc.failed.push(...(done.failed ?? []));
}

/** `result` with what a pull applied beside itself since the last media step. */
export function withAppliedInPull(ctx: SyncContext, result: MediaSyncResult): MediaSyncResult {
  const applied = ctx.assets ? appliedInPull.get(ctx.assets) : undefined;
  if (!applied) return result;
  appliedInPull.delete(ctx.assets!);
  result.downloaded.push(...applied.downloaded);
  result.linked.push(...applied.linked);
  result.failed.push(...applied.failed);
  return result;
}

/**
 * Applies, while a pull goes on, the downloads of documents it has pulled and recorded (`recorded`):
 * it does not touch them again, so nothing races, and the work fills the pull's waits for its budget
 * rather than following it. One pass at a time, at most every 100 ms unless 8 downloads wait, its
 * journal writes in one transaction. The media step reports what it did.
 */
export async function applyBesidePull(ctx: SyncContext, recorded: (docId: string) => boolean): Promise<void> {
  const d = ctx.assets;
  if (!d || ctx.readOnly || passing.has(d) || d.settled === 0) return;
  if (d.settled < PASS_AT && performance.now() - (lastPassAt.get(d) ?? 0) < PASS_EVERY_MS) return;
  passing.add(d);
  try {
    const fetched = d.take((f) => recorded(f.docId));
    if (fetched.length === 0) return;
    const acc = appliedInPull.get(d) ?? emptyResult();
    appliedInPull.set(d, acc);
    const relink = new Map<string, Set<string>>();
    const bases = new Map<string, BaseBlock[]>();
    await applyFetched(ctx, fetched, acc, relink, bases);
    await relinkAll(ctx, relink, acc, bases);
  } catch (e) {
    // Left to the media step: what was not recorded is downloaded again.
    ctx.logger.warn({ err: e }, 'downloaded assets could not be put in place during the pull');
  } finally {
    passing.delete(d);
    lastPassAt.set(d, performance.now());
  }
}

/** Applies the downloads that ended since the last look (the daemon, between its cycles). */
export async function applyDownloads(ctx: SyncContext): Promise<MediaSyncResult> {
  const result = emptyResult();
  if (ctx.readOnly || !ctx.assets) return result;
  withAppliedInPull(ctx, result);
  const relink = new Map<string, Set<string>>();
  const bases = new Map<string, BaseBlock[]>();
  await applyFetched(ctx, ctx.assets.take(), result, relink, bases);
  await relinkAll(ctx, relink, result, bases);
  return result;
}

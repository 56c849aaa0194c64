// Each image, video and file block of the mirror gets its asset downloaded once, beside its
// document (`<Doc>.assets/<name>`), and the document's file links it instead of the signed URL,
// which expires. Runs once a cycle has pushed and pulled the documents. The journal keeps, per
// block, the URL the asset came from (its signature removed: a re-signed URL is the same asset), the
// file's name and its hash. A block whose URL changed (new bytes at the service) is downloaded
// again. Downloads run beside the cycles (AssetDownloads): this step starts the ones missing and
// applies the ones that ended (the file moved into place, the record, the line linked), so nothing
// they do races a cycle; a one-shot run waits for them, the daemon applies them when it is idle
// (`applyDownloads`). A failed download leaves the signed link in the file and is tried again after
// a backoff (core/downloadRetry); one too large waits until assets.maxMiB holds it. Downloads are not
// API requests (the signed URLs point outside the link's path, and the service does not count them).
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { assetFileOf, assetLinkOf, destinationOf, DOWNLOADED_TYPES, mediaName, unsignedUrl, withDestination, type MediaLink } from '../../core/linkAssets.js';
import { afterFailedDownload, downloadDue, type DownloadRetry } from '../../core/downloadRetry.js';
import { collisionKey, dirOfPath } from '../../core/fileName.js';
import { hashBlock } from '../../core/hashBlock.js';
import type { BaseBlock } from '../../core/types.js';
import { moveFileAtomic, readMirrorFile, removeEmptyDirs, resolveInRoot, writeFileIfUnchanged } from '../../mirror/index.js';
import type { Journal } from '../../journal/index.js';
import { statePath } from '../../stateDir.js';
import { pathExists, type SyncContext } from '../session/index.js';
import { AssetDownloads, type FetchedAsset } from './AssetDownloads.js';
import { uploadReferences } from './uploadReferences.js';
import { assetStat, reuploadAsset } from './reuploadAsset.js';

/** State key prefix: the downloaded asset of a media block. */
export const MEDIA_BASE = 'media:';
/** State key prefix: a media block whose asset was not downloaded, and when it is tried again. */
export const MEDIA_RETRY = 'media-retry:';

/** The journal's record of one media block's asset. */
export interface MediaRecord extends MediaLink {
  docId: string;
  /** The asset file, relative to the root, where the sync last put it. */
  file: string;
  /** sha256 of the bytes written. */
  hash: string;
  /** The signed URL last read for the block: what an edit of the block's line sends in place of the local link. */
  signedUrl: string;
  /** The file was the user's, uploaded from the mirror: it stays when its block goes. */
  uploaded?: true;
  /** The file's size and modification time when its hash was taken: a replaced file is told by its stat. */
  size?: number;
  mtimeMs?: number;
}

export interface MediaSyncResult {
  /** Asset files written (new, or new bytes). */
  downloaded: string[];
  /** Documents whose file now links its assets. */
  linked: string[];
  /** Assets not downloaded, and why (tried again after a backoff). */
  failed: Array<{ blockId: string; file: string; message: string }>;
  /** Blocks whose asset waits: for the retry after a failure, or for assets.maxMiB to hold it. */
  waiting: string[];
  /** Asset files removed with their block. */
  removed: string[];
  /** Local files uploaded as new blocks (media up). */
  uploaded: string[];
  /** Local files referenced and not uploaded, and why. */
  notUploaded: Array<{ path: string; file: string; message: string }>;
}

export interface SyncMediaOptions {
  /**
   * Wait for the downloads to end and apply them (a one-shot run, which should leave the mirror
   * whole); false leaves them running beside the next cycles (the daemon). Default true.
   */
  wait?: boolean;
}

const emptyResult = (): MediaSyncResult => ({ downloaded: [], linked: [], failed: [], waiting: [], removed: [], uploaded: [], notUploaded: [] });

/** The media record of a block, for linking (`linkAssets`) and for sending an edit of its line. */
export const mediaRecordOf = (journal: Journal) => (id: string) => journal.getState<MediaRecord>(`${MEDIA_BASE}${id}`);

/** The blocks whose asset waits to be downloaded again, for `spacesync status`. */
export function readDownloadRetries(journal: Journal): DownloadRetry[] {
  return Object.values(journal.statesWithPrefix<DownloadRetry>(MEDIA_RETRY));
}

/** The session's downloads, made the first time they are needed. */
export function assetDownloadsOf(ctx: SyncContext): AssetDownloads {
  ctx.assets ??= new AssetDownloads({
    tmpDir: statePath(ctx.root, 'downloads'),
    maxBytes: () => ctx.settings.assets.maxMiB * 1024 * 1024,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  return ctx.assets;
}

/** Whether the asset of a block at `url` (signed) may be downloaded now: no failure of that asset waits. */
function due(ctx: SyncContext, id: string, url: string): boolean {
  return downloadDue(ctx.journal.getState<DownloadRetry>(`${MEDIA_RETRY}${id}`), unsignedUrl(url), ctx.now(), ctx.settings.assets.maxMiB);
}

/**
 * Starts the downloads of a document the pull just read (its new base): the assets not downloaded
 * yet come in while the pull goes on, so they cost it no time. The media step applies them.
 */
export function prefetchAssets(ctx: SyncContext, docId: string, base: readonly BaseBlock[]): void {
  if (ctx.readOnly) return;
  for (const b of base) {
    if (!DOWNLOADED_TYPES.has(b.type)) continue;
    const url = destinationOf(b.markdown);
    if (url === null || !/^https?:\/\//i.test(url)) continue;
    if (ctx.journal.getState<MediaRecord>(`${MEDIA_BASE}${b.id}`)?.url === unsignedUrl(url)) continue;
    if (due(ctx, b.id, url)) assetDownloadsOf(ctx).want(b.id, docId, url);
  }
}

/** The block's URL as the service signs it now (one `GET /blocks` of the block alone); null when it cannot be read. */
async function freshUrl(ctx: SyncContext, id: string): Promise<string | null> {
  try {
    const b = await ctx.client.getBlocks({ id, maxDepth: 0 }, { priority: 'poll' });
    return b.markdown === undefined ? null : destinationOf(b.markdown);
  } catch {
    return null;
  }
}

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
function withAppliedInPull(ctx: SyncContext, result: MediaSyncResult): MediaSyncResult {
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

export async function syncMedia(ctx: SyncContext, opts: SyncMediaOptions = {}): Promise<MediaSyncResult> {
  const result = emptyResult();
  if (ctx.readOnly) return result;
  const up = await uploadReferences(ctx);
  result.uploaded = up.uploaded;
  result.notUploaded = up.failed;
  const { journal, root } = ctx;
  const downloads = assetDownloadsOf(ctx);
  withAppliedInPull(ctx, result);
  /** Per document: the blocks whose line can link their asset now. */
  const relink = new Map<string, Set<string>>();
  /** The bases read meanwhile, for linking. */
  const bases = new Map<string, BaseBlock[]>();
  // What ended since the last look goes into place first: the records below then see it.
  await applyFetched(ctx, downloads.take(), result, relink, bases);
  const records = new Map(Object.entries(journal.statesWithPrefix<MediaRecord>(MEDIA_BASE)));
  const live = new Set<string>();
  const wanted: Array<{ id: string; docId: string; url: string }> = [];
  const replaced: Array<{ docId: string; id: string; rec: MediaRecord }> = [];
  for (const [docId, ids] of journal.documentsWithMedia()) {
    const doc = journal.getDocument(docId);
    if (!doc || doc.fileHash === null) continue;
    // Its file is not where the journal has it (moved or its folder renamed here, not yet pushed):
    // nothing is written beside it, or the old folder would come back and read as never renamed.
    if (!(await pathExists(root, doc.path))) {
      for (const id of ids) live.add(id);
      continue;
    }
    const blocks = bases.get(docId) ?? journal.getBaseBlocks(docId);
    const base = new Map(blocks.map((b) => [b.id, b]));
    for (const id of ids) {
      const block = base.get(id);
      if (!block) continue;
      live.add(id);
      let rec = records.get(id);
      // The document's file moved (renamed, or to another folder): its assets move with it.
      if (rec && rec.file !== assetFileOf(doc.path, rec.name)) {
        const to = assetFileOf(doc.path, rec.name);
        const moved = await moveFileAtomic(root, rec.file, to, { ownWrites: ctx.ownWrites }).catch(() => null);
        if (moved?.ok) {
          await removeEmptyDirs(root, dirOfPath(rec.file)).catch(() => []);
          rec = { ...rec, file: to };
          journal.setState(`${MEDIA_BASE}${id}`, rec);
        }
      }
      const url = destinationOf(block.markdown);
      // Just put in place by this step: its line is linked below.
      if (url === null || relink.get(docId)?.has(id)) continue;
      if (!/^https?:\/\//i.test(url)) {
        // Linked already; an asset file deleted by hand is downloaded again, from a URL signed anew;
        // one whose stat moved is hashed, and new bytes are uploaded (the block replaced).
        const st = rec ? await assetStat(root, rec.file) : null;
        if (rec && st === null && !(await pathExists(root, rec.file))) {
          if (!downloadDue(journal.getState<DownloadRetry>(`${MEDIA_RETRY}${id}`), rec.url, ctx.now(), ctx.settings.assets.maxMiB)) {
            result.waiting.push(id);
            continue;
          }
          const fresh = await freshUrl(ctx, id);
          if (fresh !== null && unsignedUrl(fresh) === rec.url) wanted.push({ id, docId, url: fresh });
        } else if (rec && st !== null && (st.size !== rec.size || st.mtimeMs !== rec.mtimeMs)) {
          replaced.push({ docId, id, rec });
        }
        continue;
      }
      if (rec && rec.url === unsignedUrl(url) && (await readMirrorFile(root, rec.file))?.hash === rec.hash) {
        if (rec.signedUrl !== url) journal.setState(`${MEDIA_BASE}${id}`, { ...rec, signedUrl: url });
        relink.set(docId, (relink.get(docId) ?? new Set()).add(id));
        bases.set(docId, blocks);
        continue;
      }
      // An asset the file changed since the sync wrote it is not written over.
      const old = rec ? await readMirrorFile(root, rec.file) : null;
      if (rec && old !== null && old.hash !== rec.hash) {
        const message = `"${rec.file}" changed since spacesync wrote it, so the new version from the space was not written over it; move or delete it and the next cycle downloads the space's version.`;
        result.failed.push({ blockId: id, file: rec.file, message });
        ctx.logger.warn({ file: rec.file }, message);
        continue;
      }
      if (!due(ctx, id, url)) result.waiting.push(id);
      else wanted.push({ id, docId, url });
    }
  }

  for (const r of replaced) {
    if (ctx.signal?.aborted) return result;
    bases.delete(r.docId); // its base changes here: linking reads it again
    const done = await reuploadAsset(ctx, r.docId, r.id, r.rec);
    if (!done.ok) {
      result.failed.push({ blockId: r.id, file: r.rec.file, message: done.message });
      ctx.logger.warn({ file: r.rec.file, blockId: r.id }, done.message);
    } else if (done.blockId !== r.id) {
      result.uploaded.push(r.rec.file);
      live.add(done.blockId);
    }
  }

  // Downloads beside the cycles; one that fails holds up nothing else.
  for (const w of wanted) downloads.want(w.id, w.docId, w.url);
  if (opts.wait !== false) await downloads.idle();
  // What ended meanwhile (all of it, after a wait) goes into place now.
  await applyFetched(ctx, downloads.take(), result, relink, bases);
  await relinkAll(ctx, relink, result, bases);

  // Assets whose block left its document: their file goes too, when it holds what the sync wrote.
  for (const [id, rec] of records) {
    if (live.has(id)) continue;
    if (ctx.signal?.aborted) return result;
    const now = await readMirrorFile(root, rec.file);
    if (now !== null && now.hash === rec.hash && !rec.uploaded) {
      ctx.ownWrites.note(rec.file, null);
      await fsp.rm(resolveInRoot(root, rec.file), { force: true });
      await removeEmptyDirs(root, dirOfPath(rec.file)).catch(() => []);
      result.removed.push(rec.file);
    }
    journal.deleteState(`${MEDIA_BASE}${id}`);
  }
  for (const key of Object.keys(journal.statesWithPrefix(MEDIA_RETRY))) if (!live.has(key.slice(MEDIA_RETRY.length))) journal.deleteState(key);
  return result;
}

/** Files written at once when a pass puts assets in place or links them: their syncs to disk overlap. */
const WRITERS = 8;

/** Runs `work` on each of `items`, `WRITERS` at a time. */
async function eachAtOnce<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(WRITERS, items.length) }, worker));
}

async function relinkAll(
  ctx: SyncContext,
  relink: ReadonlyMap<string, ReadonlySet<string>>,
  result: MediaSyncResult,
  bases: ReadonlyMap<string, readonly BaseBlock[]>,
): Promise<void> {
  const writes: Array<() => void> = [];
  await eachAtOnce([...relink], async ([docId, ids]) => {
    const write = await relinkDocument(ctx, docId, ids, bases.get(docId));
    if (!write) return;
    writes.push(write);
    result.linked.push(ctx.journal.getDocument(docId)!.path);
  });
  // One transaction for them all: one write to disk, however many documents.
  if (writes.length > 0) ctx.journal.transaction(() => writes.forEach((w) => w()));
}

/**
 * Puts the downloads that ended into place and records them (in one transaction), each only while
 * it is still the asset its block holds (else its bytes are dropped); a failure is recorded for its
 * retry. The blocks whose line is to link its new file are added to `relink`. Documents at once,
 * the assets of one document one after the other (their names must not meet).
 */
async function applyFetched(
  ctx: SyncContext,
  fetched: readonly FetchedAsset[],
  result: MediaSyncResult,
  relink: Map<string, Set<string>>,
  bases: Map<string, BaseBlock[]>,
): Promise<void> {
  const writes: Array<() => void> = [];
  /** Names given in this pass, per document (not recorded yet). */
  const named = new Map<string, Set<string>>();
  const byDoc = new Map<string, FetchedAsset[]>();
  for (const f of fetched) byDoc.set(f.docId, [...(byDoc.get(f.docId) ?? []), f]);
  await eachAtOnce([...byDoc.values()], async (list) => {
    // The document's base, read once for all its assets.
    const base = ctx.journal.getBaseBlocks(list[0]!.docId);
    bases.set(list[0]!.docId, base);
    for (const f of list) {
      const kept = await applyOne(ctx, f, base, result, writes, named);
      if (!kept && f.ok) await fsp.rm(f.tmp, { force: true });
      if (kept === 'relink') relink.set(f.docId, (relink.get(f.docId) ?? new Set()).add(f.blockId));
    }
  });
  if (writes.length > 0) ctx.journal.transaction(() => writes.forEach((w) => w()));
}

async function applyOne(
  ctx: SyncContext,
  f: FetchedAsset,
  base: readonly BaseBlock[],
  result: MediaSyncResult,
  writes: Array<() => void>,
  named: Map<string, Set<string>>,
): Promise<false | 'kept' | 'relink'> {
  const { journal, root } = ctx;
  const doc = journal.getDocument(f.docId);
  const block = doc && doc.fileHash !== null ? base.find((b) => b.id === f.blockId) : undefined;
  const dest = block ? destinationOf(block.markdown) : null;
  if (!doc || !block || dest === null) return false;
  const rec = journal.getState<MediaRecord>(`${MEDIA_BASE}${f.blockId}`);
  // The line links its asset already: the download writes a file deleted by hand again.
  const linked = !/^https?:\/\//i.test(dest);
  const url = unsignedUrl(f.url);
  if ((linked ? rec?.url : unsignedUrl(dest)) !== url || !(await pathExists(root, doc.path))) return false;
  const dir = assetFileOf(doc.path, '').slice(0, -1);
  const maxMiB = ctx.settings.assets.maxMiB;
  // The other assets of the document keep their names.
  const taken = new Set(
    journal
      .mediaBlocksOf(f.docId)
      .filter((id) => id !== f.blockId)
      .map((id) => journal.getState<MediaRecord>(`${MEDIA_BASE}${id}`)?.name)
      .filter((n): n is string => n !== undefined)
      .map(collisionKey),
  );
  for (const n of named.get(f.docId) ?? []) taken.add(n);
  const nameFor = (ext: string) =>
    rec && rec.name.endsWith(ext) ? rec.name : mediaName({ id: f.blockId, type: block.type, markdown: block.markdown }, ext, taken);
  if (!f.ok) {
    if (f.reason === 'stopped') return false;
    const label = `${dir}/${f.reason === 'too_large' ? nameFor(f.ext) : (rec?.name ?? `(${block.type} ${f.blockId})`)}`;
    const prev = journal.getState<DownloadRetry>(`${MEDIA_RETRY}${f.blockId}`);
    const tooLarge = f.reason === 'too_large' ? { size: f.size, maxMiB } : undefined;
    const retry = afterFailedDownload(prev, url, ctx.now(), { message: f.reason === 'too_large' ? 'too large' : f.message, ...(tooLarge ? { tooLarge } : {}) });
    const message =
      f.reason === 'too_large'
        ? `The ${block.type} asset for "${label}" was not downloaded: it is ${(f.size / 1024 / 1024).toFixed(1)} MiB, more than assets.maxMiB (${maxMiB} MiB). The document keeps its link to the space; raise assets.maxMiB in .spacesync/config.json to download it.`
        : `The ${block.type} asset for "${label}" was not downloaded (${f.message}). The document keeps its link to the space; it is tried again after ${new Date(retry.notBefore).toISOString()}.`;
    writes.push(() => journal.setState(`${MEDIA_RETRY}${f.blockId}`, retry));
    result.failed.push({ blockId: f.blockId, file: label, message });
    ctx.logger.warn({ file: label, blockId: f.blockId }, message);
    return false;
  }
  // An asset the file changed since the sync wrote it is not written over.
  const old = rec ? await readMirrorFile(root, rec.file) : null;
  if (rec && old !== null && old.hash !== rec.hash) return false;
  const name = nameFor(f.ext);
  named.set(f.docId, (named.get(f.docId) ?? new Set()).add(collisionKey(name)));
  const file = `${dir}/${name}`;
  const abs = resolveInRoot(root, file);
  await fsp.mkdir(path.dirname(abs), { recursive: true });
  ctx.ownWrites.note(file, f.hash);
  await fsp.rename(f.tmp, abs);
  if (rec && rec.file !== file && old !== null) {
    ctx.ownWrites.note(rec.file, null);
    await fsp.rm(resolveInRoot(root, rec.file), { force: true });
  }
  const next: MediaRecord = { docId: f.docId, name, file, hash: f.hash, url, signedUrl: f.url, ...(await assetStat(root, file)) };
  writes.push(() => {
    journal.setState(`${MEDIA_BASE}${f.blockId}`, next);
    journal.deleteState(`${MEDIA_RETRY}${f.blockId}`);
  });
  result.downloaded.push(file);
  return linked ? 'kept' : 'relink';
}

/**
 * Points the lines of `ids` in the document's file at their downloaded assets, and records the
 * linked lines as the base (the same text the pull's `linkAssets` gives the service's blocks, so
 * nothing is sent). Only a file that still holds what the sync last wrote: one edited meanwhile is
 * linked on a later cycle. Returns the journal's write, for the caller to commit with others.
 */
async function relinkDocument(ctx: SyncContext, docId: string, ids: ReadonlySet<string>, known?: readonly BaseBlock[]): Promise<(() => void) | null> {
  const { journal, root } = ctx;
  const doc = journal.getDocument(docId);
  if (!doc || doc.fileHash === null) return null;
  const existing = await readMirrorFile(root, doc.path);
  if (existing === null || existing.text === null || existing.hash !== doc.fileHash) return null;
  let text = existing.text;
  let changed = false;
  const base = (known ?? journal.getBaseBlocks(docId)).map((b) => {
    const rec = ids.has(b.id) ? journal.getState<MediaRecord>(`${MEDIA_BASE}${b.id}`) : undefined;
    const url = destinationOf(b.markdown);
    if (!rec || url === null) return b;
    // The signed URL holds a fresh signature and nonce: once in the file, on this block's line.
    const at = text.indexOf(`](${url})`);
    if (at < 0 || text.indexOf(`](${url})`, at + 1) >= 0) return b;
    const markdown = withDestination(b.markdown, assetLinkOf(doc.path, rec.name));
    text = `${text.slice(0, at)}${withDestination(`[](${url})`, assetLinkOf(doc.path, rec.name)).slice(1)}${text.slice(at + url.length + 3)}`;
    changed = true;
    return { ...b, markdown, hash: hashBlock(markdown, b.kind, b.cardLayout) };
  });
  if (!changed) return null;
  const w = await writeFileIfUnchanged(root, doc.path, text, existing.hash, { ownWrites: ctx.ownWrites });
  if (!w.written) return null;
  return () => {
    journal.upsertDocument({ ...doc, fileHash: w.hash });
    journal.replaceBaseBlocks(docId, base);
  };
}

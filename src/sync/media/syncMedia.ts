// Each image, video and file block of the mirror gets its asset downloaded once, beside its
// document (`<Doc>.assets/<name>`), and the document's file links it instead of the signed URL,
// which expires. Runs once a cycle has pushed and pulled the documents. The journal keeps, per
// block, the URL the asset came from (its signature removed: a re-signed URL is the same asset), the
// file's name and its hash. A block whose URL changed (new bytes at the service) is downloaded
// again. Downloads run beside the cycles (AssetDownloads): this step starts the ones missing and
// applies the ones that ended (the file moved into place, the record, the line linked), so nothing
// they do races a cycle; a one-shot run waits for them, the daemon applies them when it is idle
// (`applyDownloads`). A failed download leaves the signed link in the file and is tried again after
// a backoff (core/media/downloadRetry); one too large waits until assets.maxMiB holds it. Downloads are not
// API requests (the signed URLs point outside the link's path, and the service does not count them).
import { promises as fsp } from 'node:fs';
import { assetFileOf, destinationOf, DOWNLOADED_TYPES, unsignedUrl } from '../../core/media/linkAssets.js';
import { downloadDue, type DownloadRetry } from '../../core/media/downloadRetry.js';
import { dirOfPath, isAssetsDir } from '../../core/files/fileName.js';
import type { BaseBlock } from '../../core/types.js';
import { moveFileAtomic, readMirrorFile, removeEmptyDirs, resolveForWrite } from '../../mirror/index.js';
import { assetDownloadsOf, MEDIA_BASE, pathExists, type DrawScene, type MediaRecord, type SyncContext } from '../context/index.js';
import { applyFetched, relinkAll } from './applyFetched.js';
import { withAppliedInPull } from './applyBesidePull.js';
import { emptyResult, MEDIA_RETRY, type MediaSyncResult } from './mediaRecord.js';
import { uploadReferences } from './uploadReferences.js';
import { assetStat, reuploadAsset } from './reuploadAsset.js';
import { FILE_ONLY } from '../../log.js';

export interface SyncMediaOptions {
  /**
   * Wait for the downloads to end and apply them (a one-shot run, which should leave the mirror
   * whole); false leaves them running beside the next cycles (the daemon). Default true.
   */
  wait?: boolean;
  /** Draws a whiteboard for a scene file a document references (the cycle hands the whiteboards slice's). */
  drawScene: DrawScene;
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

/** What the media step looks at and finds: the assets' records, the blocks still there, the downloads to start, the assets to upload again. */
interface MediaLook {
  result: MediaSyncResult;
  /** Backup mode: an asset changed here is not uploaded again. */
  backup: boolean;
  /** Per document: the blocks whose line can link their asset now. */
  relink: Map<string, Set<string>>;
  /** The bases read meanwhile, for linking. */
  bases: Map<string, BaseBlock[]>;
  records: Map<string, MediaRecord>;
  live: Set<string>;
  wanted: Array<{ id: string; docId: string; url: string }>;
  replaced: Array<{ docId: string; id: string; rec: MediaRecord }>;
}

export async function syncMedia(ctx: SyncContext, opts: SyncMediaOptions): Promise<MediaSyncResult> {
  const result = emptyResult();
  if (ctx.readOnly) return result;
  // Backup mode sends nothing: a file referenced here is kept, not uploaded.
  const backup = ctx.settings.mode === 'backup';
  const up = backup ? { uploaded: [], failed: [] } : await uploadReferences(ctx, opts.drawScene);
  result.uploaded = up.uploaded;
  result.notUploaded = up.failed;
  const { journal } = ctx;
  const downloads = assetDownloadsOf(ctx);
  withAppliedInPull(ctx, result);
  const relink = new Map<string, Set<string>>();
  const bases = new Map<string, BaseBlock[]>();
  // What ended since the last look goes into place first: the records below then see it.
  await applyFetched(ctx, downloads.take(), result, relink, bases);
  const records = new Map(Object.entries(journal.statesWithPrefix<MediaRecord>(MEDIA_BASE)));
  const look: MediaLook = { result, backup, relink, bases, records, live: new Set(), wanted: [], replaced: [] };
  await lookAtAssets(ctx, look);
  if (!(await reuploadReplaced(ctx, look))) return result;

  // Downloads beside the cycles; one that fails holds up nothing else.
  for (const w of look.wanted) downloads.want(w.id, w.docId, w.url);
  if (opts.wait !== false) await downloads.idle();
  // What ended meanwhile (all of it, after a wait) goes into place now.
  await applyFetched(ctx, downloads.take(), result, relink, bases);
  await relinkAll(ctx, relink, result, bases);
  await removeLeftAssets(ctx, look);
  return result;
}

/** Looks at the asset of each media block of the documents: moved with its document, linked already, changed here, or to download. */
async function lookAtAssets(ctx: SyncContext, look: MediaLook): Promise<void> {
  const { journal, root } = ctx;
  for (const [docId, ids] of journal.documentsWithMedia()) {
    const doc = journal.getDocument(docId);
    if (!doc || doc.fileHash === null) continue;
    // Its file is not where the journal has it (moved or its folder renamed here, not yet pushed):
    // nothing is written beside it, or the old folder would come back and read as never renamed.
    if (!(await pathExists(root, doc.path))) {
      for (const id of ids) look.live.add(id);
      continue;
    }
    const blocks = look.bases.get(docId) ?? journal.getBaseBlocks(docId);
    const base = new Map(blocks.map((b) => [b.id, b]));
    for (const id of ids) {
      const block = base.get(id);
      if (!block) continue;
      look.live.add(id);
      await lookAtAsset(ctx, look, { docId, path: doc.path, blocks }, block);
    }
  }
}

/** One media block's asset: its record follows a moved document, then it is linked, re-downloaded, uploaded again, or wanted. */
async function lookAtAsset(ctx: SyncContext, look: MediaLook, doc: { docId: string; path: string; blocks: BaseBlock[] }, block: BaseBlock): Promise<void> {
  const { journal, root } = ctx;
  const { result, relink } = look;
  const { docId, blocks } = doc;
  const id = block.id;
  let rec = look.records.get(id);
  // The document's file moved (renamed, or to another folder): its assets move with it.
  if (rec && rec.file !== assetFileOf(doc.path, rec.name)) {
    const to = assetFileOf(doc.path, rec.name);
    const moved = await moveFileAtomic(root, rec.file, to, { ownWrites: ctx.ownWrites }).catch(() => null);
    // Moved with its whole .assets folder already (a file moved here takes it along): the record follows.
    if (moved?.ok || (!(await pathExists(root, rec.file)) && (await pathExists(root, to)))) {
      await removeEmptyDirs(root, dirOfPath(rec.file), isAssetsDir).catch(() => []);
      rec = { ...rec, file: to };
      journal.setState(`${MEDIA_BASE}${id}`, rec);
    }
  }
  const url = destinationOf(block.markdown);
  // Just put in place by this step: its line is linked below.
  if (url === null || relink.get(docId)?.has(id)) return;
  if (!/^https?:\/\//i.test(url)) {
    // Linked already; an asset file deleted by hand is downloaded again, from a URL signed anew;
    // one whose stat moved is hashed, and new bytes are uploaded (the block replaced).
    const st = rec ? await assetStat(root, rec.file) : null;
    if (rec && st === null && !(await pathExists(root, rec.file))) {
      if (!downloadDue(journal.getState<DownloadRetry>(`${MEDIA_RETRY}${id}`), rec.url, ctx.now(), ctx.settings.assets.maxMiB)) {
        result.waiting.push(id);
        return;
      }
      const fresh = await freshUrl(ctx, id);
      if (fresh !== null && unsignedUrl(fresh) === rec.url) look.wanted.push({ id, docId, url: fresh });
    } else if (!look.backup && rec && st !== null && (st.size !== rec.size || st.mtimeMs !== rec.mtimeMs)) {
      look.replaced.push({ docId, id, rec });
    }
    return;
  }
  if (rec && rec.url === unsignedUrl(url) && (await readMirrorFile(root, rec.file))?.hash === rec.hash) {
    if (rec.signedUrl !== url) journal.setState(`${MEDIA_BASE}${id}`, { ...rec, signedUrl: url });
    relink.set(docId, (relink.get(docId) ?? new Set()).add(id));
    look.bases.set(docId, blocks);
    return;
  }
  // An asset the file changed since the sync wrote it is not written over.
  const old = rec ? await readMirrorFile(root, rec.file) : null;
  if (rec && old !== null && old.hash !== rec.hash) {
    const message = `"${rec.file}" changed since spacesync wrote it, so the new version from the space was not written over it; move or delete it and the next cycle downloads the space's version.`;
    result.failed.push({ blockId: id, file: rec.file, message });
    ctx.logger.warn({ ...FILE_ONLY, file: rec.file }, message); // the cycle's report says it
    return;
  }
  if (!due(ctx, id, url)) result.waiting.push(id);
  else look.wanted.push({ id, docId, url });
}

/** Uploads again the assets whose file changed here (the block replaced); false when stopped. */
async function reuploadReplaced(ctx: SyncContext, look: MediaLook): Promise<boolean> {
  const { result } = look;
  for (const r of look.replaced) {
    if (ctx.signal?.aborted) return false;
    look.bases.delete(r.docId); // its base changes here: linking reads it again
    const done = await reuploadAsset(ctx, r.docId, r.id, r.rec);
    if (!done.ok) {
      result.failed.push({ blockId: r.id, file: r.rec.file, message: done.message });
      ctx.logger.warn({ ...FILE_ONLY, file: r.rec.file, blockId: r.id }, done.message);
    } else if (done.blockId !== r.id) {
      result.uploaded.push(r.rec.file);
      look.live.add(done.blockId);
    }
  }
  return true;
}

/** Assets whose block left its document: their file goes too, when it holds what the sync wrote; so do their records. */
async function removeLeftAssets(ctx: SyncContext, look: MediaLook): Promise<void> {
  const { journal, root } = ctx;
  const { live } = look;
  for (const [id, rec] of look.records) {
    if (live.has(id)) continue;
    if (ctx.signal?.aborted) return;
    const now = await readMirrorFile(root, rec.file);
    if (now !== null && now.hash === rec.hash && !rec.uploaded) {
      ctx.ownWrites.note(rec.file, null);
      await fsp.rm(resolveForWrite(root, rec.file), { force: true });
      await removeEmptyDirs(root, dirOfPath(rec.file), isAssetsDir).catch(() => []);
      look.result.removed.push(rec.file);
    }
    journal.deleteState(`${MEDIA_BASE}${id}`);
  }
  for (const key of Object.keys(journal.statesWithPrefix(MEDIA_RETRY))) if (!live.has(key.slice(MEDIA_RETRY.length))) journal.deleteState(key);
}

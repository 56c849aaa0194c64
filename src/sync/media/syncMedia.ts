// Each image, video and file block of the mirror gets its asset downloaded once, beside its
// document (`<Doc>.assets/<name>`), and the document's file links it instead of the signed URL,
// which expires. Runs once a cycle has pushed and pulled the documents. The journal keeps, per
// block, the URL the asset came from (its signature removed: a re-signed URL is the same asset), the
// file's name and its hash. A block whose URL changed (new bytes at the service) is downloaded
// again. A failed or too-large download leaves the signed link in the file and is tried again on
// the next cycle. Downloads are not API requests (the signed URLs point outside the link's path, and
// the service does not count them against the request budget); they run a few at a time.
import { promises as fsp } from 'node:fs';
import { assetFileOf, assetLinkOf, destinationOf, mediaName, unsignedUrl, withDestination, type MediaLink } from '../../core/linkAssets.js';
import { collisionKey, dirOfPath } from '../../core/fileName.js';
import { hashBlock } from '../../core/hashBlock.js';
import type { BaseBlock } from '../../core/types.js';
import { moveFileAtomic, readMirrorFile, removeEmptyDirs, resolveInRoot, writeFileIfUnchanged } from '../../mirror/index.js';
import type { Journal } from '../../journal/index.js';
import { pathExists, type SyncContext } from '../session/index.js';
import { downloadAsset } from './downloadAsset.js';
import { uploadReferences } from './uploadReferences.js';
import { assetStat, reuploadAsset } from './reuploadAsset.js';

/** State key prefix: the downloaded asset of a media block. */
export const MEDIA_BASE = 'media:';

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
  /** Assets not downloaded this cycle, and why (tried again on the next). */
  failed: Array<{ blockId: string; file: string; message: string }>;
  /** Asset files removed with their block. */
  removed: string[];
  /** Local files uploaded as new blocks (media up). */
  uploaded: string[];
  /** Local files referenced and not uploaded, and why. */
  notUploaded: Array<{ path: string; file: string; message: string }>;
}

/** Downloads at once: few, so that they never crowd out the document reads. */
const CONCURRENCY = 3;

/** The media record of a block, for linking (`linkAssets`) and for sending an edit of its line. */
export const mediaRecordOf = (journal: Journal) => (id: string) => journal.getState<MediaRecord>(`${MEDIA_BASE}${id}`);

interface Wanted {
  id: string;
  docId: string;
  docPath: string;
  block: BaseBlock;
  url: string;
  rec: MediaRecord | undefined;
  /** The block's line links the asset already: only its file is written again. */
  restore?: boolean;
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

export async function syncMedia(ctx: SyncContext): Promise<MediaSyncResult> {
  const result: MediaSyncResult = { downloaded: [], linked: [], failed: [], removed: [], uploaded: [], notUploaded: [] };
  if (ctx.readOnly) return result;
  const up = await uploadReferences(ctx);
  result.uploaded = up.uploaded;
  result.notUploaded = up.failed;
  const { journal, root } = ctx;
  const records = new Map(Object.entries(journal.statesWithPrefix<MediaRecord>(MEDIA_BASE)));
  const live = new Set<string>();
  const wanted: Wanted[] = [];
  const replaced: Array<{ docId: string; id: string; rec: MediaRecord }> = [];
  /** Per document: the blocks whose line can link their asset now. */
  const relink = new Map<string, Set<string>>();
  for (const [docId, ids] of journal.documentsWithMedia()) {
    const doc = journal.getDocument(docId);
    if (!doc || doc.fileHash === null) continue;
    // Its file is not where the journal has it (moved or its folder renamed here, not yet pushed):
    // nothing is written beside it, or the old folder would come back and read as never renamed.
    if (!(await pathExists(root, doc.path))) {
      for (const id of ids) live.add(id);
      continue;
    }
    const base = new Map(journal.getBaseBlocks(docId).map((b) => [b.id, b]));
    for (const id of ids) {
      const block = base.get(id);
      if (!block) continue;
      live.add(id);
      let rec = records.get(id);
      // The document's file moved (renamed, or to another folder): its assets move with it.
      if (rec && rec.file !== assetFileOf(doc.path, rec.name)) {
        const to = assetFileOf(doc.path, rec.name);
        const moved = await moveFileAtomic(root, rec.file, to, { ownWrites: ctx.ownWrites }).catch(() => null);
        // Moved with its whole .assets folder already (a file moved here takes it along): the record follows.
        if (moved?.ok || (!(await pathExists(root, rec.file)) && (await pathExists(root, to)))) {
          await removeEmptyDirs(root, dirOfPath(rec.file)).catch(() => []);
          rec = { ...rec, file: to };
          journal.setState(`${MEDIA_BASE}${id}`, rec);
        }
      }
      const url = destinationOf(block.markdown);
      if (url === null) continue;
      if (!/^https?:\/\//i.test(url)) {
        // Linked already; an asset file deleted by hand is downloaded again, from a URL signed anew;
        // one whose stat moved is hashed, and new bytes are uploaded (the block replaced).
        const st = rec ? await assetStat(root, rec.file) : null;
        if (rec && st === null && !(await pathExists(root, rec.file))) {
          const fresh = await freshUrl(ctx, id);
          if (fresh !== null && unsignedUrl(fresh) === rec.url) wanted.push({ id, docId, docPath: doc.path, block, url: fresh, rec, restore: true });
        } else if (rec && st !== null && (st.size !== rec.size || st.mtimeMs !== rec.mtimeMs)) {
          replaced.push({ docId, id, rec });
        }
        continue;
      }
      if (rec && rec.url === unsignedUrl(url) && (await readMirrorFile(root, rec.file))?.hash === rec.hash) {
        journal.setState(`${MEDIA_BASE}${id}`, { ...rec, signedUrl: url });
        relink.set(docId, (relink.get(docId) ?? new Set()).add(id));
      } else {
        wanted.push({ id, docId, docPath: doc.path, block, url, rec });
      }
    }
  }

  for (const r of replaced) {
    if (ctx.signal?.aborted) return result;
    const done = await reuploadAsset(ctx, r.docId, r.id, r.rec);
    if (!done.ok) {
      result.failed.push({ blockId: r.id, file: r.rec.file, message: done.message });
      ctx.logger.warn({ file: r.rec.file, blockId: r.id }, done.message);
    } else if (done.blockId !== r.id) {
      result.uploaded.push(r.rec.file);
      live.add(done.blockId);
    }
  }

  // Downloads, a few at a time; one that fails holds up nothing else.
  let next = 0;
  const worker = async () => {
    while (next < wanted.length && !ctx.signal?.aborted) {
      const w = wanted[next++]!;
      if ((await fetchOne(ctx, result, w)) && !w.restore) relink.set(w.docId, (relink.get(w.docId) ?? new Set()).add(w.id));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, wanted.length) }, worker));

  for (const [docId, ids] of relink) {
    if (await relinkDocument(ctx, docId, ids)) result.linked.push(journal.getDocument(docId)!.path);
  }

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
  return result;
}

/** Downloads one block's asset and records it; false when it was not (logged, tried again next cycle). */
async function fetchOne(ctx: SyncContext, result: MediaSyncResult, w: Wanted): Promise<boolean> {
  const { root, journal } = ctx;
  const dir = assetFileOf(w.docPath, '').slice(0, -1);
  const maxMiB = ctx.settings.assets.maxMiB;
  // The other assets of the document keep their names.
  const taken = new Set(
    [...(journal.documentsWithMedia().get(w.docId) ?? [])]
      .filter((id) => id !== w.id)
      .map((id) => journal.getState<MediaRecord>(`${MEDIA_BASE}${id}`)?.name)
      .filter((n): n is string => n !== undefined)
      .map(collisionKey),
  );
  // An asset the file changed since the sync wrote it is not written over.
  const old = w.rec ? await readMirrorFile(root, w.rec.file) : null;
  if (w.rec && old !== null && old.hash !== w.rec.hash) {
    const message = `"${w.rec.file}" changed since spacesync wrote it, so the new version from the space was not written over it; move or delete it and the next cycle downloads the space's version.`;
    result.failed.push({ blockId: w.id, file: w.rec.file, message });
    ctx.logger.warn({ file: w.rec.file }, message);
    return false;
  }
  let name = '';
  const d = await downloadAsset(
    root,
    w.url,
    dir,
    (ext) => (name = w.rec && w.rec.name.endsWith(ext) ? w.rec.name : mediaName({ id: w.id, type: w.block.type, markdown: w.block.markdown }, ext, taken)),
    { maxBytes: maxMiB * 1024 * 1024, ownWrites: ctx.ownWrites, ...(ctx.signal ? { signal: ctx.signal } : {}) },
  );
  const label = `${dir}/${name || `(${w.block.type} ${w.id})`}`;
  if (!d.ok) {
    const message =
      d.reason === 'too_large'
        ? `The ${w.block.type} asset for "${label}" was not downloaded: it is ${(d.size / 1024 / 1024).toFixed(1)} MiB, more than assets.maxMiB (${maxMiB} MiB). The document keeps its link to the space; raise assets.maxMiB in .spacesync/config.json to download it.`
        : `The ${w.block.type} asset for "${label}" was not downloaded (${d.message}). The document keeps its link to the space; the next cycle tries again.`;
    result.failed.push({ blockId: w.id, file: label, message });
    ctx.logger.warn({ file: label, blockId: w.id }, message);
    return false;
  }
  const file = d.file!;
  if (w.rec && w.rec.file !== file && old !== null) {
    ctx.ownWrites.note(w.rec.file, null);
    await fsp.rm(resolveInRoot(root, w.rec.file), { force: true });
  }
  const rec: MediaRecord = { docId: w.docId, name, file, hash: d.hash, url: unsignedUrl(w.url), signedUrl: w.url, ...(await assetStat(root, file)) };
  journal.setState(`${MEDIA_BASE}${w.id}`, rec);
  result.downloaded.push(file);
  return true;
}

/**
 * Points the lines of `ids` in the document's file at their downloaded assets, and records the
 * linked lines as the base (the same text the pull's `linkAssets` gives the service's blocks, so
 * nothing is sent). Only a file that still holds what the sync last wrote: one edited meanwhile is
 * linked on a later cycle.
 */
async function relinkDocument(ctx: SyncContext, docId: string, ids: ReadonlySet<string>): Promise<boolean> {
  const { journal, root } = ctx;
  const doc = journal.getDocument(docId);
  if (!doc || doc.fileHash === null) return false;
  const existing = await readMirrorFile(root, doc.path);
  if (existing === null || existing.text === null || existing.hash !== doc.fileHash) return false;
  let text = existing.text;
  let changed = false;
  const base = journal.getBaseBlocks(docId).map((b) => {
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
  if (!changed) return false;
  const w = await writeFileIfUnchanged(root, doc.path, text, existing.hash, { ownWrites: ctx.ownWrites });
  if (!w.written) return false;
  journal.transaction(() => {
    journal.upsertDocument({ ...doc, fileHash: w.hash });
    journal.replaceBaseBlocks(docId, base);
  });
  return true;
}

// Uploads an earlier run sent without recording their answers (it was killed, or the connection
// reset after the service applied one). `POST /upload` cannot be told apart from a fresh one by its
// request, so it is never sent again blindly, nor merged in as a second line: the document is read,
// the media blocks the base does not know are looked at, nearest to where the upload was aimed first
// (core/media/uploadCandidates), and their assets, at the URLs the service gave them, are hashed. The one
// holding the file's bytes is the upload: adopted as its answer would have been recorded (the line
// as the file has it in the base, the media record; for a replaced asset, the old block deleted).
// None: the upload never landed; the intent goes and the media step uploads the file as usual.
import { createHash } from 'node:crypto';
import { hashBlock } from '../../core/merge/hashBlock.js';
import { insertBase } from '../../core/merge/baseAfter.js';
import { unsignedUrl } from '../../core/media/linkAssets.js';
import { uploadCandidates, type UploadCandidate } from '../../core/media/uploadCandidates.js';
import type { Block } from '../../dialect/index.js';
import { isSpacesyncError } from '../../errors.js';
import type { Intent } from '../../journal/index.js';
import { readMirrorFile } from '../../mirror/index.js';
import { isUploadIntent, payloadOf, type UploadPayload } from './uploadIntent.js';
import { MEDIA_BASE, type MediaRecord, type SyncContext } from '../context/index.js';
import { assetStat } from './reuploadAsset.js';
import { markUploadsPending } from './uploadReferences.js';
import { markAltTextUnsent, sendAltText } from './uploadAltText.js';

const FETCH_TIMEOUT_MS = 60_000;

/** sha256 of the asset at `url`, when it is `size` bytes long; null when it is not, or cannot be read. */
async function remoteHash(url: string, size: number, signal: AbortSignal | undefined): Promise<string | null> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.any([AbortSignal.timeout(FETCH_TIMEOUT_MS), ...(signal ? [signal] : [])]) });
  } catch {
    return null;
  }
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (!res.ok || !res.body || (Number.isFinite(declared) && declared !== size)) {
    await res.body?.cancel().catch(() => undefined);
    return null;
  }
  const hash = createHash('sha256');
  let n = 0;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      n += chunk.byteLength;
      if (n > size) {
        await res.body.cancel().catch(() => undefined);
        return null;
      }
      hash.update(chunk);
    }
  } catch {
    return null;
  }
  return n === size ? hash.digest('hex') : null;
}

export interface UploadResolution {
  /** Asset files whose upload had landed: adopted, not sent again. */
  adopted: string[];
  /** Asset files whose upload never landed: uploaded as usual by the media step. */
  resend: string[];
}

/**
 * Resolves the pending upload intents (the push runs it first, before any document is merged).
 * A document that cannot be read throws (the cycle stops there; the intents wait for the next).
 */
export async function resolveUploads(ctx: SyncContext, intents: readonly Intent[]): Promise<UploadResolution> {
  const { journal } = ctx;
  const out: UploadResolution = { adopted: [], resend: [] };
  const byDoc = new Map<string, Intent[]>();
  for (const i of intents) if (isUploadIntent(i)) byDoc.set(i.docId!, [...(byDoc.get(i.docId!) ?? []), i]);
  for (const [docId, list] of byDoc) {
    if (ctx.signal?.aborted) break;
    let root: Block | null = null;
    if (journal.getDocument(docId)) {
      try {
        root = await ctx.client.getBlocks({ id: docId }, { priority: 'user' });
      } catch (e) {
        if (!isSpacesyncError(e, 'not_found')) throw e;
      }
    }
    if (root === null) {
      // The document is gone (here or there): so is whatever landed in it.
      journal.transaction(() => list.forEach((i) => journal.clearIntent(i.id)));
      continue;
    }
    /** Blocks adopted for earlier intents of the document (two uploads of the same bytes are two blocks). */
    const taken = new Set<string>();
    for (const intent of list) {
      const p = payloadOf(intent)!;
      const known = new Set([...journal.getBaseBlocks(docId).map((b) => b.id), ...taken]);
      let found: UploadCandidate | undefined;
      for (const c of uploadCandidates(root, known, p.target, p.type)) {
        if (ctx.signal?.aborted) return out;
        if ((await remoteHash(c.url, p.size, ctx.signal)) === p.sha256) {
          found = c;
          break;
        }
      }
      if (!found) {
        journal.transaction(() => {
          journal.clearIntent(intent.id);
          // A new reference is uploaded by this cycle's media step; a replaced file is told by its stat.
          if (p.replaces === undefined) markUploadsPending(journal, docId);
        });
        out.resend.push(p.file);
        ctx.logger.info({ file: p.file, doc: p.path }, `the upload of ${p.file} an earlier run sent did not land; it is sent again`);
        continue;
      }
      taken.add(found.id);
      const adopted = p.replaces !== undefined ? await adoptReplacement(ctx, docId, intent, p, found, root) : await adoptNew(ctx, docId, intent, p, found);
      if (adopted) {
        out.adopted.push(p.file);
        ctx.logger.info(
          { file: p.file, blockId: found.id, doc: p.path },
          `the upload of ${p.file} an earlier run sent had landed: block ${found.id} taken as it`,
        );
      }
    }
  }
  return out;
}

/** The stat a media record keeps, only while the file still holds the bytes uploaded (else the next cycle sees it replaced). */
async function statIfSame(ctx: SyncContext, file: string, sha256: string): Promise<{ size: number; mtimeMs: number } | Record<string, never>> {
  const now = await readMirrorFile(ctx.root, file);
  return now?.hash === sha256 ? ((await assetStat(ctx.root, file)) ?? {}) : {};
}

async function adoptNew(ctx: SyncContext, docId: string, intent: Intent, p: UploadPayload, found: UploadCandidate): Promise<boolean> {
  const { journal } = ctx;
  if (p.markdown === undefined || p.name === undefined) {
    journal.clearIntent(intent.id);
    return false;
  }
  // The adopted block has the service's alt text: the line's goes after it, as its answer would have sent it.
  const { recorded: markdown, sent } = await sendAltText(ctx, { id: found.id, type: p.type, markdown: p.markdown, file: p.file, assetUrl: found.url });
  const base = insertBase(
    journal.getBaseBlocks(docId),
    { id: found.id, parentId: p.parentId ?? null, kind: 'block', type: p.type, markdown, hash: hashBlock(markdown, 'block') },
    p.after ?? null,
  );
  const rec: MediaRecord = {
    docId,
    name: p.name,
    file: p.file,
    hash: p.sha256,
    url: unsignedUrl(found.url),
    signedUrl: found.url,
    ...(p.own ? {} : { uploaded: true as const }),
    ...(await statIfSame(ctx, p.file, p.sha256)),
  };
  journal.transaction(() => {
    journal.replaceBaseBlocks(docId, base);
    journal.setState(`${MEDIA_BASE}${found.id}`, rec);
    journal.clearIntent(intent.id);
    if (!sent) markAltTextUnsent(ctx, docId);
  });
  return true;
}

async function adoptReplacement(ctx: SyncContext, docId: string, intent: Intent, p: UploadPayload, found: UploadCandidate, root: Block): Promise<boolean> {
  const { journal } = ctx;
  const old = p.replaces!;
  const base = journal.getBaseBlocks(docId);
  const rec = journal.getState<MediaRecord>(`${MEDIA_BASE}${old}`);
  if (!base.some((b) => b.id === old) || !rec) {
    // The block it replaced is no longer the base's: the merge takes the document as it is.
    journal.clearIntent(intent.id);
    return false;
  }
  const present = (b: Block): boolean => b.id === old || (b.content ?? []).some(present);
  if (present(root)) {
    try {
      await ctx.client.deleteBlocks({ blockIds: [old] }, { priority: 'user' });
    } catch (e) {
      if (!isSpacesyncError(e, 'not_found')) throw e;
    }
  }
  const line = base.find((b) => b.id === old)!;
  const alt = await sendAltText(ctx, { id: found.id, type: p.type, markdown: line.markdown, file: p.file, assetUrl: found.url });
  const next = base.map((b) => (b.id === old ? { ...b, id: found.id, markdown: alt.recorded, hash: hashBlock(alt.recorded, b.kind) } : b));
  const moved: MediaRecord = { ...rec, hash: p.sha256, url: unsignedUrl(found.url), signedUrl: found.url };
  delete moved.size;
  delete moved.mtimeMs;
  Object.assign(moved, await statIfSame(ctx, p.file, p.sha256));
  journal.transaction(() => {
    journal.replaceBaseBlocks(docId, next);
    journal.deleteState(`${MEDIA_BASE}${old}`);
    journal.setState(`${MEDIA_BASE}${found.id}`, moved);
    journal.clearIntent(intent.id);
    if (!alt.sent) markAltTextUnsent(ctx, docId);
  });
  return true;
}

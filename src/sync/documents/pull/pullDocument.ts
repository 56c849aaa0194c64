// Pulls one document: reads its blocks, brings its file up to date (a new file, or only the
// changed blocks' ranges of an untouched one; nothing when nothing changed), then records the new
// base, the remote lastModifiedAt and the file's hash: the journal follows what is on disk.
import type { Priority } from '../../../client/index.js';
import { sameContent } from '../../../core/merge/blockContent.js';
import { parseFrontMatter, type FrontMatterFields } from '../../../core/files/frontMatter.js';
import { collectionRowsOf, type CollectionRows } from '../../../core/collections/collectionRowsOf.js';
import { flattenRemote } from '../../../core/pull/flattenRemote.js';
import { hashBlock } from '../../../core/merge/hashBlock.js';
import { needsTitle } from '../../../core/pull/layout.js';
import type { BaseBlock } from '../../../core/types.js';
import { markdownEquals, segmentFile, type Block, type Segment } from '../../../dialect/index.js';
import { isSpacesyncError } from '../../../errors.js';
import type { DocumentRecord } from '../../../journal/index.js';
import { readMirrorFile, undecodableMessage, writeFileIfUnchanged, type MirrorFileContent } from '../../../mirror/index.js';
import { noteReadOnlyBlocks } from '../readOnlyBlocks.js';
import {
  linkTargetsOf,
  mediaRecordOf,
  recordCollectionRows,
  saveLocalVersion,
  statOwnWrite,
  type ArrivedAssets,
  type OwnWrite,
  type PullSteps,
  type SyncContext,
} from '../../context/index.js';
import { composeFile, frontMatterParts, withFrontMatter } from '../../../core/files/fileText.js';
import { keepSignedUrls, linkAssets } from '../../../core/media/linkAssets.js';
import { linkDocuments } from '../../../core/links/linkDocuments.js';
import type { RemoteDocument } from '../../../core/remoteTypes.js';
import { spliceFile } from '../../../core/pull/spliceFile.js';

export type PullOutcome =
  /** The file was written: a new file, blocks replaced in place, or the body rendered whole. */
  | { kind: 'written'; path: string; mode: 'new' | 'splice' | 'render'; overwrote?: boolean }
  /** The file already said what the service says: nothing written, the base recorded. */
  | { kind: 'unchanged'; path: string }
  /** The file changed on disk since the daemon last wrote it: left exactly as it is. */
  | { kind: 'localPending'; path: string; reason: 'edited' | 'missing' | 'unrecorded' }
  /** The file cannot be written where it belongs. */
  | { kind: 'blocked'; path: string; message: string }
  /** The document disappeared between the listing and the read. */
  | { kind: 'gone'; path: string };

export interface PullOptions {
  priority: Priority;
  /**
   * How the new base is committed, once the file is on disk: at once by default; a cycle passes
   * a group commit, and waits for it before it ends.
   */
  commit?: (write: () => void) => Promise<void>;
  /**
   * Backup mode: the space's version is written over the file even though it changed (or went)
   * here; what the file held is kept in the version history first.
   */
  overwrite?: boolean;
  /**
   * Awaited once the answer is in, before the file is looked at: edits saved meanwhile are pushed
   * first (the daemon's), and the document is then read against the record they left. True when
   * such a push ran while the read was out.
   */
  answered?: () => Promise<boolean>;
  /** Told of the file written, with its stat (the stat cache records it once the pull is over). */
  wrote?: (w: OwnWrite) => void;
}

/** A document read: its record, the answer as the file and the base will have it, and the file as it was after the answer. */
interface PulledRead {
  remote: RemoteDocument;
  record: DocumentRecord;
  path: string;
  /** The journal holds the file's hash (it was written before). */
  recorded: boolean;
  oldBase: readonly BaseBlock[];
  block: Block;
  base: BaseBlock[];
  rows: CollectionRows[];
  want: FrontMatterFields;
  existing: Extract<MirrorFileContent, { text: string }> | null;
  arrived: ArrivedAssets | null;
}

/** The text the file gets, and how it was made. */
type FileText = { text: string; mode: 'new' | 'splice' | 'render' };

/** `steps`: the media slice's, for the document's assets (the cycle's). */
export async function pullDocument(ctx: SyncContext, remote: RemoteDocument, opts: PullOptions, steps: PullSteps): Promise<PullOutcome> {
  const { priority } = opts;
  const { journal, root } = ctx;
  const record = journal.getDocument(remote.id);
  if (!record) throw new Error(`pullDocument: ${remote.id} has no journal record; applyLayout records it first`);
  const path = record.path;
  const recorded = record.fileHash !== null;
  const oldBase = recorded ? journal.getBaseBlocks(remote.id) : [];

  let root0;
  try {
    root0 = await ctx.client.getBlocks({ id: remote.id }, { priority, ...(oldBase.length ? { blockCost: oldBase.length + 1 } : {}) });
  } catch (e) {
    if (isSpacesyncError(e, 'not_found')) return { kind: 'gone', path };
    throw e;
  }
  if (await opts.answered?.()) {
    // A push of saved files recorded this document while its read was out: it merged the edit with
    // the space then, so the journal and the file are in step with it; a later change shows in the
    // next listing. This answer (perhaps older than that push) is not applied over it.
    const now = journal.getDocument(remote.id);
    if (now && (now.fileHash !== record.fileHash || now.path !== record.path || now.remoteModifiedAt !== record.remoteModifiedAt))
      return { kind: 'unchanged', path: now.path };
  }
  // A whiteboard shows as a link to its scene file beside the document (syncWhiteboards writes the
  // file), a media block as a link to its asset once downloaded (syncMedia downloads it), a link to
  // another document or a day as a relative link to its file.
  // A new document's assets that come in within a moment are linked in its file as it is first written.
  const arrived = recorded ? null : await steps.awaitNewAssets(ctx, remote.id, path, root0);
  const recordOf = mediaRecordOf(journal);
  const media = arrived ? (id: string) => arrived.records.get(id) ?? recordOf(id) : recordOf;
  const block = linkDocuments(linkAssets(keepSignedUrls(root0, oldBase), path, media), path, linkTargetsOf(journal));
  const flat = flattenRemote(block);
  noteReadOnlyBlocks(ctx, path, flat);
  const base: BaseBlock[] = flat.map(({ readOnly: _r, ...b }) => ({ ...b, hash: hashBlock(b.markdown, b.kind, b.cardLayout) }));
  const rows = collectionRowsOf(block, base);
  const want = { id: remote.id, title: needsTitle(remote.title, path) ? remote.title : undefined };

  // The file is read after the answer arrives, so an edit made while the request was out is seen.
  const existing = await readMirrorFile(root, path);
  // A file that is not UTF-8 text is the user's to save again: never written over.
  if (existing?.text === null) {
    await arrived?.discard();
    if (recorded) return { kind: 'localPending', path, reason: 'edited' };
    return { kind: 'blocked', path, message: `${undecodableMessage(path, existing.undecodable)} The document "${remote.title}" is written there once it is.` };
  }
  const read: PulledRead = { remote, record, path, recorded, oldBase, block, base, rows, want, existing, arrived };
  const next = await textOf(ctx, read, opts);
  if ('kind' in next) return next;
  return writePulled(ctx, read, next, opts, steps);
}

/**
 * The file's text to write and how it was made: the space's version rendered whole (backup mode over a
 * change here), the changed blocks spliced into an untouched file, or a new file; else what the pull
 * does instead (the file changed here, or is not this document's).
 */
async function textOf(ctx: SyncContext, read: PulledRead, opts: PullOptions): Promise<FileText | PullOutcome> {
  const { remote, record, path, recorded, oldBase, block, base, rows, want, existing, arrived } = read;
  if (recorded && opts.overwrite && (existing === null || existing.hash !== record.fileHash)) {
    const text = composeFile(block, want);
    if (existing !== null && existing.text !== text)
      await saveLocalVersion(ctx, { path, docId: remote.id, text: existing.text, replacement: text, cause: 'backup' });
    return { text, mode: 'render' };
  } else if (recorded) {
    if (existing === null) return { kind: 'localPending', path, reason: 'missing' };
    if (existing.hash !== record.fileHash) {
      // Changed since the daemon wrote it, but saying just what the service says now (the same
      // edit made on both sides, or a run stopped between writing and recording): taken as is.
      if (!saysRemote(existing.text, base, want, path)) return { kind: 'localPending', path, reason: 'edited' };
      const write = () => recordPulled(ctx, record, remote, base, existing.hash, rows);
      if (opts.commit) await opts.commit(write);
      else write();
      return { kind: 'unchanged', path };
    }
    const splice = spliceFile(existing.text, oldBase, base, block);
    const fm = withFrontMatter(splice.text, want, path);
    if (!fm.ok) return { kind: 'blocked', path, message: fm.problem };
    return { text: fm.text, mode: splice.mode };
  } else {
    const text = composeFile(block, want);
    if (existing !== null && existing.text !== text) {
      await arrived?.discard();
      const fm = parseFrontMatter(frontMatterParts(existing.text)?.inner, path);
      // Our own file from a run stopped before it was recorded, changed since: the merge decides.
      if (fm.ok && fm.id === remote.id) return { kind: 'localPending', path, reason: 'unrecorded' };
      return {
        kind: 'blocked',
        path,
        message: `"${path}" already exists and is not the file of document "${remote.title}" (${remote.id}), so it was not overwritten. Rename or move that file; the document is written there on the next cycle.`,
      };
    }
    return { text, mode: 'new' };
  }
}

/** Writes the file (only over what was read) and records the document's new base with the file's hash. */
async function writePulled(ctx: SyncContext, read: PulledRead, { text, mode }: FileText, opts: PullOptions, steps: PullSteps): Promise<PullOutcome> {
  const { journal, root } = ctx;
  const { remote, record, path, recorded, base, rows, existing, arrived } = read;
  let fileHash: string;
  let outcome: PullOutcome;
  await arrived?.place();
  if (existing !== null && existing.text === text) {
    fileHash = existing.hash;
    outcome = { kind: 'unchanged', path };
  } else {
    // Only over what was read: an editor's save that lands meanwhile is the merge's, not overwritten.
    let w: Awaited<ReturnType<typeof writeFileIfUnchanged>>;
    try {
      w = await writeFileIfUnchanged(root, path, text, existing?.hash ?? null, { ownWrites: ctx.ownWrites });
    } catch (e) {
      // A symbolic link on the way (made since the plan looked): never written through.
      if (!isSpacesyncError(e, 'mirror_symlink')) throw e;
      await arrived?.discard();
      return { kind: 'blocked', path, message: e.message };
    }
    if (!w.written) return { kind: 'localPending', path, reason: recorded ? (w.now === null ? 'missing' : 'edited') : 'unrecorded' };
    fileHash = w.hash;
    if (opts.wrote) {
      const own = await statOwnWrite(ctx, path, w.hash);
      if (own) opts.wrote(own);
    }
    outcome = { kind: 'written', path, mode, ...(opts.overwrite && recorded ? { overwrote: true } : {}) };
  }
  // Its assets not downloaded yet start coming in now, beside the rest of the pull (a new
  // document's were asked for above).
  if (!arrived) steps.prefetchAssets(ctx, remote.id, base);
  const write = () =>
    journal.transaction(() => {
      recordPulled(ctx, record, remote, base, fileHash, rows);
      arrived?.record();
    });
  if (opts.commit) await opts.commit(write);
  else write();
  return outcome;
}

const flatten = (segs: readonly Segment[]): Segment[] => segs.flatMap((s) => [s, ...flatten(s.children)]);

/** Whether `text` is this document's file holding exactly the blocks of `base` (canonically, media signatures aside). */
function saysRemote(text: string, base: readonly BaseBlock[], want: FrontMatterFields, path: string): boolean {
  const fm = withFrontMatter(text, want, path);
  if (!fm.ok || fm.text !== text) return false;
  const segments = flatten(segmentFile(text).segments);
  return (
    segments.length === base.length &&
    segments.every((s, i) => s.kind === base[i]!.kind && sameContent(base[i]!.type, s.markdown, base[i]!.markdown, markdownEquals))
  );
}

function recordPulled(
  ctx: SyncContext,
  record: DocumentRecord,
  remote: RemoteDocument,
  base: readonly BaseBlock[],
  fileHash: string,
  rows: readonly CollectionRows[],
): void {
  ctx.journal.transaction(() => {
    // The path as it is now: a folder renamed while this document was out moved its file too.
    const path = ctx.journal.getDocument(record.id)?.path ?? record.path;
    ctx.journal.upsertDocument({
      id: record.id,
      path,
      title: remote.title,
      location: record.location,
      folderId: record.folderId,
      dailyNoteDate: record.dailyNoteDate,
      remoteModifiedAt: remote.lastModifiedAt,
      createdAt: remote.createdAt,
      fileHash,
    });
    ctx.journal.replaceBaseBlocks(record.id, base);
    // Which row of each collection table is which item (the push of a table reads it).
    recordCollectionRows(ctx, record.id, rows);
  });
}

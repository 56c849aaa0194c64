// Records one document once its requests went through: the new base from the answers (new ids, the
// service's canonical markdown), its place and title, the file's hash, and the intents cleared, in
// one transaction. The file is rewritten only where the merge or the service's normalisation
// changed it, and only when nobody touched it meanwhile; a file edited during its own push keeps
// its intents, so the next cycle reads the document again and merges the newer text.
import { baseAfter } from '../../../core/merge/baseAfter.js';
import { stemOfPath } from '../../../core/files/fileName.js';
import { idSuffix, needsTitle } from '../../../core/pull/layout.js';
import { docRef } from '../../../core/push/plan.js';
import type { BlockConflict } from '../../../core/merge/merge.js';
import type { Block } from '../../../dialect/index.js';
import type { DocumentRecord } from '../../../journal/index.js';
import { freeConflictCopyPath, linkOnTheWay, moveFileAtomic, readMirrorFile, writeFileAtomic, writeFileIfUnchanged } from '../../../mirror/index.js';
import type { SyncContext } from '../../context/index.js';
import { alignFile } from '../../../core/merge/alignFile.js';
import { bodyOf, withFrontMatter } from '../../../core/files/fileText.js';
import { forgetRestoredBlocks, linkTargetsOf, pathExists, saveLocalVersion, UNSENT } from '../../context/index.js';
import { linkMarkdown, type LinkTargets } from '../../../core/links/linkDocuments.js';
import { markAnchors } from '../../../core/links/planAnchors.js';
import type { DocumentTask } from './PushPlan.js';
import { isSpacesyncError } from '../../../errors.js';
import { renderMerged } from '../../../core/merge/renderMerged.js';
import { readOnlyBlocks } from '../readOnlyBlocks.js';

export interface DocumentOutcome {
  id: string;
  path: string;
  /** 'recorded': in step; 'pending': left for the next cycle (edited meanwhile, or an answer did not name a new block). */
  state: 'recorded' | 'pending';
  fileWritten: boolean;
  conflicts: BlockConflict[];
  conflictCopy: string | null;
}

export interface RunState {
  /** Ids the answers gave for refs. */
  ids: Map<string, string>;
  /** The service's markdown of each block its answers held. */
  answered: Map<string, string>;
  /** Titles read for documents created this run (daily notes). */
  titles: Map<string, string>;
  /** Intents of this run, per document (id or ref). */
  intents: Map<string, number[]>;
}

/** Where the mirror holds each document, the ones this run created included (their files, by the refs the answers resolved). */
function runTargets(journal: SyncContext['journal'], run: RunState): LinkTargets {
  const targets = linkTargetsOf(journal);
  const prefix = docRef('');
  const created = new Map([...run.ids].filter(([ref]) => ref.startsWith(prefix)).map(([ref, id]) => [id, ref.slice(prefix.length)]));
  return { ...targets, pathOf: (id) => targets.pathOf(id) ?? created.get(id) };
}

/** The answers' markdown as the file at `path` shows it: links to other documents and days relative to it. */
const linkedAnswers = (answered: ReadonlyMap<string, string>, path: string, targets: LinkTargets): Pick<ReadonlyMap<string, string>, 'get'> => ({
  get: (id) => {
    const md = answered.get(id);
    return md === undefined ? undefined : linkMarkdown(md, path, targets);
  },
});

/** A free record path in Trash/ for a document whose file is gone (the pull writes it there). */
export function trashPath(ctx: SyncContext, r: Pick<DocumentRecord, 'id' | 'path'>): string {
  const stem = stemOfPath(r.path);
  for (const candidate of [`Trash/${stem}.md`, `Trash/${stem} (${idSuffix(r.id)}).md`]) {
    const holder = ctx.journal.getDocumentByPath(candidate);
    if (!holder || holder.id === r.id) return candidate;
  }
  return `Trash/${stem} (${r.id}).md`;
}

/** Writes the local version of a conflicting file beside it, before anything is sent (nothing of it can be lost). */
export async function writeConflictCopy(ctx: SyncContext, relPath: string, text: string): Promise<string> {
  const copy = freeConflictCopyPath(ctx.root, relPath, ctx.now());
  await writeFileAtomic(ctx.root, copy, text, { ownWrites: ctx.ownWrites });
  return copy;
}

export async function finalizeDocument(ctx: SyncContext, t: DocumentTask, run: RunState, conflictCopy: string | null): Promise<DocumentOutcome> {
  const { journal } = ctx;
  const id = run.ids.get(t.doc) ?? t.doc;
  const resolve = (x: string | null) => (x === null ? null : (run.ids.get(x) ?? x));
  const intents = [...t.settles, ...(run.intents.get(t.doc) ?? [])];
  const out: DocumentOutcome = { id, path: t.next.path, state: 'recorded', fileWritten: false, conflicts: t.file?.merge.conflicts ?? [], conflictCopy };
  const r = t.record;
  const fields = {
    id,
    title: run.titles.get(id) ?? t.next.title,
    location: t.next.location,
    folderId: resolve(t.next.folderId),
    dailyNoteDate: t.next.dailyNoteDate,
    createdAt: r?.createdAt ?? null,
    remoteModifiedAt: t.remoteModifiedAt,
  };
  const clear = () => intents.forEach((i) => journal.clearIntent(i));
  const details = { blocks: out.conflicts, ...(t.decision.titleConflict ? { title: t.decision.titleConflict } : {}) };

  if (t.local === null || t.decision.rewrite) return recordGone(ctx, t, out, fields, clear);

  // The answers link other documents by id (`block://`); the file and base show them relatively, and
  // a block other files link to with its marker, which the answers never hold.
  const targets = runTargets(journal, run);
  const after = t.file ? baseAfter(t.file.changes, t.doc, run.ids, linkedAnswers(run.answered, t.next.path, targets)) : t.base;
  const base = after && t.file ? [...markAnchors(after, (blockId) => targets.anchorOf?.(blockId))] : after;
  if (!base) {
    // An answer did not name a new block: the intents stay, the next cycle reads the document and merges.
    out.state = 'pending';
    return out;
  }
  const local = t.local;
  let target = t.file?.merge.fileChanged ? renderMerged(local, t.file.merge.nodes, t.remote?.byId ?? new Map<string, Block>()) : local.text;
  // The front matter names the document (a new file gets its id) and its title when the name cannot carry it.
  const fm = withFrontMatter(target, { id, title: needsTitle(fields.title, t.next.path) ? fields.title : undefined }, t.next.path);
  if (fm.ok) target = fm.text;
  const alignment = alignFile(target, base, readOnlyBlocks(ctx));
  target = alignment.text;

  const written = await writeFinal(ctx, local, r, id, target, conflictCopy, out);
  const linked = written.linked;
  let fileHash = written.fileHash;
  if (fileHash === null) {
    if (linked || t.file?.merge.fileChanged || !(await pathExists(ctx.root, local.path))) {
      // Edited (or removed) while its push was out, and the merge had more for the file: read again next cycle.
      out.state = 'pending';
      journal.transaction(() => {
        if (r === null) journal.upsertDocument({ ...fields, path: local.path, fileHash: UNSENT });
        if (out.conflictCopy) journal.addConflict({ docId: id, path: local.path, copyPath: out.conflictCopy, details });
      });
      return out;
    }
    // The newer text builds on what was sent: the next cycle sends the difference.
    fileHash = local.hash;
  }
  if (!alignment.aligned) fileHash = UNSENT;

  journal.transaction(() => {
    journal.upsertDocument({ ...fields, path: local.path, fileHash });
    if (t.file) journal.replaceBaseBlocks(id, base);
    // A restore's note of fields to send went with this push (withRestoredFields).
    forgetRestoredBlocks(journal, id);
    clear();
    if (out.conflictCopy) journal.addConflict({ docId: id, path: local.path, copyPath: out.conflictCopy, details });
  });
  return out;
}

/** The file is gone (to the trash), or the service's version comes back over a delete: only the record changes. */
async function recordGone(
  ctx: SyncContext,
  t: DocumentTask,
  out: DocumentOutcome,
  fields: Omit<DocumentRecord, 'path' | 'fileHash' | 'syncedAt'>,
  clear: () => void,
): Promise<DocumentOutcome> {
  const { journal } = ctx;
  const r = t.record;
  const id = fields.id;
  let p = t.next.path;
  let fileHash: string | null = null;
  if (t.local && r && t.local.path !== r.path && !(await pathExists(ctx.root, r.path))) {
    // Trashed here against an edit there: the file goes back where it was, for the pull to update.
    const moved = await moveFileAtomic(ctx.root, t.local.path, r.path, { ownWrites: ctx.ownWrites });
    if (moved.ok) {
      p = r.path;
      fileHash = r.fileHash;
    }
  }
  if (fileHash === null && t.next.location === 'trash') p = trashPath(ctx, { id, path: p });
  out.path = p;
  journal.transaction(() => {
    journal.upsertDocument({ ...fields, path: p, fileHash });
    clear();
  });
  return out;
}

/**
 * Writes the new text over the bytes planned from, the user's kept as a version first. `fileHash`:
 * null while the file is not known to hold what was planned; `linked`: a symbolic link is on the way.
 */
async function writeFinal(
  ctx: SyncContext,
  local: NonNullable<DocumentTask['local']>,
  r: DocumentRecord | null,
  id: string,
  target: string,
  conflictCopy: string | null,
  out: DocumentOutcome,
): Promise<{ fileHash: string | null; linked: boolean }> {
  // A folder on the way replaced by a symbolic link since the scan: nothing is read or written
  // through it, and the document waits with its intents (the next cycle holds the folder back).
  let linked = linkOnTheWay(ctx.root, local.path) !== null;
  const now = linked ? null : await readMirrorFile(ctx.root, local.path);
  // Null while the file is not known to hold what was planned: edited (or removed) since it was read.
  let fileHash: string | null = null;
  if (now !== null && now.hash === local.hash) {
    if (target === local.text) fileHash = local.hash;
    else {
      // The user's bytes (not the sync's own) whose blocks change are kept as a version first.
      if ((r === null || local.hash !== r.fileHash) && bodyOf(target) !== bodyOf(local.text)) {
        await saveLocalVersion(ctx, { path: local.path, docId: id, text: local.text, replacement: target, cause: conflictCopy ? 'conflict' : 'merge' });
      }
      // Only over the bytes planned from: a save that lands while the new text is written wins.
      const w = await writeFileIfUnchanged(ctx.root, local.path, target, local.hash, { ownWrites: ctx.ownWrites }).catch((e: unknown) => {
        if (!isSpacesyncError(e, 'mirror_symlink')) throw e;
        linked = true; // made a link between the look above and the write
        return null;
      });
      if (w?.written) {
        fileHash = w.hash;
        out.fileWritten = true;
      }
    }
  }
  return { fileHash, linked };
}

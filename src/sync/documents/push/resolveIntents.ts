// Requests an earlier run sent without recording their answers (it was killed, or the request
// failed half way). Nothing is sent again blindly: a document's own requests make it read again
// and merged (the merge recognises what already landed, so nothing is duplicated); a document or
// folder that may have been created is looked for in the space and adopted when it is there.
import type { Intent, ListingEntry } from '../../../journal/index.js';
import { pathExists, UNSENT, type SyncContext } from '../../context/index.js';
import { movedCreateOf, readingOf, type FileReading } from '../../../core/files/localChange.js';
import { isInTasksDir } from '../../../core/tasks/taskFiles.js';
import { readMirrorFile, scanMirror, writeFileIfUnchanged } from '../../../mirror/index.js';
import { withFrontMatter } from '../../../core/files/fileText.js';
import { flattenFolders } from '../../../core/pull/flattenFolders.js';
import { placementOf } from '../../../core/remoteTypes.js';

export interface IntentResolution {
  /** Documents to read again and merge, with the intents their push settles. */
  forced: Map<string, number[]>;
  /** Paths of documents and folders that had been created and are now recorded. */
  adopted: string[];
}

interface Payload {
  step?: { method: string; path: string; body?: Record<string, unknown> };
  paths?: string[];
  /** The bytes each file held when its document was created (null: not a file's create). */
  hashes?: Array<string | null>;
}

export async function resolveIntents(ctx: SyncContext, intents: readonly Intent[], listing: ReadonlyMap<string, ListingEntry>): Promise<IntentResolution> {
  const { journal } = ctx;
  const out: IntentResolution = { forced: new Map(), adopted: [] };
  const known = new Set(journal.listDocuments().map((d) => d.id));
  const force = (id: string, intent?: number) => out.forced.set(id, [...(out.forced.get(id) ?? []), ...(intent === undefined ? [] : [intent])]);
  let folders: ReturnType<typeof flattenFolders>['folders'] | undefined;
  const adopt = (id: string, path: string, title: string, placement: ReturnType<typeof placementOf>) => {
    journal.transaction(() => {
      journal.upsertDocument({ id, path, title, ...placement, remoteModifiedAt: null, createdAt: null, fileHash: UNSENT });
      journal.replaceBaseBlocks(id, []);
    });
    known.add(id);
    force(id);
    out.adopted.push(path);
  };

  for (const intent of intents) {
    if (intent.docId !== null) {
      force(intent.docId, intent.id);
      continue;
    }
    const { step, paths = [], hashes = [] } = (intent.payload ?? {}) as Payload;
    const body = step?.body ?? {};
    const op = step ? `${step.method} ${step.path}` : intent.op;
    if (op === 'POST /documents') {
      const titles = ((body.documents ?? []) as Array<{ title: string }>).map((d) => d.title);
      const dest = (body.destination ?? { destination: 'unsorted' }) as { destination?: string; folderId?: string };
      for (const [i, p] of paths.entries()) {
        if (journal.getDocumentByPath(p) || (dest.folderId !== undefined && !journal.getFolder(dest.folderId))) continue;
        const found = [...listing].find(([id, e]) => !known.has(id) && e.title === titles[i]);
        if (!found) continue;
        // Moved before its id was written into it: the file gets its id now, as the create would
        // have given it, so the scan pairs it as this document moved (not a new one, a copy).
        if (!(await pathExists(ctx.root, p))) await claimMovedCreate(ctx, found[0], { path: p, hash: hashes[i] ?? null });
        adopt(found[0], p, titles[i]!, placementOf(dest.folderId ?? dest.destination ?? 'unsorted'));
      }
    } else if (op === 'POST /blocks') {
      const date = (body.position as { date?: string } | undefined)?.date;
      const p = paths[0];
      if (date !== undefined && p !== undefined && !journal.getDocumentByPath(p)) {
        const root = await ctx.client.getBlocks({ date, maxDepth: 0 }, { priority: 'user' }).catch(() => null);
        // No note of that day: the write never landed; the file is still new and is sent again.
        if (root && !known.has(root.id)) adopt(root.id, p, root.markdown ?? '', placementOf('daily_notes', date));
      }
    } else if (op === 'POST /folders') {
      folders ??= flattenFolders((await ctx.client.listFolders({ priority: 'user' })).items).folders;
      const recorded = new Set(journal.listFolders().map((f) => f.id));
      const wanted = (body.folders ?? []) as Array<{ name: string; parentFolderId?: string }>;
      paths.forEach((p, i) => {
        const want = wanted[i];
        if (!want || journal.listFolders().some((f) => f.path === p)) return;
        const parent = want.parentFolderId ?? null;
        const found = folders!.find((f) => !recorded.has(f.id) && f.name === want.name && f.parentId === parent);
        if (!found) return;
        journal.upsertFolder({ id: found.id, name: found.name, parentId: found.parentId, path: p, documentCount: found.documentCount });
        recorded.add(found.id);
        out.adopted.push(p);
      });
    }
    // Moves and deletes are decided again from the files: sending one twice changes nothing.
    journal.clearIntent(intent.id);
  }
  return out;
}

/**
 * Writes `id` into the file a created document's file became (see movedCreateOf), over the bytes
 * read only; when none or several could be it, or it changes meanwhile, nothing is written.
 */
async function claimMovedCreate(ctx: SyncContext, id: string, was: { path: string; hash: string | null }): Promise<void> {
  const recorded = new Set(ctx.journal.listDocuments().map((d) => d.path));
  const candidates: Array<{ path: string; text: string; reading: FileReading }> = [];
  for (const f of (await scanMirror(ctx.root, ctx.ignore)).files) {
    if (recorded.has(f.relPath) || isInTasksDir(f.relPath)) continue;
    const file = await readMirrorFile(ctx.root, f.relPath);
    if (file?.text != null) candidates.push({ path: f.relPath, text: file.text, reading: readingOf(file.hash, file.text, null, `"${f.relPath}"`) });
  }
  const where = movedCreateOf(was, candidates);
  const at = candidates.find((c) => c.path === where);
  const claimed = at && withFrontMatter(at.text, { id }, at.path);
  if (at && claimed?.ok) await writeFileIfUnchanged(ctx.root, at.path, claimed.text, at.reading!.hash, { ownWrites: ctx.ownWrites });
}

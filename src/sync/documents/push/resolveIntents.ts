// Requests an earlier run sent without recording their answers (it was killed, or the request
// failed half way). Nothing is sent again blindly: a document's own requests make it read again
// and merged (the merge recognises what already landed, so nothing is duplicated); a document or
// folder that may have been created is looked for in the space and adopted when it is there.
import type { Intent, ListingEntry } from '../../../journal/index.js';
import { UNSENT, type SyncContext } from '../../context/index.js';
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
    const { step, paths = [] } = (intent.payload ?? {}) as Payload;
    const body = step?.body ?? {};
    const op = step ? `${step.method} ${step.path}` : intent.op;
    if (op === 'POST /documents') {
      const titles = ((body.documents ?? []) as Array<{ title: string }>).map((d) => d.title);
      const dest = (body.destination ?? { destination: 'unsorted' }) as { destination?: string; folderId?: string };
      paths.forEach((p, i) => {
        if (journal.getDocumentByPath(p) || (dest.folderId !== undefined && !journal.getFolder(dest.folderId))) return;
        const found = [...listing].find(([id, e]) => !known.has(id) && e.title === titles[i]);
        if (found) adopt(found[0], p, titles[i]!, placementOf(dest.folderId ?? dest.destination ?? 'unsorted'));
      });
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

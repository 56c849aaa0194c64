// Requests an earlier run sent without recording their answers (it was killed, or the request
// failed half way). Nothing is sent again blindly: a document's own requests make it read again
// and merged (the merge recognises what already landed, so nothing is duplicated); a document or
// folder that may have been created is looked for in the space and adopted when it is there.
import { DOC_REF, type PushRequest } from './pushRequests.js';
import type { Intent, ListingEntry } from '../journal/index.js';
import type { SyncContext } from './SyncContext.js';
import { UNSENT } from './executeDocumentPush.js';
import { flattenFolders } from './flattenFolders.js';
import { placementOf } from './remoteTypes.js';

export interface IntentResolution {
  /** Documents to read again and merge, with the intents their push settles. */
  forced: Map<string, number[]>;
  /** Documents and folders that had been created and are now recorded. */
  adopted: string[];
}

interface Payload { request?: PushRequest }

const requestOf = (i: Intent): PushRequest | undefined => (i.payload as Payload | null)?.request;

export async function resolveIntents(ctx: SyncContext, intents: readonly Intent[], listing: ReadonlyMap<string, ListingEntry>): Promise<IntentResolution> {
  const { journal } = ctx;
  const out: IntentResolution = { forced: new Map(), adopted: [] };
  const known = new Set(journal.listDocuments().map((d) => d.id));
  const force = (id: string, intent?: number) => out.forced.set(id, [...(out.forced.get(id) ?? []), ...(intent === undefined ? [] : [intent])]);
  let folders: ReturnType<typeof flattenFolders>['folders'] | undefined;

  for (const intent of intents) {
    const r = requestOf(intent);
    if (intent.docId !== null && !intent.docId.startsWith(DOC_REF)) {
      force(intent.docId, intent.id);
      continue;
    }
    if (r?.op === 'POST /documents') {
      r.paths.forEach((p, i) => {
        if (journal.getDocumentByPath(p)) return;
        const dest = r.destination;
        if ('folderId' in dest && !journal.getFolder(dest.folderId)) return;
        const found = [...listing].find(([id, e]) => !known.has(id) && e.title === r.titles[i]);
        if (!found) return;
        const [id] = found;
        known.add(id);
        const placement = 'folderId' in dest ? placementOf(dest.folderId) : placementOf(dest.destination);
        journal.transaction(() => {
          journal.upsertDocument({ id, path: p, title: r.titles[i]!, ...placement, remoteModifiedAt: null, createdAt: null, fileHash: UNSENT });
          journal.replaceBaseBlocks(id, []);
        });
        force(id);
        out.adopted.push(p);
      });
    } else if (r?.op === 'POST /blocks' && 'date' in r.anchor) {
      const date = r.anchor.date;
      try {
        const root = await ctx.client.getBlocks({ date, maxDepth: 0 }, { priority: 'user' });
        if (!known.has(root.id) && !journal.getDocumentByPath(r.path)) {
          journal.transaction(() => {
            journal.upsertDocument({ id: root.id, path: r.path, title: root.markdown ?? '', location: 'daily_notes', folderId: null, dailyNoteDate: date, remoteModifiedAt: null, createdAt: null, fileHash: UNSENT });
            journal.replaceBaseBlocks(root.id, []);
          });
          known.add(root.id);
          force(root.id);
          out.adopted.push(r.path);
        }
      } catch {
        // No note of that day: the write never landed; the file is still new and is sent again.
      }
    } else if (r?.op === 'POST /folders') {
      folders ??= flattenFolders((await ctx.client.listFolders({ priority: 'user' })).items).folders;
      const recorded = new Set(journal.listFolders().map((f) => f.id));
      r.paths.forEach((p, i) => {
        const want = r.folders[i]!;
        const parent = want.parent === null ? null : want.parent;
        if (parent !== null && !recorded.has(parent)) return;
        const found = folders!.find((f) => !recorded.has(f.id) && f.name === want.name && f.parentId === parent);
        if (!found || journal.listFolders().some((f) => f.path === p)) return;
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

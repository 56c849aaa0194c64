// The latest listing of the space's documents (id → title, lastModifiedAt): the journal's when it
// is younger than `maxAgeMs`, else one `GET /documents?fetchMetadata=true` for every pending
// document at once. It tells a push which documents changed on the service since their base.
import type { ListingEntry } from '../../../journal/index.js';
import type { SyncContext } from '../../context/index.js';

export interface CurrentListing {
  takenAt: string;
  items: Map<string, ListingEntry>;
  /** A request was made for it. */
  fresh: boolean;
}

export async function currentListing(ctx: SyncContext, maxAgeMs: number, opts: { record: boolean } = { record: true }): Promise<CurrentListing> {
  const last = ctx.journal.readListing();
  if (last && ctx.now().getTime() - Date.parse(last.takenAt) <= maxAgeMs) return { ...last, fresh: false };
  const takenAt = ctx.now().toISOString();
  const docs = await ctx.client.listDocuments({ fetchMetadata: true }, { priority: 'user' });
  const items = new Map<string, ListingEntry>();
  for (const d of docs.items) if (!items.has(d.id)) items.set(d.id, { title: d.title, lastModifiedAt: d.lastModifiedAt ?? null });
  if (opts.record) ctx.journal.replaceListing(takenAt, items);
  return { takenAt, items, fresh: true };
}

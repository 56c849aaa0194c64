// The rows of the collection tables as last synced (core/collections/collectionRowsOf), kept in the journal's
// state: collection id → its document, the base block hash and the item id of each row.
import type { CollectionRows } from '../../core/collections/collectionRowsOf.js';
import type { SyncContext } from './SyncContext.js';

const KEY = 'collectionRows';

export type RecordedRows = CollectionRows & { doc: string };

/** Every recorded collection, by id. */
export function readCollectionRows(ctx: Pick<SyncContext, 'journal'>): Map<string, RecordedRows> {
  return new Map(Object.entries(ctx.journal.getState<Record<string, RecordedRows>>(KEY) ?? {}));
}

/** Records `doc`'s collections (replacing what was recorded for it); writes nothing when nothing changes. */
export function recordCollectionRows(ctx: Pick<SyncContext, 'journal'>, doc: string, rows: readonly CollectionRows[]): void {
  const all = readCollectionRows(ctx);
  const before = JSON.stringify(Object.fromEntries(all));
  for (const [id, r] of all) if (r.doc === doc) all.delete(id);
  for (const r of rows) all.set(r.id, { ...r, doc });
  const after = Object.fromEntries(all);
  if (JSON.stringify(after) !== before) ctx.journal.setState(KEY, after);
}

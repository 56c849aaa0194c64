// What the push reads before it plans, as its first pass named it (decidePush): the service's blocks
// of each document to merge and of each document deleted here that the listing says changed (the
// only requests a plan makes besides the listing), and the upload dialect of each file it may send
// (which of its lines reference a local file to upload). The plan is then made without waiting.
import type { BaseBlock, CoreDialect } from '../../../core/types.js';
import { isSpacesyncError } from '../../../errors.js';
import type { ListingEntry } from '../../../journal/index.js';
import { uploadDialect, type SyncContext } from '../../context/index.js';
import { taskId, type PushEntry } from './decidePush.js';
import { fetchRemoteDocument, type RemoteDocumentState } from './fetchRemoteDocument.js';

export interface PushReads {
  /** The service's side of each document read, by id; null when it was gone by then (purged since the listing). */
  remote: Map<string, RemoteDocumentState | null>;
  /** The dialect each file is merged with, by path. */
  dialects: Map<string, CoreDialect>;
}

const SENT = new Set(['push', 'merge', 'create']);

export async function readForPush(ctx: SyncContext, entries: readonly PushEntry[], listing: ReadonlyMap<string, ListingEntry>): Promise<PushReads> {
  const reads: PushReads = { remote: new Map(), dialects: new Map() };
  const read = async (id: string, base: readonly BaseBlock[]) => {
    const state = await fetchRemoteDocument(ctx, id, base, listing.get(id)?.lastModifiedAt ?? null).catch((e: unknown) => {
      if (isSpacesyncError(e, 'not_found')) return null;
      throw e;
    });
    reads.remote.set(id, state);
  };
  for (const e of entries) {
    if (e.kind === 'missing' && e.check) await read(e.record.id, e.base);
    if (e.kind !== 'file') continue;
    const id = taskId(e.record, e.local, e.decision);
    if (e.decision.content === 'merge' && id !== undefined) await read(id, e.base);
    // A merge whose document is gone is decided again: it may create one from the file.
    if (SENT.has(e.decision.content)) reads.dialects.set(e.local.path, await uploadDialect(ctx.root, e.local.path, e.local.segments));
  }
  return reads;
}

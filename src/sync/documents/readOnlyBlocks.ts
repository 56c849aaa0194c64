// The blocks spacesync keeps read-only for what they carry (fields it does not know; unknown types
// are known by their type alone), remembered in the journal so a push that does not read the
// service again still keeps them, and so the user is told about each block once, not every cycle.
import type { RemoteBlock } from '../../core/types.js';
import type { SyncContext } from '../context/index.js';

const KEY = 'readOnlyBlocks';

/** id → why, as recorded. */
export function readOnlyBlocks(ctx: Pick<SyncContext, 'journal'>): Map<string, string> {
  return new Map(Object.entries(ctx.journal.getState<Record<string, string>>(KEY) ?? {}));
}

/**
 * Records the read-only blocks of a document just read from the service and tells the user about
 * each one the first time it is seen. Returns every recorded one, this document's included.
 */
export function noteReadOnlyBlocks(ctx: Pick<SyncContext, 'journal' | 'logger'>, path: string, blocks: readonly RemoteBlock[]): Map<string, string> {
  const recorded = readOnlyBlocks(ctx);
  let added = false;
  for (const b of blocks) {
    if (b.readOnly === undefined || recorded.has(b.id)) continue;
    recorded.set(b.id, b.readOnly);
    added = true;
    ctx.logger.warn(
      { path, blockId: b.id, type: b.type },
      `"${path}" holds ${b.readOnly} (block ${b.id}). spacesync shows it in the file but never changes, sends or deletes it: change it in the app. This is said once.`,
    );
  }
  if (added) ctx.journal.setState(KEY, Object.fromEntries(recorded));
  return recorded;
}

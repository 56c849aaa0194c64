// Which documents the service changed since the journal's base: compared by the listing's
// `lastModifiedAt` and title alone, so an idle poll costs no read of any document. The one
// remote-change rule: the pull, the dry run and `status` all ask it.
import type { RemoteDocument } from '../remoteTypes.js';

export interface RemoteChanges {
  /** Documents to read: never written yet, `lastModifiedAt` moved, or retitled. */
  changed: string[];
  /** Documents the journal knows that the space no longer lists at all (purged from trash). */
  purged: string[];
}

/** What the rule reads of a journal record. */
export interface RemoteChangeRecord {
  id: string;
  title: string;
  remoteModifiedAt: string | null;
  fileHash: string | null;
}

/**
 * How one listed document stands against its record: `new` when no file was written for it yet
 * (or it has no record), `changed` when its `lastModifiedAt` or title moved, null when in step.
 */
export function remoteChangeOf(record: RemoteChangeRecord | undefined, listed: Pick<RemoteDocument, 'title' | 'lastModifiedAt'>): 'new' | 'changed' | null {
  if (!record || record.fileHash === null) return 'new';
  return record.remoteModifiedAt !== listed.lastModifiedAt || record.title !== listed.title ? 'changed' : null;
}

export function detectRemoteChanges(records: readonly RemoteChangeRecord[], listed: ReadonlyMap<string, RemoteDocument>): RemoteChanges {
  const changed: string[] = [];
  const purged: string[] = [];
  for (const r of records) {
    const remote = listed.get(r.id);
    if (!remote) purged.push(r.id);
    else if (remoteChangeOf(r, remote) !== null) changed.push(r.id);
  }
  return { changed, purged };
}

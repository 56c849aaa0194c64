// Which documents the service changed since the journal's base: compared by the listing's
// `lastModifiedAt` and title alone, so an idle poll costs no read of any document.
import type { DocumentRecord } from '../journal/index.js';
import type { RemoteDocument } from './remoteTypes.js';

export interface RemoteChanges {
  /** Documents to read: never written yet, `lastModifiedAt` moved, or retitled. */
  changed: string[];
  /** Documents the journal knows that the space no longer lists at all (purged from trash). */
  purged: string[];
}

export function detectRemoteChanges(records: readonly DocumentRecord[], listed: ReadonlyMap<string, RemoteDocument>): RemoteChanges {
  const changed: string[] = [];
  const purged: string[] = [];
  for (const r of records) {
    const remote = listed.get(r.id);
    if (!remote) purged.push(r.id);
    else if (r.fileHash === null || r.remoteModifiedAt !== remote.lastModifiedAt || r.title !== remote.title) changed.push(r.id);
  }
  return { changed, purged };
}

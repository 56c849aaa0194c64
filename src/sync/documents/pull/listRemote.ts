// One look at the space: `GET /documents?fetchMetadata=true` and `GET /folders`, then membership
// listings only for the containers whose document count moved (or all of them on a full scan, or
// when a document cannot be placed otherwise). Reads only; the cycle applies and records.
import type { DocumentListItem } from '../../../client/index.js';
import type { Folder } from '../../../wire/types.js';
import { releaseMemory, type SyncContext } from '../../context/index.js';
import { flattenFolders } from '../../../core/pull/flattenFolders.js';
import { placeDocuments } from '../../../core/pull/placeDocuments.js';
import { readCounts, readFullScanAt, readUnplaceable } from './pullState.js';
import {
  BUILTIN_CONTAINERS,
  DAILY_NOTES,
  containerOf,
  type ContainerKey,
  type ContainerRead,
  type Placement,
  type RemoteDocument,
  type RemoteFolder,
} from '../../../core/remoteTypes.js';

export interface RemoteSnapshot {
  takenAt: string;
  /** Every document of the space listing, by id. */
  documents: ReadonlyMap<string, RemoteDocument>;
  placements: Map<string, Placement>;
  /** Listed documents no membership listing placed. */
  unplaced: string[];
  folders: RemoteFolder[];
  /** Document count per container; the daily notes' is what the folder counts leave over. */
  counts: Map<ContainerKey, number>;
  /** Containers whose membership was listed with a request this cycle. */
  read: ContainerKey[];
  fullScan: boolean;
}

export interface ListRemoteOptions {
  /** Re-list every container regardless of counts. */
  fullScan?: boolean;
  /** The folder tree, already read this cycle (listRecent): not asked again. */
  folders?: readonly Folder[];
  /** Every document of the space, already known this cycle (listRecent): the listing is not asked. */
  documents?: ReadonlyMap<string, RemoteDocument>;
  /** When the listing began (the first request of the cycle); now by default. */
  takenAt?: string;
}

export function toRemote(d: DocumentListItem): RemoteDocument {
  return { id: d.id, title: d.title, lastModifiedAt: d.lastModifiedAt ?? null, createdAt: d.createdAt ?? null };
}

export async function listRemote(ctx: SyncContext, opts: ListRemoteOptions = {}): Promise<RemoteSnapshot> {
  const { client, journal } = ctx;
  const takenAt = opts.takenAt ?? ctx.now().toISOString();
  const [documents, treeItems] = await Promise.all([
    opts.documents ??
      client.listDocuments({ fetchMetadata: true }, { priority: 'poll' }).then((docs) => {
        const byId = new Map<string, RemoteDocument>();
        for (const d of docs.items) if (!byId.has(d.id)) byId.set(d.id, toRemote(d));
        return byId;
      }),
    opts.folders ?? client.listFolders({ priority: 'poll' }).then((tree) => tree.items),
  ]);
  // The answer's bytes, its text and its parsed items are garbage now (tens of MiB for a large space):
  // collected before the pull builds on the listing, not at V8's leisure beside it.
  releaseMemory();
  const { folders, counts } = flattenFolders(treeItems);
  let listedInFolders = 0;
  for (const n of counts.values()) listedInFolders += n;
  counts.set(DAILY_NOTES, Math.max(0, documents.size - listedInFolders));

  const known = new Map<string, Placement>();
  for (const r of journal.listDocuments()) known.set(r.id, { location: r.location, folderId: r.folderId, dailyNoteDate: r.dailyNoteDate });
  const previous = readCounts(journal);
  const lastFull = readFullScanAt(journal);
  const due = lastFull === null || ctx.now().getTime() - Date.parse(lastFull) >= ctx.settings.fullScanMinutes * 60_000;
  const fullScan = opts.fullScan === true || previous === null || due;

  const containers: ContainerKey[] = [...BUILTIN_CONTAINERS, DAILY_NOTES, ...folders.map((f) => f.id)];
  const look: Look = { ctx, counts, reads: new Map(), read: [] };
  await readContainers(look, fullScan ? containers : containers.filter((k) => previous?.get(k) !== counts.get(k)));
  const folderParents = new Map(folders.map((f) => [f.id, f.parentId]));
  const place = () => placeDocuments({ ids: documents.keys(), known, folderParents, reads: look.reads });
  let placed = place();
  const below = subfoldersToRead(folders, look, known, placed.placements, folderParents);
  if (below.length > 0) {
    await readContainers(look, below);
    placed = place();
  }

  // Documents no listing placed yet: a new daily note is the likely one, then look everywhere.
  // Documents a full scan could not place before are looked for again only at the next full scan.
  const unplaceable = readUnplaceable(journal);
  const looking = () => placed.unplaced.some((id) => fullScan || !unplaceable.has(id));
  if (looking() && !look.reads.has(DAILY_NOTES)) {
    await readContainers(look, [DAILY_NOTES], true);
    placed = place();
  }
  if (looking() && containers.some((k) => !look.reads.has(k))) {
    await readContainers(look, containers);
    placed = place();
  }
  look.read.sort();
  return {
    takenAt,
    documents,
    placements: placed.placements,
    unplaced: placed.unplaced,
    folders,
    counts,
    read: look.read,
    fullScan: fullScan || containers.every((k) => look.reads.has(k)),
  };
}

/** The membership listings of one look at the space: what the counts say, and what was read so far. */
interface Look {
  ctx: SyncContext;
  counts: ReadonlyMap<ContainerKey, number>;
  reads: Map<ContainerKey, ContainerRead>;
  /** Containers read with a request, in the order they were asked. */
  read: ContainerKey[];
}

/** Lists the members of the containers not read yet; one the counts say is empty needs no request, unless `probe`. */
async function readContainers(look: Look, keys: readonly ContainerKey[], probe = false): Promise<void> {
  const { client } = look.ctx;
  await Promise.all(
    keys
      .filter((k) => !look.reads.has(k))
      .map(async (key) => {
        if (!probe && (look.counts.get(key) ?? 0) === 0) {
          look.reads.set(key, { ids: [] });
          return;
        }
        look.read.push(key);
        if (key === DAILY_NOTES) {
          const r = await client.listDocuments({ location: 'daily_notes' }, { priority: 'poll' });
          const dates = new Map<string, string>();
          for (const d of r.items) if (d.dailyNoteDate) dates.set(d.id, d.dailyNoteDate);
          look.reads.set(key, { ids: r.items.map((d) => d.id), dates });
        } else {
          const r = await (key === 'unsorted' || key === 'templates' || key === 'trash'
            ? client.listDocuments({ location: key }, { priority: 'poll' })
            : client.listDocuments({ folderId: key }, { priority: 'poll' }));
          look.reads.set(key, { ids: r.items.map((d) => d.id) });
        }
      }),
  );
}

/**
 * A folder's listing may name its subfolders' documents too (recursive: it names more documents
 * than the folder's own count). A document that came into such a folder's subtree (new, or from
 * elsewhere) may then sit in a subfolder not read this cycle, whose count another document kept by
 * leaving it; so may one beyond the folder's own count; and when the folder's own count is not the
 * number of its documents known to be in it, one known deeper came up (its subfolder's count kept
 * by another coming in from below). Those subfolders are read, so nothing is placed a level too
 * high or too low. A direct-only listing names the folder's own documents: nothing to read.
 */
function subfoldersToRead(
  folders: readonly RemoteFolder[],
  { reads, counts }: Look,
  known: ReadonlyMap<string, Placement>,
  placements: ReadonlyMap<string, Placement>,
  folderParents: ReadonlyMap<string, string | null>,
): ContainerKey[] {
  const placedIn = new Map<ContainerKey, number>();
  for (const p of placements.values()) placedIn.set(containerOf(p), (placedIn.get(containerOf(p)) ?? 0) + 1);
  const unreadBelow = new Set<ContainerKey>();
  for (const f of folders) {
    const r = reads.get(f.id);
    const own = counts.get(f.id) ?? 0;
    if (!r || r.ids.length <= own) continue;
    const below = folders.filter((d) => !reads.has(d.id) && (counts.get(d.id) ?? 0) > 0 && isUnder(d.id, f.id, folderParents));
    if (below.length === 0) continue;
    const inSubtree = (id: string) => {
      const k = known.get(id);
      return k !== undefined && (containerOf(k) === f.id || isUnder(containerOf(k), f.id, folderParents));
    };
    const knownHere = r.ids.filter((id) => {
      const k = known.get(id);
      return k !== undefined && containerOf(k) === f.id;
    }).length;
    if ((placedIn.get(f.id) ?? 0) > own || knownHere !== own || r.ids.some((id) => !inSubtree(id))) for (const d of below) unreadBelow.add(d.id);
  }
  return [...unreadBelow];
}

function isUnder(key: ContainerKey, ancestor: ContainerKey, parents: ReadonlyMap<string, string | null>): boolean {
  const seen = new Set<string>();
  for (let p = parents.get(key); p != null && !seen.has(p); p = parents.get(p)) {
    if (p === ancestor) return true;
    seen.add(p);
  }
  return false;
}

// The push's first pass, before anything is read: where each folder goes (core/push/decideFolders) and
// what becomes of each file and document the scan found, by base / local / the listing
// (core/push/decideDocument). It names what the push must read (readForPush: the documents to merge, and
// the documents deleted here that the listing says changed) and is what the plan is made from
// (planPush). It reads the journal and nothing else.
import { decideDocument, type BaseSide, type DocumentDecision, type LocalSide, type RemoteSide } from '../../../core/push/decideDocument.js';
import { decideFolders, type FolderDecisions } from '../../../core/push/decideFolders.js';
import { localTitle, placementOfPath } from '../../../core/files/placementOfPath.js';
import type { Placement } from '../../../core/remoteTypes.js';
import type { BaseBlock } from '../../../core/types.js';
import type { DocumentRecord, Journal, ListingEntry } from '../../../journal/index.js';
import { claimedId, type LocalDocument } from './readLocalDocument.js';
import type { LocalScan } from './scanLocal.js';

export interface PlanPushInput {
  scan: LocalScan;
  /** Every document the space lists now. */
  listing: ReadonlyMap<string, ListingEntry>;
  /** Where the space holds each document, and its folders, when a full listing was taken. */
  placements?: ReadonlyMap<string, Placement>;
  remoteFolders?: ReadonlyArray<{ id: string; name: string; parentId: string | null }>;
  /** Documents to read again and merge (an earlier run's requests were not recorded), with those intents. */
  forced: ReadonlyMap<string, number[]>;
  pendingIntents: number;
  /** The scan covered the whole mirror (folders are decided, the empty-mirror check applies). */
  fullScan: boolean;
}

/** One file or document of the scan, with the sides it was decided by. */
export type PushEntry =
  /** A file whose path places it nowhere the space can hold it. */
  | { kind: 'unplaced'; path: string; problem: string }
  /** A file changed here (`record`: its document) or new (none: a new document, or one the journal does not know). */
  | { kind: 'file'; record?: DocumentRecord; local: LocalDocument; place: Placement; remote?: RemoteSide; decision: DocumentDecision; base: BaseBlock[] }
  /** A document whose file is gone; `check`: the listing says it changed, read to tell an edit from this sync's own last write. */
  | { kind: 'missing'; record: DocumentRecord; remote?: RemoteSide; base: BaseBlock[]; check: boolean };

export interface PushSides {
  records: DocumentRecord[];
  /** The documents that have a file. */
  withFiles: DocumentRecord[];
  /** The folders' decisions (a full scan only). */
  folders: FolderDecisions | null;
  /** Each folder's directory, by folder id (or ref). */
  folderPaths: Map<string, string>;
  entries: PushEntry[];
}

export const placementOf = (r: DocumentRecord): Placement => ({ location: r.location, folderId: r.folderId, dailyNoteDate: r.dailyNoteDate });

export const baseSide = (r: DocumentRecord): BaseSide => ({ id: r.id, path: r.path, title: r.title, ...placementOf(r) });

export const localSide = (local: LocalDocument, p: Placement, r?: DocumentRecord): LocalSide => ({
  path: local.path,
  title: localTitle(local.path, local.frontMatter, r),
  changed: r ? local.hash !== r.fileHash : true,
  ...p,
});

/** The document a file's task is about: none when it creates one (a file whose document the space purged is not the old id's any more). */
export function taskId(record: DocumentRecord | undefined, local: LocalDocument | null, decision: DocumentDecision): string | undefined {
  const claim = local ? claimedId(local) : undefined;
  return decision.create ? undefined : (record?.id ?? (decision.content === 'merge' && claim ? claim : undefined));
}

/** The folders: decided on a full scan (with the files' directories), else as the journal has them. */
function folderSides(journal: Journal, input: PlanPushInput, withFiles: readonly DocumentRecord[], byId: ReadonlyMap<string, DocumentRecord>) {
  const folderRecords = journal.listFolders();
  if (!input.fullScan) return { folders: null, folderOfDir: new Map(folderRecords.map((f) => [f.path, f.id])) };
  const { scan } = input;
  const localPath = new Map<string, string | undefined>(withFiles.map((r) => [r.id, r.path]));
  for (const c of scan.changed) localPath.set(c.record.id, c.local.path);
  for (const r of scan.missing) localPath.set(r.id, undefined);
  const documents: Array<{ id: string; basePath?: string; localPath?: string; remoteFolderId?: string | null }> = withFiles.map((r) => {
    const lp = localPath.get(r.id);
    return {
      id: r.id,
      basePath: r.path,
      ...(lp ? { localPath: lp } : {}),
      remoteFolderId: input.placements ? (input.placements.get(r.id)?.folderId ?? null) : r.folderId,
    };
  });
  for (const [id, p] of input.placements ?? []) if (!byId.has(id)) documents.push({ id, remoteFolderId: p.folderId });
  // A folder at or under a symbolic link is held back (scanLocal): not among the directories, yet not gone.
  const links = scan.heldBack.flatMap((h) => (h.reason === 'symlink' ? [h.path] : []));
  const linked = (p: string) => links.some((l) => p === l || p.startsWith(`${l}/`));
  const base = folderRecords.filter((f) => !linked(f.path));
  const folders = decideFolders({ base, remote: input.remoteFolders ?? folderRecords, localDirs: scan.dirs, documents });
  for (const f of folderRecords) if (linked(f.path)) folders.folderOfDir.set(f.path, f.id);
  return { folders, folderOfDir: folders.folderOfDir };
}

export function decidePush(journal: Journal, input: PlanPushInput): PushSides {
  const { scan, listing, forced } = input;
  const records = journal.listDocuments();
  const byId = new Map(records.map((r) => [r.id, r]));
  const withFiles = records.filter((r) => r.fileHash !== null);
  const { folders, folderOfDir } = folderSides(journal, input, withFiles, byId);
  const folderPaths = new Map([...folderOfDir].map(([dir, id]) => [id, dir]));

  const remoteSide = (id: string, r: DocumentRecord | undefined): RemoteSide | undefined => {
    const entry = listing.get(id);
    if (!entry) return undefined;
    const p = input.placements?.get(id) ?? (r ? placementOf(r) : { location: 'unsorted', folderId: null, dailyNoteDate: null });
    const changed = !r || entry.lastModifiedAt !== r.remoteModifiedAt || forced.has(id);
    return { id, title: entry.title, ...p, changed };
  };
  const fileEntry = (r: DocumentRecord | undefined, local: LocalDocument, remote: RemoteSide | undefined): PushEntry => {
    const at = placementOfPath(local.path, folderPaths);
    if (!at.ok) return { kind: 'unplaced', path: local.path, problem: at.problem };
    const decision = decideDocument({ ...(r ? { base: baseSide(r) } : {}), local: localSide(local, at.placement, r), ...(remote ? { remote } : {}) });
    return {
      kind: 'file',
      ...(r ? { record: r } : {}),
      local,
      place: at.placement,
      ...(remote ? { remote } : {}),
      decision,
      base: r ? journal.getBaseBlocks(r.id) : [],
    };
  };

  const entries: PushEntry[] = [];
  for (const { record: r, local } of scan.changed) entries.push(fileEntry(r, local, remoteSide(r.id, r)));
  for (const r of scan.missing) {
    const remote = remoteSide(r.id, r);
    // An edit in the space beats a delete here, but the listing's "changed" may be this sync's own
    // last write, not read back yet: the document is read, and one that still holds its base is taken as unchanged.
    const check = remote?.changed === true && !forced.has(r.id) && remote.title === r.title;
    entries.push({ kind: 'missing', record: r, ...(remote ? { remote } : {}), base: journal.getBaseBlocks(r.id), check });
  }
  for (const local of scan.added) {
    // A file naming a document the journal does not know (a run stopped before recording it): merged with it.
    const claim = claimedId(local);
    entries.push(fileEntry(undefined, local, claim !== undefined && !byId.has(claim) ? remoteSide(claim, undefined) : undefined));
  }
  return { records, withFiles, folders, folderPaths, entries };
}

// Decides the pull: from one listing, the journal's records, the files changed here and the layout,
// which folders and files are created, moved, written, brought up to date, purged, kept as they
// are or blocked, each with its reason. Pure: the shell reads the world before and runs the plan.
import { detectRemoteChanges } from './detectRemoteChanges.js';
import type { Layout } from './layout.js';
import type { BlockedReason, DocumentStep, FolderStep, LocalChange, PullFolderRecord, PullPlan, PullRecord } from './PullPlan.js';
import { containerOf, samePlacement, type ContainerKey, type Placement, type RemoteDocument, type RemoteFolder } from '../remoteTypes.js';

export interface PullInput {
  listing: {
    documents: ReadonlyMap<string, RemoteDocument>;
    placements: ReadonlyMap<string, Placement>;
    folders: readonly RemoteFolder[];
    /** Listed documents no membership listing placed. */
    unplaced: readonly string[];
  };
  records: readonly PullRecord[];
  folderRecords: readonly PullFolderRecord[];
  /** Documents whose file changed here since the base. */
  local: ReadonlyMap<string, LocalChange>;
  /** Of the `missing` ones: those whose file is found, unchanged, where the layout puts them (a move a stopped run did not record). */
  found: ReadonlySet<string>;
  layout: Layout;
  ignored: (path: string) => boolean;
  /**
   * Backup mode: nothing here is sent, so a document the space changed is written over a file
   * changed (or deleted) here; the shell keeps the file's bytes in the version history first.
   */
  backup?: boolean;
  /** Paths at or under a symbolic link in the mirror: nothing is written, moved or removed there. */
  held?: (path: string) => boolean;
  /** Built-in locations' directories missing on disk. */
  missingDirs: readonly string[];
}

/** Where a path is once the folder moves are done: each directory rename carries what is inside. */
function carriedBy(folders: ReadonlyArray<{ from: string; to: string }>): (path: string, self?: string) => string {
  // No folder moves (every poll but the rare one): every path stays where it is.
  if (folders.every((f) => f.from === f.to)) return (path) => path;
  const byDepth = [...folders].sort((a, b) => b.from.length - a.from.length);
  return (path, self) => {
    for (const f of byDepth) if (f.from !== self && path.startsWith(`${f.from}/`)) return f.to + path.slice(f.from.length);
    return path;
  };
}

/** What the steps of the documents share: the input, the steps so far, the containers left unsettled. */
interface PullState {
  input: PullInput;
  held: (path: string) => boolean;
  documents: DocumentStep[];
  unsettled: Set<ContainerKey>;
  byId: Map<string, PullRecord>;
  /** Where each recorded file is once the folders moved, then once the documents moved. */
  at: Map<string, string>;
  /** Missing files found, unchanged, where the layout puts them: only recorded there. */
  found: Set<string>;
  holders?: Map<string, string>;
}
type Move = Extract<DocumentStep, { kind: 'move' }>;
type Located = Extract<DocumentStep, { path: string }>;

export function planPull(input: PullInput): PullPlan {
  const held = input.held ?? (() => false);
  const { folders, carry, heldFolders } = planFolders(input, held);
  const byId = new Map(input.records.map((r) => [r.id, r]));
  const at = new Map(input.records.map((r) => [r.id, carry(r.path)]));
  const s: PullState = { input, held, documents: [], unsettled: new Set(), byId, at, found: new Set() };
  const { moves, added } = locateDocuments(s, heldFolders);
  const fresh = settleMoves(s, moves, added);
  for (const id of input.listing.unplaced) unsettle(s, byId.get(id));
  planContent(s, fresh);
  return { folders, documents: s.documents, unsettled: [...s.unsettled].sort() };
}

// Invariant: every listed folder ends at its layout path; a gone one is removed. The documents
// need where the folder moves carry their files and which folders a symbolic link holds.
function planFolders(input: PullInput, held: (path: string) => boolean) {
  const { listing, layout } = input;
  const folders: FolderStep[] = input.missingDirs.map((dir) => ({ kind: 'create', id: dir, path: dir }));
  const listedFolders = new Set(listing.folders.map((f) => f.id));
  const kept = input.folderRecords.filter((r) => listedFolders.has(r.id));
  const carry = carriedBy(kept.map((r) => ({ from: r.path, to: layout.folders.get(r.id)! })));
  for (const r of input.folderRecords) if (!listedFolders.has(r.id) && !held(r.path)) folders.push({ kind: 'remove', id: r.id, path: r.path });
  const recordedFolders = new Map(input.folderRecords.map((r) => [r.id, r]));
  // Folders held back by a symbolic link (where they are, or where they go), and the folders inside
  // them: nothing of theirs is laid out elsewhere. A document the space adds to one would otherwise
  // be written where its folder should be, and that new directory sent back as a new folder, again
  // at every cycle (chaos seed 1060026).
  const heldFolders = new Set<string>();
  const parentOf = new Map(listing.folders.map((f) => [f.id, f.parentId]));
  const isHeld = (id: string, seen = 0): boolean => {
    if (heldFolders.has(id)) return true;
    const to = layout.folders.get(id);
    const rec = recordedFolders.get(id);
    const parent = parentOf.get(id) ?? null;
    const yes = (to !== undefined && held(to)) || (rec !== undefined && held(rec.path)) || (parent !== null && seen < 256 && isHeld(parent, seen + 1));
    if (yes) heldFolders.add(id);
    return yes;
  };
  for (const f of listing.folders) {
    const to = layout.folders.get(f.id)!;
    const rec = recordedFolders.get(f.id);
    if (isHeld(f.id)) continue;
    if (!rec) folders.push({ kind: 'create', id: f.id, path: to });
    else {
      const from = carry(rec.path, rec.path);
      if (from !== to) folders.push({ kind: 'move', id: f.id, from, to });
    }
  }
  return { folders, carry, heldFolders };
}

// Where each file is, then where it goes. Invariant: a file changed here never moves alone (its
// folder may carry it); a held or ignored path is blocked. The moves are settled after.
function locateDocuments(s: PullState, heldFolders: ReadonlySet<string>) {
  const { listing, layout, local } = s.input;
  const moves = new Map<string, Move>();
  const added: string[] = [];
  for (const [id, placement] of listing.placements) {
    const target = layout.documents.get(id);
    if (target === undefined) continue;
    const rec = s.byId.get(id);
    const cur = rec ? s.at.get(id)! : undefined;
    // Where it is, as it was placed, not changed here: no step whether its path is ignored or not
    // (an idle poll's every document), so the ignore rules are not asked.
    if (rec && cur === target && !local.has(id) && samePlacement(rec, placement)) continue;
    if (s.held(target) || (cur !== undefined && s.held(cur)) || (placement.folderId !== null && heldFolders.has(placement.folderId))) {
      block(s, id, cur ?? target, 'symlink', placement, rec);
      continue;
    }
    if (s.input.ignored(target)) {
      if (!rec || cur !== target) block(s, id, target, 'ignored', placement, rec);
      continue;
    }
    if (!rec) added.push(id);
    else if (local.has(id)) {
      if (local.get(id) === 'missing' && cur !== target && rec.fileHash !== null && s.input.found.has(id) && holderAt(s, target, id) === undefined) {
        moves.set(id, { kind: 'move', id, from: cur!, to: target, placement, reason: 'found_there' });
        s.found.add(id);
        continue;
      }
      if (cur !== target || !samePlacement(rec, placement)) unsettle(s, placement, rec);
    } else if (cur !== target) {
      moves.set(id, { kind: 'move', id, from: cur!, to: target, placement, reason: samePlacement(rec, placement) ? 'name_changed' : 'placement_changed' });
    } else if (!samePlacement(rec, placement)) s.documents.push({ kind: 'place', id, path: cur, placement });
  }
  return { moves, added };
}

// Invariant: a file moves only to a path nothing else keeps. A move into a path that a file keeps
// (changed here, blocked, or not moving) waits; names traded among moving files are not in the
// way (one steps aside while they are run). The new documents then take the paths left free.
function settleMoves(s: PullState, moves: Map<string, Move>, added: readonly string[]): Set<string> {
  for (let changed = true; changed;) {
    changed = false;
    for (const m of moves.values()) {
      if (m.reason === 'found_there') continue;
      const holder = holderAt(s, m.to, m.id);
      if (holder === undefined || moves.has(holder)) continue;
      moves.delete(m.id);
      block(s, m.id, m.from, 'path_held', m.placement, s.byId.get(m.id));
      changed = true;
    }
  }
  // A document with no file yet only has its record moved.
  for (const m of moves.values()) {
    s.documents.push(s.byId.get(m.id)!.fileHash === null ? { kind: 'place', id: m.id, path: m.to, placement: m.placement } : m);
  }
  for (const d of s.documents) if (d.kind === 'place') s.at.set(d.id, d.path);
  for (const m of moves.values()) s.at.set(m.id, m.to);
  s.holders = undefined;
  const fresh = new Set<string>();
  for (const id of added) {
    const path = s.input.layout.documents.get(id)!;
    if (holderAt(s, path, id) !== undefined) block(s, id, path, 'path_held', s.input.listing.placements.get(id));
    else fresh.add(id);
  }
  return fresh;
}

// Invariant: a file changed here is never written over; only a file that already says what the
// space says is taken as is. The content steps come last, each kind sorted by path.
function planContent(s: PullState, fresh: ReadonlySet<string>): void {
  const { input, held, at, found } = s;
  const { changed, purged } = detectRemoteChanges(input.records, input.listing.documents);
  const remoteChanged = new Set(changed);
  const content: Located[] = [];
  const blockedIds = new Set(s.documents.filter((d) => d.kind === 'blocked').map((d) => d.id));
  for (const id of changed) {
    const path = at.get(id)!;
    if (held(path)) {
      if (!blockedIds.has(id)) s.documents.push({ kind: 'blocked', id, path, reason: 'symlink' });
      unsettle(s, s.byId.get(id)!);
      continue;
    }
    if (!found.has(id) && input.local.has(id)) continue;
    if (s.byId.get(id)!.fileHash === null) content.push({ kind: 'write', id, path, reason: 'never_written' });
    else content.push({ kind: 'splice', id, path, reason: 'remote_changed' });
  }
  for (const id of fresh) content.push({ kind: 'write', id, path: input.layout.documents.get(id)!, reason: 'new_document' });
  const keeps: Located[] = [];
  for (const [id, change] of input.local) {
    if (found.has(id)) continue;
    const both = remoteChanged.has(id);
    if (input.backup && both && !held(at.get(id)!)) {
      content.push({ kind: 'write', id, path: at.get(id)!, reason: 'backup_overwrite' });
      continue;
    }
    const reason = both ? 'changed_both_sides' : 'changed_here';
    keeps.push({ kind: 'keep', id, path: at.get(id)!, change, remoteChanged: both, check: both && change === 'edited', reason });
  }
  const purges: Located[] = purged
    .filter((id) => input.local.get(id) !== 'edited' && !held(at.get(id)!))
    .map((id) => ({ kind: 'purge', id, path: at.get(id)! }));
  const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  s.documents.push(...content.sort(byPath), ...keeps.sort(byPath), ...purges.sort(byPath));
}

// Who keeps a path, other than `except` (the last one recorded there, as the journal's unique path
// allows one). Built when first asked (nothing is asked when nothing moves or is added), again once
// the moves are placed.
function holderAt(s: PullState, path: string, except: string): string | undefined {
  s.holders ??= new Map([...s.at].map(([id, p]) => [p, id] as const));
  const id = s.holders.get(path);
  return id === except ? undefined : id;
}

// A step that cannot be taken this cycle: it is tried again on the next, its containers listed again.
function block(s: PullState, id: string, path: string, reason: BlockedReason, ...ps: Array<Placement | undefined>): void {
  s.documents.push({ kind: 'blocked', id, path, reason });
  unsettle(s, ...ps);
}

// A container whose membership change this plan does not apply is listed again next cycle.
function unsettle(s: PullState, ...ps: Array<Placement | undefined>): void {
  for (const p of ps) if (p) s.unsettled.add(containerOf(p));
}

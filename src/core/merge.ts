// The three-way merge of one document at block level, keyed by id (mirror-and-sync.md §4): what the
// file should show and the service should hold, the conflicts, and what is held back. An edit
// always beats a delete; the same edit on both sides is nothing; different edits of one block keep
// the remote in the document and the whole local version as a conflict copy.
import { sameContent } from './blockContent.js';
import { cardLayoutOf, fileCardLayout, invalidLayoutReason } from './cardLayout.js';
import type { CardLayout } from '../dialect/index.js';
import { movedAmong } from './movedAmong.js';
import { createAction, editAction, PROTECTED } from './sendability.js';
import { readOnlyReason } from './readOnlyReason.js';
import { markMoved, type DiffNode, type DocumentDiff } from './diff.js';
import type { BaseBlock, BlockKind, CoreDialect, LocalBlock, RemoteBlock } from './types.js';

/** One block of the merged document. The tree is what the file shows; held blocks are the file's only. */
export interface MergedNode {
  /** The service id; null for a block to create. */
  id: string | null;
  kind: BlockKind;
  type: string;
  /** What the service should hold for this block (held blocks: what it holds, or their text when new). */
  markdown: string;
  /** Where the file's text of this block comes from: the file as it is, or the service. */
  source: 'local' | 'remote';
  /** The file's block when source is local. */
  local?: LocalBlock;
  /** The service's block when there is one. */
  remote?: RemoteBlock;
  /** In the file only: not sent (a problem, reported). */
  held: boolean;
  children: MergedNode[];
  /** A card's layout to send: a new card's, or one the file changed (it wins over the service's). */
  cardLayout?: CardLayout;
}

export interface BlockConflict {
  id: string;
  base: string;
  local: string;
  remote: string;
}

export interface BlockProblem {
  /** The block's id when it exists in the service. */
  id?: string;
  markdown: string;
  /** Why it is held back, or why the service's block was kept. */
  message: string;
}

export interface MergeResult {
  nodes: MergedNode[];
  /** Blocks changed differently on both sides: the remote stays, the local document goes to a conflict copy. */
  conflicts: BlockConflict[];
  /** Changes of the file that are not sent, and deletions that were not applied. */
  problems: BlockProblem[];
  /** The file does not show the merged document and must be rewritten. */
  fileChanged: boolean;
}

export interface MergeInput {
  base: readonly BaseBlock[];
  diff: DocumentDiff;
  /** The service's blocks now (flattenRemote); undefined when the document has not changed remotely. */
  remote?: readonly RemoteBlock[];
  dialect: CoreDialect;
  /** Blocks kept read-only for what they carry (id → why; readOnlyReason), beside those of unknown types. */
  readOnly?: ReadonlyMap<string, string>;
}


/**
 * Corrects the diff's identification where the service shows it wrong (the diff only sees base and
 * file, and two short texts can look alike): a block of the file whose text is exactly what the
 * service now holds for a block is that block. This covers a block the service moved and edited
 * while the file followed (the diff took it for deleted and new), and two blocks the diff paired
 * crosswise (which would look like a conflict). Works on a copy; the diff given stays as it was.
 */
function reidentify(diff: DocumentDiff, remote: readonly RemoteBlock[], remoteById: ReadonlyMap<string, RemoteBlock>, baseById: ReadonlyMap<string, BaseBlock>, eq: CoreDialect['equals']): DocumentDiff {
  const unassigned: DiffNode[] = [];
  const assigned: DiffNode[] = [];
  const inFile = new Set<string>();
  const collect = (ns: DiffNode[]) => ns.forEach((n) => {
    if (n.id === null) unassigned.push(n);
    else {
      assigned.push(n);
      inFile.add(n.id);
    }
    collect(n.children);
  });
  collect(diff.nodes);
  const byText = new Map<string, DiffNode[]>();
  for (const n of unassigned) {
    const k = `${n.local.kind}\u0001${n.local.markdown}`;
    const list = byText.get(k);
    if (list) list.push(n);
    else byText.set(k, [n]);
  }
  const overrides = new Map<DiffNode, string | null>();
  /** Blocks of the file found paired wrongly: new, unless another block of the service has exactly their text. */
  const freed = new Set<DiffNode>();
  const take = (r: RemoteBlock): DiffNode | undefined => {
    const list = byText.get(`${r.kind}\u0001${r.markdown}`);
    const n = list?.find((x) => !overrides.has(x) || freed.has(x));
    if (n) freed.delete(n);
    return n;
  };
  const free = (n: DiffNode) => {
    overrides.set(n, null);
    freed.add(n);
    const k = `${n.local.kind}\u0001${n.local.markdown}`;
    byText.set(k, [...(byText.get(k) ?? []), n]);
  };
  // Crosswise pairs: both sides changed a block differently, and another block of the file is
  // exactly the service's text: that one is the block (a new-looking one, or one itself paired crosswise).
  const conflicting = (n: DiffNode): RemoteBlock | undefined => {
    const r = n.id === null ? undefined : remoteById.get(n.id);
    const b = n.base;
    if (!r || !b || !n.changed || sameContent(b.type, b.markdown, r.markdown, eq) || sameContent(r.type, r.markdown, n.local.markdown, eq)) return undefined;
    return r;
  };
  const assignedByText = new Map<string, DiffNode[]>();
  for (const n of assigned) {
    const k = `${n.local.kind}\u0001${n.local.markdown}`;
    const list = assignedByText.get(k);
    if (list) list.push(n);
    else assignedByText.set(k, [n]);
  }
  for (const n of assigned) {
    if (overrides.has(n)) continue;
    const r = conflicting(n);
    if (!r) continue;
    const m = take(r);
    if (m) {
      overrides.set(m, r.id);
      free(n);
      continue;
    }
    const swap = (assignedByText.get(`${r.kind}\u0001${r.markdown}`) ?? []).find((x) => {
      if (x === n || overrides.has(x)) return false;
      const rx = conflicting(x);
      return rx !== undefined && rx.kind === n.local.kind && rx.markdown === n.local.markdown;
    });
    if (swap) {
      overrides.set(swap, r.id);
      overrides.set(n, swap.id);
      continue;
    }
    // The file's block with the service's text is paired with a block the service deleted (a rewrite
    // in place paired by position): that block is this one, and this one's own text is new.
    const orphan = (assignedByText.get(`${r.kind}\u0001${r.markdown}`) ?? []).find((x) => x !== n && !overrides.has(x) && x.id !== null && !remoteById.has(x.id));
    if (orphan) {
      overrides.set(orphan, r.id);
      free(n);
    }
  }
  // A block of the file the diff took for an edit of a base block, whose text is exactly a block the
  // service got since base and the file has not placed (an insert of an interrupted push that landed,
  // or the same insert on both sides): it is new in the file, to be taken as that block where the
  // inserts meet, and the base block it was paired with is gone from the file.
  const newOnService = new Map<string, number>();
  for (const r of remote) {
    if (baseById.has(r.id) || inFile.has(r.id)) continue;
    const k = `${r.kind}\u0001${r.markdown}`;
    newOnService.set(k, (newOnService.get(k) ?? 0) + 1);
  }
  for (const n of assigned) {
    if (overrides.has(n) || !n.changed || n.base === null) continue;
    const k = `${n.local.kind}\u0001${n.local.markdown}`;
    const left = newOnService.get(k) ?? 0;
    if (left === 0) continue;
    newOnService.set(k, left - 1);
    free(n);
  }
  // Blocks the file seems to have deleted, whose current text is a new-looking block of the file.
  for (const r of remote) {
    if (!baseById.has(r.id) || inFile.has(r.id)) continue;
    const m = take(r);
    if (m) overrides.set(m, r.id);
  }
  if (overrides.size === 0) return diff;
  const copy = (ns: DiffNode[]): DiffNode[] => ns.map((n) => {
    const c: DiffNode = { ...n, children: copy(n.children) };
    const to = overrides.get(n);
    if (to === null) Object.assign(c, { id: null, base: null, changed: false, moved: false });
    else if (to !== undefined) {
      const b = baseById.get(to)!;
      Object.assign(c, { id: to, base: b, changed: !sameContent(b.type, b.markdown, n.local.markdown, eq) });
    }
    return c;
  });
  const nodes = copy(diff.nodes);
  markMoved(nodes, null);
  const ids = new Set<string>();
  const gather = (ns: DiffNode[]) => ns.forEach((n) => { if (n.id !== null) ids.add(n.id); gather(n.children); });
  gather(nodes);
  return { nodes, removed: [...baseById.keys()].filter((id) => !ids.has(id)), exhaustive: diff.exhaustive };
}

type Placement = 'remote' | 'local';

/**
 * The layout the file gives a card that exists: sent when it is a known layout other than the one
 * last synced (base's), a problem when the service would refuse it. When base's is unknown (a hash
 * from before layouts were hashed), nothing is sent: a stale file must not undo the service's.
 */
function layoutChange(local: LocalBlock, b: BaseBlock, problems: BlockProblem[]): CardLayout | undefined {
  const wanted = fileCardLayout(local);
  if ('invalid' in wanted) {
    problems.push({ id: b.id, markdown: local.markdown, message: `This card's layout is not sent: ${invalidLayoutReason(wanted.invalid)}. It stays in the file; fix it there.` });
    return undefined;
  }
  if (wanted.layout === undefined || b.kind !== 'card') return undefined;
  const was = cardLayoutOf(b);
  return was.known && was.layout !== wanted.layout ? wanted.layout : undefined;
}

/** A new card's layout from the file (createAction held the card when it is not a known one). */
function newLayout(local: LocalBlock): CardLayout | undefined {
  const wanted = fileCardLayout(local);
  return 'layout' in wanted ? wanted.layout : undefined;
}

export function mergeDocument(input: MergeInput): MergeResult {
  if (!input.remote) {
    const fast = mergeFileOnly(input.diff, input.base, input.dialect, input.readOnly);
    if (fast) return fast;
  }
  return mergeBoth(input);
}

/**
 * The usual case, only the file changed: the merged document is the file's, each block sent as
 * an edit, a replacement, a creation, or held back. Undefined when a block the file deleted cannot
 * be deleted (then the general merge puts it back in its place).
 */
function mergeFileOnly(diff: DocumentDiff, base: readonly BaseBlock[], dialect: CoreDialect, readOnly: ReadonlyMap<string, string> | undefined): MergeResult | undefined {
  if (diff.removed.length > 0) {
    const removed = new Set(diff.removed);
    if (base.some((b) => removed.has(b.id) && (b.kind === 'readonly' || PROTECTED.has(b.type) || readOnlyReason(b, readOnly) !== undefined))) return undefined;
  }
  const problems: BlockProblem[] = [];
  const build = (nodes: readonly DiffNode[], parentHeld: boolean): MergedNode[] => {
    const out: MergedNode[] = new Array(nodes.length);
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i]!;
      const b = n.base;
      let m: MergedNode;
      if (b && !parentHeld) {
        // n.id is b.id (the diff's own copy, cheaper to read than the base block's).
        m = { id: n.id!, kind: b.kind, type: b.type, markdown: b.markdown, source: 'local', local: n.local, remote: b, held: false, children: EMPTY };
        if (n.local.kind === 'card') {
          const layout = layoutChange(n.local, b, problems);
          if (layout) m.cardLayout = layout;
        }
        if (n.changed) {
          const a = editAction(b, n.local, dialect, readOnlyReason(b, readOnly));
          if (a.action === 'put') m.markdown = n.local.markdown;
          else if (a.action === 'replace') m = { id: null, kind: n.local.kind, type: a.type, markdown: n.local.markdown, source: 'local', local: n.local, held: false, children: EMPTY };
          else problems.push({ id: b.id, markdown: n.local.markdown, message: `This edit is not sent: ${a.reason}. It stays in the file.` });
        }
      } else if (b && parentHeld) {
        m = { id: b.id, kind: b.kind, type: b.type, markdown: b.markdown, source: 'local', local: n.local, remote: b, held: false, children: EMPTY };
      } else {
        const a = parentHeld ? undefined : createAction(n.local, dialect);
        if (a && a.action === 'create') {
          m = { id: null, kind: n.local.kind, type: a.type, markdown: n.local.markdown, source: 'local', local: n.local, held: false, children: EMPTY };
          const layout = n.local.kind === 'card' ? newLayout(n.local) : undefined;
          if (layout) m.cardLayout = layout;
        } else {
          if (a) problems.push({ markdown: n.local.markdown, message: `Not sent: ${a.reason}. It stays in the file; fix it there.` });
          m = { id: null, kind: n.local.kind, type: 'text', markdown: n.local.markdown, source: 'local', local: n.local, held: true, children: EMPTY };
        }
      }
      if (n.children.length > 0) m.children = build(n.children, parentHeld || m.held);
      out[i] = m;
    }
    return out;
  };
  const nodes = build(diff.nodes, false);
  return { nodes, conflicts: [], problems, fileChanged: false };
}

const EMPTY: MergedNode[] = [];

function mergeBoth(input: MergeInput): MergeResult {
  const { base, dialect } = input;
  const eq = dialect.equals;
  const remote: readonly RemoteBlock[] = input.remote ?? base;
  const baseById = new Map(base.map((b) => [b.id, b]));
  const remoteById = new Map(remote.map((r) => [r.id, r]));
  const remoteKids = new Map<string | null, RemoteBlock[]>();
  for (const r of remote) {
    const list = remoteKids.get(r.parentId);
    if (list) list.push(r);
    else remoteKids.set(r.parentId, [r]);
  }
  for (const list of remoteKids.values()) list.sort((x, y) => x.position - y.position);

  // Nothing to correct when the service did not change the document.
  const diff = input.remote ? reidentify(input.diff, remote, remoteById, baseById, eq) : input.diff;
  const localById = new Map<string, DiffNode>();
  const localParent = new Map<DiffNode, DiffNode | null>();
  const indexLocal = (nodes: DiffNode[], parent: DiffNode | null) => {
    for (const n of nodes) {
      localParent.set(n, parent);
      if (n.id !== null) localById.set(n.id, n);
      indexLocal(n.children, n);
    }
  };
  indexLocal(diff.nodes, null);

  const conflicts: BlockConflict[] = [];
  const problems: BlockProblem[] = [];

  const remoteChanged = (r: RemoteBlock): boolean => {
    const b = baseById.get(r.id);
    return !b || b.kind !== r.kind || !sameContent(b.type, b.markdown, r.markdown, eq);
  };

  // Blocks that moved on the service side (other parent, or out of base order).
  const remoteMovedIds = new Set<string>();
  if (input.remote) for (const [parentId, list] of remoteKids) {
    const placed = list.filter((r) => baseById.has(r.id)).map((r) => baseById.get(r.id)!);
    for (const id of movedAmong(placed, parentId)) remoteMovedIds.add(id);
  }

  // Deleted in the file: kept when the service touched anything inside since (an edit beats a delete),
  // or when the file cannot delete it (collections, whiteboards).
  const touchedRemote = new Map<string, boolean>();
  // Only through blocks the file does not have either: a block still in the file carries its own changes.
  const touchRemote = (r: RemoteBlock): boolean => {
    let t = remoteChanged(r);
    for (const c of remoteKids.get(r.id) ?? []) t = (touchRemote(c) && !localById.has(c.id)) || t;
    touchedRemote.set(r.id, t);
    return t;
  };
  if (input.remote) for (const r of remoteKids.get(null) ?? []) touchRemote(r);
  const revived = new Set<string>();
  const deletedHere = new Set<string>();
  const walkRemote = (list: readonly RemoteBlock[], parentRevived: boolean) => {
    for (const r of list) {
      let revive = false;
      if (baseById.has(r.id) && !localById.has(r.id)) {
        const kept = readOnlyReason(r, input.readOnly);
        const protect = r.kind === 'readonly' || PROTECTED.has(r.type) || kept !== undefined;
        if (parentRevived || touchedRemote.get(r.id) || protect) {
          revived.add(r.id);
          revive = true;
          if (protect && !parentRevived) {
            problems.push({ id: r.id, markdown: r.markdown, message: kept !== undefined
              ? `This block is ${kept}: spacesync keeps it read-only, so it was put back; delete it in the app.`
              : `This ${r.type} block cannot be deleted through the file, so it was put back; delete it in the app.` });
          }
        } else {
          deletedHere.add(r.id);
        }
      }
      walkRemote(remoteKids.get(r.id) ?? [], revive);
    }
  };
  walkRemote(remoteKids.get(null) ?? [], false);

  // Deleted in the service: re-created when the file changed anything inside (an edit beats a delete).
  const touchedLocal = new Map<DiffNode, boolean>();
  // Only through blocks the service does not have either: a block still there carries its own changes.
  const touchLocal = (n: DiffNode): boolean => {
    let t = n.id === null || n.changed;
    for (const c of n.children) t = (touchLocal(c) && (c.id === null || !remoteById.has(c.id))) || t;
    touchedLocal.set(n, t);
    return t;
  };
  diff.nodes.forEach(touchLocal);

  /** What becomes of each block of the file. */
  type Fate = 'keep' | 'create' | 'hold' | 'drop';
  const fate = new Map<DiffNode, Fate>();
  const merged = new Map<DiffNode, MergedNode>();
  const byId = new Map<string, MergedNode>();

  const fresh = (n: DiffNode, held: boolean, type: string): MergedNode => {
    const m: MergedNode = { id: null, kind: n.local.kind, type, markdown: n.local.markdown, source: 'local', local: n.local, held, children: [] };
    const layout = !held && n.local.kind === 'card' ? newLayout(n.local) : undefined;
    if (layout) m.cardLayout = layout;
    return m;
  };

  const decide = (nodes: DiffNode[], parentRecreated: boolean, parentHeld: boolean) => {
    for (const n of nodes) {
      const inRemote = n.id !== null && remoteById.has(n.id);
      if (parentHeld) {
        fate.set(n, inRemote ? 'keep' : 'hold');
      } else if (n.id === null || (!inRemote && (parentRecreated || touchedLocal.get(n)))) {
        const a = createAction(n.local, dialect);
        if (a.action === 'create') {
          fate.set(n, 'create');
          merged.set(n, fresh(n, false, a.type));
        } else {
          fate.set(n, 'hold');
          problems.push({ markdown: n.local.markdown, message: `Not sent: ${a.reason}. It stays in the file; fix it there.` });
        }
      } else if (!inRemote) {
        fate.set(n, 'drop');
      } else {
        fate.set(n, 'keep');
      }
      const f = fate.get(n)!;
      if (f === 'hold' && !merged.has(n)) merged.set(n, fresh(n, true, n.base?.type ?? 'text'));
      decide(n.children, f === 'create', f === 'hold');
    }
  };
  decide(diff.nodes, false, false);

  // Content of blocks on both sides.
  for (const [id, n] of localById) {
    if (fate.get(n) !== 'keep') continue;
    const r = remoteById.get(id)!;
    const b = n.base!;
    const rc = remoteChanged(r);
    const node: MergedNode = { id, kind: r.kind, type: r.type, markdown: r.markdown, source: 'local', local: n.local, remote: r, held: false, children: [] };
    if (n.local.kind === 'card' && r.kind === 'card') {
      const layout = layoutChange(n.local, b, problems);
      if (layout) node.cardLayout = layout;
    }
    if (n.changed && !rc) {
      const a = editAction(b, n.local, dialect, readOnlyReason(b, input.readOnly));
      if (a.action === 'put') node.markdown = n.local.markdown;
      else if (a.action === 'replace') {
        // The type changed: a new block takes its place, the old one goes.
        const created = fresh(n, false, a.type);
        merged.set(n, created);
        fate.set(n, 'create');
        continue;
      } else {
        problems.push({ id, markdown: n.local.markdown, message: `This edit is not sent: ${a.reason}. It stays in the file.` });
      }
    } else if (!n.changed && rc) {
      node.source = 'remote';
    } else if (n.changed && rc) {
      if (n.local.kind !== r.kind || !sameContent(r.type, r.markdown, n.local.markdown, eq)) {
        conflicts.push({ id, base: b.markdown, local: n.local.markdown, remote: r.markdown });
        node.source = 'remote';
      }
    }
    merged.set(n, node);
    byId.set(id, node);
  }
  for (const r of remote) {
    if (byId.has(r.id) || deletedHere.has(r.id)) continue;
    if (baseById.has(r.id) && !revived.has(r.id)) continue; // in the file (kept, dropped or re-created)
    // Service-only blocks: new on the service, or deleted in the file but kept.
    byId.set(r.id, { id: r.id, kind: r.kind, type: r.type, markdown: r.markdown, source: 'remote', remote: r, held: false, children: [] });
  }
  // Service blocks the file does not have: new ones, and those deleted in the file but kept.
  const serviceOnly = new Set(remote.filter((r) => !baseById.has(r.id) || revived.has(r.id)).map((r) => r.id));
  const adopted = new Set<string>();

  // Structure. A block keeps the service's place unless only the file moved it (and its new parent survives).
  const root: MergedNode = { id: null, kind: 'page', type: 'page', markdown: '', source: 'local', held: false, children: [] };
  const parentOf = new Map<MergedNode, MergedNode>();
  const survivingParent = (n: DiffNode): MergedNode | undefined => {
    const p = localParent.get(n)!;
    if (p === null) return root;
    const f = fate.get(p);
    return f === 'drop' ? undefined : merged.get(p);
  };
  const placement = (n: DiffNode): Placement => {
    const parent = survivingParent(n);
    if (!parent || parent.held) return 'remote';
    const r = remoteById.get(n.id!)!;
    const remoteParentGone = r.parentId !== null && !byId.has(r.parentId);
    return remoteParentGone || (n.moved && !remoteMovedIds.has(n.id!)) ? 'local' : 'remote';
  };
  const placedLocally = new Set<string>();
  for (const [id, n] of localById) if (fate.get(n) === 'keep' && byId.has(id) && placement(n) === 'local') placedLocally.add(id);

  const attach = (parent: MergedNode, child: MergedNode, at: number) => {
    parent.children.splice(at, 0, child);
    parentOf.set(child, parent);
  };
  const unplaced: MergedNode[] = [];
  for (const r of remote) {
    const node = byId.get(r.id);
    if (!node || placedLocally.has(r.id)) continue;
    const parent = r.parentId === null ? root : byId.get(r.parentId);
    if (parent) attach(parent, node, parent.children.length);
    else unplaced.push(node);
  }

  /**
   * A new block of the file that the service already holds at that place, with the same children:
   * what an interrupted push left, or the same insert (or the same move into a new page) on both sides.
   */
  // Existing blocks under a new page (moved into it) are not part of the comparison: they are
  // placed into whichever block becomes that page.
  const newKids = (n: DiffNode) => n.children.filter((c) => fate.get(c) === 'create');
  const twinKids = (r: MergedNode) => r.children.filter((c) => c.id !== null && serviceOnly.has(c.id));
  const alike = (n: DiffNode, r: MergedNode): boolean => {
    if (r.id === null || !serviceOnly.has(r.id) || adopted.has(r.id) || n.local.kind !== r.kind) return false;
    if (!sameContent(r.type, r.markdown, n.local.markdown, eq)) return false;
    const nk = newKids(n);
    const rk = twinKids(r);
    return nk.length === rk.length && nk.every((c, i) => alike(c, rk[i]!));
  };
  /** `n` (built as `m`) is the service's `r`: r takes m's place and children, its own twins standing in for the new ones. */
  const adopt = (n: DiffNode, r: MergedNode, m: MergedNode) => {
    adopted.add(r.id!);
    r.source = 'local';
    r.local = n.local;
    merged.set(n, r);
    const rk = twinKids(r);
    const swap = new Map<MergedNode, MergedNode>();
    newKids(n).forEach((c, i) => {
      const built = merged.get(c)!;
      adopt(c, rk[i]!, built);
      swap.set(built, rk[i]!);
    });
    const children = m.children.map((c) => swap.get(c) ?? c);
    // The service's own blocks under r that the file placed nowhere else keep their place after their predecessor.
    r.children.forEach((c, i) => {
      if (children.includes(c)) return;
      const prev = r.children.slice(0, i).reverse().find((p) => children.includes(p));
      children.splice(prev ? children.indexOf(prev) + 1 : 0, 0, c);
    });
    r.children = children;
    for (const c of children) parentOf.set(c, r);
  };

  const place = (nodes: DiffNode[], parent: MergedNode | undefined) => {
    let prev: MergedNode | null = null;
    for (const n of nodes) {
      const f = fate.get(n)!;
      const m: MergedNode | undefined = f === 'drop' ? undefined : merged.get(n);
      const isNew = f === 'create' || f === 'hold';
      if (m && parent && (isNew || (n.id !== null && placedLocally.has(n.id)))) {
        const at: number = prev === null ? 0 : parent.children.lastIndexOf(prev) + 1;
        // Children first, so a new page can be compared whole with what the service already has.
        place(n.children, m);
        let twin: MergedNode | undefined;
        if (isNew && !m.held) {
          for (let k = at; k < parent.children.length; k++) {
            const cand: MergedNode = parent.children[k]!;
            if (cand.id === null || !serviceOnly.has(cand.id) || adopted.has(cand.id)) break;
            if (alike(n, cand)) {
              twin = cand;
              break;
            }
          }
        }
        if (twin) {
          adopt(n, twin, m);
          prev = twin;
        } else {
          attach(parent, m, at);
          prev = m;
        }
        continue;
      }
      place(n.children, m);
      if (m && parentOf.get(m) === parent) prev = m;
    }
  };
  place(diff.nodes, root);

  // Both sides moved blocks into each other (A into B in the file, B into A on the service): the
  // file's move of a block caught in such a loop gives way to the service's place.
  // (Only possible when the file moved blocks and the service changed the document.)
  for (; placedLocally.size > 0 && input.remote;) {
    const reachable = new Set<MergedNode>();
    const walk = (m: MergedNode) => { reachable.add(m); m.children.forEach(walk); };
    walk(root);
    const stray = [...parentOf.keys()].find((m) => !reachable.has(m) && m.id !== null && placedLocally.has(m.id));
    if (!stray) break;
    const from = parentOf.get(stray)!;
    from.children.splice(from.children.indexOf(stray), 1);
    placedLocally.delete(stray.id!);
    const r = remoteById.get(stray.id!)!;
    const parent = r.parentId === null ? root : byId.get(r.parentId) ?? root;
    const siblings = remoteKids.get(r.parentId) ?? [];
    let at = 0;
    for (let k = siblings.indexOf(r) - 1; k >= 0; k--) {
      const prev = byId.get(siblings[k]!.id);
      const i = prev ? parent.children.indexOf(prev) : -1;
      if (i >= 0) {
        at = i + 1;
        break;
      }
    }
    attach(parent, stray, at);
  }
  // A block whose places on both sides are gone still stays (at the end): nothing is lost.
  for (const node of unplaced) if (!parentOf.has(node)) attach(root, node, root.children.length);
  for (const [id, n] of localById) {
    const m = byId.get(id);
    if (m && placedLocally.has(id) && !parentOf.has(m) && fate.get(n) === 'keep') attach(root, m, root.children.length);
  }

  return { nodes: root.children, conflicts, problems, fileChanged: !sameAsFile(root.children, diff.nodes) };
}

/** Whether the merged tree is exactly the file's blocks, all from the file. */
function sameAsFile(merged: readonly MergedNode[], local: readonly DiffNode[]): boolean {
  if (merged.length !== local.length) return false;
  for (let i = 0; i < merged.length; i++) {
    const m = merged[i]!;
    if (m.source !== 'local' || m.local !== local[i]!.local) return false;
    if (!sameAsFile(m.children, local[i]!.children)) return false;
  }
  return true;
}

// The three-way merge of one document at block level, keyed by id (docs/sync-decisions.md, Merge): what the
// file should show and the service should hold, the conflicts, and what is held back. An edit
// always beats a delete; the same edit on both sides is nothing; different edits of one block keep
// the remote in the document and the whole local version as a conflict copy.
import { sameContent } from './blockContent.js';
import { cardLayoutOf, fileCardLayout, invalidLayoutReason } from './cardLayout.js';
import { isTaskMarkdown, splitTaskDates, withTaskDates, type CardLayout, type TaskDates } from '../../dialect/index.js';
import { movedAmong } from './movedAmong.js';
import { createAction, editAction, PROTECTED } from '../push/sendability.js';
import { readOnlyReason } from './readOnlyReason.js';
import { markMoved, type DiffNode, type DocumentDiff } from './diff.js';
import type { BaseBlock, BlockKind, CoreDialect, LocalBlock, MarkdownEquals, RemoteBlock } from '../types.js';

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
  /** Held because it is output-only (a collection table): the tables' own push may send what changed in it. */
  outputOnly?: true;
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

/** What one re-identification works on: the file's blocks by whether the diff paired them, and the corrections found so far. */
interface ReidentifyPass {
  remote: readonly RemoteBlock[];
  remoteById: ReadonlyMap<string, RemoteBlock>;
  baseById: ReadonlyMap<string, BaseBlock>;
  eq: CoreDialect['equals'];
  /** The file's blocks the diff took for new, in document order. */
  unassigned: DiffNode[];
  /** The file's blocks the diff paired with a base block, in document order. */
  assigned: DiffNode[];
  /** The ids the diff gave to blocks of the file. */
  inFile: Set<string>;
  /** Blocks of the file open to be taken as a block of the service, by exact text. */
  byText: Map<string, DiffNode[]>;
  /** The paired blocks of the file by exact text. */
  assignedByText: Map<string, DiffNode[]>;
  /** Corrections: the id a block of the file is (null: new). */
  overrides: Map<DiffNode, string | null>;
  /** Blocks of the file found paired wrongly: new, unless another block of the service has exactly their text. */
  freed: Set<DiffNode>;
}

const textKey = (kind: string, markdown: string) => `${kind}\u0001${markdown}`;

/**
 * Corrects the diff's identification where the service shows it wrong (the diff only sees base and
 * file, and two short texts can look alike): a block of the file whose text is exactly what the
 * service now holds for a block is that block. This covers a block the service moved and edited
 * while the file followed (the diff took it for deleted and new), and two blocks the diff paired
 * crosswise (which would look like a conflict). Works on a copy; the diff given stays as it was.
 */
function reidentify(
  diff: DocumentDiff,
  remote: readonly RemoteBlock[],
  remoteById: ReadonlyMap<string, RemoteBlock>,
  baseById: ReadonlyMap<string, BaseBlock>,
  eq: CoreDialect['equals'],
): DocumentDiff {
  const p: ReidentifyPass = {
    remote,
    remoteById,
    baseById,
    eq,
    unassigned: [],
    assigned: [],
    inFile: new Set(),
    byText: new Map(),
    assignedByText: new Map(),
    overrides: new Map(),
    freed: new Set(),
  };
  collectFileBlocks(p, diff.nodes);
  p.byText = groupByText(p.unassigned);
  p.assignedByText = groupByText(p.assigned);
  untangleCrosswise(p);
  freeInsertsOnService(p);
  claimDeletedInFile(p);
  return p.overrides.size === 0 ? diff : withOverrides(p, diff);
}

/** Invariant: every block of the file is in `assigned` or `unassigned` (never both), in document order. */
function collectFileBlocks(p: ReidentifyPass, ns: DiffNode[]): void {
  ns.forEach((n) => {
    if (n.id === null) p.unassigned.push(n);
    else {
      p.assigned.push(n);
      p.inFile.add(n.id);
    }
    collectFileBlocks(p, n.children);
  });
}

/** Invariant: each block is listed under its own exact text (kind and markdown), in the order given. */
function groupByText(ns: readonly DiffNode[]): Map<string, DiffNode[]> {
  const byText = new Map<string, DiffNode[]>();
  for (const n of ns) {
    const k = textKey(n.local.kind, n.local.markdown);
    const list = byText.get(k);
    if (list) list.push(n);
    else byText.set(k, [n]);
  }
  return byText;
}

/** Invariant: a block of the file is taken for a service block only while it has no correction, or was freed and not taken since. */
function takeByText(p: ReidentifyPass, r: RemoteBlock): DiffNode | undefined {
  const list = p.byText.get(textKey(r.kind, r.markdown));
  const n = list?.find((x) => !p.overrides.has(x) || p.freed.has(x));
  if (n) p.freed.delete(n);
  return n;
}

/** Invariant: a freed block is new unless taken later, and open to be taken by its exact text. */
function freeBlock(p: ReidentifyPass, n: DiffNode): void {
  p.overrides.set(n, null);
  p.freed.add(n);
  const k = textKey(n.local.kind, n.local.markdown);
  const had = p.byText.get(k);
  if (had) had.push(n);
  else p.byText.set(k, [n]);
}

/** Invariant: a service block only when both sides changed the block differently since base. */
function conflictingRemote(p: ReidentifyPass, n: DiffNode): RemoteBlock | undefined {
  const r = n.id === null ? undefined : p.remoteById.get(n.id);
  const b = n.base;
  if (!r || !b || !n.changed || sameContent(b.type, b.markdown, r.markdown, p.eq) || sameContent(r.type, r.markdown, n.local.markdown, p.eq)) return undefined;
  return r;
}

/**
 * Crosswise pairs: both sides changed a block differently, and another block of the file is exactly
 * the service's text: that one is the block (a new-looking one, or one itself paired crosswise).
 * Invariant: a block of the file gets at most one correction here, and only to an id whose service text it has.
 */
function untangleCrosswise(p: ReidentifyPass): void {
  for (const n of p.assigned) {
    if (p.overrides.has(n)) continue;
    const r = conflictingRemote(p, n);
    if (!r) continue;
    const m = takeByText(p, r);
    if (m) {
      p.overrides.set(m, r.id);
      freeBlock(p, n);
      continue;
    }
    const sameText = p.assignedByText.get(textKey(r.kind, r.markdown)) ?? [];
    const swap = sameText.find((x) => {
      if (x === n || p.overrides.has(x)) return false;
      const rx = conflictingRemote(p, x);
      return rx !== undefined && rx.kind === n.local.kind && rx.markdown === n.local.markdown;
    });
    if (swap) {
      p.overrides.set(swap, r.id);
      p.overrides.set(n, swap.id);
      continue;
    }
    // The file's block with the service's text is paired with a block the service deleted (a rewrite
    // in place paired by position): that block is this one, and this one's own text is new.
    const orphan = sameText.find((x) => x !== n && !p.overrides.has(x) && x.id !== null && !p.remoteById.has(x.id));
    if (orphan) {
      p.overrides.set(orphan, r.id);
      freeBlock(p, n);
    }
  }
}

/**
 * A block of the file the diff took for an edit of a base block, whose text is exactly a block the
 * service got since base and the file has not placed (an insert of an interrupted push that landed,
 * or the same insert on both sides): it is new in the file, to be taken as that block where the
 * inserts meet, and the base block it was paired with is gone from the file.
 * Invariant: no more blocks of one text are freed than the service got new blocks of that text.
 */
function freeInsertsOnService(p: ReidentifyPass): void {
  const newOnService = new Map<string, number>();
  for (const r of p.remote) {
    if (p.baseById.has(r.id) || p.inFile.has(r.id)) continue;
    const k = textKey(r.kind, r.markdown);
    newOnService.set(k, (newOnService.get(k) ?? 0) + 1);
  }
  for (const n of p.assigned) {
    if (p.overrides.has(n) || !n.changed || n.base === null) continue;
    const k = textKey(n.local.kind, n.local.markdown);
    const left = newOnService.get(k) ?? 0;
    if (left === 0) continue;
    newOnService.set(k, left - 1);
    freeBlock(p, n);
  }
}

/** Blocks the file seems to have deleted, whose current text is a new-looking block of the file. Invariant: each is taken by one block of the file at most. */
function claimDeletedInFile(p: ReidentifyPass): void {
  for (const r of p.remote) {
    if (!p.baseById.has(r.id) || p.inFile.has(r.id)) continue;
    const m = takeByText(p, r);
    if (m) p.overrides.set(m, r.id);
  }
}

/** Invariant: the diff given is not touched; the copy's moves and removed ids are recomputed from its corrected ids. */
function withOverrides(p: ReidentifyPass, diff: DocumentDiff): DocumentDiff {
  const copy = (ns: DiffNode[]): DiffNode[] =>
    ns.map((n) => {
      const c: DiffNode = { ...n, children: copy(n.children) };
      const to = p.overrides.get(n);
      if (to === null) Object.assign(c, { id: null, base: null, changed: false, moved: false });
      else if (to !== undefined) {
        const b = p.baseById.get(to)!;
        Object.assign(c, { id: to, base: b, changed: !sameContent(b.type, b.markdown, n.local.markdown, p.eq) });
      }
      return c;
    });
  const nodes = copy(diff.nodes);
  markMoved(nodes, null);
  const ids = new Set<string>();
  const gather = (ns: DiffNode[]) =>
    ns.forEach((n) => {
      if (n.id !== null) ids.add(n.id);
      gather(n.children);
    });
  gather(nodes);
  return { nodes, removed: [...p.baseById.keys()].filter((id) => !ids.has(id)), exhaustive: diff.exhaustive };
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
    problems.push({
      id: b.id,
      markdown: local.markdown,
      message: `This card's layout is not sent: ${invalidLayoutReason(wanted.invalid)}. It stays in the file; fix it there.`,
    });
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
function mergeFileOnly(
  diff: DocumentDiff,
  base: readonly BaseBlock[],
  dialect: CoreDialect,
  readOnly: ReadonlyMap<string, string> | undefined,
): MergeResult | undefined {
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
          else if (a.action === 'replace')
            m = { id: null, kind: n.local.kind, type: a.type, markdown: n.local.markdown, source: 'local', local: n.local, held: false, children: EMPTY };
          else if (a.action === 'upload')
            // The block goes; its new line waits for the media step's upload.
            m = { id: null, kind: n.local.kind, type: 'text', markdown: n.local.markdown, source: 'local', local: n.local, held: true, children: EMPTY };
          else
            problems.push({
              id: b.id,
              markdown: n.local.markdown,
              message: `This edit is not sent: ${a.reason}. It stays in the file.`,
              ...(b.kind === 'readonly' || n.local.kind === 'readonly' ? { outputOnly: true as const } : {}),
            });
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
          if (a?.action === 'hold')
            problems.push({
              markdown: n.local.markdown,
              message: `Not sent: ${a.reason}. It stays in the file; fix it there.`,
              ...(n.local.kind === 'readonly' ? { outputOnly: true as const } : {}),
            });
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

/** What becomes of each block of the file. */
type Fate = 'keep' | 'create' | 'hold' | 'drop';

/** What one general merge works on: both sides indexed, the decisions per block, and the merged tree as it is built. */
interface MergePass {
  input: MergeInput;
  dialect: CoreDialect;
  eq: CoreDialect['equals'];
  /** The service's blocks now (base's when the service did not change the document). */
  remote: readonly RemoteBlock[];
  baseById: Map<string, BaseBlock>;
  remoteById: Map<string, RemoteBlock>;
  /** The service's sibling lists by parent, in position order. */
  remoteKids: Map<string | null, RemoteBlock[]>;
  /** The diff, corrected where the service shows it wrong. */
  diff: DocumentDiff;
  localById: Map<string, DiffNode>;
  localParent: Map<DiffNode, DiffNode | null>;
  conflicts: BlockConflict[];
  problems: BlockProblem[];
  /** Blocks that moved on the service side (other parent, or out of base order). */
  remoteMovedIds: Set<string>;
  /** Per service block: it or a block under it (not in the file) changed on the service since base. */
  touchedRemote: Map<string, boolean>;
  /** Deleted in the file but kept. */
  revived: Set<string>;
  /** Deleted in the file, and deleted. */
  deletedHere: Set<string>;
  /** Per block of the file: it or a block under it (not on the service) changed in the file since base. */
  touchedLocal: Map<DiffNode, boolean>;
  fate: Map<DiffNode, Fate>;
  merged: Map<DiffNode, MergedNode>;
  byId: Map<string, MergedNode>;
  /** Service blocks the file does not have: new ones, and those deleted in the file but kept. */
  serviceOnly: Set<string>;
  /** Service blocks taken as a new block of the file (its twin). */
  adopted: Set<string>;
  root: MergedNode;
  parentOf: Map<MergedNode, MergedNode>;
  /** Blocks that take the file's place rather than the service's. */
  placedLocally: Set<string>;
  /** Service blocks whose service parent is not in the merged tree (yet). */
  unplaced: MergedNode[];
}

function mergeBoth(input: MergeInput): MergeResult {
  const p = mergePass(input);
  if (input.remote) {
    findRemoteMoves(p);
    for (const r of p.remoteKids.get(null) ?? []) touchRemote(p, r);
  }
  decideFileDeletes(p, p.remoteKids.get(null) ?? [], false);
  p.diff.nodes.forEach((n) => touchLocal(p, n));
  decideFates(p, p.diff.nodes, false, false);
  mergeContent(p);
  addServiceOnly(p);
  markPlacedLocally(p);
  placeInServiceOrder(p);
  placeFileOrder(p, p.diff.nodes, p.root);
  if (input.remote) breakMoveLoops(p);
  keepStrays(p);
  const nodes = p.root.children;
  return { nodes, conflicts: p.conflicts, problems: p.problems, fileChanged: !sameAsFile(nodes, p.diff.nodes) };
}

/** Invariant: both sides are indexed by id, the service's sibling lists are in position order, and the diff is corrected before the file is indexed. */
function mergePass(input: MergeInput): MergePass {
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
  const p: MergePass = {
    input,
    dialect,
    eq,
    remote,
    baseById,
    remoteById,
    remoteKids,
    diff,
    localById: new Map(),
    localParent: new Map(),
    conflicts: [],
    problems: [],
    remoteMovedIds: new Set(),
    touchedRemote: new Map(),
    revived: new Set(),
    deletedHere: new Set(),
    touchedLocal: new Map(),
    fate: new Map(),
    merged: new Map(),
    byId: new Map(),
    serviceOnly: new Set(),
    adopted: new Set(),
    root: { id: null, kind: 'page', type: 'page', markdown: '', source: 'local', held: false, children: [] },
    parentOf: new Map(),
    placedLocally: new Set(),
    unplaced: [],
  };
  indexLocal(p, diff.nodes, null);
  return p;
}

/** Invariant: every block of the file has its parent recorded, and every one with an id is found by it. */
function indexLocal(p: MergePass, nodes: DiffNode[], parent: DiffNode | null): void {
  for (const n of nodes) {
    p.localParent.set(n, parent);
    if (n.id !== null) p.localById.set(n.id, n);
    indexLocal(p, n.children, n);
  }
}

/** Invariant: true exactly when the service's block is new, or differs from base in kind or content. */
function remoteChanged(p: MergePass, r: RemoteBlock): boolean {
  const b = p.baseById.get(r.id);
  return !b || b.kind !== r.kind || !sameContent(b.type, b.markdown, r.markdown, p.eq);
}

/** Invariant: a block is marked moved on the service when its service parent or its order among base's blocks there differs from base. */
function findRemoteMoves(p: MergePass): void {
  for (const [parentId, list] of p.remoteKids) {
    const placed = list.filter((r) => p.baseById.has(r.id)).map((r) => p.baseById.get(r.id)!);
    for (const id of movedAmong(placed, parentId)) p.remoteMovedIds.add(id);
  }
}

/**
 * Whether the service touched the block or anything inside since base. Invariant: only through
 * blocks the file does not have either: a block still in the file carries its own changes.
 */
function touchRemote(p: MergePass, r: RemoteBlock): boolean {
  let t = remoteChanged(p, r);
  for (const c of p.remoteKids.get(r.id) ?? []) t = (touchRemote(p, c) && !p.localById.has(c.id)) || t;
  p.touchedRemote.set(r.id, t);
  return t;
}

/**
 * Deleted in the file: kept when the service touched anything inside since (an edit beats a delete),
 * or when the file cannot delete it (collections, whiteboards). Invariant: each base block missing
 * from the file is either revived or deleted, and everything under a revived block is revived.
 */
function decideFileDeletes(p: MergePass, list: readonly RemoteBlock[], parentRevived: boolean): void {
  for (const r of list) {
    let revive = false;
    if (p.baseById.has(r.id) && !p.localById.has(r.id)) {
      const kept = readOnlyReason(r, p.input.readOnly);
      const protect = r.kind === 'readonly' || PROTECTED.has(r.type) || kept !== undefined;
      if (parentRevived || p.touchedRemote.get(r.id) || protect) {
        p.revived.add(r.id);
        revive = true;
        if (protect && !parentRevived) {
          p.problems.push({
            id: r.id,
            markdown: r.markdown,
            message:
              kept !== undefined
                ? `This block is ${kept}: spacesync keeps it read-only, so it was put back; delete it in the app.`
                : `This ${r.type} block cannot be deleted through the file, so it was put back; delete it in the app.`,
          });
        }
      } else {
        p.deletedHere.add(r.id);
      }
    }
    decideFileDeletes(p, p.remoteKids.get(r.id) ?? [], revive);
  }
}

/**
 * Whether the file changed the block or anything inside (deleted in the service: re-created then,
 * an edit beats a delete). Invariant: only through blocks the service does not have either: a block
 * still there carries its own changes.
 */
function touchLocal(p: MergePass, n: DiffNode): boolean {
  let t = n.id === null || n.changed;
  for (const c of n.children) t = (touchLocal(p, c) && (c.id === null || !p.remoteById.has(c.id))) || t;
  p.touchedLocal.set(n, t);
  return t;
}

/** Invariant: a new node carries the file's block; only one that is sent carries a card's layout. */
function freshNode(n: DiffNode, held: boolean, type: string): MergedNode {
  const m: MergedNode = { id: null, kind: n.local.kind, type, markdown: n.local.markdown, source: 'local', local: n.local, held, children: [] };
  const layout = !held && n.local.kind === 'card' ? newLayout(n.local) : undefined;
  if (layout) m.cardLayout = layout;
  return m;
}

/** Invariant: every block of the file gets one fate; everything under a held block is held (or kept), and created and held blocks have their node. */
function decideFates(p: MergePass, nodes: DiffNode[], parentRecreated: boolean, parentHeld: boolean): void {
  for (const n of nodes) {
    const inRemote = n.id !== null && p.remoteById.has(n.id);
    if (parentHeld) {
      p.fate.set(n, inRemote ? 'keep' : 'hold');
    } else if (n.id === null || (!inRemote && (parentRecreated || p.touchedLocal.get(n)))) {
      const a = createAction(n.local, p.dialect);
      if (a.action === 'create') {
        p.fate.set(n, 'create');
        p.merged.set(n, freshNode(n, false, a.type));
      } else {
        p.fate.set(n, 'hold');
        if (a.action === 'hold')
          p.problems.push({
            markdown: n.local.markdown,
            message: `Not sent: ${a.reason}. It stays in the file; fix it there.`,
            ...(n.local.kind === 'readonly' ? { outputOnly: true as const } : {}),
          });
      }
    } else if (!inRemote) {
      p.fate.set(n, 'drop');
    } else {
      p.fate.set(n, 'keep');
    }
    const f = p.fate.get(n)!;
    if (f === 'hold' && !p.merged.has(n)) p.merged.set(n, freshNode(n, true, n.base?.type ?? 'text'));
    decideFates(p, n.children, f === 'create', f === 'hold');
  }
}

/**
 * Content of blocks on both sides. Invariant: an edit on one side wins; the same edit on both is
 * nothing; different edits keep the service's and record a conflict; a change of type becomes a creation.
 */
function mergeContent(p: MergePass): void {
  for (const [id, n] of p.localById) {
    if (p.fate.get(n) !== 'keep') continue;
    const r = p.remoteById.get(id)!;
    const b = n.base!;
    const rc = remoteChanged(p, r);
    const node: MergedNode = { id, kind: r.kind, type: r.type, markdown: r.markdown, source: 'local', local: n.local, remote: r, held: false, children: [] };
    if (n.local.kind === 'card' && r.kind === 'card') {
      const layout = layoutChange(n.local, b, p.problems);
      if (layout) node.cardLayout = layout;
    }
    if (n.changed && !rc) {
      const a = editAction(b, n.local, p.dialect, readOnlyReason(b, p.input.readOnly));
      if (a.action === 'put') node.markdown = n.local.markdown;
      else if (a.action === 'replace') {
        // The type changed: a new block takes its place, the old one goes.
        p.merged.set(n, freshNode(n, false, a.type));
        p.fate.set(n, 'create');
        continue;
      } else if (a.action === 'upload') {
        // The old block goes; the new line waits for the media step's upload.
        p.merged.set(n, freshNode(n, true, 'text'));
        p.fate.set(n, 'hold');
        continue;
      } else {
        p.problems.push({
          id,
          markdown: n.local.markdown,
          message: `This edit is not sent: ${a.reason}. It stays in the file.`,
          ...(b.kind === 'readonly' || n.local.kind === 'readonly' ? { outputOnly: true as const } : {}),
        });
      }
    } else if (!n.changed && rc) {
      node.source = 'remote';
    } else if (n.changed && rc) {
      if (n.local.kind !== r.kind || !sameContent(r.type, r.markdown, n.local.markdown, p.eq)) {
        // A task's text and dates merge field by field; the file shows the merged line.
        const merged = n.local.kind === 'block' && r.kind === 'block' ? mergeTaskLine(b.markdown, n.local.markdown, r.markdown, p.eq) : undefined;
        if (merged === undefined) p.conflicts.push({ id, base: b.markdown, local: n.local.markdown, remote: r.markdown });
        else node.markdown = merged;
        node.source = 'remote';
      }
    }
    p.merged.set(n, node);
    p.byId.set(id, node);
  }
}

/** Invariant: every service block that stays and that the file does not have (new ones, and deleted in the file but kept) has its node, from the service. */
function addServiceOnly(p: MergePass): void {
  for (const r of p.remote) {
    if (p.byId.has(r.id) || p.deletedHere.has(r.id)) continue;
    if (p.baseById.has(r.id) && !p.revived.has(r.id)) continue; // in the file (kept, dropped or re-created)
    p.byId.set(r.id, { id: r.id, kind: r.kind, type: r.type, markdown: r.markdown, source: 'remote', remote: r, held: false, children: [] });
  }
  for (const r of p.remote) if (!p.baseById.has(r.id) || p.revived.has(r.id)) p.serviceOnly.add(r.id);
}

/** Invariant: undefined exactly when the block's parent in the file is dropped. */
function survivingParent(p: MergePass, n: DiffNode): MergedNode | undefined {
  const parent = p.localParent.get(n)!;
  if (parent === null) return p.root;
  return p.fate.get(parent) === 'drop' ? undefined : p.merged.get(parent);
}

/** Invariant: a block keeps the service's place unless only the file moved it (and its new parent survives, not held), or its service parent is gone. */
function placement(p: MergePass, n: DiffNode): Placement {
  const parent = survivingParent(p, n);
  if (!parent || parent.held) return 'remote';
  const r = p.remoteById.get(n.id!)!;
  const remoteParentGone = r.parentId !== null && !p.byId.has(r.parentId);
  return remoteParentGone || (n.moved && !p.remoteMovedIds.has(n.id!)) ? 'local' : 'remote';
}

/** Invariant: only kept blocks on both sides are placed by the file. */
function markPlacedLocally(p: MergePass): void {
  for (const [id, n] of p.localById) if (p.fate.get(n) === 'keep' && p.byId.has(id) && placement(p, n) === 'local') p.placedLocally.add(id);
}

/** Invariant: a child is in its parent's list exactly once and parentOf says so. */
function attach(p: MergePass, parent: MergedNode, child: MergedNode, at: number): void {
  parent.children.splice(at, 0, child);
  p.parentOf.set(child, parent);
}

/** Invariant: every service-placed block is under its service parent in service order, or waits in `unplaced` when that parent is not in the tree. */
function placeInServiceOrder(p: MergePass): void {
  for (const r of p.remote) {
    const node = p.byId.get(r.id);
    if (!node || p.placedLocally.has(r.id)) continue;
    const parent = r.parentId === null ? p.root : p.byId.get(r.parentId);
    if (parent) attach(p, parent, node, parent.children.length);
    else p.unplaced.push(node);
  }
}

/**
 * A new block of the file's new children. Existing blocks under a new page (moved into it) are not
 * part of the twin comparison: they are placed into whichever block becomes that page.
 */
function newKids(p: MergePass, n: DiffNode): DiffNode[] {
  return n.children.filter((c) => p.fate.get(c) === 'create');
}

/** Invariant: only the service-only children of a service block stand as twins of new ones. */
function twinKids(p: MergePass, r: MergedNode): MergedNode[] {
  return r.children.filter((c) => c.id !== null && p.serviceOnly.has(c.id));
}

/**
 * A new block of the file that the service already holds at that place, with the same children:
 * what an interrupted push left, or the same insert (or the same move into a new page) on both sides.
 * Invariant: a service block is the twin of one new block at most (not once adopted).
 */
function alike(p: MergePass, n: DiffNode, r: MergedNode): boolean {
  if (r.id === null || !p.serviceOnly.has(r.id) || p.adopted.has(r.id) || n.local.kind !== r.kind) return false;
  if (!sameContent(r.type, r.markdown, n.local.markdown, p.eq)) return false;
  const nk = newKids(p, n);
  const rk = twinKids(p, r);
  return nk.length === rk.length && nk.every((c, i) => alike(p, c, rk[i]!));
}

/**
 * `n` (built as `m`) is the service's `r`: r takes m's place and children, its own twins standing in
 * for the new ones. Invariant: the service's own blocks under r that the file placed nowhere else
 * keep their place after their predecessor.
 */
function adopt(p: MergePass, n: DiffNode, r: MergedNode, m: MergedNode): void {
  p.adopted.add(r.id!);
  r.source = 'local';
  r.local = n.local;
  p.merged.set(n, r);
  const rk = twinKids(p, r);
  const swap = new Map<MergedNode, MergedNode>();
  newKids(p, n).forEach((c, i) => {
    const built = p.merged.get(c)!;
    adopt(p, c, rk[i]!, built);
    swap.set(built, rk[i]!);
  });
  const children = m.children.map((c) => swap.get(c) ?? c);
  r.children.forEach((c, i) => {
    if (children.includes(c)) return;
    const prev = r.children
      .slice(0, i)
      .reverse()
      .find((x) => children.includes(x));
    children.splice(prev ? children.indexOf(prev) + 1 : 0, 0, c);
  });
  r.children = children;
  for (const c of children) p.parentOf.set(c, r);
}

/** Invariant: new and file-placed blocks go right after their predecessor in the file, or become their service twin; children are placed before their parent. */
function placeFileOrder(p: MergePass, nodes: DiffNode[], parent: MergedNode | undefined): void {
  let prev: MergedNode | null = null;
  for (const n of nodes) {
    const f = p.fate.get(n)!;
    const m: MergedNode | undefined = f === 'drop' ? undefined : p.merged.get(n);
    const isNew = f === 'create' || f === 'hold';
    if (m && parent && (isNew || (n.id !== null && p.placedLocally.has(n.id)))) {
      const at: number = prev === null ? 0 : parent.children.lastIndexOf(prev) + 1;
      // Children first, so a new page can be compared whole with what the service already has.
      placeFileOrder(p, n.children, m);
      const twin = isNew && !m.held ? twinAt(p, n, parent, at) : undefined;
      if (twin) {
        adopt(p, n, twin, m);
        prev = twin;
      } else {
        attach(p, parent, m, at);
        prev = m;
      }
      continue;
    }
    placeFileOrder(p, n.children, m);
    if (m && p.parentOf.get(m) === parent) prev = m;
  }
}

/** Invariant: a twin is looked for only among the run of not-yet-adopted service-only blocks from `at`. */
function twinAt(p: MergePass, n: DiffNode, parent: MergedNode, at: number): MergedNode | undefined {
  for (let k = at; k < parent.children.length; k++) {
    const cand: MergedNode = parent.children[k]!;
    if (cand.id === null || !p.serviceOnly.has(cand.id) || p.adopted.has(cand.id)) break;
    if (alike(p, n, cand)) return cand;
  }
  return undefined;
}

/**
 * Both sides moved blocks into each other (A into B in the file, B into A on the service): the
 * file's move of a block caught in such a loop gives way to the service's place. (Only possible when
 * the file moved blocks and the service changed the document.) Invariant: afterwards every
 * file-placed block is reachable from the root.
 */
function breakMoveLoops(p: MergePass): void {
  while (p.placedLocally.size > 0) {
    const reachable = new Set<MergedNode>();
    const walk = (m: MergedNode) => {
      reachable.add(m);
      m.children.forEach(walk);
    };
    walk(p.root);
    const stray = [...p.parentOf.keys()].find((m) => !reachable.has(m) && m.id !== null && p.placedLocally.has(m.id));
    if (!stray) break;
    const from = p.parentOf.get(stray)!;
    from.children.splice(from.children.indexOf(stray), 1);
    p.placedLocally.delete(stray.id!);
    const r = p.remoteById.get(stray.id!)!;
    const parent = r.parentId === null ? p.root : (p.byId.get(r.parentId) ?? p.root);
    const siblings = p.remoteKids.get(r.parentId) ?? [];
    let at = 0;
    for (let k = siblings.indexOf(r) - 1; k >= 0; k--) {
      const prev = p.byId.get(siblings[k]!.id);
      const i = prev ? parent.children.indexOf(prev) : -1;
      if (i >= 0) {
        at = i + 1;
        break;
      }
    }
    attach(p, parent, stray, at);
  }
}

/** A block whose places on both sides are gone still stays (at the end). Invariant: nothing is lost. */
function keepStrays(p: MergePass): void {
  for (const node of p.unplaced) if (!p.parentOf.has(node)) attach(p, p.root, node, p.root.children.length);
  for (const [id, n] of p.localById) {
    const m = p.byId.get(id);
    if (m && p.placedLocally.has(id) && !p.parentOf.has(m) && p.fate.get(n) === 'keep') attach(p, p.root, m, p.root.children.length);
  }
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

// A task line edited on both sides, merged field by field: its text and each of its dates
// (scheduleDate, deadlineDate) take the side that changed them; a field both sides changed
// differently is a conflict, as for any block edited on both sides.

/** One field of three: the side that changed it, or undefined when both did, differently. */
function pick<T>(base: T, local: T, remote: T, same: (a: T, b: T) => boolean): { value: T } | undefined {
  if (same(local, remote)) return { value: remote };
  if (same(local, base)) return { value: remote };
  if (same(remote, base)) return { value: local };
  return undefined;
}

/**
 * The merged markdown of a task block changed on both sides (file markdowns, dates as signifiers),
 * or undefined when a field was changed differently on both (a conflict) or one of them is no task.
 */
export function mergeTaskLine(base: string, local: string, remote: string, equals: MarkdownEquals): string | undefined {
  if (!isTaskMarkdown(base) || !isTaskMarkdown(local) || !isTaskMarkdown(remote)) return undefined;
  const b = splitTaskDates(base);
  const l = splitTaskDates(local);
  const r = splitTaskDates(remote);
  const text = pick(b.markdown, l.markdown, r.markdown, equals);
  if (!text) return undefined;
  const dates: TaskDates = {};
  for (const k of ['scheduleDate', 'deadlineDate'] as const) {
    const d = pick(b[k] ?? '', l[k] ?? '', r[k] ?? '', (x, y) => x === y);
    if (!d) return undefined;
    if (d.value !== '') dates[k] = d.value;
  }
  return withTaskDates(text.value, dates);
}

// The changes that turn the service's blocks of a document into the merged document: edits in
// place, moved runs, inserted runs and deletions, each anchored so that running them in the order
// edits → moves → inserts → late moves → deletes gives exactly the merged document (deletes last:
// an interrupted push leaves extra text behind, never missing text).
import { sameContent } from './blockContent.js';
import { cardLayoutOf, fileCardLayout } from './cardLayout.js';
import type { CardLayout } from '../../dialect/index.js';
import { movedAmong, type Placed } from './movedAmong.js';
import type { MergedNode } from './merge.js';
import type { Anchor, BlockKind, MarkdownEquals, RemoteBlock } from '../types.js';
import type { UnshownFields } from '../versions/unshownFields.js';

/** A block to create; `ref` names it until the service answers with its id. */
export interface NewBlockSpec {
  ref: string;
  kind: BlockKind;
  type: string;
  markdown: string;
  children: NewBlockSpec[];
  /** A new card's layout, when the file gives one. */
  cardLayout?: CardLayout;
  /** Fields sent with it that its line does not show: a restored block's, as the space had them (core/versions/withRestoredFields). */
  unshown?: UnshownFields;
}

export interface InsertRun {
  anchor: Anchor;
  blocks: NewBlockSpec[];
}
export interface MoveRun {
  anchor: Anchor;
  ids: string[];
}
export interface BlockEdit {
  id: string;
  markdown: string;
  /** what the service holds now */
  was: string;
  /** A card's new layout (the file changed it). */
  cardLayout?: CardLayout;
}

export interface ChangeSet {
  edits: BlockEdit[];
  /** Moves within and between existing parents; run before the inserts. */
  moves: MoveRun[];
  inserts: InsertRun[];
  /** Moves of existing blocks into new ones (a paragraph wrapped into a new card keeps its id); run after the inserts, anchors may be refs. Empty unless moveIntoNewPages. */
  lateMoves: MoveRun[];
  /** Top-most blocks to delete (a page takes its children along). */
  deletes: string[];
  /** Blocks the deletes remove, descendants included (the block budget they use). */
  removedBlocks: number;
  /** The document as the service will hold it afterwards, in pre-order; new blocks carry their ref as id. */
  expected: RemoteBlock[];
}

/** The prefix of refs: `new:<n>`, never an id the service gives. */
export const REF_PREFIX = 'new:';

interface SNode {
  id: string | null;
  /** The service's block this one is (id !== null). */
  cur?: RemoteBlock;
  ref?: string;
  node: MergedNode;
  children: SNode[];
  /** The existing blocks among children are already under this block in the service's order (nothing to move). */
  ordered: boolean;
}
const NONE: SNode[] = [];
const NO_MOVES: ReadonlySet<string> = new Set();

const levelOf = (kind: BlockKind, markdown: string) => (kind === 'block' ? Math.min(5, Math.floor(/^ */.exec(markdown)![0].length / 2)) : 0);

export interface ChangeSetOptions {
  /**
   * Move existing blocks into pages created by this change set (lateMoves, anchored to refs), so a
   * paragraph wrapped into a new card keeps its id. Off: such blocks are created anew inside the
   * new page and the old ones deleted (their text is kept, their id, comments and styling are not).
   * Only a shell that runs lateMoves after the inserts may turn it on (the steps of planSync do).
   */
  moveIntoNewPages?: boolean;
}

/** What one change set is built over: the service's blocks indexed, which of them the merged document takes or pins, and the changes so far. */
interface ChangeSetPass {
  current: readonly RemoteBlock[];
  equals: MarkdownEquals;
  moveIn: boolean;
  /** Blocks of the service by index: one lookup per block, and what is taken or pinned is marked by index. */
  indexOf: Map<string, number>;
  inView: Uint8Array;
  pinned: Uint8Array;
  taken: number;
  refs: number;
  edits: BlockEdit[];
  moves: MoveRun[];
  inserts: InsertRun[];
  lateMoves: MoveRun[];
  expected: RemoteBlock[];
}

export function changeSetOf(merged: readonly MergedNode[], current: readonly RemoteBlock[], equals: MarkdownEquals, opts: ChangeSetOptions = {}): ChangeSet {
  const p: ChangeSetPass = {
    current,
    equals,
    moveIn: opts.moveIntoNewPages ?? false,
    indexOf: new Map(),
    inView: new Uint8Array(current.length),
    pinned: new Uint8Array(current.length),
    taken: 0,
    refs: 0,
    edits: [],
    moves: [],
    inserts: [],
    lateMoves: [],
    expected: [],
  };
  for (let i = 0; i < current.length; i++) p.indexOf.set(current[i]!.id, i);
  const top = viewOf(p, merged, null, false);
  walkExisting(p, top.nodes, null, top.ordered);
  const { deletes, removedBlocks } = deletesOf(p);
  return { edits: p.edits, moves: p.moves, inserts: p.inserts, lateMoves: p.lateMoves, deletes, removedBlocks, expected: p.expected };
}

/**
 * The service's view of a sibling list: held blocks are the file's only (ids inside them stay where
 * they are). Invariant: each of the service's blocks is taken at most once, and every block is
 * recorded in the expected document, and edited, as it is met, in the pre-order the walks follow.
 */
function viewOf(p: ChangeSetPass, nodes: readonly MergedNode[], parentKey: string | null, parentIsNew: boolean): { nodes: SNode[]; ordered: boolean } {
  const out: SNode[] = [];
  let ordered = true;
  let last = -Infinity;
  for (const node of nodes) {
    if (node.held) {
      pinHeld(p, node);
      continue;
    }
    let id = node.id;
    let cur: RemoteBlock | undefined;
    if (id !== null) {
      const i = parentIsNew && !p.moveIn ? undefined : p.indexOf.get(id);
      if (i === undefined || p.inView[i] === 1) id = null;
      else {
        p.inView[i] = 1;
        p.taken++;
        cur = p.current[i]!;
      }
    }
    const s: SNode = { id, node, children: NONE, ordered: true };
    if (cur) {
      s.cur = cur;
      // Under a new parent every existing block moves in (lateMoves); elsewhere only those out of the service's order.
      if (ordered && (cur.parentId !== parentKey || !(last < cur.position))) ordered = false;
      last = cur.position;
    } else s.ref = `${REF_PREFIX}${++p.refs}`;
    const record: RemoteBlock = {
      id: id ?? s.ref!,
      parentId: parentKey,
      position: out.length,
      kind: node.kind,
      type: node.type,
      markdown: node.markdown,
      level: cur && cur.markdown === node.markdown ? cur.level : levelOf(node.kind, node.markdown),
    };
    // An edit sends the markdown only: the fields the file does not show stay as the service has them.
    if (cur?.unshown) record.unshown = cur.unshown;
    p.expected.push(record);
    const sendLayout = node.kind === 'card' ? cardSide(node, cur, record) : undefined;
    if (cur && ((cur.markdown !== node.markdown && !sameContent(cur.type, cur.markdown, node.markdown, p.equals)) || sendLayout)) {
      p.edits.push(
        sendLayout ? { id: id!, markdown: node.markdown, was: cur.markdown, cardLayout: sendLayout } : { id: id!, markdown: node.markdown, was: cur.markdown },
      );
    }
    if (node.children.length > 0) {
      const children = viewOf(p, node.children, id ?? s.ref!, id === null);
      s.children = children.nodes;
      s.ordered = children.ordered;
    }
    out.push(s);
  }
  return { nodes: out, ordered };
}

/** Invariant: a held block and every block inside it stay on the service as they are (never deleted). */
function pinHeld(p: ChangeSetPass, n: MergedNode): void {
  if (n.id !== null) {
    const i = p.indexOf.get(n.id);
    if (i !== undefined) p.pinned[i] = 1;
  }
  for (const c of n.children) pinHeld(p, c);
}

/** Invariant: a new block is created with its new descendants only; existing blocks under it move in afterwards. */
function specOf(s: SNode): NewBlockSpec {
  const out: NewBlockSpec = {
    ref: s.ref!,
    kind: s.node.kind,
    type: s.node.type,
    markdown: s.node.markdown,
    children: s.children.filter((c) => c.id === null).map(specOf),
  };
  if (s.node.cardLayout !== undefined) out.cardLayout = s.node.cardLayout;
  return out;
}

/**
 * A sibling list under an existing parent (or the root). Invariant: only blocks out of the
 * service's order move, before the inserts; new blocks go in contiguous runs, each anchored to the
 * existing block before it.
 */
function walkExisting(p: ChangeSetPass, list: SNode[], parentId: string | null, ordered: boolean): void {
  let moved = NO_MOVES;
  if (!ordered) {
    const placed: Placed[] = [];
    for (const s of list) if (s.cur) placed.push(s.cur);
    moved = movedAmong(placed, parentId);
  }
  let lastExisting: string | null = null;
  let move: MoveRun | null = null;
  let insert: InsertRun | null = null;
  for (let i = 0; i < list.length; i++) {
    const s = list[i]!;
    if (s.id !== null) {
      if (moved.size > 0 && moved.has(s.id)) {
        if (move && move.ids[move.ids.length - 1] === lastExisting) move.ids.push(s.id);
        else p.moves.push((move = { anchor: lastExisting === null ? { start: parentId } : { after: lastExisting }, ids: [s.id] }));
      }
      lastExisting = s.id;
      insert = null;
      if (s.children.length > 0) walkExisting(p, s.children, s.id, s.ordered);
    } else {
      if (insert) insert.blocks.push(specOf(s));
      else p.inserts.push((insert = { anchor: lastExisting === null ? { start: parentId } : { after: lastExisting }, blocks: [specOf(s)] }));
      if (s.children.length > 0) walkUnderNew(p, s.children, s.ref!);
    }
  }
}

/** A sibling list under a new parent. Invariant: its new blocks come with the parent; existing ones move in after the inserts (lateMoves). */
function walkUnderNew(p: ChangeSetPass, list: SNode[], parentRef: string): void {
  let prev: string | null = null;
  let move: MoveRun | null = null;
  for (const s of list) {
    if (s.id !== null) {
      if (move && move.ids[move.ids.length - 1] === prev) move.ids.push(s.id);
      else p.lateMoves.push((move = { anchor: prev === null ? { start: parentRef } : { after: prev }, ids: [s.id] }));
      prev = s.id;
      walkExisting(p, s.children, s.id, s.ordered);
    } else {
      prev = s.ref!;
      walkUnderNew(p, s.children, s.ref!);
    }
  }
}

/** Invariant: a block of the service is deleted only when neither taken nor pinned, and only its top-most gone ancestor is named (a page takes its children along). */
function deletesOf(p: ChangeSetPass): { deletes: string[]; removedBlocks: number } {
  const deletes: string[] = [];
  let removedBlocks = 0;
  // Every block of the service taken (ids unique, all in view): nothing to delete.
  if (p.taken < p.current.length) {
    const unique = p.indexOf.size === p.current.length;
    const gone = (i: number) => p.inView[i] === 0 && p.pinned[i] === 0;
    for (let k = 0; k < p.current.length; k++) {
      const r = p.current[k]!;
      if (!gone(unique ? k : p.indexOf.get(r.id)!)) continue;
      removedBlocks++;
      const parent = r.parentId === null ? undefined : p.indexOf.get(r.parentId);
      if (parent === undefined || !gone(parent)) deletes.push(r.id);
    }
  }
  return { deletes, removedBlocks };
}

/**
 * A card's layout: the one to send (the merge's, when the service holds another or its own is not
 * known), and the one to record for it: what the file then shows (the file's attribute), else the
 * service's. So the base hash keeps the layout last synced, and only a new edit of the file sends one.
 */
function cardSide(node: MergedNode, cur: RemoteBlock | undefined, record: RemoteBlock): CardLayout | undefined {
  const held = cur ? cardLayoutOf(cur) : { known: true };
  const send = node.cardLayout !== undefined && cur && (!held.known || held.layout !== node.cardLayout) ? node.cardLayout : undefined;
  const shown = node.local?.kind === 'card' ? fileCardLayout(node.local) : {};
  const layout = node.cardLayout ?? ('layout' in shown ? shown.layout : undefined) ?? held.layout;
  if (layout !== undefined) record.cardLayout = layout;
  return send;
}

// The changes that turn the service's blocks of a document into the merged document: edits in
// place, moved runs, inserted runs and deletions, each anchored so that running them in the order
// edits → moves → inserts → late moves → deletes gives exactly the merged document (deletes last:
// an interrupted push leaves extra text behind, never missing text).
import { sameContent } from './blockContent.js';
import { movedAmong, type Placed } from './movedAmong.js';
import type { MergedNode } from './merge.js';
import type { Anchor, BlockKind, MarkdownEquals, RemoteBlock } from './types.js';

/** A block to create; `ref` names it until the service answers with its id. */
export interface NewBlockSpec {
  ref: string;
  kind: BlockKind;
  type: string;
  markdown: string;
  children: NewBlockSpec[];
}

export interface InsertRun { anchor: Anchor; blocks: NewBlockSpec[] }
export interface MoveRun { anchor: Anchor; ids: string[] }
export interface BlockEdit { id: string; markdown: string; /** what the service holds now */ was: string }

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

interface SNode { id: string | null; ref?: string; node: MergedNode; children: SNode[] }
const NONE: SNode[] = [];

const levelOf = (kind: BlockKind, markdown: string) => (kind === 'block' ? Math.min(5, Math.floor((/^ */.exec(markdown)![0].length) / 2)) : 0);

export interface ChangeSetOptions {
  /**
   * Move existing blocks into pages created by this change set (lateMoves, anchored to refs), so a
   * paragraph wrapped into a new card keeps its id. Off: such blocks are created anew inside the
   * new page and the old ones deleted (their text is kept, their id, comments and styling are not).
   * Only a shell that runs lateMoves after the inserts may turn it on (the steps of planSync do).
   */
  moveIntoNewPages?: boolean;
}

export function changeSetOf(merged: readonly MergedNode[], current: readonly RemoteBlock[], equals: MarkdownEquals, opts: ChangeSetOptions = {}): ChangeSet {
  const moveIn = opts.moveIntoNewPages ?? false;
  const currentById = new Map(current.map((r) => [r.id, r]));
  const pinned = new Set<string>();
  const inView = new Set<string>();
  let refs = 0;

  // The service's view: held blocks are the file's only (ids inside them stay where they are).
  const view = (nodes: readonly MergedNode[], parentIsNew: boolean): SNode[] => {
    const out: SNode[] = [];
    for (const node of nodes) {
      if (node.held) {
        const pin = (n: MergedNode) => { if (n.id !== null) pinned.add(n.id); n.children.forEach(pin); };
        pin(node);
        continue;
      }
      let id = node.id;
      if (id !== null && ((parentIsNew && !moveIn) || inView.has(id) || !currentById.has(id))) id = null;
      if (id !== null) inView.add(id);
      const s: SNode = { id, node, children: NONE };
      if (id === null) s.ref = `${REF_PREFIX}${++refs}`;
      if (node.children.length > 0) s.children = view(node.children, id === null);
      out.push(s);
    }
    return out;
  };
  const top = view(merged, false);

  const edits: BlockEdit[] = [];
  const moves: MoveRun[] = [];
  const inserts: InsertRun[] = [];
  const lateMoves: MoveRun[] = [];
  const expected: RemoteBlock[] = [];

  // A new block is created with its new descendants; existing blocks under it move in afterwards.
  const spec = (s: SNode): NewBlockSpec => ({
    ref: s.ref!, kind: s.node.kind, type: s.node.type, markdown: s.node.markdown,
    children: s.children.filter((c) => c.id === null).map(spec),
  });
  const record = (s: SNode, parentId: string | null, position: number) => {
    const cur = s.id === null ? undefined : currentById.get(s.id);
    expected.push({
      id: s.id ?? s.ref!, parentId, position, kind: s.node.kind, type: s.node.type, markdown: s.node.markdown,
      level: cur && cur.markdown === s.node.markdown ? cur.level : levelOf(s.node.kind, s.node.markdown),
    });
  };
  const edit = (s: SNode) => {
    const cur = currentById.get(s.id!)!;
    if (cur.markdown !== s.node.markdown && !sameContent(cur.type, cur.markdown, s.node.markdown, equals)) {
      edits.push({ id: s.id!, markdown: s.node.markdown, was: cur.markdown });
    }
  };

  /** A sibling list under an existing parent (or the root): moves before inserts, inserts in runs. */
  const walk = (list: SNode[], parentId: string | null) => {
    const placed: Placed[] = [];
    for (const s of list) if (s.id !== null) placed.push(currentById.get(s.id)!);
    const moved = movedAmong(placed, parentId);
    let lastExisting: string | null = null;
    let move: MoveRun | null = null;
    let insert: InsertRun | null = null;
    for (let i = 0; i < list.length; i++) {
      const s = list[i]!;
      record(s, parentId, i);
      if (s.id !== null) {
        edit(s);
        if (moved.size > 0 && moved.has(s.id)) {
          if (move && move.ids[move.ids.length - 1] === lastExisting) move.ids.push(s.id);
          else moves.push((move = { anchor: lastExisting === null ? { start: parentId } : { after: lastExisting }, ids: [s.id] }));
        }
        lastExisting = s.id;
        insert = null;
        if (s.children.length > 0) walk(s.children, s.id);
      } else {
        if (insert) insert.blocks.push(spec(s));
        else inserts.push((insert = { anchor: lastExisting === null ? { start: parentId } : { after: lastExisting }, blocks: [spec(s)] }));
        if (s.children.length > 0) walkNew(s.children, s.ref!);
      }
    }
  };
  /** A sibling list under a new parent: its new blocks come with the parent; existing ones move in after the inserts. */
  const walkNew = (list: SNode[], parentRef: string) => {
    let prev: string | null = null;
    let move: MoveRun | null = null;
    list.forEach((s, i) => {
      record(s, parentRef, i);
      if (s.id !== null) {
        edit(s);
        if (move && move.ids[move.ids.length - 1] === prev) move.ids.push(s.id);
        else lateMoves.push((move = { anchor: prev === null ? { start: parentRef } : { after: prev }, ids: [s.id] }));
        prev = s.id;
        walk(s.children, s.id);
      } else {
        prev = s.ref!;
        walkNew(s.children, s.ref!);
      }
    });
  };
  walk(top, null);

  const deletes: string[] = [];
  let removedBlocks = 0;
  const gone = (r: RemoteBlock) => !inView.has(r.id) && !pinned.has(r.id);
  for (const r of current) {
    if (!gone(r)) continue;
    removedBlocks++;
    const parent = r.parentId === null ? undefined : currentById.get(r.parentId);
    if (!parent || !gone(parent)) deletes.push(r.id);
  }
  return { edits, moves, inserts, lateMoves, deletes, removedBlocks, expected };
}

/** Whether a change set sends nothing. */
export function isEmptyChangeSet(c: ChangeSet): boolean {
  return c.edits.length === 0 && c.moves.length === 0 && c.inserts.length === 0 && c.lateMoves.length === 0 && c.deletes.length === 0;
}

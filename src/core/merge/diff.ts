// base → local: which base block each block of the file is (so an edited block keeps its id, its
// comments and its styling), which base blocks are gone, and which moved. Content decisions
// (what to send) are the merge's; this only establishes identity.
import { sameContent, similarity } from './blockContent.js';
import { DEFAULT_MAX_WORK, matchSequences } from './sequenceMatch.js';
import { movedAmong, type Placed } from './movedAmong.js';
import type { BaseBlock, LocalBlock, MarkdownEquals } from '../types.js';

/** One block of the file with the base block it is. */
export interface DiffNode {
  local: LocalBlock;
  /** The base block's id; null for a block new in the file. */
  id: string | null;
  base: BaseBlock | null;
  /** The content differs from base (canonically, media signatures aside). */
  changed: boolean;
  /** Under another parent than in base, or out of its base order among its siblings. */
  moved: boolean;
  children: DiffNode[];
}

export interface DocumentDiff {
  /** The file's top-level blocks, annotated. */
  nodes: DiffNode[];
  /** Every base id no block of the file is (descendants of removed pages included), in base order. */
  removed: string[];
  /** False when a region was too costly to diff minimally and was paired by position instead. */
  exhaustive: boolean;
}

export interface DiffOptions {
  equals: MarkdownEquals;
  /** Bound on sequence-diff work per document (see sequenceMatch). */
  maxWork?: number;
}

/** Gaps up to this many candidate pairs are paired by similarity; larger ones by position only. */
const GAP_ALIGN_LIMIT = 2_500;
/** Below this similarity two blocks are only paired when a gap holds as many new as old blocks left (a rewrite in place). */
const MIN_SIMILARITY = 0.5;
/** Pairing across the whole document (moved and edited, or re-spelled) is tried when this few blocks are left. */
const CROSS_LIMIT = 200;
/** The edge a pair within one gap has over a pair across the document. */
const SAME_GAP_BONUS = 0.1;
/** A pair within a gap at least this alike is taken without weighing pairs across the document. */
const CONFIDENT = 0.8;
/** A block gone from one place and a new one elsewhere this alike are one block, moved and edited. */
const MOVED_EDIT_SIMILARITY = 0.6;

const isWrapper = (kind: string) => kind === 'page' || kind === 'card';
/** Exactly the same block text (what equal sequence keys mean), compared without interning. */
const sameText = (x: { kind: string; markdown: string }, y: { kind: string; markdown: string }) => x.markdown === y.markdown && x.kind === y.kind;

/** The children of a leaf: shared and frozen (nothing ever pushes to a node's children; lists are replaced whole). */
const LEAF: DiffNode[] = Object.freeze([]) as unknown as DiffNode[];

/** Twin questions may look through this many open blocks before the whole-document index is preferred. */
const TWIN_SCAN_MIN = 1_024;

/** A run of base blocks and a run of file blocks between two exact matches of one sibling list. */
interface Gap {
  bs: BaseBlock[];
  nodes: DiffNode[];
}

/** Candidate pairs of one likeness round, with their score. */
type Candidate = { b: BaseBlock; n: DiffNode; score: number };

/** What one diff works on: base indexed by parent, the interned keys, what is paired and what is open, and the queues between rounds. */
interface DiffPass {
  base: readonly BaseBlock[];
  local: readonly LocalBlock[];
  equals: MarkdownEquals;
  work: number;
  exhaustive: boolean;
  /** Base's sibling lists by parent, in position order. */
  childrenOf: Map<string | null, BaseBlock[]>;
  /** Lists whose positions do not strictly increase as they come (unsorted ones, or equal positions). */
  notStrict: Set<BaseBlock[]>;
  /** Interned keys per kind: the markdown strings are hashed once and compared as numbers. */
  keyIds: Map<string, Map<string, number>>;
  nextKey: number;
  matched: Set<BaseBlock>;
  unmatchedBase: BaseBlock[];
  unmatchedLocal: DiffNode[];
  /** Gaps between exact matches, paired only after exact moves had their chance. */
  pendingGaps: Gap[];
  /** Every block of both sides by exact key, built on first need (see twinIndex). */
  baseByKey: Map<number, BaseBlock[]> | undefined;
  localByKey: Map<number, LocalBlock[]> | undefined;
  /** The file's blocks already paired: tracked only once the twin index exists. */
  claimed: Set<LocalBlock> | undefined;
  liveNodes: DiffNode[];
  /** What twin questions may still look through before the whole-document index is preferred. */
  scanBudget: number;
  /** Base blocks unmatched at the first twin question; blocks unmatched later (bury) are on unmatchedBase from looseFrom on. */
  looseBase: BaseBlock[] | undefined;
  looseFrom: number;
  /** Nodes replaced when their parent was paired (its children are diffed afresh): never candidates again. */
  dead: Set<DiffNode>;
  /** What the end needs to tell moved blocks (see SequenceOrder). */
  order: { lists: Set<DiffNode[]>; late: Set<DiffNode> };
  /** Open file blocks by key, for exact moves; filled from unmatchedLocal up to localSeen. */
  movesByKey: Map<number, DiffNode[]>;
  localSeen: number;
  baseSeen: number;
  gaps: Gap[];
  /** Gone pages whose children were offered as move candidates. */
  expanded: Set<string>;
}

export function diffDocument(base: readonly BaseBlock[], local: readonly LocalBlock[], opts: DiffOptions): DocumentDiff {
  const { childrenOf, notStrict } = indexBase(base);
  const d: DiffPass = {
    base,
    local,
    equals: opts.equals,
    work: opts.maxWork ?? DEFAULT_MAX_WORK,
    exhaustive: true,
    childrenOf,
    notStrict,
    keyIds: new Map(),
    nextKey: 0,
    matched: new Set(),
    unmatchedBase: [],
    unmatchedLocal: [],
    pendingGaps: [],
    baseByKey: undefined,
    localByKey: undefined,
    claimed: undefined,
    liveNodes: [],
    // Few blocks are left open in the usual edit: a twin question is then answered by looking through
    // them, and the whole-document index is built only once such scans would cost more than it.
    scanBudget: 2 * base.length + TWIN_SCAN_MIN,
    looseBase: undefined,
    looseFrom: 0,
    dead: new Set(),
    order: { lists: new Set(), late: new Set() },
    movesByKey: new Map(),
    localSeen: 0,
    baseSeen: 0,
    gaps: [],
    expanded: new Set(),
  };
  const topList = childrenOf.get(null) ?? [];
  const nodes = diffList(d, topList, local, !notStrict.has(topList));
  d.liveNodes = nodes;
  for (;;) {
    exactMoves(d);
    if (d.pendingGaps.length > 0) {
      d.gaps.push(...d.pendingGaps);
      d.pendingGaps = [];
    }
    if (likenessRound(d)) continue;
    if (expandGonePages(d)) continue;
    if (!rewriteGaps(d)) break;
  }
  markMoved(nodes, null, d.order);
  // matched holds only base blocks: as many as base has means every one of them.
  const removed = d.matched.size === base.length ? [] : base.filter((b) => !d.matched.has(b)).map((b) => b.id);
  return { nodes, removed, exhaustive: d.exhaustive };
}

/** Invariant: each sibling list of base is in position order; a list whose positions do not strictly increase is marked. */
function indexBase(base: readonly BaseBlock[]): { childrenOf: Map<string | null, BaseBlock[]>; notStrict: Set<BaseBlock[]> } {
  // Base comes in pre-order: siblings arrive in runs, and usually in position order already (then no sort).
  const childrenOf = new Map<string | null, BaseBlock[]>();
  const unsorted = new Set<BaseBlock[]>();
  const notStrict = new Set<BaseBlock[]>();
  let runParent: string | null | undefined;
  let run: BaseBlock[] | undefined;
  let lastPosition = 0;
  for (const b of base) {
    const parentId = b.parentId;
    const position = b.position;
    if (run === undefined || parentId !== runParent) {
      runParent = parentId;
      run = childrenOf.get(parentId);
      if (!run) childrenOf.set(parentId, (run = []));
      else lastPosition = run[run.length - 1]!.position;
    }
    if (run.length > 0 && !(lastPosition < position)) {
      notStrict.add(run);
      if (!(lastPosition <= position)) unsorted.add(run);
    }
    lastPosition = position;
    run.push(b);
  }
  for (const list of unsorted) list.sort((x, y) => x.position - y.position);
  return { childrenOf, notStrict };
}

/** Invariant: two blocks get one key exactly when they have the same kind and the same markdown. */
function keyOf(d: DiffPass, kind: string, markdown: string): number {
  let byMarkdown = d.keyIds.get(kind);
  if (!byMarkdown) d.keyIds.set(kind, (byMarkdown = new Map()));
  let v = byMarkdown.get(markdown);
  if (v === undefined) byMarkdown.set(markdown, (v = d.nextKey++));
  return v;
}

/**
 * Invariant: a block new in the file is a move candidate wherever it is, also inside a new page (the
 * service may hold that page already, a move into it there, and identity must survive that).
 */
function newNode(d: DiffPass, l: LocalBlock): DiffNode {
  const n: DiffNode = {
    local: l,
    id: null,
    base: null,
    changed: false,
    moved: false,
    children: l.children.length ? l.children.map((c) => newNode(d, c)) : LEAF,
  };
  d.unmatchedLocal.push(n);
  return n;
}

/** Invariant: once built, the index holds every block of both sides, and `claimed` every file block paired so far. */
function twinIndex(d: DiffPass): { baseByKey: Map<number, BaseBlock[]>; localByKey: Map<number, LocalBlock[]> } {
  if (d.baseByKey && d.localByKey) return { baseByKey: d.baseByKey, localByKey: d.localByKey };
  const baseByKey = (d.baseByKey = new Map());
  for (const b of d.base) {
    const k = keyOf(d, b.kind, b.markdown);
    const list = baseByKey.get(k);
    if (list) list.push(b);
    else baseByKey.set(k, [b]);
  }
  const byKey = (d.localByKey = new Map<number, LocalBlock[]>());
  const indexLocal = (ls: readonly LocalBlock[]) => {
    for (const l of ls) {
      const k = keyOf(d, l.kind, l.markdown);
      const list = byKey.get(k);
      if (list) list.push(l);
      else byKey.set(k, [l]);
      if (l.children.length) indexLocal(l.children);
    }
  };
  indexLocal(d.local);
  const claimed = (d.claimed = new Set());
  const collect = (ns: readonly DiffNode[]) =>
    ns.forEach((n) => {
      if (n.id !== null) claimed.add(n.local);
      if (n.children.length) collect(n.children);
    });
  collect(d.liveNodes);
  return { baseByKey, localByKey: byKey };
}

/** Invariant: true exactly when an unpaired base block has the file block's exact text (nothing with an exact twin is paired by likeness). */
function twinOfLocal(d: DiffPass, l: LocalBlock): boolean {
  // Many blocks left open (a rewrite): the index pays off at once.
  if (!d.baseByKey && 4 * (d.base.length - d.matched.size) <= d.scanBudget) {
    if (!d.looseBase) {
      d.looseBase = [];
      for (const b of d.base) if (!d.matched.has(b)) d.looseBase.push(b);
      d.looseFrom = d.unmatchedBase.length;
    }
    const scan = d.looseBase.length + d.unmatchedBase.length - d.looseFrom;
    if (scan <= d.scanBudget) {
      d.scanBudget -= scan;
      for (const b of d.looseBase) if (sameText(b, l) && !d.matched.has(b)) return true;
      for (let i = d.looseFrom; i < d.unmatchedBase.length; i++) {
        const b = d.unmatchedBase[i]!;
        if (sameText(b, l) && !d.matched.has(b)) return true;
      }
      return false;
    }
  }
  return (twinIndex(d).baseByKey.get(keyOf(d, l.kind, l.markdown)) ?? []).some((b) => !d.matched.has(b));
}

/** Invariant: true exactly when an unclaimed file block has the base block's exact text. */
function twinOfBase(d: DiffPass, b: BaseBlock): boolean {
  // An unclaimed block of the file is an open node (every block of the file has one live node);
  // none with this text means no twin. One found is confirmed by the index (a block object given twice).
  if (!d.localByKey && 4 * d.unmatchedLocal.length <= d.scanBudget) {
    d.scanBudget -= d.unmatchedLocal.length;
    if (!d.unmatchedLocal.some((n) => sameText(n.local, b) && open(d, n))) return false;
  }
  return (twinIndex(d).localByKey.get(keyOf(d, b.kind, b.markdown)) ?? []).some((l) => !d.claimed!.has(l));
}

/** Invariant: a block paired inside a replaced subtree is offered again (the fresh diff of the parent's children pairs it). */
function bury(d: DiffPass, ns: DiffNode[]): void {
  for (const c of ns) {
    d.dead.add(c);
    if (c.base) {
      d.matched.delete(c.base);
      d.unmatchedBase.push(c.base);
    }
    d.claimed?.delete(c.local);
    bury(d, c.children);
  }
}

const open = (d: DiffPass, n: DiffNode) => n.id === null && !d.dead.has(n);

/** Invariant: a block paired after the sequence match (moves, likeness, rewrites) is checked for a move at the end. */
function pairLate(d: DiffPass, node: DiffNode, b: BaseBlock, changed: boolean): void {
  d.order.late.add(node);
  pairNode(d, node, b, changed);
}

/** Invariant: a base block is paired with one file block of its kind at most; a paired wrapper's children are diffed afresh. */
function pairNode(d: DiffPass, node: DiffNode, b: BaseBlock, changed: boolean): void {
  bury(d, node.children);
  node.id = b.id;
  node.base = b;
  d.claimed?.add(node.local);
  node.changed = changed;
  d.matched.add(b);
  // Paired blocks are always of one kind (every caller checks), and the file's block is the cheaper read.
  if (isWrapper(node.local.kind)) {
    const list = d.childrenOf.get(b.id) ?? [];
    node.children = diffList(
      d,
      list.filter((c) => !d.matched.has(c)),
      node.local.children,
      !d.notStrict.has(list),
    );
  }
}

/** One sibling list. Invariant: blocks of exactly the same text are paired in sequence order; the gaps between matches are queued, the rest left open. */
function diffList(d: DiffPass, bs: readonly BaseBlock[], ls: readonly LocalBlock[], strict: boolean): DiffNode[] {
  const nb = bs.length;
  const nl = ls.length;
  const nodes = ls.map((l): DiffNode => ({ local: l, id: null, base: null, changed: false, moved: false, children: LEAF }));
  // The equal ends are matched without keys (the sequence match would take them first anyway):
  // most of a document is unchanged, and only what lies between needs interning and diffing.
  let head = 0;
  while (head < nb && head < nl && sameText(bs[head]!, ls[head]!)) head++;
  let tail = 0;
  while (tail < nb - head && tail < nl - head && sameText(bs[nb - 1 - tail]!, ls[nl - 1 - tail]!)) tail++;
  const a = new Array<number>(nb - head - tail);
  for (let i = 0; i < a.length; i++) a[i] = keyOf(d, bs[head + i]!.kind, bs[head + i]!.markdown);
  const c = new Array<number>(nl - head - tail);
  for (let j = 0; j < c.length; j++) c[j] = keyOf(d, ls[head + j]!.kind, ls[head + j]!.markdown);
  const m = matchSequences(a, c, d.work);
  d.work = Math.max(0, d.work - (nb + nl));
  if (!m.exhaustive) d.exhaustive = false;
  const pairedB = new Uint8Array(nb);
  const pairedL = new Uint8Array(nl);
  let pb = 0;
  let pl = 0;
  const pair = (i: number, j: number) => {
    if (i > pb && j > pl) d.pendingGaps.push({ bs: bs.slice(pb, i), nodes: nodes.slice(pl, j) });
    if (i < nb) {
      pairedB[i] = 1;
      pairedL[j] = 1;
      pairNode(d, nodes[j]!, bs[i]!, false);
    }
    pb = i + 1;
    pl = j + 1;
  };
  for (let k = 0; k < head; k++) pair(k, k);
  for (const [i, j] of m.pairs) pair(head + i, head + j);
  for (let k = tail; k > 0; k--) pair(nb - k, nl - k);
  pair(nb, nl);
  for (let i = 0; i < nb; i++) if (pairedB[i] === 0 && !d.matched.has(bs[i]!)) d.unmatchedBase.push(bs[i]!);
  if (strict) d.order.lists.add(nodes);
  for (let j = 0; j < nl; j++) {
    const n = nodes[j]!;
    if (pairedL[j] === 1 || n.id !== null) continue;
    d.unmatchedLocal.push(n);
    if (n.local.children.length > 0) n.children = n.local.children.map((l) => newNode(d, l));
  }
  return nodes;
}

/**
 * Moves: a block gone from one place whose exact text appears as new in another keeps its id.
 * Invariant: they are paired before anything by likeness, so a moved block is not taken for an edit of its neighbour.
 */
function exactMoves(d: DiffPass): void {
  for (;;) {
    for (; d.localSeen < d.unmatchedLocal.length; d.localSeen++) {
      const n = d.unmatchedLocal[d.localSeen]!;
      const k = keyOf(d, n.local.kind, n.local.markdown);
      const q = d.movesByKey.get(k);
      if (q) q.push(n);
      else d.movesByKey.set(k, [n]);
    }
    if (d.baseSeen >= d.unmatchedBase.length) return;
    for (; d.baseSeen < d.unmatchedBase.length; d.baseSeen++) {
      const b = d.unmatchedBase[d.baseSeen]!;
      if (d.matched.has(b)) continue;
      const q = d.movesByKey.get(keyOf(d, b.kind, b.markdown));
      while (q && q.length > 0 && !open(d, q[0]!)) q.shift();
      if (q && q.length > 0) pairLate(d, q.shift()!, b, false);
    }
  }
}

/**
 * One round of pairing by likeness, best pairs first: within every open gap, and across the whole
 * document when few blocks are left (moved and edited). A pair within one gap gets a small bonus
 * (an edit in place is likelier than an edit and a move); canonically equal pairs come first of all.
 * Invariant: a block with an exact twin still open is never paired by likeness.
 */
function likenessRound(d: DiffPass): boolean {
  const cands: Candidate[] = [];
  const consider = (b: BaseBlock, n: DiffNode, bonus: number, min: number) => {
    if (b.kind !== n.local.kind) return;
    if (sameContent(b.type, b.markdown, n.local.markdown, d.equals)) {
      cands.push({ b, n, score: 3 + bonus });
      return;
    }
    let sim = similarity(b.markdown, n.local.markdown);
    if (sim < min && !isWrapper(b.kind)) return;
    if (twinOfLocal(d, n.local) || twinOfBase(d, b)) return;
    if (isWrapper(b.kind)) sim = Math.max(sim, sharedChildren(d, b, n.local));
    if (sim >= min) cands.push({ b, n, score: sim + bonus });
  };
  d.gaps = d.gaps.filter((g) => g.bs.some((b) => !d.matched.has(b)) && g.nodes.some((n) => open(d, n)));
  for (const g of d.gaps) {
    const bs = g.bs.filter((b) => !d.matched.has(b));
    const ns = g.nodes.filter((n) => open(d, n));
    if (bs.length * ns.length > GAP_ALIGN_LIMIT) {
      d.exhaustive = false;
      continue;
    }
    for (const b of bs) for (const n of ns) consider(b, n, SAME_GAP_BONUS, MIN_SIMILARITY);
  }
  // Pairs within a gap this alike are taken before anything across the document is weighed.
  if (cands.some((c) => c.score >= CONFIDENT + SAME_GAP_BONUS))
    return take(
      d,
      cands.filter((c) => c.score >= CONFIDENT + SAME_GAP_BONUS),
    );
  const leftBase = d.unmatchedBase.filter((b) => !d.matched.has(b));
  const leftLocal = d.unmatchedLocal.filter((n) => open(d, n));
  if (leftBase.length <= CROSS_LIMIT && leftLocal.length <= CROSS_LIMIT) {
    for (const b of leftBase) for (const n of leftLocal) consider(b, n, 0, MOVED_EDIT_SIMILARITY);
  }
  return take(d, cands);
}

/** Invariant: best pairs first, each block at most once; a paired page ends the round (its children bring new candidates). */
function take(d: DiffPass, cands: Candidate[]): boolean {
  cands.sort((x, y) => y.score - x.score);
  let paired = false;
  for (const c of cands) {
    if (d.matched.has(c.b) || !open(d, c.n)) continue;
    pairLate(d, c.n, c.b, !sameContent(c.b.type, c.b.markdown, c.n.local.markdown, d.equals));
    paired = true;
    if (isWrapper(c.b.kind)) break;
  }
  return paired;
}

/** For two pages: the share of children with exactly the same text (a renamed page keeps its content). */
function sharedChildren(d: DiffPass, b: BaseBlock, l: LocalBlock): number {
  const bk = (d.childrenOf.get(b.id) ?? []).map((c) => keyOf(d, c.kind, c.markdown));
  if (bk.length === 0 || l.children.length === 0) return 0;
  const counts = new Map<number, number>();
  for (const k of bk) counts.set(k, (counts.get(k) ?? 0) + 1);
  let shared = 0;
  for (const c of l.children) {
    const k = keyOf(d, c.kind, c.markdown);
    const left = counts.get(k);
    if (left) {
      shared++;
      counts.set(k, left - 1);
    }
  }
  return shared / Math.max(bk.length, l.children.length);
}

/** A page that is gone may have had children moved out of it. Invariant: each gone page offers its unpaired children as move candidates once. */
function expandGonePages(d: DiffPass): boolean {
  let more = false;
  for (const b of d.unmatchedBase.slice()) {
    if (d.matched.has(b) || !isWrapper(b.kind) || d.expanded.has(b.id)) continue;
    d.expanded.add(b.id);
    for (const c of d.childrenOf.get(b.id) ?? [])
      if (!d.matched.has(c)) {
        d.unmatchedBase.push(c);
        more = true;
      }
  }
  return more;
}

/** Last, a gap still holding as many new as old blocks is a rewrite in place. Invariant: pairs in order, only blocks of one kind. */
function rewriteGaps(d: DiffPass): boolean {
  let paired = false;
  for (const g of d.gaps) {
    const bs = g.bs.filter((b) => !d.matched.has(b));
    const ns = g.nodes.filter((n) => open(d, n));
    if (bs.length !== ns.length) continue;
    bs.forEach((b, k) => {
      const n = ns[k]!;
      if (b.kind !== n.local.kind) return;
      pairLate(d, n, b, !sameContent(b.type, b.markdown, n.local.markdown, d.equals));
      paired = true;
    });
  }
  return paired;
}

/**
 * What diffDocument knows of the order of its pairs: `lists` were sequence-matched against a strictly
 * ordered list of base blocks under their parent, so their pairs from that match are in base order;
 * `late` are the blocks paired afterwards (their place is read).
 */
interface SequenceOrder {
  lists: ReadonlySet<DiffNode[]>;
  late: ReadonlySet<DiffNode>;
}

/** Whether a sequence-matched list's paired blocks are all under `parentId` in strictly increasing base positions. */
function inBaseOrder(nodes: readonly DiffNode[], parentId: string | null, late: ReadonlySet<DiffNode>): boolean {
  // Two neighbours both from the sequence match are in order; a late block is compared with both of its neighbours.
  let prev: DiffNode | undefined;
  let prevPosition = 0;
  let prevRead = false;
  for (const n of nodes) {
    const b = n.base;
    if (b === null) continue;
    if (late.has(n)) {
      if (b.parentId !== parentId) return false;
      const position = b.position;
      if (prev && !((prevRead ? prevPosition : prev.base!.position) < position)) return false;
      prevPosition = position;
      prevRead = true;
    } else if (prev && late.has(prev)) {
      const position = b.position;
      if (!(prevPosition < position)) return false;
      prevPosition = position;
      prevRead = true;
    } else prevRead = false;
    prev = n;
  }
  return true;
}

/** Flags blocks whose parent or sibling order differs from base (the fewest such, by longest kept order). */
export function markMoved(nodes: DiffNode[], parentId: string | null | undefined, order?: SequenceOrder): void {
  if (parentId !== undefined && order?.lists.has(nodes) && inBaseOrder(nodes, parentId, order.late)) {
    for (const n of nodes) {
      if (n.id !== null) n.moved = false;
      if (n.children.length > 0) markMoved(n.children, n.id ?? undefined, order);
    }
    return;
  }
  const placed: Placed[] = [];
  // The usual case, every block in base order under its base parent, is seen while collecting.
  let inOrder = parentId !== undefined;
  let last = -Infinity;
  for (const n of nodes) {
    const b = n.base;
    if (b === null) continue;
    if (inOrder && (b.parentId !== parentId || !(last < b.position))) inOrder = false;
    last = b.position;
    placed.push(b);
  }
  // Under a new block (parentId undefined) every existing block has moved.
  const moved = inOrder ? NONE_MOVED : parentId === undefined ? new Set(placed.map((p) => p.id)) : movedAmong(placed, parentId);
  for (const n of nodes) {
    if (n.id !== null) n.moved = moved.has(n.id);
    if (n.children.length > 0) markMoved(n.children, n.id ?? undefined, order);
  }
}

const NONE_MOVED: ReadonlySet<string> = new Set();

// base → local: which base block each block of the file is (so an edited block keeps its id, its
// comments and its styling), which base blocks are gone, and which moved. Content decisions
// (what to send) are the merge's; this only establishes identity.
import { sameContent, similarity } from './blockContent.js';
import { DEFAULT_MAX_WORK, matchSequences } from './sequenceMatch.js';
import { movedAmong, type Placed } from './movedAmong.js';
import type { BaseBlock, LocalBlock, MarkdownEquals } from './types.js';

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
interface Gap { bs: BaseBlock[]; nodes: DiffNode[] }

export function diffDocument(base: readonly BaseBlock[], local: readonly LocalBlock[], opts: DiffOptions): DocumentDiff {
  const { equals } = opts;
  let work = opts.maxWork ?? DEFAULT_MAX_WORK;
  let exhaustive = true;

  // Base comes in pre-order: siblings arrive in runs, and usually in position order already (then no sort).
  const childrenOf = new Map<string | null, BaseBlock[]>();
  const unsorted = new Set<BaseBlock[]>();
  /** Lists whose positions do not strictly increase as they come (unsorted ones, or equal positions). */
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

  // Interned keys per kind: the markdown strings are hashed once and compared as numbers.
  const keyIds = new Map<string, Map<string, number>>();
  let nextKey = 0;
  const keyOf = (kind: string, markdown: string): number => {
    let byMarkdown = keyIds.get(kind);
    if (!byMarkdown) keyIds.set(kind, (byMarkdown = new Map()));
    let v = byMarkdown.get(markdown);
    if (v === undefined) byMarkdown.set(markdown, (v = nextKey++));
    return v;
  };

  const matched = new Set<BaseBlock>();
  const unmatchedBase: BaseBlock[] = [];
  const unmatchedLocal: DiffNode[] = [];
  /** Gaps between exact matches, paired only after exact moves had their chance. */
  let pendingGaps: Gap[] = [];

  // A block new in the file is a move candidate wherever it is, also inside a new page: the
  // service may hold that page already (a move into it there), and identity must survive that.
  const newNode = (l: LocalBlock): DiffNode => {
    const n: DiffNode = { local: l, id: null, base: null, changed: false, moved: false, children: l.children.length ? l.children.map(newNode) : LEAF };
    unmatchedLocal.push(n);
    return n;
  };

  // Every block of both sides by exact key, so nothing with an exact twin elsewhere is paired by
  // likeness (built on first need: an unchanged or plainly edited document never needs it).
  let baseByKey: Map<number, BaseBlock[]> | undefined;
  let localByKey: Map<number, LocalBlock[]> | undefined;
  const twinIndex = () => {
    if (baseByKey && localByKey) return { baseByKey, localByKey };
    baseByKey = new Map();
    for (const b of base) {
      const k = keyOf(b.kind, b.markdown);
      const list = baseByKey.get(k);
      if (list) list.push(b);
      else baseByKey.set(k, [b]);
    }
    const byKey = (localByKey = new Map<number, LocalBlock[]>());
    const indexLocal = (ls: readonly LocalBlock[]) => {
      for (const l of ls) {
        const k = keyOf(l.kind, l.markdown);
        const list = byKey.get(k);
        if (list) list.push(l);
        else byKey.set(k, [l]);
        if (l.children.length) indexLocal(l.children);
      }
    };
    indexLocal(local);
    claimed = new Set();
    const collect = (ns: readonly DiffNode[]) => ns.forEach((n) => { if (n.id !== null) claimed!.add(n.local); if (n.children.length) collect(n.children); });
    collect(liveNodes);
    return { baseByKey, localByKey };
  };
  // The file's blocks already paired: tracked only once the twin index exists (see twinIndex).
  let claimed: Set<LocalBlock> | undefined;
  let liveNodes: DiffNode[] = [];
  // Few blocks are left open in the usual edit: a twin question is then answered by looking through
  // them, and the whole-document index is built only once such scans would cost more than it.
  let scanBudget = 2 * base.length + TWIN_SCAN_MIN;
  /** Base blocks unmatched at the first twin question; blocks unmatched later (bury) are on unmatchedBase from looseFrom on. */
  let looseBase: BaseBlock[] | undefined;
  let looseFrom = 0;
  const twinOfLocal = (l: LocalBlock): boolean => {
    // Many blocks left open (a rewrite): the index pays off at once.
    if (!baseByKey && 4 * (base.length - matched.size) <= scanBudget) {
      if (!looseBase) {
        looseBase = [];
        for (const b of base) if (!matched.has(b)) looseBase.push(b);
        looseFrom = unmatchedBase.length;
      }
      const scan = looseBase.length + unmatchedBase.length - looseFrom;
      if (scan <= scanBudget) {
        scanBudget -= scan;
        for (const b of looseBase) if (sameText(b, l) && !matched.has(b)) return true;
        for (let i = looseFrom; i < unmatchedBase.length; i++) {
          const b = unmatchedBase[i]!;
          if (sameText(b, l) && !matched.has(b)) return true;
        }
        return false;
      }
    }
    return (twinIndex().baseByKey.get(keyOf(l.kind, l.markdown)) ?? []).some((b) => !matched.has(b));
  };
  const twinOfBase = (b: BaseBlock): boolean => {
    // An unclaimed block of the file is an open node (every block of the file has one live node);
    // none with this text means no twin. One found is confirmed by the index (a block object given twice).
    if (!localByKey && 4 * unmatchedLocal.length <= scanBudget) {
      scanBudget -= unmatchedLocal.length;
      if (!unmatchedLocal.some((n) => sameText(n.local, b) && open(n))) return false;
    }
    return (twinIndex().localByKey.get(keyOf(b.kind, b.markdown)) ?? []).some((l) => !claimed!.has(l));
  };

  /** Nodes replaced when their parent was paired (its children are diffed afresh): never candidates again. */
  const dead = new Set<DiffNode>();
  const bury = (ns: DiffNode[]) => ns.forEach((c) => {
    dead.add(c);
    // A block paired inside a replaced subtree is offered again (the fresh diff of the parent's children pairs it).
    if (c.base) {
      matched.delete(c.base);
      unmatchedBase.push(c.base);
    }
    claimed?.delete(c.local);
    bury(c.children);
  });
  const open = (n: DiffNode) => n.id === null && !dead.has(n);

  // What the end needs to tell moved blocks without reading all of base again: the sibling lists
  // of the file diffed against a strictly ordered base list (their sequence pairs are in base order
  // by construction), and the blocks paired after that (moves, likeness, rewrites), which are checked.
  const order = { lists: new Set<DiffNode[]>(), late: new Set<DiffNode>() };
  const pairLate = (node: DiffNode, b: BaseBlock, changed: boolean) => {
    order.late.add(node);
    pairNode(node, b, changed);
  };

  const pairNode = (node: DiffNode, b: BaseBlock, changed: boolean) => {
    bury(node.children);
    node.id = b.id;
    node.base = b;
    claimed?.add(node.local);
    node.changed = changed;
    matched.add(b);
    // Paired blocks are always of one kind (every caller checks), and the file's block is the cheaper read.
    if (isWrapper(node.local.kind)) {
      const list = childrenOf.get(b.id) ?? [];
      node.children = diffList(list.filter((c) => !matched.has(c)), node.local.children, !notStrict.has(list));
    }
  };

  /** One sibling list: sequence match on exact content; the gaps between matches are queued. */
  function diffList(bs: readonly BaseBlock[], ls: readonly LocalBlock[], strict: boolean): DiffNode[] {
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
    for (let i = 0; i < a.length; i++) a[i] = keyOf(bs[head + i]!.kind, bs[head + i]!.markdown);
    const c = new Array<number>(nl - head - tail);
    for (let j = 0; j < c.length; j++) c[j] = keyOf(ls[head + j]!.kind, ls[head + j]!.markdown);
    const m = matchSequences(a, c, work);
    work = Math.max(0, work - (nb + nl));
    if (!m.exhaustive) exhaustive = false;
    const pairedB = new Uint8Array(nb);
    const pairedL = new Uint8Array(nl);
    let pb = 0;
    let pl = 0;
    const pair = (i: number, j: number) => {
      if (i > pb && j > pl) pendingGaps.push({ bs: bs.slice(pb, i), nodes: nodes.slice(pl, j) });
      if (i < nb) {
        pairedB[i] = 1;
        pairedL[j] = 1;
        pairNode(nodes[j]!, bs[i]!, false);
      }
      pb = i + 1;
      pl = j + 1;
    };
    for (let k = 0; k < head; k++) pair(k, k);
    for (const [i, j] of m.pairs) pair(head + i, head + j);
    for (let k = tail; k > 0; k--) pair(nb - k, nl - k);
    pair(nb, nl);
    for (let i = 0; i < nb; i++) if (pairedB[i] === 0 && !matched.has(bs[i]!)) unmatchedBase.push(bs[i]!);
    if (strict) order.lists.add(nodes);
    for (let j = 0; j < nl; j++) {
      const n = nodes[j]!;
      if (pairedL[j] === 1 || n.id !== null) continue;
      unmatchedLocal.push(n);
      if (n.local.children.length > 0) n.children = n.local.children.map(newNode);
    }
    return nodes;
  }

  const topList = childrenOf.get(null) ?? [];
  const nodes = diffList(topList, local, !notStrict.has(topList));
  liveNodes = nodes;

  // Moves: a block gone from one place whose exact text appears as new in another keeps its id.
  // They are paired before anything by likeness, so a moved block is not taken for an edit of its neighbour.
  const byKey = new Map<number, DiffNode[]>();
  let localSeen = 0;
  let baseSeen = 0;
  const exactMoves = () => {
    for (;;) {
      for (; localSeen < unmatchedLocal.length; localSeen++) {
        const n = unmatchedLocal[localSeen]!;
        const k = keyOf(n.local.kind, n.local.markdown);
        const q = byKey.get(k);
        if (q) q.push(n);
        else byKey.set(k, [n]);
      }
      if (baseSeen >= unmatchedBase.length) return;
      for (; baseSeen < unmatchedBase.length; baseSeen++) {
        const b = unmatchedBase[baseSeen]!;
        if (matched.has(b)) continue;
        const q = byKey.get(keyOf(b.kind, b.markdown));
        while (q && q.length > 0 && !open(q[0]!)) q.shift();
        if (q && q.length > 0) pairLate(q.shift()!, b, false);
      }
    }
  };

  /**
   * One round of pairing by likeness, best pairs first: within every open gap, and across the whole
   * document when few blocks are left (moved and edited). A pair within one gap gets a small bonus
   * (an edit in place is likelier than an edit and a move); canonically equal pairs come first of all.
   */
  let gaps: Gap[] = [];
  const likenessRound = (): boolean => {
    const cands: Array<{ b: BaseBlock; n: DiffNode; score: number }> = [];
    const consider = (b: BaseBlock, n: DiffNode, bonus: number, min: number) => {
      if (b.kind !== n.local.kind) return;
      if (sameContent(b.type, b.markdown, n.local.markdown, equals)) {
        cands.push({ b, n, score: 3 + bonus });
        return;
      }
      let sim = similarity(b.markdown, n.local.markdown);
      if (sim < min && !isWrapper(b.kind)) return;
      if (twinOfLocal(n.local) || twinOfBase(b)) return;
      if (isWrapper(b.kind)) sim = Math.max(sim, sharedChildren(b, n.local));
      if (sim >= min) cands.push({ b, n, score: sim + bonus });
    };
    gaps = gaps.filter((g) => g.bs.some((b) => !matched.has(b)) && g.nodes.some(open));
    for (const g of gaps) {
      const bs = g.bs.filter((b) => !matched.has(b));
      const ns = g.nodes.filter(open);
      if (bs.length * ns.length > GAP_ALIGN_LIMIT) {
        exhaustive = false;
        continue;
      }
      for (const b of bs) for (const n of ns) consider(b, n, SAME_GAP_BONUS, MIN_SIMILARITY);
    }
    // Pairs within a gap this alike are taken before anything across the document is weighed.
    if (cands.some((c) => c.score >= CONFIDENT + SAME_GAP_BONUS)) return take(cands.filter((c) => c.score >= CONFIDENT + SAME_GAP_BONUS));
    const leftBase = unmatchedBase.filter((b) => !matched.has(b));
    const leftLocal = unmatchedLocal.filter(open);
    if (leftBase.length <= CROSS_LIMIT && leftLocal.length <= CROSS_LIMIT) {
      for (const b of leftBase) for (const n of leftLocal) consider(b, n, 0, MOVED_EDIT_SIMILARITY);
    }
    return take(cands);
  };
  const take = (cands: Array<{ b: BaseBlock; n: DiffNode; score: number }>): boolean => {
    cands.sort((x, y) => y.score - x.score);
    let paired = false;
    for (const c of cands) {
      if (matched.has(c.b) || !open(c.n)) continue;
      pairLate(c.n, c.b, !sameContent(c.b.type, c.b.markdown, c.n.local.markdown, equals));
      paired = true;
      // A page paired brings its children's diff (new gaps, candidates): rank again with them.
      if (isWrapper(c.b.kind)) break;
    }
    return paired;
  };

  /** For two pages: the share of children with exactly the same text (a renamed page keeps its content). */
  const sharedChildren = (b: BaseBlock, l: LocalBlock): number => {
    const bk = (childrenOf.get(b.id) ?? []).map((c) => keyOf(c.kind, c.markdown));
    if (bk.length === 0 || l.children.length === 0) return 0;
    const counts = new Map<number, number>();
    for (const k of bk) counts.set(k, (counts.get(k) ?? 0) + 1);
    let shared = 0;
    for (const c of l.children) {
      const k = keyOf(c.kind, c.markdown);
      const left = counts.get(k);
      if (left) {
        shared++;
        counts.set(k, left - 1);
      }
    }
    return shared / Math.max(bk.length, l.children.length);
  };

  const expanded = new Set<string>();
  for (;;) {
    exactMoves();
    if (pendingGaps.length > 0) {
      gaps.push(...pendingGaps);
      pendingGaps = [];
    }
    if (likenessRound()) continue;
    // A page that is gone may have had children moved out of it: offer them as move candidates too.
    let more = false;
    for (const b of unmatchedBase.slice()) {
      if (matched.has(b) || !isWrapper(b.kind) || expanded.has(b.id)) continue;
      expanded.add(b.id);
      for (const c of childrenOf.get(b.id) ?? []) if (!matched.has(c)) { unmatchedBase.push(c); more = true; }
    }
    if (more) continue;
    // Last, a gap still holding as many new as old blocks is a rewrite in place: pair in order.
    let paired = false;
    for (const g of gaps) {
      const bs = g.bs.filter((b) => !matched.has(b));
      const ns = g.nodes.filter(open);
      if (bs.length !== ns.length) continue;
      bs.forEach((b, k) => {
        const n = ns[k]!;
        if (b.kind !== n.local.kind) return;
        pairLate(n, b, !sameContent(b.type, b.markdown, n.local.markdown, equals));
        paired = true;
      });
    }
    if (!paired) break;
  }

  markMoved(nodes, null, order);
  // matched holds only base blocks: as many as base has means every one of them.
  const removed = matched.size === base.length ? [] : base.filter((b) => !matched.has(b)).map((b) => b.id);
  return { nodes, removed, exhaustive };
}

/**
 * What diffDocument knows of the order of its pairs: `lists` were sequence-matched against a strictly
 * ordered list of base blocks under their parent, so their pairs from that match are in base order;
 * `late` are the blocks paired afterwards (their place is read).
 */
interface SequenceOrder { lists: ReadonlySet<DiffNode[]>; late: ReadonlySet<DiffNode> }

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

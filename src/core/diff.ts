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

/** The children of a leaf: shared and frozen (nothing ever pushes to a node's children; lists are replaced whole). */
const LEAF: DiffNode[] = Object.freeze([]) as unknown as DiffNode[];

/** A run of base blocks and a run of file blocks between two exact matches of one sibling list. */
interface Gap { bs: BaseBlock[]; nodes: DiffNode[] }

export function diffDocument(base: readonly BaseBlock[], local: readonly LocalBlock[], opts: DiffOptions): DocumentDiff {
  const { equals } = opts;
  let work = opts.maxWork ?? DEFAULT_MAX_WORK;
  let exhaustive = true;

  const childrenOf = new Map<string | null, BaseBlock[]>();
  for (const b of base) {
    const list = childrenOf.get(b.parentId);
    if (list) list.push(b);
    else childrenOf.set(b.parentId, [b]);
  }
  for (const list of childrenOf.values()) list.sort((x, y) => x.position - y.position);

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
  const twinOfLocal = (l: LocalBlock) => (twinIndex().baseByKey.get(keyOf(l.kind, l.markdown)) ?? []).some((b) => !matched.has(b));
  const twinOfBase = (b: BaseBlock) => (twinIndex().localByKey.get(keyOf(b.kind, b.markdown)) ?? []).some((l) => !claimed!.has(l));

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

  const pairNode = (node: DiffNode, b: BaseBlock, changed: boolean) => {
    bury(node.children);
    node.id = b.id;
    node.base = b;
    claimed?.add(node.local);
    node.changed = changed;
    matched.add(b);
    if (isWrapper(b.kind)) node.children = diffList((childrenOf.get(b.id) ?? []).filter((c) => !matched.has(c)), node.local.children);
  };

  /** One sibling list: sequence match on exact content; the gaps between matches are queued. */
  function diffList(bs: readonly BaseBlock[], ls: readonly LocalBlock[]): DiffNode[] {
    const nodes = ls.map((l): DiffNode => ({ local: l, id: null, base: null, changed: false, moved: false, children: LEAF }));
    const a = bs.map((b) => keyOf(b.kind, b.markdown));
    const c = ls.map((l) => keyOf(l.kind, l.markdown));
    const m = matchSequences(a, c, work);
    work = Math.max(0, work - (a.length + c.length));
    if (!m.exhaustive) exhaustive = false;
    let pb = 0;
    let pl = 0;
    const gap = (bEnd: number, lEnd: number) => {
      if (bEnd > pb && lEnd > pl) pendingGaps.push({ bs: bs.slice(pb, bEnd), nodes: nodes.slice(pl, lEnd) });
    };
    for (const [i, j] of m.pairs) {
      gap(i, j);
      pairNode(nodes[j]!, bs[i]!, false);
      pb = i + 1;
      pl = j + 1;
    }
    gap(bs.length, ls.length);
    for (const b of bs) if (!matched.has(b)) unmatchedBase.push(b);
    for (const n of nodes) {
      if (n.id !== null) continue;
      unmatchedLocal.push(n);
      if (n.local.children.length > 0) n.children = n.local.children.map(newNode);
    }
    return nodes;
  }

  const nodes = diffList(childrenOf.get(null) ?? [], local);
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
        if (q && q.length > 0) pairNode(q.shift()!, b, false);
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
      pairNode(c.n, c.b, !sameContent(c.b.type, c.b.markdown, c.n.local.markdown, equals));
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
        pairNode(n, b, !sameContent(b.type, b.markdown, n.local.markdown, equals));
        paired = true;
      });
    }
    if (!paired) break;
  }

  markMoved(nodes, null);
  const removed = base.filter((b) => !matched.has(b)).map((b) => b.id);
  return { nodes, removed, exhaustive };
}

/** Flags blocks whose parent or sibling order differs from base (the fewest such, by longest kept order). */
export function markMoved(nodes: DiffNode[], parentId: string | null | undefined): void {
  const placed: Placed[] = [];
  for (const n of nodes) if (n.base !== null) placed.push(n.base);
  // Under a new block (parentId undefined) every existing block has moved.
  const moved = parentId === undefined ? new Set(placed.map((p) => p.id)) : movedAmong(placed, parentId);
  for (const n of nodes) {
    if (n.id !== null) n.moved = moved.has(n.id);
    if (n.children.length > 0) markMoved(n.children, n.id ?? undefined);
  }
}

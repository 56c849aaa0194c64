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

/** Gaps up to this many candidate pairs are aligned by similarity; larger ones by position. */
const GAP_ALIGN_LIMIT = 2_500;
/** Below this similarity two blocks are only paired when a gap holds as many new as old blocks (a rewrite in place). */
const MIN_SIMILARITY = 0.4;
/** Move pairing by canonical (not byte) equality is tried when this few candidates are left. */
const CANONICAL_MOVE_LIMIT = 200;

const isWrapper = (kind: string) => kind === 'page' || kind === 'card';

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
  let pendingGaps: Array<{ bs: BaseBlock[]; nodes: DiffNode[] }> = [];

  const newNode = (l: LocalBlock): DiffNode => ({ local: l, id: null, base: null, changed: false, moved: false, children: l.children.length ? l.children.map(newNode) : [] });

  const pairNode = (node: DiffNode, b: BaseBlock, changed: boolean) => {
    node.id = b.id;
    node.base = b;
    node.changed = changed;
    matched.add(b);
    if (isWrapper(b.kind)) node.children = diffList((childrenOf.get(b.id) ?? []).filter((c) => !matched.has(c)), node.local.children);
  };

  /** One sibling list: sequence match on exact content; the gaps between matches are queued. */
  function diffList(bs: readonly BaseBlock[], ls: readonly LocalBlock[]): DiffNode[] {
    const nodes = ls.map(newNode);
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
    for (const n of nodes) if (n.id === null) unmatchedLocal.push(n);
    return nodes;
  }

  /** Pairs of a gap (indices into bs, ls), in order: the most alike same-kind blocks, so an edit keeps its id. */
  function pairGap(bs: readonly BaseBlock[], ls: readonly LocalBlock[]): Array<[number, number]> {
    const n = bs.length;
    const m = ls.length;
    if (n === 0 || m === 0) return [];
    if (n * m > GAP_ALIGN_LIMIT) {
      exhaustive = false;
      const out: Array<[number, number]> = [];
      for (let k = 0; k < Math.min(n, m); k++) if (bs[k]!.kind === ls[k]!.kind) out.push([k, k]);
      return out;
    }
    const inPlace = n === m;
    const score = (b: BaseBlock, l: LocalBlock): number => {
      if (b.kind !== l.kind) return -1;
      if (sameContent(b.type, b.markdown, l.markdown, equals)) return 3;
      const sim = similarity(b.markdown, l.markdown);
      return !inPlace && sim < MIN_SIMILARITY ? -1 : sim + 0.05;
    };
    const w = m + 1;
    const dp = new Float64Array((n + 1) * w);
    const take = new Int8Array((n + 1) * w); // 1: pair, 2: skip base, 3: skip local
    for (let i = 1; i <= n; i++) {
      for (let j = 1; j <= m; j++) {
        let best = dp[(i - 1) * w + j]!;
        let how = 2;
        if (dp[i * w + j - 1]! > best) {
          best = dp[i * w + j - 1]!;
          how = 3;
        }
        const s = score(bs[i - 1]!, ls[j - 1]!);
        if (s >= 0 && dp[(i - 1) * w + j - 1]! + s > best) {
          best = dp[(i - 1) * w + j - 1]! + s;
          how = 1;
        }
        dp[i * w + j] = best;
        take[i * w + j] = how;
      }
    }
    const out: Array<[number, number]> = [];
    for (let i = n, j = m; i > 0 && j > 0;) {
      const how = take[i * w + j];
      if (how === 1) out.push([--i, --j]);
      else if (how === 2) i--;
      else j--;
    }
    return out.reverse();
  }

  const nodes = diffList(childrenOf.get(null) ?? [], local);

  // Moves: a block gone from one place whose exact text appears as new in another keeps its id.
  // They are paired before the gaps, so a moved block is not taken for an edit of its neighbour.
  // Children of a new page stay new (they are created with it).
  const byKey = new Map<number, DiffNode[]>();
  let localSeen = 0;
  let baseSeen = 0;
  const tryPair = (b: BaseBlock, n: DiffNode | undefined): boolean => {
    if (!n) return false;
    pairNode(n, b, !sameContent(b.type, b.markdown, n.local.markdown, equals));
    n.moved = true;
    return true;
  };
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
        while (q && q.length > 0 && q[0]!.id !== null) q.shift();
        if (q && q.length > 0) tryPair(b, q.shift());
      }
    }
  };
  const expanded = new Set<string>();
  for (;;) {
    exactMoves();
    if (pendingGaps.length > 0) {
      const gaps = pendingGaps;
      pendingGaps = [];
      for (const g of gaps) {
        const bs = g.bs.filter((b) => !matched.has(b));
        const ns = g.nodes.filter((n) => n.id === null);
        for (const [i, j] of pairGap(bs, ns.map((n) => n.local))) {
          const b = bs[i]!;
          const n = ns[j]!;
          pairNode(n, b, !sameContent(b.type, b.markdown, n.local.markdown, equals));
        }
      }
      continue;
    }
    // A page that is gone may have had children moved out of it: offer them as move candidates too.
    let more = false;
    for (const b of unmatchedBase.slice()) {
      if (matched.has(b) || !isWrapper(b.kind) || expanded.has(b.id)) continue;
      expanded.add(b.id);
      for (const c of childrenOf.get(b.id) ?? []) if (!matched.has(c)) { unmatchedBase.push(c); more = true; }
    }
    if (more) continue;
    // Last, blocks moved and re-spelled in a form the service normalises (few candidates only).
    const leftBase = unmatchedBase.filter((b) => !matched.has(b));
    const leftLocal = unmatchedLocal.filter((n) => n.id === null);
    if (leftBase.length > CANONICAL_MOVE_LIMIT || leftLocal.length > CANONICAL_MOVE_LIMIT) break;
    let paired = false;
    for (const b of leftBase) {
      const n = leftLocal.find((x) => x.id === null && x.local.kind === b.kind && sameContent(b.type, b.markdown, x.local.markdown, equals));
      if (tryPair(b, n)) paired = true;
    }
    if (!paired) break;
  }

  markMoved(nodes, null);
  const removed = base.filter((b) => !matched.has(b)).map((b) => b.id);
  return { nodes, removed, exhaustive };
}

/** Flags blocks whose parent or sibling order differs from base (the fewest such, by longest kept order). */
function markMoved(nodes: DiffNode[], parentId: string | null): void {
  const placed: Placed[] = [];
  for (const n of nodes) if (n.base !== null) placed.push(n.base);
  const moved = movedAmong(placed, parentId);
  for (const n of nodes) {
    if (n.id === null) continue;
    n.moved = moved.has(n.id);
    if (n.children.length > 0) markMoved(n.children, n.id);
  }
}

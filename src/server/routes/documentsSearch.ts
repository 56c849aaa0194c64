// `GET /documents/search`: documents matching every `include` term and every RE2 `regexps`
// pattern, relevance-ranked, top 50 (the live count; the contract says 20, docs/server.md), each
// with a highlighted snippet and the matching blocks.
import type { ApiRouter } from '../http/router.js';
import type { Block } from '../../dialect/types.js';
import { validationFailed } from '../http/apiError.js';
import { queryArray, queryBool } from '../http/query.js';
import { selectDocuments } from '../model/selectDocuments.js';
import { documentBlocks, type BlockRow } from '../store/blocks.js';
import { blockJson } from '../model/blockJson.js';
import { childrenIndex } from '../model/readTree.js';
import { compileRe2, literalMatcher, type Matcher, snippet } from '../model/matchers.js';

const TOP = 50;

/**
 * An include term as the live index takes it: it splits words at `_` but not the term, so a term
 * holding `_` finds nothing (RE2 `regexps` do find such tokens).
 */
function includeMatcher(term: string): Matcher {
  return term.includes('_') ? { ranges: () => [] } : literalMatcher(term);
}

interface Hit {
  documentId: string;
  score: number;
  lastModified: number;
  best: { row: BlockRow; ranges: Array<[number, number]> };
  matched: BlockRow[];
}

/** A document's blocks in reading order (root first, depth first). */
export function readingOrder(rows: readonly BlockRow[], rootId: string): BlockRow[] {
  const index = childrenIndex(rows);
  const root = rows.find((r) => r.id === rootId);
  if (!root) return [];
  const out: BlockRow[] = [];
  const walk = (r: BlockRow) => {
    out.push(r);
    for (const k of index.get(r.id) ?? []) walk(k);
  };
  walk(root);
  return out;
}

export function registerDocumentSearch(api: ApiRouter): void {
  api.get('/documents/search', (ctx, req) => {
    const include = (queryArray(req.query, 'include') ?? []).filter((t) => t.trim() !== '');
    const patterns = queryArray(req.query, 'regexps') ?? [];
    const fetchBlocks = queryBool(req.query, 'fetchBlocks', false);
    if (include.length === 0 && patterns.length === 0) {
      throw validationFailed([{ message: "Either 'include' or 'regexps' must be specified.", path: ['include'] }]);
    }
    const matchers: Matcher[] = [...include.map((t) => includeMatcher(t.trim())), ...patterns.map((p) => compileRe2(p, true))];
    const { rows: docs } = selectDocuments(ctx, req.query, 'folderIds');

    const hits: Hit[] = [];
    for (const doc of docs) {
      const blocks = readingOrder(documentBlocks(ctx.db, doc.id), doc.id);
      const found = new Array<boolean>(matchers.length).fill(false);
      let score = 0;
      let best: Hit['best'] | undefined;
      let bestCount = 0;
      const matched: BlockRow[] = [];
      for (const b of blocks) {
        const ranges: Array<[number, number]> = [];
        matchers.forEach((m, i) => {
          const r = m.ranges(b.markdown);
          if (r.length === 0) return;
          found[i] = true;
          ranges.push(...r);
          // Title matches weigh more; repeats add less and less.
          score += (b.id === doc.id ? 3 : 1) * (1 + Math.log(r.length));
        });
        if (ranges.length === 0) continue;
        matched.push(b);
        if (ranges.length > bestCount || (best?.row.id === doc.id && b.id !== doc.id && ranges.length === bestCount)) {
          best = { row: b, ranges };
          bestCount = ranges.length;
        }
      }
      if (best && found.every(Boolean)) hits.push({ documentId: doc.id, score, lastModified: doc.last_modified_at, best, matched });
    }
    hits.sort((a, b) => b.score - a.score || b.lastModified - a.lastModified || a.documentId.localeCompare(b.documentId));
    const top = hits.slice(0, TOP);
    if (fetchBlocks) ctx.chargeBlocks(top.reduce((n, h) => n + h.matched.length, 0));
    return {
      items: top.map((h) => {
        const item: { documentId: string; markdown: string; blockIds: string[]; blocks?: Block[] } = {
          documentId: h.documentId,
          markdown: ctx.media.signAll(snippet(h.best.row.markdown, h.best.ranges), ctx.origin, ctx.now),
          blockIds: h.matched.map((b) => b.id),
        };
        if (fetchBlocks) item.blocks = h.matched.map((b) => blockJson(ctx, b));
        return item;
      }),
    };
  });
}

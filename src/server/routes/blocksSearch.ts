// `GET /blocks/search`: blocks of one document (or page) whose markdown matches an RE2 pattern,
// each with the blocks before and after it and the path of pages above it.
import type { ApiRouter } from '../http/router.js';
import type { Block } from '../../dialect/index.js';
import { notFound, validationFailed } from '../http/apiError.js';
import { queryBool, queryInt, queryString } from '../http/query.js';
import { documentBlocks, getBlock, type BlockRow } from '../store/blocks.js';
import { compileRe2 } from '../model/matchers.js';
import { blockJson } from '../model/blockJson.js';
import { parseData } from '../model/blockData.js';
import { pageLike } from '../model/blockInput.js';
import { readingOrder } from './documentsSearch.js';

interface InDocumentHit {
  blockId: string;
  markdown: string;
  pageBlockPath: Array<{ id: string; content: string }>;
  beforeBlocks: Array<{ blockId: string; markdown: string }>;
  afterBlocks: Array<{ blockId: string; markdown: string }>;
  block?: Block;
}

export function registerBlockSearch(api: ApiRouter): void {
  api.get(
    '/blocks/search',
    (ctx, req) => {
      const blockId = queryString(req.query, 'blockId');
      const pattern = queryString(req.query, 'pattern');
      const missing = [...(blockId === undefined ? ['blockId'] : []), ...(pattern === undefined ? ['pattern'] : [])];
      if (missing.length > 0) throw validationFailed(missing.map((m) => ({ message: `'${m}' is required.`, path: [m] })));
      const caseSensitive = queryBool(req.query, 'caseSensitive', false);
      const before = queryInt(req.query, 'beforeBlockCount', 5, 0);
      const after = queryInt(req.query, 'afterBlockCount', 5, 0);
      const fetchBlocks = queryBool(req.query, 'fetchBlocks', false);
      const matcher = compileRe2(pattern!, caseSensitive);
      const root = getBlock(ctx.db, blockId!);
      if (!root) throw notFound('Block');

      const all = documentBlocks(ctx.db, root.doc_id);
      const byId = new Map(all.map((r) => [r.id, r]));
      // The block searched in is the scope, not a hit or context: its title heads every pageBlockPath.
      const order = readingOrder(all, root.id).slice(1);
      const sign = (md: string) => ctx.media.signAll(md, ctx.origin, ctx.now);
      const short = (r: BlockRow) => ({ blockId: r.id, markdown: sign(r.markdown) });
      const items: InDocumentHit[] = [];
      order.forEach((row, i) => {
        if (matcher.ranges(row.markdown).length === 0) return;
        const path: Array<{ id: string; content: string }> = [];
        for (let p = row.parent_id === null ? undefined : byId.get(row.parent_id); p; p = p.parent_id === null ? undefined : byId.get(p.parent_id)) {
          if (pageLike(p.type, parseData(p.data)) || p.type === 'collectionItem') path.unshift({ id: p.id, content: sign(p.markdown) });
        }
        const hit: InDocumentHit = {
          blockId: row.id,
          markdown: sign(row.markdown),
          pageBlockPath: path,
          beforeBlocks: order.slice(Math.max(0, i - before), i).map(short),
          afterBlocks: order.slice(i + 1, i + 1 + after).map(short),
        };
        if (fetchBlocks) hit.block = blockJson(ctx, row);
        items.push(hit);
      });
      ctx.chargeBlocks(items.length);
      return { items };
    },
    { blockOperation: true },
  );
}

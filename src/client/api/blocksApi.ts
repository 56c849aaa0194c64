// Blocks: read a document (JSON or rendered markdown), insert, update, delete, move, search.
import type { Block } from '../../dialect/types.js';
import type { ApiCall, CallOptions, Send } from '../apiCall.js';
import { check, checkAs, blockSchema, blocksResult, countBlocks, idItems, objectItems } from '../schemas.js';
import type { BlockSearchHit, BlockUpdate, CreateBlocksInput, GetBlocksQuery, IdItem, Items, Position, SearchBlocksQuery } from '../../wire/types.js';

/** What an unread document is assumed to cost before any document has been read. */
export const UNKNOWN_DOCUMENT_BLOCKS = 100;

/** Blocks a markdown insert becomes: paragraphs split on blank lines, list items on newlines. */
function markdownBlocks(markdown: string): number {
  return markdown.split(/\n\s*\n/).reduce((n, chunk) => n + Math.max(1, chunk.split('\n').filter((l) => /^\s*([-+*]|\d+\.)\s/.test(l)).length), 0);
}

function treeSize(blocks: ReadonlyArray<{ content?: unknown }>): number {
  return blocks.reduce((n, b) => n + countBlocks(b), 0);
}

export interface BlocksApi {
  /** `GET /blocks`: the block (a document when `id` is a document id) with nested `content`. */
  getBlocks(query: GetBlocksQuery, options?: CallOptions): Promise<Block>;
  /** `GET /blocks` with `Accept: text/markdown`: the rendered document. */
  getBlocks(query: GetBlocksQuery & { format: 'markdown' }, options?: CallOptions): Promise<string>;
  createBlocks(input: CreateBlocksInput, options?: CallOptions): Promise<Items<Block>>;
  updateBlocks(input: { blocks: BlockUpdate[] }, options?: CallOptions): Promise<Items<Block>>;
  deleteBlocks(input: { blockIds: string[] }, options?: CallOptions): Promise<Items<IdItem>>;
  moveBlocks(input: { blockIds: string[]; position: Position }, options?: CallOptions): Promise<Items<IdItem>>;
  searchBlocks(query: SearchBlocksQuery, options?: CallOptions): Promise<Items<BlockSearchHit>>;
}

export function blocksApi(send: Send): BlocksApi {
  // Blocks per document as last read, so a re-read is charged what it will really cost; an
  // unread document is charged the mean of those read so far (the first pull of a space).
  const known = new Map<string, number>();
  let readBlocks = 0;
  let readDocuments = 0;
  const unknownCost = () => Math.max(UNKNOWN_DOCUMENT_BLOCKS, readDocuments ? Math.ceil(readBlocks / readDocuments) : 0);
  const remember = (id: string, n: number) => {
    if (!known.has(id)) {
      readBlocks += n;
      readDocuments++;
    }
    known.set(id, n);
  };

  function getBlocks(query: GetBlocksQuery, options?: CallOptions): Promise<Block>;
  function getBlocks(query: GetBlocksQuery & { format: 'markdown' }, options?: CallOptions): Promise<string>;
  function getBlocks(query: GetBlocksQuery & { format?: 'markdown' }, options?: CallOptions): Promise<Block | string> {
    const { format, ...q } = query;
    const whole = q.maxDepth === undefined || q.maxDepth < 0;
    // Asked when the read is about to go: by then earlier reads may have taught the size.
    const estimate = () => (q.maxDepth === 0 ? 1 : ((q.id !== undefined ? known.get(q.id) : undefined) ?? unknownCost()));
    const call: ApiCall = {
      method: 'GET',
      endpoint: 'GET /blocks',
      path: '/blocks',
      query: { id: q.id, date: q.date, maxDepth: q.maxDepth, fetchMetadata: q.fetchMetadata },
      blockCost: estimate,
      accept: format === 'markdown' ? 'markdown' : 'json',
      countBlocks,
    };
    if (format === 'markdown') {
      return send(call, options, (v) => {
        if (typeof v !== 'string') throw new TypeError('expected text');
        return v;
      });
    }
    const parse = check(blockSchema);
    return send(call, options, (v) => {
      const block = parse(v) as Block;
      if (whole) remember(block.id, countBlocks(block));
      return block;
    });
  }

  return {
    getBlocks,
    createBlocks: (input, options) =>
      send(
        {
          method: 'POST',
          endpoint: 'POST /blocks',
          path: '/blocks',
          json: input,
          blockCost: input.blocks ? treeSize(input.blocks) : markdownBlocks(input.markdown ?? ''),
          countBlocks: (v) => treeSize(((v as { items?: unknown[] }).items ?? []) as Array<{ content?: unknown }>),
        },
        options,
        checkAs<Items<Block>>(blocksResult),
      ),
    updateBlocks: (input, options) =>
      send(
        { method: 'PUT', endpoint: 'PUT /blocks', path: '/blocks', json: input, blockCost: input.blocks.length },
        options,
        checkAs<Items<Block>>(blocksResult),
      ),
    deleteBlocks: (input, options) =>
      send({ method: 'DELETE', endpoint: 'DELETE /blocks', path: '/blocks', json: input, blockCost: input.blockIds.length }, options, check(idItems)),
    moveBlocks: (input, options) =>
      send({ method: 'PUT', endpoint: 'PUT /blocks/move', path: '/blocks/move', json: input, blockCost: input.blockIds.length }, options, check(idItems)),
    searchBlocks: (query, options) =>
      send(
        { method: 'GET', endpoint: 'GET /blocks/search', path: '/blocks/search', query: { ...query }, blockCost: 0 },
        options,
        checkAs<Items<BlockSearchHit>>(objectItems),
      ),
  };
}

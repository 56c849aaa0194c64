// A stored block → the JSON the service sends: `markdown` first, default-valued keys omitted,
// media URLs freshly signed, `content` only where children are expanded, `metadata` on request.
import type { Block, BlockMetadata } from '../../dialect/types.js';
import type { RequestContext } from '../context.js';
import type { BlockRow } from '../store/blocks.js';
import { DATA_KEYS, parseData } from './blockData.js';
import { clickableLink } from './links.js';
import { isoTime } from '../dates.js';
import { commentsOf } from '../store/comments.js';

const PAGE_LIKE = (type: string, textStyle: unknown) => type === 'page' || (type === 'text' && (textStyle === 'card' || textStyle === 'page'));

export interface BlockJsonOptions {
  /** The expanded children; `undefined` omits the `content` key. */
  content?: Block[];
  metadata?: boolean;
}

export function blockJson(ctx: RequestContext, row: BlockRow, opts: BlockJsonOptions = {}): Block {
  const data = parseData(row.data);
  const out: Block = { id: row.id, type: row.type as Block['type'] };
  let markdown = row.markdown;
  // One signature per asset per read, shared by the url field and the markdown.
  const signed = new Map<string, string>();
  const sign = (text: string) => text.replace(/asset:([A-Za-z0-9-]+)/g, (_m, id: string) => {
    let url = signed.get(id);
    if (url === undefined) {
      url = ctx.media.sign(ctx.origin, id, ctx.now);
      signed.set(id, url);
    }
    return url;
  });
  if (markdown.includes('asset:')) markdown = sign(markdown);
  out.markdown = markdown;
  const o = out as unknown as Record<string, unknown>;
  for (const k of DATA_KEYS) {
    const v = data[k];
    if (v === undefined) continue;
    o[k] = k === 'url' && typeof v === 'string' && v.startsWith('asset:') ? sign(v) : v;
  }
  if (PAGE_LIKE(row.type, data.textStyle) || row.type === 'collectionItem') o.title = data.body ?? '';
  if (row.type === 'code' && data.rawCode === undefined) o.rawCode = data.body ?? '';
  if (opts.content !== undefined) out.content = opts.content;
  if (opts.metadata) out.metadata = metadataOf(ctx, row);
  return out;
}

function metadataOf(ctx: RequestContext, row: BlockRow): BlockMetadata {
  return {
    createdAt: isoTime(row.created_at),
    lastModifiedAt: isoTime(row.modified_at),
    createdBy: row.created_by,
    lastModifiedBy: row.modified_by,
    comments: commentsOf(ctx.db, row.id).map((c) => ({ id: c.id, content: c.content, createdAt: isoTime(c.created_at), createdBy: c.created_by })),
    clickableLink: clickableLink(ctx.space.id, row.doc_id, row.id),
  };
}

// `POST /comments`: adds a comment to a block's thread. The thread shows in the block's metadata
// (`fetchMetadata=true`) and, on a text block, as `<comment id="<thread>">…</comment>` around its
// text; the thread's id is the id of its first comment.
import { z } from 'zod';
import type { ApiRouter } from '../http/router.js';
import type { RequestContext } from '../context.js';
import { notFound } from '../http/apiError.js';
import { parseBody } from '../http/query.js';
import { newId } from '../store/openStore.js';
import { getBlock, updateBlockContent, type BlockRow, commentsOf, insertComment } from '../store/blocks.js';
import { touchDocument } from '../store/documents.js';
import { parseData } from '../model/blockData.js';
import { markdownOf, pageLike } from '../model/blockInput.js';

const createBody = z.object({
  comments: z
    .array(
      z.object({
        blockId: z.string().min(1),
        content: z.string().refine((s) => s.trim() !== '', 'A comment cannot be empty.'),
      }),
    )
    .min(1, "'comments' must list at least one comment."),
});

/** Marks the text of a text block with its thread, unless it already carries a comment tag. */
function markThread(ctx: RequestContext, row: BlockRow, threadId: string): void {
  const data = parseData(row.data);
  const body = data.body ?? '';
  if (row.type !== 'text' || pageLike(row.type, data) || body.trim() === '' || body.includes('<comment')) return;
  const marked = { ...data, body: `<comment id="${threadId}">${body}</comment>` };
  updateBlockContent(ctx.db, row.id, {
    type: row.type,
    data: JSON.stringify(marked),
    markdown: markdownOf('text', marked),
    modifiedAt: ctx.now,
    modifiedBy: ctx.space.userId,
  });
  touchDocument(ctx.db, row.doc_id, ctx.now);
}

export function registerComments(api: ApiRouter): void {
  api.post('/comments', (ctx, req) => {
    const body = parseBody(createBody, req.body);
    const items = body.comments.map((c) => {
      const row = getBlock(ctx.db, c.blockId);
      if (!row) throw notFound(`Block ${c.blockId}`);
      const id = newId();
      insertComment(ctx.db, { id, block_id: row.id, content: c.content, created_at: ctx.now, created_by: ctx.space.userId });
      markThread(ctx, row, commentsOf(ctx.db, row.id)[0]!.id);
      return { commentId: id };
    });
    return { items };
  });
}

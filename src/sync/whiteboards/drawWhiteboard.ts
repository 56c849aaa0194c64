// A new line of a document that links a whiteboard's scene file (`.excalidraw`) becomes a whiteboard
// block at its place (createWhiteboard: the board, then its elements). The base takes the line as the
// file has it and the whiteboards step's record takes the scene, in one transaction, so the next
// cycle reads the board back and settles the file. An intent is written first: a run killed while the
// board was being drawn makes the next one read the document again and merge; the board the space
// got then shows as a second scene beside the file's (nothing is lost, the user removes one).
import { hashBlock } from '../../core/merge/hashBlock.js';
import { insertBase } from '../../core/merge/baseAfter.js';
import { isPerDocumentError, type DrawInput, type SyncContext } from '../context/index.js';
import { createWhiteboard } from './createWhiteboard.js';
import { WHITEBOARD_BASE } from './syncWhiteboards.js';

export async function drawWhiteboard(ctx: SyncContext, input: DrawInput): Promise<{ ok: true; blockId: string } | { ok: false; message: string }> {
  const { journal } = ctx;
  const intent = journal.addIntent({ docId: input.docId, op: 'POST /whiteboards', payload: { file: input.file, target: input.target } });
  let made;
  try {
    made = await createWhiteboard(ctx, { docId: input.docId, file: input.file, position: input.target });
  } catch (e) {
    if (!isPerDocumentError(e)) throw e;
    return {
      ok: false,
      message: `The whiteboard "${input.file}" was not drawn in the space (${(e as Error).message}); the next cycle reads the document again.`,
    };
  }
  if (!made.ok) {
    journal.clearIntent(intent);
    return made;
  }
  const base = insertBase(
    journal.getBaseBlocks(input.docId),
    { id: made.blockId, parentId: input.parentId, kind: 'block', type: 'whiteboard', markdown: input.markdown, hash: hashBlock(input.markdown, 'block') },
    input.after,
  );
  journal.transaction(() => {
    journal.replaceBaseBlocks(input.docId, base);
    journal.setState(`${WHITEBOARD_BASE}${made.blockId}`, made.record);
    journal.clearIntent(intent);
  });
  ctx.logger.info({ file: input.file, blockId: made.blockId }, `drew the whiteboard ${input.file} in the space (${made.requests} requests)`);
  return { ok: true, blockId: made.blockId };
}

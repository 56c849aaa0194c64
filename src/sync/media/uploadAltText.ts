// After an upload made an image block (a new reference, a replaced asset, or an upload an earlier run
// sent and this one adopts), the alt text of its line goes to the space by `PUT /blocks`
// (altTextToSend in core/media/localReference says why). What the base records for the block is what the space then
// holds: the line, or, when the edit did not go through, the line with the service's default alt
// text, the file marked unsent so that the next push sends the alt text as an ordinary edit.
import { altTextToSend, withDefaultAlt } from '../../core/media/localReference.js';
import { withDestination } from '../../core/media/linkAssets.js';
import { isPerDocumentError, UNSENT, type SyncContext } from '../context/index.js';

export interface AltTextSent {
  /** The block's markdown as the base records it. */
  recorded: string;
  /** The space holds the line's alt text (sent now, or the line has none). */
  sent: boolean;
}

/** Sends the alt text `markdown` (the file's line, linking `file`) gives the image block `blockId`, whose asset the space serves at `assetUrl`. */
export async function sendAltText(
  ctx: SyncContext,
  block: { id: string; type: string; markdown: string; file: string; assetUrl: string },
): Promise<AltTextSent> {
  if (altTextToSend(block.markdown, block.type) === undefined) return { recorded: block.markdown, sent: true };
  try {
    await ctx.client.updateBlocks({ blocks: [{ id: block.id, markdown: withDestination(block.markdown.trim(), block.assetUrl) }] }, { priority: 'user' });
    return { recorded: block.markdown, sent: true };
  } catch (e) {
    if (!isPerDocumentError(e)) throw e;
    ctx.logger.warn(
      { file: block.file, blockId: block.id },
      `"${block.file}" was uploaded, but its alt text was not sent (${(e as Error).message}); the space shows "Image" for now, and the next cycle sends it.`,
    );
    return { recorded: withDefaultAlt(block.markdown), sent: false };
  }
}

/** The document's file holds an alt text not sent: the next push reads it against the base, which has the default, and sends it. */
export function markAltTextUnsent(ctx: SyncContext, docId: string): void {
  ctx.journal.setFileHash(docId, UNSENT);
}

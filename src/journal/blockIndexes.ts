// The state indexes of a document's base blocks (prefix → which blocks it lists), so the steps that
// need whiteboards, media or links find the documents holding them without decoding every base.
import { typesWhere } from '../dialect/index.js';
import type { BaseBlock } from './types.js';

/** State key prefix: a document's whiteboard block ids. */
export const WHITEBOARDS_OF = 'whiteboards-of:';
/** State key prefix: the media blocks (image, video, file, drawing) of a document, so the media step finds them. */
export const MEDIA_OF = 'media-of:';
/** State key prefix: the blocks of a document whose markdown links a `.md` file (links between documents, shown relatively). */
export const LINKS_OF = 'links-of:';
/** State key prefix: the blocks of a document whose markdown may link a block inside a document (`block://`, or a `.md#` anchor). */
export const ANCHOR_LINKS_OF = 'anchor-links-of:';

const ofTypes = (types: ReadonlySet<string>) => (b: BaseBlock) => types.has(b.type);

export const BLOCK_INDEXES: ReadonlyArray<readonly [string, (b: BaseBlock) => boolean]> = [
  [WHITEBOARDS_OF, ofTypes(new Set(['whiteboard']))],
  [MEDIA_OF, ofTypes(typesWhere((t) => t.downloaded))],
  [LINKS_OF, (b) => b.markdown.includes('](') && b.markdown.includes('.md')],
  [ANCHOR_LINKS_OF, (b) => b.markdown.includes('](') && (b.markdown.includes('block://') || b.markdown.includes('.md#'))],
];

// The space's markdown dialect: one definition for the server and the sync engine.
export * from './types.js';
export { parseBlockMarkdown } from './parseBlockMarkdown.js';
export { renderBlockMarkdown, isPageLike } from './renderBlockMarkdown.js';
export { BLOCK_TRAITS, traitsOf, typesWhere, type BlockTraits } from './blockTraits.js';
export { RENDER_HANDLERS, type RenderHandler, type RenderState } from './renderHandlers.js';
export { splitMarkdown } from './splitMarkdown.js';
export { normalizeMarkdown } from './normalizeMarkdown.js';
export { normalizeInline } from './normalizeInline.js';
export { canonicalMarkdown, markdownEquals } from './canonicalMarkdown.js';
export { renderDocumentMarkdown } from './renderDocumentMarkdown.js';
export { renderFileBody } from './renderFileBody.js';
export { renderCollection } from './renderCollection.js';
export { segmentFile } from './segmentFile.js';
export { joinSegments, joinSegment } from './joinSegments.js';
export { replaceSegment } from './replaceSegment.js';
export { frontMatter } from './frontMatter.js';
export { languageOf } from './readBlock.js';
export { CARD_LAYOUTS } from './cardLayouts.js';

// The space's markdown dialect: one definition for the server and the sync engine.
export * from './types.js';
export { parseBlockMarkdown, splitMarkdown } from './parseBlockMarkdown.js';
export { renderBlockMarkdown, isPageLike, renderDocumentMarkdown, renderFileBody, renderCollection } from './renderBlocks.js';
export { traitsOf, typesWhere } from './blockTraits.js';
export { canonicalMarkdown, markdownEquals } from './canonicalMarkdown.js';
export { TITLE_COLUMN } from './renderCollectionTable.js';
export { parseCollectionTable, cellValue, type CollectionTable } from './parseCollectionTable.js';
export { segmentFile, frontMatter } from './segmentFile.js';
export { replaceSegment } from './replaceSegment.js';
export { splitTaskDates, isTaskMarkdown, withTaskDates, dateSuffix, sameTaskDates, type TaskDates } from './taskDates.js';
export { markerOf, withMarker, withoutMarker } from './blockIdMarker.js';
export { headingText, headingSlug } from './headingText.js';

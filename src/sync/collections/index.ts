// Collections: a table in the document's file, whose cells and rows edited here are sent as item
// requests; which row is which item is recorded by the pull.
export { pushCollections, type CollectionPushResult } from './pushCollections.js';
export { collectionsPart } from './report.js';

// Links between the mirror's files: documents and days shown as relative file links, blocks as
// anchors; they follow every move and rename on either side.
export { relinkAnchors } from './relinkAnchors.js';
export { relinkDocuments } from './relinkDocuments.js';

// Whiteboards as `.excalidraw` scene files beside their documents.
export { syncWhiteboards, WHITEBOARD_BASE, type WhiteboardRecord, type WhiteboardSyncResult } from './syncWhiteboards.js';
export { drawWhiteboard } from './drawWhiteboard.js';
export { whiteboardsPart, whiteboardsPlan } from './report.js';

// The journal's public surface: open it, then ask the Journal.
export { openJournal, openJournalForReading } from './openJournal.js';
export { Journal } from './Journal.js';
export * from './types.js';

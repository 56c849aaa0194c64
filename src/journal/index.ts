// The journal's public surface: open it, then ask the Journal.
export { openJournal } from './openJournal.js';
export { openJournalForReading } from './openJournalForReading.js';
export { Journal } from './Journal.js';
export * from './types.js';

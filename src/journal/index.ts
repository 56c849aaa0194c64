// The journal's public surface: open it, then ask the Journal.
export { openJournal, type OpenJournalOptions } from './openJournal.js';
export { openJournalForReading } from './openJournalForReading.js';
export { Journal } from './Journal.js';
export { SCHEMA_VERSION } from './migrations.js';
export * from './types.js';

// The mirror's state directory, `.spacesync/` at the root of the mirror: the one module that names
// what is inside it (as a git repository's managers own `.git`). Every other module asks here for
// a path; none joins `.spacesync` itself.
import path from 'node:path';

/** The state directory's name at the mirror's root; never a mirror entry. */
export const STATE_DIR = '.spacesync';

/** What the state directory holds, by the names inside it. */
const ENTRIES = {
  /** `spacesync init` writes it (mode 0600): the link, the settings. */
  config: 'config.json',
  /** The SQLite journal: base, records, intents, history. */
  journal: 'journal.db',
  /** `{ pid, hostname, startedAt }` of the one daemon of this mirror. */
  lock: 'lock',
  /** The JSON log files, rotated. */
  logs: 'logs',
  /** Files of documents purged from the space, by day. */
  purged: 'purged',
  /** The local side's saved versions. */
  versions: 'versions',
  /** The demo's own server database (`spacesync demo`). */
  demoServer: 'demo-server.db',
  /** The launchd agent's output (macOS). */
  launchd: 'launchd',
  /** Assets being downloaded (temp files; cleared when a session opens). */
  downloads: 'downloads',
  /** The space pulled beside a mirror found without its journal, to compare the two (cycle/adoptMirror). */
  adopt: 'adopt',
} as const;

export type StateEntry = keyof typeof ENTRIES;

/** A state entry's path relative to the mirror root, `/`-separated (`.spacesync/purged`). */
export function stateRelPath(entry: StateEntry): string {
  return `${STATE_DIR}/${ENTRIES[entry]}`;
}

/** The state directory (no entry) or one of its entries, as a path on this machine. */
export function statePath(root: string, entry?: StateEntry, ...more: string[]): string {
  return entry === undefined ? path.join(root, STATE_DIR) : path.join(root, STATE_DIR, ENTRIES[entry], ...more);
}

export const configPath = (root: string): string => statePath(root, 'config');
export const journalPath = (root: string): string => statePath(root, 'journal');
export const lockPath = (root: string): string => statePath(root, 'lock');
export const logFilePath = (root: string): string => statePath(root, 'logs', 'spacesync.log');

/** Whether a mirror-relative path is the state directory or inside it. */
export function isStatePath(relPath: string): boolean {
  return relPath === STATE_DIR || relPath.startsWith(`${STATE_DIR}/`);
}

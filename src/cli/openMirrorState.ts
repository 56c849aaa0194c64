// For the commands that look at a mirror without syncing it (status, conflicts): the config and the
// journal of DIR, opened beside a running daemon (WAL: a reader never blocks it), never created.
import { existsSync } from 'node:fs';
import { configPath, loadConfig, type Config } from '../config.js';
import { SpacesyncError } from '../errors.js';
import { Journal, openJournal, openJournalForReading } from '../journal/index.js';
import { shellQuote } from './format.js';
import { journalPath } from '../stateDir.js';
import { rootKind } from '../mirror/index.js';

export interface MirrorState {
  config: Config;
  root: string;
  /** Undefined when the folder was set up but never synced. */
  journal: Journal | undefined;
  close(): void;
}

export function openMirrorState(flags: { dir?: string; config?: string }, opts: { write?: boolean } = {}): MirrorState {
  const config = loadConfig({
    flags: { ...(flags.dir !== undefined ? { dir: flags.dir } : {}), ...(flags.config !== undefined ? { config: flags.config } : {}) },
  });
  const root = config.dir;
  if (rootKind(root) !== 'dir') {
    throw new SpacesyncError(
      'config_missing',
      `The folder ${root} does not exist (or is not a folder). Pass the mirror folder with --dir, or set one up with \`spacesync init DIR --link URL\`.`,
    );
  }
  const file = journalPath(root);
  const hasJournal = existsSync(file);
  if (!hasJournal && !existsSync(configPath(root)) && flags.config === undefined) {
    throw new SpacesyncError(
      'config_missing',
      `${root} is not a spacesync folder (it has no .spacesync/ with a config or a journal). Pass the mirror folder with --dir, or set this one up with \`spacesync init ${shellQuote(root)} --link URL\`.`,
    );
  }
  const journal = !hasJournal ? undefined : opts.write ? openJournal(file) : openJournalForReading(file);
  return { config, root, journal, close: () => journal?.close() };
}

// Opens everything a sync run holds for its lifetime: the root's lock, the journal, the client
// and the logger; clears temp files a killed run left. `close()` gives it all back.
import { existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { createClient, type SpaceClient } from '../../client/index.js';
import { openJournal, type Journal } from '../../journal/index.js';
import { assertRoot, acquireLock, createIgnore, isBuiltinIgnored, OwnWrites, removeTempFiles, type Lock } from '../../mirror/index.js';
import type { Logger } from '../../log.js';
import { DEFAULT_SETTINGS, type SyncContext, type SyncSettings } from './SyncContext.js';
import { journalPath, statePath } from '../../stateDir.js';
import { Ownership } from './ownership.js';
import { SpacesyncError } from '../../errors.js';

export interface SyncSessionOptions {
  root: string;
  link: string;
  apiKey?: string;
  logger: Logger;
  settings?: Partial<SyncSettings>;
  /** The user's ignore patterns (the built-in rules always apply). */
  ignore?: readonly string[];
  /** The client's budgets (the config's `budget` section) and the time scale of their windows. */
  budget?: { requestsPerMinute?: number; requestsPerAddress10s?: number; blocksPerMinute?: number; reservePercent?: number; scale?: number };
  /** Looks without taking the lock or creating a journal: nothing on disk changes. */
  readOnly?: boolean;
  now?: () => Date;
  signal?: AbortSignal;
}

export interface SyncSession {
  ctx: SyncContext;
  client: SpaceClient;
  journal: Journal;
  /** Temp files of an earlier run that were removed at start. */
  removedTempFiles: string[];
  close(): void;
}

/**
 * State key: the mirror was found without a journal (none, an empty one) while it holds files:
 * the next cycle adopts it (cycle/adoptMirror) before anything else. Kept until the adoption ends,
 * so one stopped halfway starts over.
 */
export const ADOPTION_PENDING = 'adopt.pending';

/** Whether the folder holds anything a mirror is made of (not only dot-entries such as `.spacesync/`). */
async function holdsFiles(root: string): Promise<boolean> {
  const names = await fsp.readdir(root);
  return names.some((n) => !isBuiltinIgnored(n));
}

/** What the session holds, filled in as it is taken: given back if the opening fails. */
interface Held {
  lock?: Lock;
  journal?: Journal;
  ownership?: Ownership;
}

/**
 * Takes the mirror: its lock, the temp files and downloads a killed run left cleared, the journal,
 * the ownership. Read-only: the journal as it is (or one in memory), nothing on disk changed.
 */
async function takeMirror(root: string, o: SyncSessionOptions, now: () => Date, held: Held): Promise<{ journal: Journal; removedTempFiles: string[] }> {
  let removedTempFiles: string[] = [];
  let journal: Journal;
  if (!o.readOnly) {
    const lock = (held.lock = acquireLock(root));
    removedTempFiles = await removeTempFiles(root);
    // Downloads a killed run left unfinished: started again as needed.
    await fsp.rm(statePath(root, 'downloads'), { recursive: true, force: true });
    journal = held.journal = openJournal(journalPath(root), { now });
    // A journal that never recorded a listing nor a document (none, an empty file, one made anew by
    // a command that only looked) beside the files of a mirror: a journal lost, not a first sync.
    if (!journal.hasListing() && journal.counts().documents === 0 && (await holdsFiles(root)))
      journal.setState(ADOPTION_PENDING, { since: now().toISOString() });
    held.ownership = new Ownership(root, lock, journalPath(root));
  } else {
    journal = held.journal = openJournal(existsSync(journalPath(root)) ? journalPath(root) : ':memory:', { now });
  }
  return { journal, removedTempFiles };
}

/**
 * The check before every request that writes: the mirror still this run's; in backup mode none
 * leaves this run, whatever asks for it (a guard under the slices' own checks, which never ask).
 */
function writeGuard(own: Ownership | undefined, settings: SyncSettings): (() => void) | undefined {
  const backup = settings.mode === 'backup';
  return own || backup
    ? () => {
        own?.check();
        if (backup)
          throw new SpacesyncError(
            'backup_mode',
            'This mirror is a backup ("mode": "backup" in .spacesync/config.json): nothing is sent to the space. To send changes from here, set "mode": "two-way" first.',
          );
      }
    : undefined;
}

export async function openSyncSession(o: SyncSessionOptions): Promise<SyncSession> {
  const root = path.resolve(o.root);
  await assertRoot(root);
  const now = o.now ?? (() => new Date());
  const ignore = createIgnore(o.ignore ?? []);
  const held: Held = {};
  try {
    const { journal, removedTempFiles } = await takeMirror(root, o, now, held);
    // Losing the mirror (its lock or journal) stops the run as a stop request does: what waits is
    // dropped, what was sent is let finish; the cycle then ends with the ownership's error.
    const lost = new AbortController();
    const signal = o.signal ? AbortSignal.any([o.signal, lost.signal]) : lost.signal;
    const own = held.ownership;
    const settings = { ...DEFAULT_SETTINGS, ...o.settings };
    const beforeWrite = writeGuard(own, settings);
    own?.watch((e) => {
      o.logger.error({ err: e }, "the mirror is no longer this run's");
      lost.abort(e);
    });
    const client = createClient({
      link: o.link,
      ...(o.apiKey ? { apiKey: o.apiKey } : {}),
      limits: o.budget ?? {},
      logger: o.logger,
      signal,
      ...(beforeWrite ? { beforeWrite } : {}),
    });
    const ctx: SyncContext = {
      root,
      settings,
      journal,
      client,
      logger: o.logger,
      now,
      ownWrites: new OwnWrites(own ? { beforeWrite: () => own.check() } : {}),
      ignore,
      signal,
      ...(own ? { ownership: own } : {}),
      ...(o.readOnly ? { readOnly: true } : {}),
    };
    if (removedTempFiles.length > 0) o.logger.info({ files: removedTempFiles }, 'removed temp files left by an earlier run');
    const l = held.lock;
    return {
      ctx,
      client,
      journal,
      removedTempFiles,
      close() {
        own?.close();
        ctx.assets?.close();
        client.close();
        journal.close();
        l?.release();
      },
    };
  } catch (e) {
    held.ownership?.close();
    held.journal?.close();
    held.lock?.release();
    throw e;
  }
}

// Opens everything a sync run holds for its lifetime: the root's lock, the journal, the client
// and the logger; clears temp files a killed run left. `close()` gives it all back.
import { existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { createClient, type SpaceClient } from '../../client/index.js';
import { openJournal, type Journal } from '../../journal/index.js';
import { assertRoot, acquireLock, createIgnore, OwnWrites, removeTempFiles, type Lock } from '../../mirror/index.js';
import type { Logger } from '../../log.js';
import { DEFAULT_SETTINGS, type SyncContext, type SyncSettings } from './SyncContext.js';
import { journalPath, statePath } from '../../stateDir.js';

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

export { journalPath };

export async function openSyncSession(o: SyncSessionOptions): Promise<SyncSession> {
  const root = path.resolve(o.root);
  await assertRoot(root);
  const now = o.now ?? (() => new Date());
  const ignore = createIgnore(o.ignore ?? []);
  let lock: Lock | undefined;
  let journal: Journal | undefined;
  try {
    let removedTempFiles: string[] = [];
    if (!o.readOnly) {
      lock = acquireLock(root);
      removedTempFiles = await removeTempFiles(root);
      // Downloads a killed run left unfinished: started again as needed.
      await fsp.rm(statePath(root, 'downloads'), { recursive: true, force: true });
      journal = openJournal(journalPath(root), { now });
    } else {
      journal = openJournal(existsSync(journalPath(root)) ? journalPath(root) : ':memory:', { now });
    }
    const client = createClient({
      link: o.link,
      ...(o.apiKey ? { apiKey: o.apiKey } : {}),
      limits: o.budget ?? {},
      logger: o.logger,
      ...(o.signal ? { signal: o.signal } : {}),
    });
    const ctx: SyncContext = {
      root,
      settings: { ...DEFAULT_SETTINGS, ...o.settings },
      journal,
      client,
      logger: o.logger,
      now,
      ownWrites: new OwnWrites(),
      ignore,
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.readOnly ? { readOnly: true } : {}),
    };
    if (removedTempFiles.length > 0) o.logger.info({ files: removedTempFiles }, 'removed temp files left by an earlier run');
    const j = journal;
    const l = lock;
    return {
      ctx,
      client,
      journal: j,
      removedTempFiles,
      close() {
        ctx.assets?.close();
        client.close();
        j.close();
        l?.release();
      },
    };
  } catch (e) {
    journal?.close();
    lock?.release();
    throw e;
  }
}

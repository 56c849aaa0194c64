// Everything one sync cycle works with, handed in once: the root, the settings it needs, the
// journal, the client, the logger, the clock and the registry of the daemon's own writes.
import type { SpaceClient, WaitReason } from '../../client/index.js';
import { DEFAULTS } from '../../defaults.js';
import type { Journal } from '../../journal/index.js';
import type { Ignore, OwnWrites } from '../../mirror/index.js';
import type { Logger } from '../../log.js';
import type { AssetDownloads } from './AssetDownloads.js';
import type { Ownership } from './ownership.js';

/** The part of the configuration a cycle reads. */
export interface SyncSettings {
  /** Refuse to remove more than this share of the documents in one cycle (0..100). */
  maxDeletePercent: number;
  /** Re-list every container at least this often, to catch moves that left the counts unchanged. */
  fullScanMinutes: number;
  /** Purged documents' files stay in `.spacesync/purged/` this many days. */
  trashRetentionDays: number;
  /** Override the safety checks. */
  force: boolean;
  /** Documents pulled at once (each one is a request queued with the scheduler). */
  concurrency: number;
  /** Version history retention: days kept (0: no history) and the most it may weigh. */
  versions: { keepDays: number; maxMiB: number };
  /** Media assets larger than this are not downloaded (their signed link stays in the file). */
  assets: { maxMiB: number };
  /** Spare reading files whose stat is the one recorded with their hash (off only to measure its worth). */
  statCache?: boolean;
  /** `backup`: everything from the space arrives, nothing is sent to it (config `mode`). */
  mode?: 'two-way' | 'backup';
}

export const DEFAULT_SETTINGS: SyncSettings = {
  maxDeletePercent: DEFAULTS.maxDeletePercent,
  fullScanMinutes: DEFAULTS.poll.fullScanMinutes,
  trashRetentionDays: DEFAULTS.trashRetentionDays,
  force: false,
  concurrency: 16,
  versions: { ...DEFAULTS.versions },
  assets: { ...DEFAULTS.assets },
};

/** The client calls a pull makes. */
export type PullClient = Pick<SpaceClient, 'listDocuments' | 'listFolders' | 'getBlocks' | 'stats' | 'waitingFor'>;

/** The client calls a push makes besides a pull's. */
export type PushClient = Pick<
  SpaceClient,
  | 'createBlocks'
  | 'updateBlocks'
  | 'deleteBlocks'
  | 'moveBlocks'
  | 'createDocuments'
  | 'deleteDocuments'
  | 'moveDocuments'
  | 'createFolders'
  | 'deleteFolders'
  | 'moveFolders'
  | 'updateTasks'
  | 'createWhiteboard'
  | 'getWhiteboardElements'
  | 'addWhiteboardElements'
  | 'updateWhiteboardElements'
  | 'deleteWhiteboardElements'
  | 'upload'
  | 'getCollectionSchema'
  | 'addCollectionItems'
  | 'updateCollectionItems'
  | 'deleteCollectionItems'
  | 'listTasks'
  | 'createTasks'
  | 'deleteTasks'
>;

export interface PullProgress {
  done: number;
  total: number;
  /** What the next request waits for, when the scheduler holds it back. */
  waitingFor: WaitReason | undefined;
}

export interface SyncContext {
  /** Absolute path of the mirror root. */
  root: string;
  settings: SyncSettings;
  journal: Journal;
  client: PullClient & PushClient;
  logger: Logger;
  now: () => Date;
  ownWrites: OwnWrites;
  /** Paths never synced (built-in rules and the user's patterns). */
  ignore: Ignore;
  /** Looks only (a dry run, a plan): nothing is written, not even the stat cache. */
  readOnly?: boolean;
  /** Stops the cycle between documents (SIGINT/SIGTERM, or the mirror lost: `ownership`). */
  signal?: AbortSignal;
  /** Whether this run still owns the mirror (its lock and journal); absent when it only looks. */
  ownership?: Pick<Ownership, 'check' | 'lost'>;
  onProgress?: (p: PullProgress) => void;
  /**
   * Edits saved while a long pull runs (the daemon's): the pull asks between documents whether any
   * wait, and if so lets them go first: its documents under way done and recorded, `push()` runs,
   * then the pull goes on. An edit never waits for the end of a first pull. `onSaved` tells of a
   * save as it comes in (the pull's reads may all be waiting for the budget).
   */
  editsWaiting?: { waiting(): boolean; push(): Promise<void>; onSaved(listener: () => void): () => void };
  /**
   * The media assets being downloaded beside the cycles (made by the first pull or media step that
   * needs it; closed with the session). The daemon applies what ends between its cycles.
   */
  assets?: AssetDownloads;
}

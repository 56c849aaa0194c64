// One mirror as the console shows it: what `status` reads (the daemon, changes waiting, held-back
// files, the budget, errors), the open conflicts as three versions side by side, the versions kept,
// downloads waiting for a retry and, once the daemon keeps them, the reports of the last cycles.
// Every item carries the offers of the actions that apply to it (actions.ts). The link and the API
// key are masked out of all of it before it leaves the process.
import os from 'node:os';
import path from 'node:path';
import type { StatusError, StatusRefusal, StatusWait } from '../journal/daemonStatus.js';
import type { Journal } from '../journal/index.js';
import { readRateHistory, type RateMinute } from '../journal/rateHistory.js';
import { readMirrorFile } from '../mirror/index.js';
import { readDownloadRetries, type HeldBackFile } from '../sync/index.js';
import { describeConflict, type ConflictView } from '../cli/conflicts.js';
import { describeVersion } from '../cli/history.js';
import { shellQuote } from '../cli/format.js';
import { openMirrorState } from '../cli/openMirrorState.js';
import type { LocalPendingChange, RemotePendingChange } from '../sync/index.js';
import { collectStatus } from '../cli/status.js';
import { isSpacesyncError } from '../errors.js';
import { redactValue } from '../redact.js';
import { offersFor, type ConsoleAction, type Offer } from './actions.js';
import { readActivity, type ActivityReport } from './activity.js';
import { reachability } from '../journal/daemonStatus.js';
import { recordedBlocks, threeWay, type ThreeWayRow } from './threeWay.js';

/** How many versions the mirror's history list shows, newest first. */
export const HISTORY_SHOWN = 100;

export interface DaemonView {
  running: boolean;
  pid?: number;
  host?: string;
  since?: string;
  /** A lock left by a process that is gone. */
  stale?: boolean;
  /** The last cycle that completed (it reached the space). */
  lastPoll: string | null;
  /** The last cycle that changed something, where the journal tells. */
  lastChange: string | null;
  reachable: boolean | null;
  unreachableSince: string | null;
  /** The command that starts it, when it is not running. */
  start: string | null;
  waiting: StatusWait | null;
  /** With its offers (approving its deletes). */
  refused: (StatusRefusal & { proceed: string; offers: Offer[] }) | null;
}

export type ConflictCard = Omit<ConflictView, 'diff'> & { rows: ThreeWayRow[]; offers: Offer[] };

export interface VersionSummary {
  id: number;
  at: string;
  side: 'local' | 'remote';
  path: string;
  cause: string;
  /** What it is and what changed since, as `history` says it. */
  about: string;
}

export interface BudgetView {
  /** When the daemon saved these numbers, and since when it counts. */
  savedAt: string;
  startedAt: string;
  requests: number;
  rateLimited: number;
  retries: number;
  blocksSpent: number;
  /** Each budget's use in its current window. */
  windows: Array<{ name: string; used: number; limit: number; windowMs: number }>;
  /** The last hour, a minute each, oldest first. */
  lastHour: RateMinute[];
}

export interface DownloadView {
  url: string;
  failures: number;
  notBefore: string;
  tooLarge: { size: number; maxMiB: number } | null;
  message: string;
}

export interface MirrorView {
  id: number;
  dir: string;
  name: string;
  readAt: string;
  /** The mirror could not be read (not a mirror any more, a broken config): what to do. */
  problem: { code: string; message: string } | null;
  /** Masked as `status` masks it. */
  link: string | null;
  daemon: DaemonView | null;
  documents: number;
  /** Only once the daemon keeps cycle reports in the journal. */
  activity?: ActivityReport[];
  conflicts: ConflictCard[];
  heldBack: Array<HeldBackFile & { offers: Offer[] }>;
  /** `backup`: the mirror is in backup mode, where the changes here are kept, never sent. */
  pending: { local: Array<LocalPendingChange & { offers: Offer[] }>; remote: RemotePendingChange[]; listedAt: string | null; backup: boolean };
  history: { shown: VersionSummary[]; total: number };
  budget: BudgetView | null;
  downloads: DownloadView[];
  errors: StatusError[];
  /** Requests sent without a confirmed answer. */
  unconfirmed: number;
}

/** The secrets of a mirror's config: its link's id and its API key. */
function secretsOf(dir: string): { linkId?: string; apiKey?: string } {
  try {
    const state = openMirrorState({ dir });
    state.close();
    const linkId = state.config.link ? /\/links\/([^/?#\s]+)/.exec(state.config.link)?.[1] : undefined;
    return { ...(linkId ? { linkId } : {}), ...(state.config.apiKey ? { apiKey: state.config.apiKey } : {}) };
  } catch {
    return {};
  }
}

/**
 * `value` with the mirrors' secrets masked, as `status` masks them: a link shows its host and the
 * first four characters of its id (`/links/abcd…`), an API key never shows; an id found alone is hidden.
 */
export function masked<T>(value: T, dirs: readonly string[]): T {
  const secrets = dirs.map(secretsOf);
  const keys = secrets.flatMap((s) => (s.apiKey ? [s.apiKey] : []));
  const ids = secrets.flatMap((s) => (s.linkId ? [s.linkId] : []));
  // First every `/links/<id>` is cut to its first four characters, then an id left whole anywhere goes.
  return redactValue(redactValue(value, keys), ids) as T;
}

async function conflictCard(root: string, c: Parameters<typeof describeConflict>[1], actions: readonly ConsoleAction[]): Promise<ConflictCard> {
  const { diff: _diff, ...view } = await describeConflict(root, c);
  const text = async (rel: string) => (await readMirrorFile(root, rel).catch(() => null))?.text ?? null;
  const [file, copy] = await Promise.all([text(c.path), text(c.copyPath)]);
  const rows = file !== null && copy !== null ? threeWay(file, copy, recordedBlocks(c.details)) : [];
  return { ...view, rows, offers: offersFor({ kind: 'conflict', conflict: view }, actions) };
}

/** When the sync last wrote a document's record (a document sent, pulled, moved): the newest of them. */
function lastSynced(journal: Journal): string | null {
  let newest: string | null = null;
  for (const d of journal.listDocuments()) if (d.syncedAt && (newest === null || Date.parse(d.syncedAt) > Date.parse(newest))) newest = d.syncedAt;
  return newest;
}

export async function readMirrorView(id: number, dir: string, opts: { now?: Date; actions: readonly ConsoleAction[] }): Promise<MirrorView> {
  const now = opts.now ?? new Date();
  const base: MirrorView = {
    id,
    dir,
    name: path.basename(dir) || dir,
    readAt: now.toISOString(),
    problem: null,
    link: null,
    daemon: null,
    documents: 0,
    conflicts: [],
    heldBack: [],
    pending: { local: [], remote: [], listedAt: null, backup: false },
    history: { shown: [], total: 0 },
    budget: null,
    downloads: [],
    errors: [],
    unconfirmed: 0,
  };
  let view: MirrorView;
  try {
    view = await readReadable(base, dir, now, opts.actions);
  } catch (e) {
    if (!isSpacesyncError(e)) throw e;
    view = { ...base, problem: { code: e.code, message: e.message } };
  }
  return masked(view, [dir]);
}

async function readReadable(base: MirrorView, dir: string, now: Date, actions: readonly ConsoleAction[]): Promise<MirrorView> {
  const status = await collectStatus({ dir });
  const state = openMirrorState({ dir });
  try {
    const { journal, root } = state;
    const lastPoll = status.lastPoll?.at ?? status.lastCycle?.at ?? null;
    const reach = reachability(lastPoll, status.errors);
    const activity = journal ? readActivity(journal) : undefined;
    const lastChange = status.lastChange?.at ?? (journal ? lastSynced(journal) : null);
    const records = journal ? journal.listConflicts() : [];
    const history = journal ? journal.listHistory() : [];
    const q = status.requests;
    return {
      ...base,
      dir: root,
      name: path.basename(root) || root,
      link: status.link,
      daemon: {
        ...status.daemon,
        // Named only when the daemon runs on another machine (a mirror on a shared disk), as status does.
        host: status.daemon.host !== undefined && status.daemon.host !== os.hostname() ? status.daemon.host : undefined,
        lastPoll,
        lastChange,
        reachable: reach.reachable,
        unreachableSince: reach.since,
        start: status.daemon.running ? null : (status.demoStart ?? `spacesync sync --dir ${shellQuote(root)}`),
        waiting: status.waiting,
        refused: status.refused && { ...status.refused, offers: offersFor({ kind: 'refusal', refusal: status.refused }, actions) },
      },
      documents: status.documents,
      ...(activity ? { activity } : {}),
      conflicts: await Promise.all(records.map((c) => conflictCard(root, c, actions))),
      heldBack: status.heldBack.map((file) => ({ ...file, offers: offersFor({ kind: 'heldBack', file }, actions) })),
      pending: {
        local: status.pendingLocal.map((change) => ({
          ...change,
          offers: offersFor({ kind: 'localChange', change, backup: status.mode === 'backup' }, actions),
        })),
        backup: status.mode === 'backup',
        remote: status.pendingRemote,
        listedAt: status.listedAt,
      },
      history: {
        shown: history.slice(0, HISTORY_SHOWN).map((v) => ({ id: v.id, at: v.at, side: v.side, path: v.path, cause: v.cause, about: describeVersion(v) })),
        total: history.length,
      },
      budget: q
        ? {
            savedAt: q.savedAt,
            startedAt: q.startedAt,
            requests: q.requests,
            rateLimited: q.rateLimited,
            retries: q.retries,
            blocksSpent: q.blocksSpent,
            windows: [
              { name: 'requests to the space', ...q.budgets.space },
              { name: 'requests from this address', ...q.budgets.address },
              { name: 'blocks read or written', ...q.budgets.blocks },
            ],
            lastHour: journal ? readRateHistory(journal, now) : [],
          }
        : null,
      downloads: journal
        ? readDownloadRetries(journal)
            .map((r) => ({ url: r.url, failures: r.failures, notBefore: r.notBefore, tooLarge: r.tooLarge ?? null, message: r.message }))
            .sort((a, b) => Date.parse(a.notBefore) - Date.parse(b.notBefore))
        : [],
      errors: status.errors,
      unconfirmed: status.pendingIntents,
    };
  } finally {
    state.close();
  }
}

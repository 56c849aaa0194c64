// `spacesync status`: the state of a mirror at a glance, from disk and the journal only (no request
// to the service): is a daemon running, the last successful cycle, changes waiting on either side,
// conflicts, the request budget, 429s and the last errors. `--json` for scripts.
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import type { Command } from 'commander';
import type { Wrap } from './types.js';
import {
  readDaemonStats,
  readLastCycle,
  readRefusal,
  readStatusErrors,
  readWait,
  type DaemonStats,
  type StatusError,
  type StatusRefusal,
  type StatusWait,
} from '../journal/daemonStatus.js';
import { lockPath } from '../mirror/index.js';
import {
  GIT_PUSH_STATE,
  readDownloadRetries,
  readHeldBack,
  readLastChange,
  readLastLook,
  readProblems,
  type GitPushState,
  type StandingProblem,
  findLocalChanges,
  findRemoteChanges,
  type LocalPendingChange,
  type RemotePendingChange,
} from '../sync/index.js';
import { bySide, type CycleReport } from '../core/report/cycleReport.js';
import type { HeldBackFile } from '../sync/index.js';
import { describeLink } from '../redact.js';
import { withJsonErrors, ago, byteSize, count as plural, indentedList, localTime, shellQuote } from './format.js';
import { openMirrorState } from './openMirrorState.js';
import { STATE_DIR, statePath } from '../stateDir.js';
import { demoCommand } from './ownCommand.js';
import { measureAssets, type AssetSizes } from './measureAssets.js';
import { approvable, approveCommand } from './approval.js';

interface StatusFlags {
  dir?: string;
  config?: string;
  json?: boolean;
}

export interface DaemonInfo {
  running: boolean;
  pid?: number;
  host?: string;
  since?: string;
  /** A lock left by a process that is gone (the next daemon takes it over). */
  stale?: boolean;
}

export interface StatusReport {
  dir: string;
  /** Shown masked, never whole. */
  link: string | null;
  /** A demo's folder, synced with the demo's own server (`sync` cannot reach it): the command that starts the demo on it. */
  demoStart: string | null;
  daemon: DaemonInfo;
  /** `backup`: nothing here is sent to the space (config `mode`); `pendingLocal` are then changes kept here, not sent. */
  mode: 'two-way' | 'backup';
  /** Backup mode's local changes as status words them: "changed here, not sent (backup mode)"; empty in two-way mode. */
  notSent: Array<{ path: string; change: string; state: 'changed here, not sent (backup mode)' }>;
  lastCycle: { at: string; counts: Record<string, number> } | null;
  /** The last look at the space, a quiet poll included: a daemon that polls keeps it fresh. */
  lastPoll: { at: string; scope: CycleReport['scope'] } | null;
  /** The last cycle or push that changed something, with what it changed. */
  lastChange: { at: string; changes: CycleReport['changes'] } | null;
  /** The problems standing after the last reports (held back, failing, waiting for a retry), with when each appeared. */
  problems: StandingProblem[];
  /** The last push of the git backup (`git.push`), and the commits not pushed yet. */
  gitPush: GitPushState | null;
  documents: number;
  pendingLocal: LocalPendingChange[];
  pendingRemote: RemotePendingChange[];
  /** When the listing that pendingRemote compares with was taken. */
  listedAt: string | null;
  conflicts: number;
  /** Files the last cycles held back (not UTF-8 text, or wiping their document), with what to do: for a wipe, the command that approves it. */
  heldBack: Array<HeldBackFile & { approve?: string }>;
  /** Operations sent and not confirmed; resolved at the next start. */
  pendingIntents: number;
  requests: (DaemonStats & { lastMinute: { requests: number; requestLimit: number; blocks: number; blockLimit: number } }) | null;
  errors: StatusError[];
  /** Edits the running daemon holds back for the rate limit now (null when none wait). */
  waiting: StatusWait | null;
  /** The last cycle refused by a safety check (nothing changed), and the command that goes ahead (`spacesync approve --deletes`, beside a daemon or not). */
  refused: (StatusRefusal & { proceed: string }) | null;
  otherFiles: number;
  /** Symbolic links in the mirror (to files or folders): never followed, synced or written through. */
  links: string[];
  /** The assets beside the documents, and the large binaries of the mirror. */
  assets: AssetSizes;
  /** Media assets not downloaded: waiting for their retry after a failure (the soonest one's time), or too large for assets.maxMiB. */
  assetDownloads: { retrying: number; nextTryAt: string | null; tooLarge: number };
}

const lastChangeOf = (r: CycleReport | undefined) => (r ? { at: r.finishedAt, changes: r.changes } : null);

/** `2 changes here, 1 from the space: Groceries (edited), …` */
function changeSummary(changes: CycleReport['changes']): string {
  const sides = bySide(changes).map((g) => `${plural(g.changes.length, 'change')} ${g.side === 'local' ? 'here' : 'from the space'}`);
  const names = changes.slice(0, 3).map((c) => `${c.title} (${c.kind === 'document' ? '' : `${c.kind} `}${c.action})`);
  return `${sides.join(', ')}: ${names.join(', ')}${changes.length > 3 ? ` and ${changes.length - 3} more` : ''}`;
}

/** Whether a daemon (or a one-shot sync) holds the folder now, from its lock. */
export function daemonInfo(root: string): DaemonInfo {
  let lock: { pid?: unknown; hostname?: unknown; startedAt?: unknown };
  try {
    lock = JSON.parse(readFileSync(lockPath(root), 'utf8')) as typeof lock;
  } catch {
    return { running: false };
  }
  if (typeof lock.pid !== 'number') return { running: false };
  const info: DaemonInfo = {
    running: true,
    pid: lock.pid,
    ...(typeof lock.hostname === 'string' ? { host: lock.hostname } : {}),
    ...(typeof lock.startedAt === 'string' ? { since: lock.startedAt } : {}),
  };
  if (info.host === undefined || info.host === os.hostname()) {
    try {
      process.kill(lock.pid, 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') return { ...info, running: false, stale: true };
    }
  }
  return info;
}

export async function collectStatus(flags: { dir?: string; config?: string }): Promise<StatusReport> {
  const state = openMirrorState(flags);
  try {
    const { journal, root, config } = state;
    const local = await findLocalChanges(root, journal, config.ignore);
    const remote = findRemoteChanges(journal);
    const stats = journal ? readDaemonStats(journal) : undefined;
    const counts = journal?.counts();
    const refusal = journal ? readRefusal(journal) : undefined;
    const daemon = daemonInfo(root);
    const wait = journal && daemon.running ? readWait(journal) : undefined;
    return {
      dir: root,
      link: config.link ? describeLink(config.link) : null,
      demoStart: existsSync(statePath(root, 'demoServer')) ? demoCommand(root) : null,
      daemon,
      mode: config.mode,
      notSent:
        config.mode === 'backup'
          ? local.changes.map((c) => ({ path: c.path, change: changeWords(c), state: 'changed here, not sent (backup mode)' as const }))
          : [],
      waiting: wait ?? null,
      lastCycle: journal ? (readLastCycle(journal) ?? null) : null,
      lastPoll: (journal && readLastLook(journal)) ?? null,
      lastChange: lastChangeOf(journal ? readLastChange(journal) : undefined),
      problems: journal ? readProblems(journal) : [],
      gitPush: journal?.getState<GitPushState>(GIT_PUSH_STATE) ?? null,
      documents: counts?.documents ?? 0,
      pendingLocal: local.changes,
      pendingRemote: remote.changes,
      listedAt: remote.listedAt,
      conflicts: counts?.openConflicts ?? 0,
      heldBack: (journal ? readHeldBack(journal) : []).map((h) => (approvable(h) ? { ...h, approve: approveCommand(root, { files: [h.path] }) } : h)),
      pendingIntents: counts?.pendingIntents ?? 0,
      requests: stats
        ? {
            ...stats,
            lastMinute: {
              requests: stats.budgets.space.used,
              requestLimit: stats.budgets.space.limit,
              blocks: stats.budgets.blocks.used,
              blockLimit: stats.budgets.blocks.limit,
            },
          }
        : null,
      errors: journal ? readStatusErrors(journal) : [],
      refused: refusal ? { ...refusal, proceed: proceedCommand(root, refusal) } : null,
      otherFiles: local.otherFiles,
      links: local.links,
      assets: await measureAssets(root, local.dirs, local.otherPaths),
      assetDownloads: downloadsWaiting(journal ? readDownloadRetries(journal) : []),
    };
  } finally {
    state.close();
  }
}

/**
 * The command that lets a refused cycle go ahead: approving its deletes, which a running daemon
 * takes at its next cycle; a refusal recorded before approvals existed (no key) only by --force.
 */
function proceedCommand(root: string, refusal: StatusRefusal): string {
  return refusal.key !== undefined ? approveCommand(root, { deletes: true }) : `spacesync sync --dir ${shellQuote(root)} --once --force`;
}

function downloadsWaiting(retries: ReturnType<typeof readDownloadRetries>): StatusReport['assetDownloads'] {
  const timed = retries.filter((r) => !r.tooLarge).map((r) => r.notBefore);
  return { retrying: timed.length, nextTryAt: timed.length ? timed.sort()[0]! : null, tooLarge: retries.length - timed.length };
}

const listed = <T>(items: readonly T[], show: (t: T) => string, max = 10) =>
  indentedList(items, show, { indent: ' '.repeat(18), max, more: '--json lists them all' });

/** One line of the status: its label, then what it says. */
const row = (label: string, text: string) => `  ${label.padEnd(15)} ${text}`;

/** The report as a person reads it: one line per question, details indented below. */
export function formatStatus(r: StatusReport, now = new Date()): string[] {
  const dir = shellQuote(r.dir);
  return [
    `spacesync status of ${r.dir}`,
    row('space link', r.link ?? `none configured (run \`spacesync init ${dir} --link URL\`)`),
    daemonRow(r, dir),
    ...(r.mode === 'backup' ? [row('mode', 'backup: everything from the space arrives here; nothing here is sent to it')] : []),
    ...waitingRows(r.waiting, now),
    ...lastLookRows(r, dir, now),
    ...pendingRows(r),
    ...problemRows(r, dir),
    ...requestRows(r.requests, now),
    ...refusalRows(r.refused, now),
    ...gitPushRows(r.gitPush, now),
    ...errorRows(r.errors),
    ...fileRows(r),
  ];
}

function daemonRow(r: StatusReport, dir: string): string {
  if (r.daemon.running) {
    const host = r.daemon.host && r.daemon.host !== os.hostname() ? ` on ${r.daemon.host}` : '';
    return row('daemon', `running (pid ${r.daemon.pid}${host}${r.daemon.since ? `, since ${localTime(r.daemon.since)}` : ''})`);
  }
  const start = r.demoStart
    ? `this is the demo's folder, whose server runs only with the demo: start both with \`${r.demoStart}\``
    : `start it with \`spacesync sync --dir ${dir}\``;
  return row('daemon', `not running${r.daemon.stale ? ` (a stale lock of pid ${r.daemon.pid} is left; the next sync takes it over)` : ''}; ${start}`);
}

/** Edits the daemon holds back for the rate limit now. */
function waitingRows(w: StatusReport['waiting'], now: Date): string[] {
  if (!w) return [];
  const left = Math.max(0, Math.ceil((Date.parse(w.until) - now.getTime()) / 1000));
  const budget =
    w.reason === 'retry-after' ? "the service's rate limit (it answered 429)" : w.reason === 'blocks' ? "the service's block budget" : 'the request budget';
  const what =
    w.paths.length === 0 ? 'your edits are queued' : `queued: ${w.paths.slice(0, 3).join(', ')}${w.paths.length > 3 ? ` and ${w.paths.length - 3} more` : ''}`;
  const more = left > 0 ? `about ${left} s more` : `due to end at ${localTime(w.until)}, still waiting`;
  return [row('waiting', `since ${localTime(w.since)} for ${budget}, ${more}; ${what}`)];
}

/** The last look at the space and the last change, or how to make the first pass. */
function lastLookRows(r: StatusReport, dir: string, now: Date): string[] {
  if (!r.lastPoll && !r.lastCycle) {
    return [
      row('last cycle', r.demoStart ? `never: \`${r.demoStart}\` makes the first pass` : `never: run \`spacesync sync --dir ${dir} --once\` for a first pass`),
    ];
  }
  const at = r.lastPoll?.at ?? r.lastCycle!.at;
  const lines = [row('last poll', `${localTime(at)} (${ago(at, now)}); ${plural(r.documents, 'document')} in sync`)];
  if (r.lastChange) lines.push(row('last change', `${localTime(r.lastChange.at)} (${ago(r.lastChange.at, now)}): ${changeSummary(r.lastChange.changes)}`));
  return lines;
}

const changeWords = (c: LocalPendingChange) => (c.change === 'moved' ? `moved from ${c.from}` : c.change === 'missing' ? 'deleted' : c.change);

/** The changes waiting on either side. */
function pendingRows(r: StatusReport): string[] {
  const lines: string[] = [];
  if (r.pendingLocal.length === 0) lines.push(row('local changes', 'none waiting'));
  else if (r.mode === 'backup') {
    lines.push(row('local changes', `${plural(r.pendingLocal.length, 'file')} changed here, not sent (backup mode):`));
    lines.push(...listed(r.pendingLocal, (c) => `${c.path} (${changeWords(c)})`));
    lines.push(row('', `\`spacesync revert --dir ${shellQuote(r.dir)}\` puts the space's version back (the files' bytes go to the version history)`));
  } else {
    lines.push(row('local changes', `${plural(r.pendingLocal.length, 'file')} changed here, not yet in the space:`));
    lines.push(...listed(r.pendingLocal, (c) => `${c.path} (${changeWords(c)})`));
  }
  if (!r.listedAt) lines.push(row('remote changes', 'unknown until the first cycle lists the space'));
  else if (r.pendingRemote.length === 0) lines.push(row('remote changes', `none waiting (as of the listing at ${localTime(r.listedAt)})`));
  else {
    lines.push(row('remote changes', `${plural(r.pendingRemote.length, 'document')} changed in the space, not yet here (as of ${localTime(r.listedAt)}):`));
    lines.push(...listed(r.pendingRemote, (c) => `${c.path ?? c.title} (${c.change === 'removed' ? 'purged from the trash' : c.change})`));
  }
  return lines;
}

/** What the last reports left standing (held back, failing), the conflicts and the requests not confirmed. */
function problemRows(r: StatusReport, dir: string): string[] {
  const lines: string[] = [];
  // The held-back files of an older journal's last push besides.
  // Backup mode's changes here are listed as local changes, not as files to act on.
  const held = r.problems.filter((p) => p.severity === 'held' && !p.key.startsWith('refusal:') && !p.key.startsWith('held:backup:')).map((p) => p.message);
  for (const h of r.heldBack) if (h.reason !== 'backup' && !held.includes(h.message)) held.push(h.message);
  // A file that would wipe its document says how to approve it, a whole line that works from anywhere.
  const approve = new Map(r.heldBack.flatMap((h) => (h.approve ? [[h.message, h.approve] as const] : [])));
  const shown = (m: string) => (approve.has(m) ? `${m} To send it as it is: \`${approve.get(m)}\`` : m);
  if (held.length > 0) lines.push(row('held back', `${plural(held.length, 'file')} not synced until you act:`), ...listed(held, shown));
  const failing = r.problems.filter((p) => p.severity === 'failed');
  if (failing.length > 0) {
    lines.push(row('failing', `${plural(failing.length, 'problem')} the next cycle tries again:`));
    lines.push(...listed(failing, (p) => `since ${localTime(p.since)}: ${p.message}`));
  }
  lines.push(row('conflicts', r.conflicts === 0 ? 'none' : `${r.conflicts}: see them with \`spacesync conflicts --dir ${dir}\``));
  if (r.pendingIntents > 0)
    lines.push(row('unconfirmed', `${plural(r.pendingIntents, 'request')} sent without a confirmed answer; the next sync re-reads those documents`));
  return lines;
}

function requestRows(q: StatusReport['requests'], now: Date): string[] {
  if (!q) return [row('requests', 'no counts yet (the daemon records them after each cycle)')];
  const minute = `${q.lastMinute.requests}/${q.lastMinute.requestLimit} requests and ${q.lastMinute.blocks}/${q.lastMinute.blockLimit} blocks in the last minute`;
  return [
    row(
      'requests',
      `${minute} (as of ${ago(q.savedAt, now)}); ${q.requests} since ${localTime(q.startedAt)}, ${q.rateLimited} ${q.rateLimited === 1 ? 'answer' : 'answers'} 429 (rate limited), ${plural(q.retries, 'retry', 'retries')}`,
    ),
  ];
}

/** The last cycle a safety check refused, what it would have deleted, and the command that goes ahead. */
function refusalRows(f: StatusReport['refused'], now: Date): string[] {
  if (!f) return [];
  const lines = [
    row('refused', `the cycle of ${localTime(f.at)} (${ago(f.at, now)}) was stopped by a safety check; nothing was changed:`),
    `                  ${f.message}`,
  ];
  if (f.deleteCount > 0) {
    lines.push(`                  it would have deleted ${plural(f.deleteCount, 'document')}:`);
    const shown = f.deletes.slice(0, 10);
    for (const d of shown) lines.push(`                    ${d}`);
    if (f.deleteCount > shown.length) lines.push(`                    … and ${f.deleteCount - shown.length} more`);
  }
  lines.push(`                  if that is what you want: ${f.proceed}`);
  return lines;
}

/** The last push of the git backup, and what waits on this machine. */
function gitPushRows(g: StatusReport['gitPush'], now: Date): string[] {
  if (!g) return [];
  const left = g.unpushed === null ? '' : `; ${plural(g.unpushed, 'commit')} not pushed`;
  return [
    row(
      'git push',
      g.ok
        ? `pushed ${localTime(g.at)} (${ago(g.at, now)})${left}`
        : `failed ${localTime(g.at)} (${g.message ?? 'git push failed'})${left}; tried again${g.retryAt ? ` after ${localTime(g.retryAt)}` : ''}`,
    ),
  ];
}

function errorRows(errors: StatusReport['errors']): string[] {
  if (errors.length === 0) return [row('errors', 'none')];
  return [
    row('errors', `${plural(errors.length, 'recent error')}, newest last:`),
    ...listed(errors.slice(-3), (e) => `${localTime(e.at)} ${e.code}: ${e.message}`),
  ];
}

/** The files beside the documents: assets, downloads waiting, large files, files not synced, symbolic links. */
function fileRows(r: StatusReport): string[] {
  const lines: string[] = [];
  if (r.assets.files > 0) lines.push(row('assets', `${plural(r.assets.files, 'file')} beside the documents (.assets folders), ${byteSize(r.assets.bytes)}`));
  const d = r.assetDownloads;
  if (d.retrying + d.tooLarge > 0) {
    const parts = [
      ...(d.retrying > 0 ? [`${plural(d.retrying, 'asset')} whose download failed, tried again from ${localTime(d.nextTryAt!)}`] : []),
      ...(d.tooLarge > 0 ? [`${plural(d.tooLarge, 'asset')} over assets.maxMiB (raise it to download)`] : []),
    ];
    lines.push(row('downloads', `${parts.join('; ')}; the documents keep their links to the space meanwhile`));
  }
  const big = r.assets.large;
  if (big.files > 0) {
    lines.push(
      row(
        'large files',
        `${plural(big.files, 'file')} of ${big.thresholdMiB} MiB or more, ${byteSize(big.bytes)}: a git backup keeps every version whole; consider git LFS (a .gitattributes line such as \`*.mp4 filter=lfs diff=lfs merge=lfs -text\`)`,
      ),
      ...listed(big.paths, (p) => p, 3),
    );
  }
  if (r.otherFiles > 0) lines.push(row('not synced', `${plural(r.otherFiles, 'file')} that ${r.otherFiles === 1 ? 'is' : 'are'} not .md (left as they are)`));
  if (r.links.length > 0) {
    lines.push(row('links', `${plural(r.links.length, 'symbolic link')}, never followed nor written through (what the space has there waits)`));
    lines.push(...listed(r.links, (p) => p, 5));
  }
  return lines;
}

export function registerStatus(program: Command, wrap: Wrap): void {
  program
    .command('status')
    .description('last cycle, pending changes, conflicts, budget use, errors')
    .option('--dir <dir>', 'the mirror folder (default: SPACESYNC_DIR, else the current folder; outside a mirror, every mirror installed as a service)')
    .option('--config <file>', 'config file (default DIR/.spacesync/config.json)')
    .option('--json', 'print JSON')
    .action(
      wrap(async (flags: StatusFlags) =>
        withJsonErrors(flags.json, async () => {
          if (flags.dir === undefined && flags.config === undefined && !process.env.SPACESYNC_DIR && !existsSync(STATE_DIR)) {
            // Outside a mirror with no --dir: every mirror installed as a service, one line each.
            const { installedServicesStatus } = await import('./service.js');
            const listed = installedServicesStatus(flags.json === true);
            if (listed !== undefined) {
              process.stdout.write(`${listed}\n`);
              return 0;
            }
          }
          const now = new Date();
          const report = await collectStatus(flags);
          const text = flags.json ? JSON.stringify(report, null, 2) : formatStatus(report, now).join('\n');
          process.stdout.write(`${text}\n`);
          return 0;
        }),
      ),
    );
}

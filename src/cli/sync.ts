// `spacesync sync`: brings the folder in step with the space. `--once` runs one cycle and exits
// (0 in sync, 1 error, 2 refused by a safety check, 3 conflicts,
// 4 something here held back and not sent, 128 + the signal's number when SIGINT/SIGTERM stopped
// it: 130, 143); without it, cycles run on the
// poll interval until SIGINT/SIGTERM. `--dry-run` shows what a cycle would do and changes nothing.
import { mkdirSync } from 'node:fs';
import { rootKind } from '../mirror/index.js';
import os from 'node:os';
import { Writable } from 'node:stream';
import type { Command } from 'commander';
import type { Wrap } from './types.js';
import { createProgressBar, pullPace } from './progressBar.js';
import { createCliLogger } from './cliLogger.js';
import { loadConfig, requireLink, type Config } from '../config.js';
import { parseMode } from './init.js';
import { isSpacesyncError, SpacesyncError } from '../errors.js';
import { recordStatusError, readStatusErrors, reachability } from '../journal/daemonStatus.js';
import { FILE_ONLY } from '../log.js';
import { describeLink, redactText } from '../redact.js';
import {
  planCycle,
  type PullProgress,
  type SyncSession,
  lookedAt,
  readLastLook,
  syncOnce,
  runDaemon,
  afterReport,
  GIT_PUSH_STATE,
  GitPusher,
  pushProblem,
  saveStats,
  type GitPushState,
} from '../sync/index.js';
import type { CycleReport, Problem } from '../core/report/cycleReport.js';
import { describeCyclePlan, openConfiguredSession } from './plan.js';
import { nameList, shellQuote } from './format.js';
import { describeReport, describeOutage } from './describeCycle.js';
import { conflictNotice, createNotifier, gitPushNotice, heldBackNotice, unreachableNotice } from '../console/notify.js';

interface SyncFlags {
  link?: string;
  dir?: string;
  once?: boolean;
  dryRun?: boolean;
  force?: boolean;
  config?: string;
  verbose?: boolean;
  mode?: string;
}

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${redactText(line)}\n`);

/**
 * A missing root may be an unmounted disk or a moved folder: refused, unless --force asks to create
 * it. Without a link (a missing folder has no config either) the advice is `init`, and nothing is
 * created that the next step would refuse.
 */
function checkRoot(root: string, force: boolean, hasLink: boolean): void {
  const kind = rootKind(root);
  if (kind === 'other') throw new SpacesyncError('usage', `${root} is a file, not a folder. Pass the folder to mirror into with --dir.`);
  if (kind === 'dir') return;
  if (!hasLink) {
    // Still a refusal (exit 2): the folder, with the config and link in it, may be on a disk not mounted.
    throw new SpacesyncError(
      'refused_safety',
      `The folder ${root} does not exist, so nothing was synced or created (a missing folder can be a disk that is not mounted, or a folder moved away; its config and link were inside it). Mount or restore it, pass the right --dir, or set up a new mirror there with \`spacesync init ${shellQuote(root)} --link URL\`.`,
    );
  }
  if (force) {
    mkdirSync(root, { recursive: true });
    return;
  }
  throw new SpacesyncError(
    'refused_safety',
    `The folder ${root} does not exist, so nothing was synced (a missing folder can be a disk that is not mounted). Create it, pass the right --dir, or run again with --force to create it.`,
  );
}

/** Prints a report's lines: changes and settled problems on stdout, new problems on stderr. */
function printReport(r: CycleReport, problems: { appeared: readonly Problem[]; cleared: readonly Problem[] }, idle: string | null): void {
  const lines = describeReport(r, problems, idle);
  lines.out.forEach(out);
  lines.err.forEach(err);
}

/** The pusher of the git backup (`git.push`), its failures and recoveries said once each. */
function backupPusher(session: SyncSession, config: Config, told?: (s: GitPushState) => void): GitPusher | undefined {
  if (!config.git.autoCommit || !config.git.push) return undefined;
  return new GitPusher({
    root: config.dir,
    ...(config.git.remote ? { remote: config.git.remote } : {}),
    journal: session.journal,
    logger: session.ctx.logger,
    now: session.ctx.now,
    onChange: (state, failedBefore) => {
      told?.(state);
      if (!state.ok && !failedBefore) err(`spacesync: ${pushProblem(config.dir, state).message}`);
      else if (state.ok && failedBefore) out('spacesync: the git backup is pushed again.');
    },
  });
}

/** The exit code of a run a signal stopped, as shells give it (130 for SIGINT, 143 for SIGTERM). */
const signalExit = (signal: NodeJS.Signals): number => 128 + (os.constants.signals[signal] ?? 15);

/**
 * `stoppedBy`: the signal that asked the run to stop, if one did. A stopped run is not in step
 * whatever its report holds: it says so and ends with the signal's exit code.
 */
async function runOnce(session: SyncSession, config: Config, stoppedBy: () => NodeJS.Signals | undefined): Promise<number> {
  const pusher = backupPusher(session, config);
  const bar = createProgressBar(process.stderr, pullPace(session.client.scheduler.limits));
  let last: PullProgress = { done: 0, total: 0, waitingFor: undefined };
  session.ctx.onProgress = (p) => {
    last = p;
    bar.update(p);
  };
  // Between documents the bar still shows what the budget waits for.
  const timer = process.stderr.isTTY ? setInterval(() => bar.update({ ...last, waitingFor: session.client.stats().waitingFor }), 250) : undefined;
  const startedAt = session.ctx.now().toISOString();
  try {
    const cycle = await syncOnce(session.ctx);
    const { cleared } = await afterReport(session.ctx, cycle.report, {
      looked: lookedAt('cycle'),
      autoCommit: config.git.autoCommit,
      ...(pusher ? { push: pusher } : {}),
    });
    // The bar's line is cleared (and not drawn again) before the summary, which would otherwise run on after it.
    if (timer) clearInterval(timer);
    bar.stop();
    const stopped = stoppedBy();
    // A run of its own says every problem standing once (they are news to whoever runs it).
    const lines = describeReport(
      cycle.report,
      { appeared: cycle.report.problems, cleared },
      stopped ? null : 'In step with the space: nothing to pull ({requests}).',
    );
    if (stopped && lines.out.length === 0)
      lines.out.push(`Stopped (${stopped}) before the end of the cycle: what was done is recorded; the next run goes on from there.`);
    lines.out.forEach(out);
    lines.err.forEach(err);
    // A one-shot backup (cron) is off-site when the command returns: its push is waited for.
    await pusher?.idle();
    if (stopped) return signalExit(stopped);
    const pushed = session.journal.getState<GitPushState>(GIT_PUSH_STATE);
    return cycle.exitCode === 0 && pusher && pushed?.ok === false ? 1 : cycle.exitCode;
  } finally {
    pusher?.close();
    saveStats(session.ctx, startedAt);
    if (timer) clearInterval(timer);
    bar.stop();
  }
}

/** Keys of the desktop notifications told (kept across restarts: a conflict is told once, ever). */
const NOTIFIED = 'notify.told';

/**
 * The daemon's desktop notifications: a new conflict, a file held back, the space out of reach for
 * ten minutes, a failing git push, each once, with the command that settles it.
 */
function daemonNotices(session: SyncSession, config: Config) {
  const journal = session.journal;
  const notifier = createNotifier({
    ...(config.notify !== undefined ? { enabled: config.notify } : {}),
    logger: session.ctx.logger,
    told: journal.getState<string[]>(NOTIFIED) ?? [],
    onTold: (key) => journal.setState(NOTIFIED, [...(journal.getState<string[]>(NOTIFIED) ?? []), key].slice(-500)),
  });
  const root = config.dir;
  return {
    report(r: CycleReport, appeared: readonly Problem[]): void {
      if (!notifier.enabled) return;
      // A change kept here in backup mode is the mode at work, not something to act on.
      for (const p of appeared)
        if (p.severity === 'held' && !p.key.startsWith('held:backup:'))
          void notifier.notify(heldBackNotice(root, { path: p.path, reason: p.key, message: p.message }));
      if (r.conflicts.length > 0)
        for (const c of journal.listConflicts()) if (r.conflicts.some((x) => x.copy === c.copyPath)) void notifier.notify(conflictNotice(root, c));
    },
    unreachable(): void {
      if (!notifier.enabled) return;
      const notice = unreachableNotice(root, reachability(readLastLook(journal)?.at ?? null, readStatusErrors(journal)), session.ctx.now());
      if (notice) void notifier.notify(notice);
    },
    push(state: GitPushState): void {
      if (notifier.enabled && !state.ok) void notifier.notify(gitPushNotice(root, { since: state.at, message: state.message ?? 'git push failed' }));
    },
  };
}

async function daemon(session: SyncSession, config: Config, link: string, signal: AbortSignal): Promise<number> {
  const { minSeconds, maxSeconds } = config.poll;
  const notices = daemonNotices(session, config);
  const pusher = backupPusher(session, config, (s) => notices.push(s));
  if (config.mode === 'backup')
    out(
      `spacesync: backing up ${describeLink(link)} into ${config.dir} (backup mode: nothing here is sent to the space; changes made here are kept and listed by status): the space every ${minSeconds}–${maxSeconds} s; Ctrl-C stops.`,
    );
  else out(`spacesync: syncing ${describeLink(link)} into ${config.dir}: saved files at once, the space every ${minSeconds}–${maxSeconds} s; Ctrl-C stops.`);
  const handle = runDaemon({
    ctx: session.ctx,
    pollMinMs: minSeconds * 1000,
    pollMaxMs: maxSeconds * 1000,
    debounceMs: config.debounceMs,
    autoCommit: config.git.autoCommit,
    ...(pusher ? { push: pusher } : {}),
    secrets: [link, ...(config.apiKey ? [config.apiKey] : [])],
    userWaits: (listener) => session.client.scheduler.onUserWait(listener),
    onWait: (w) => {
      const what =
        w.paths.length === 0 ? 'your edits are' : `your edit${w.paths.length === 1 ? '' : 's'} to ${nameList(w.paths)} ${w.paths.length === 1 ? 'is' : 'are'}`;
      const budget = w.reason === 'retry-after' ? "the service's rate limit" : w.reason === 'blocks' ? "the service's block budget" : 'the request budget';
      out(`spacesync: waiting ${Math.ceil(w.waitMs / 1000)} s for ${budget}; ${what} queued.`);
    },
    // Every operation's changes; a problem once when it appears and once when it clears.
    onReport: (r, problems) => {
      printReport(r, problems, null);
      notices.report(r, problems.appeared);
    },
    onError: (e, fatal) => {
      if (fatal) return;
      const message = e instanceof Error ? e.message : String(e);
      err(`spacesync: this cycle failed (${message}); trying again in ${maxSeconds} s.`);
    },
    // The space out of reach: a line when it starts and one when it ends, not one per failed look.
    onOutage: (e) => {
      const said = describeOutage(e);
      if (said) (said.stream === 'out' ? out : err)(said.line);
      if (e.kind !== 'ended') notices.unreachable();
    },
  });
  const stop = () => void handle.stop();
  signal.addEventListener('abort', stop, { once: true });
  try {
    await handle.done;
  } finally {
    signal.removeEventListener('abort', stop);
    pusher?.close();
  }
  out('spacesync: stopped.');
  return 0;
}

async function runSync(flags: SyncFlags): Promise<number> {
  const config = loadConfig({
    flags: {
      ...(flags.link !== undefined ? { link: flags.link } : {}),
      ...(flags.dir !== undefined ? { dir: flags.dir } : {}),
      ...(flags.config !== undefined ? { config: flags.config } : {}),
      ...(flags.verbose ? { verbose: true } : {}),
    },
  });
  if (flags.mode !== undefined) config.mode = parseMode(flags.mode);
  // The folder first: a missing one also hides its config (and the link in it), and is the real problem.
  checkRoot(config.dir, flags.force === true && flags.dryRun !== true, config.link !== undefined);
  const link = requireLink(config);
  const dryRun = flags.dryRun === true;
  const secrets = [link, ...(config.apiKey ? [config.apiKey] : [])];
  // The command tells the user what happens in its own lines; the logger keeps the details in
  // .spacesync/logs/ (not for a dry run, which writes nothing) and shows warnings on the terminal.
  const log = createCliLogger({
    root: config.dir,
    level: config.log.level,
    file: config.log.file && !dryRun,
    verbose: flags.verbose === true,
    secrets,
    ...(dryRun && !flags.verbose ? { terminal: new Writable({ write: (_c, _e, cb) => cb() }) } : {}),
  });
  const logger = log.logger;
  const abort = new AbortController();
  const session = await openConfiguredSession(config, link, logger, { readOnly: flags.dryRun === true, force: flags.force === true, signal: abort.signal });
  // The first SIGINT/SIGTERM stops: waits end at once, a request already sent finishes (or times
  // out) and is recorded. The second ends the process at once: the journal is written in
  // transactions and files by rename, and the intents of requests without a recorded answer make
  // the next run read their documents again.
  let stoppedBy: NodeJS.Signals | undefined;
  const stop = (signal: NodeJS.Signals) => {
    if (!abort.signal.aborted) {
      stoppedBy = signal;
      if (!dryRun)
        out(`spacesync: stopping (${signal}): a request already sent is waited for; ${signal === 'SIGINT' ? 'Ctrl-C' : signal} again stops at once.`);
      abort.abort();
      return;
    }
    out('spacesync: stopped at once; the next run completes what was under way.');
    session.close();
    log.close();
    process.exit(signalExit(signal));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    if (dryRun) {
      const plan = await planCycle(session.ctx);
      out(`Dry run: nothing was changed (${plan.reads} requests to look at the space).`);
      describeCyclePlan(plan).forEach(out);
      return plan.refusal ? 2 : 0;
    }
    if (flags.once) return await runOnce(session, config, () => stoppedBy);
    return await daemon(session, config, link, abort.signal);
  } catch (e) {
    // main() prints the error's message; the log file keeps it with its details, status shows it.
    logger.error({ ...FILE_ONLY, err: e }, 'sync stopped by an error');
    if (isSpacesyncError(e) && !dryRun) recordStatusError(session.journal, { at: session.ctx.now(), code: e.code, message: e.message }, secrets);
    throw e;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    session.close();
    log.close();
  }
}

export function registerSync(program: Command, wrap: Wrap): void {
  program
    .command('sync')
    .description('two-way sync between the space and the folder (a daemon unless --once)')
    .option('--link <url>', 'connection link (or SPACESYNC_LINK)')
    .option('--dir <dir>', 'the mirror folder (default: SPACESYNC_DIR, else the current folder)')
    .option('--once', 'run one full cycle and exit (0 in sync, 1 error, 2 refused, 3 conflicts, 4 something held back, not sent, 130/143 stopped by a signal)')
    .option('--dry-run', 'show what a cycle would do, change nothing')
    .option('--force', 'override the safety checks (mass delete, empty root)')
    .option('--config <file>', 'config file (default DIR/.spacesync/config.json)')
    .option('--verbose', 'log debug details')
    .option('--mode <mode>', 'this run only: "backup" (nothing is sent) or "two-way"; the config\'s "mode" otherwise')
    .action(wrap(async (flags: SyncFlags) => runSync(flags)));
}

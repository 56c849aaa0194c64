// `spacesync plan`: what a cycle would do, changing nothing: every slice's plan (sync/cycle/slices.ts: planCycle)
// — the requests the push would send in the order it sends them, what each kind of content would
// change on either side, every file it would write, move or remove, what it holds back and why, and
// any refusal. `spacesync sync --dry-run` prints the same.
import type { Command } from 'commander';
import { withJsonErrors, indentedList } from './format.js';
import type { Wrap } from './types.js';
import { loadConfig, requireLink, type Config } from '../config.js';
import { createLogger, type Logger } from '../log.js';
import { Writable } from 'node:stream';
import { openSyncSession, planCycle, summarizePullPlan, type CyclePlan, type SyncSession } from '../sync/index.js';
import type { Change } from '../core/report/cycleReport.js';

interface PlanFlags {
  dir?: string;
  config?: string;
  json?: boolean;
  link?: string;
}

const out = (line: string) => process.stdout.write(`${line}\n`);
const listed = (items: readonly string[]) => indentedList(items, (x) => x, { indent: '  ', max: 20 });

/** The plan as scripts read it: the push's requests and the pull's files (as before), and every slice's changes and files. */
export function planJson(plan: CyclePlan) {
  const p = plan.push;
  return {
    refused: plan.refusal,
    changes: plan.changes,
    files: plan.files,
    folders: plan.folders,
    problems: plan.problems.map(({ path, severity, message }) => ({ path, severity, message })),
    reads: plan.reads,
    push: {
      refused: p.refused,
      requests: plan.requests.map((r) => ({ ...r, blocks: p.steps.find((s) => s.describe === r.describe)?.blocks ?? 0 })),
      reads: p.steps.filter((s) => s.method === 'GET').map((s) => s.describe),
      conflicts: plan.conflicts,
      problems: p.problems,
      heldBack: p.heldBack,
      pendingIntents: p.pendingIntents,
    },
    pull: plan.pull ? summarizePullPlan(plan.pull) : null,
  };
}

const WORDS: Record<string, string> = {
  created: 'new',
  updated: 'edited',
  renamed: 'renamed',
  moved: 'moved',
  deleted: 'deleted',
  uploaded: 'uploaded',
  downloaded: 'downloaded',
  completed: 'done',
  purged: 'purged',
};
const what = (c: Change) =>
  `${c.kind === 'task' ? `"${c.title}"` : c.kind === 'document' ? c.title : c.path} (${c.kind === 'document' ? '' : `${c.kind} `}${WORDS[c.action] ?? c.action})`;

/** The lines of a cycle's plan for a person: every slice's, in the order the cycle runs them. */
export function describeCyclePlan(plan: CyclePlan): string[] {
  const lines: string[] = [];
  if (plan.refusal) lines.push(`A real run would stop here, sending and writing nothing: ${plan.refusal.message}`);
  if (plan.pendingIntents > 0)
    lines.push(`${plan.pendingIntents} request(s) of an interrupted run are checked first: their documents are read again and merged (nothing is sent twice).`);
  lines.push(...plan.notes);
  if (plan.refusal) return lines;
  if (plan.requests.length === 0) lines.push('Nothing to send: no change here needs the space.');
  else {
    lines.push(`Would send ${plan.requests.length} request${plan.requests.length === 1 ? '' : 's'}, in this order:`);
    plan.requests.forEach((r, i) => lines.push(`  ${i + 1}. ${r.describe}`));
  }
  const sections: Array<[string, string[]]> = [
    ['send (changed here)', plan.changes.filter((c) => c.side === 'local').map(what)],
    ['bring here (changed in the space)', plan.changes.filter((c) => c.side === 'remote').map(what)],
    ["keep as conflicts (the space's version stays, yours goes to a copy beside the file)", plan.conflicts],
    ['create folders', plan.folders.create],
    ['move folders', plan.folders.move.map((m) => `${m.from} → ${m.to}`)],
    ['remove folders (when nothing else is in them)', plan.folders.remove],
    ['write files', plan.files.write],
    ['move files', plan.files.move.map((m) => `${m.from} → ${m.to}`)],
    ['remove files (kept in .spacesync/purged/ or the version history)', plan.files.remove],
    ['hold back (neither sent nor written over)', plan.problems.filter((p) => p.severity === 'held' && !p.key.startsWith('refusal:')).map((p) => p.message)],
  ];
  const busy = sections.filter(([, items]) => items.length > 0);
  if (busy.length === 0) lines.push('Nothing to write: the folder is in step with the space.');
  for (const [title, items] of busy) {
    lines.push(`Would ${title} (${items.length}):`);
    lines.push(...listed(items));
  }
  return lines;
}

/**
 * A session with the config's settings, the one a run and a plan open alike: the plan checks what
 * the run would (its limits on deletes and assets, the mode, the versions kept). `readOnly` for a
 * plan or a dry run.
 */
export function openConfiguredSession(
  config: Config,
  link: string,
  logger: Logger,
  opts: { readOnly: boolean; force?: boolean; signal?: AbortSignal },
): Promise<SyncSession> {
  return openSyncSession({
    root: config.dir,
    link,
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    logger,
    readOnly: opts.readOnly,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ignore: config.ignore,
    budget: config.budget,
    settings: {
      maxDeletePercent: config.maxDeletePercent,
      fullScanMinutes: config.poll.fullScanMinutes,
      trashRetentionDays: config.trashRetentionDays,
      force: opts.force === true,
      // Off only to measure what the stat cache saves (the benchmarks).
      statCache: process.env.SPACESYNC_STAT_CACHE !== 'off',
      versions: config.versions,
      assets: config.assets,
      mode: config.mode,
    },
  });
}

async function runPlan(flags: PlanFlags): Promise<number> {
  const config = loadConfig({
    flags: {
      ...(flags.dir !== undefined ? { dir: flags.dir } : {}),
      ...(flags.config !== undefined ? { config: flags.config } : {}),
      ...(flags.link !== undefined ? { link: flags.link } : {}),
    },
  });
  const link = requireLink(config);
  const logger = createLogger({ level: 'silent', secrets: [link], destination: new Writable({ write: (_c, _e, cb) => cb() }) });
  const session = await openConfiguredSession(config, link, logger, { readOnly: true });
  try {
    const plan = await planCycle(session.ctx);
    if (flags.json) out(JSON.stringify(planJson(plan), null, 2));
    else {
      out(`Plan for ${config.dir} (nothing was changed; ${plan.reads} requests to look at the space):`);
      describeCyclePlan(plan).forEach(out);
    }
    return plan.refusal ? 2 : 0;
  } finally {
    session.close();
  }
}

export function registerPlan(program: Command, wrap: Wrap): void {
  program
    .command('plan')
    .description('print what a sync cycle would do, changing nothing')
    .option('--dir <dir>', 'the mirror folder (default: SPACESYNC_DIR, else the current folder)')
    .option('--link <url>', 'connection link (or SPACESYNC_LINK)')
    .option('--config <file>', 'config file (default DIR/.spacesync/config.json)')
    .option('--json', 'print JSON')
    .action(wrap(async (flags: PlanFlags) => withJsonErrors(flags.json, () => runPlan(flags))));
}

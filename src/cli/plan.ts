// `spacesync plan`: what a cycle would do, changing nothing — the requests the push would send, in
// the order the cycle sends them, what it holds back and why, and what the pull would write.
// `spacesync sync --dry-run` prints the same.
import type { Command } from 'commander';
import { withJsonErrors } from './jsonError.js';
import type { Wrap } from './types.js';
import { loadConfig, requireLink } from '../config.js';
import { createLogger } from '../log.js';
import { Writable } from 'node:stream';
import { describePull, listRemote, openSyncSession, type PullDryRun, type SyncContext } from '../sync/index.js';
import { pushLocal, type PushResult } from '../sync/index.js';

interface PlanFlags {
  dir?: string;
  config?: string;
  json?: boolean;
  link?: string;
}

export interface CyclePlan {
  push: PushResult;
  pull: PullDryRun | null;
}

const out = (line: string) => process.stdout.write(`${line}\n`);

/** The push's plan (requests, problems, refusal) and, unless refused, the pull's. Reads only. */
export async function planCycle(ctx: SyncContext): Promise<CyclePlan> {
  const push = await pushLocal(ctx, {
    dryRun: true,
    listing: async () => {
      const s = await listRemote(ctx);
      return { documents: s.documents, placements: s.placements, folders: s.folders };
    },
  });
  if (push.plan.refused) return { push, pull: null };
  return { push, pull: await describePull(ctx) };
}

export function pushPlanJson(push: PushResult) {
  const p = push.plan;
  return {
    refused: p.refused,
    requests: p.steps.filter((s) => s.method !== 'GET').map((s) => ({ method: s.method, path: s.path, blocks: s.blocks, describe: s.describe })),
    reads: p.steps.filter((s) => s.method === 'GET').map((s) => s.describe),
    conflicts: p.tasks.filter((t) => (t.file?.merge.conflicts.length ?? 0) > 0).map((t) => t.next.path),
    problems: p.problems,
    heldBack: p.heldBack,
    pendingIntents: p.pendingIntents,
  };
}

/** Lines of the push's plan for a person. */
export function describePushPlan(push: PushResult): string[] {
  const p = push.plan;
  const lines: string[] = [];
  if (p.refused) {
    lines.push(`A real run would stop here, sending nothing: ${p.refused.message}`);
    return lines;
  }
  if (p.pendingIntents > 0)
    lines.push(`${p.pendingIntents} request(s) of an interrupted run are checked first: their documents are read again and merged (nothing is sent twice).`);
  const writes = p.steps.filter((s) => s.method !== 'GET');
  if (writes.length === 0) lines.push('Nothing to send: no change here needs the space.');
  else {
    lines.push(`Would send ${writes.length} request${writes.length === 1 ? '' : 's'}, in this order:`);
    p.steps.forEach((s, i) => lines.push(`  ${i + 1}. ${s.describe}`));
  }
  const conflicts = pushPlanJson(push).conflicts;
  if (conflicts.length > 0) {
    lines.push(
      `Would keep ${conflicts.length} conflict${conflicts.length === 1 ? '' : 's'} (the space's version stays, yours goes to a copy beside the file):`,
    );
    for (const c of conflicts) lines.push(`  ${c}`);
  }
  if (p.heldBack.length > 0) {
    lines.push(`Held back (${p.heldBack.length}; neither sent nor written over):`);
    for (const h of p.heldBack) lines.push(`  ${h.message}`);
  }
  if (p.problems.length > 0) {
    lines.push(`Not sent (${p.problems.length}; the files keep these changes):`);
    for (const pr of p.problems) lines.push(`  ${pr.path ? `${pr.path}: ` : ''}${pr.message}`);
  }
  return lines;
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
  const session = await openSyncSession({
    root: config.dir,
    link,
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    logger,
    readOnly: true,
    ignore: config.ignore,
    budget: config.budget,
    settings: { maxDeletePercent: config.maxDeletePercent, fullScanMinutes: config.poll.fullScanMinutes, trashRetentionDays: config.trashRetentionDays },
  });
  try {
    const plan = await planCycle(session.ctx);
    if (flags.json) {
      out(JSON.stringify({ push: pushPlanJson(plan.push), pull: plan.pull }, null, 2));
    } else {
      out(`Plan for ${config.dir} (nothing was changed):`);
      for (const line of describePushPlan(plan.push)) out(line);
      if (plan.pull) {
        const pull = plan.pull;
        const counts = [`${pull.create.length} new file(s)`, `${pull.update.length} updated`, `${pull.move.length} moved`, `${pull.purge.length} purged`];
        out(`From the space: ${counts.join(', ')}${pull.createFolders.length ? `, ${pull.createFolders.length} new folder(s)` : ''}.`);
      }
    }
    return plan.push.plan.refused ? 2 : 0;
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

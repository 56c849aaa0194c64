// What a cycle's pull would do, changing nothing: the `--dry-run` and `plan` answer. It reads the
// same plan the cycle runs (readPullPlan: it lists, reads no document, writes no file) and lists
// its steps by kind for a person.
import type { LocalChange, PullPlan } from '../../../core/pull/PullPlan.js';
import type { SyncContext } from '../../context/index.js';
import type { SafetyRefusal } from '../../../core/push/safety.js';
import { readPullPlan } from './readPullPlan.js';
import { assertRoot } from '../../../mirror/index.js';

/** The plan's steps by kind, paths sorted: what the dry run prints. */
export interface PullPlanSummary {
  createFolders: string[];
  moveFolders: Array<{ from: string; to: string }>;
  /** Directories of folders gone from the space (removed when nothing else is left in them). */
  removeFolders: string[];
  /** New files. */
  create: string[];
  /** Files to bring up to date (only their changed blocks are rewritten). */
  update: string[];
  move: Array<{ from: string; to: string }>;
  /** Files moved to .spacesync/purged/. */
  purge: string[];
  /** Files changed locally: left as they are. */
  keep: Array<{ path: string; change: LocalChange }>;
  /** Documents that wait for the next cycle: their path is ignored, or another file keeps it. */
  blocked: Array<{ path: string; reason: string }>;
}

export interface PullDryRun extends PullPlanSummary {
  refused: SafetyRefusal | null;
  requests: number;
  /** The plan itself, step by step with reasons (null when refused). */
  plan: PullPlan | null;
}

const sorted = (xs: string[]) => xs.sort();

export function summarizePullPlan(plan: PullPlan | null): PullPlanSummary {
  const f = plan?.folders ?? [];
  const d = plan?.documents ?? [];
  return {
    createFolders: sorted(f.flatMap((s) => (s.kind === 'create' ? [s.path] : []))),
    moveFolders: f.flatMap((s) => (s.kind === 'move' ? [{ from: s.from, to: s.to }] : [])),
    removeFolders: sorted(f.flatMap((s) => (s.kind === 'remove' ? [s.path] : []))),
    create: sorted(d.flatMap((s) => (s.kind === 'write' ? [s.path] : []))),
    update: sorted(d.flatMap((s) => (s.kind === 'splice' ? [s.path] : []))),
    move: d.flatMap((s) => (s.kind === 'move' && s.reason !== 'found_there' ? [{ from: s.from, to: s.to }] : [])),
    purge: sorted(d.flatMap((s) => (s.kind === 'purge' ? [s.path] : []))),
    keep: d.flatMap((s) => (s.kind === 'keep' ? [{ path: s.path, change: s.change }] : [])),
    blocked: d.flatMap((s) => (s.kind === 'blocked' ? [{ path: s.path, reason: s.reason }] : [])),
  };
}

export async function describePull(ctx: SyncContext): Promise<PullDryRun> {
  const before = ctx.client.stats().total;
  await assertRoot(ctx.root);
  const reading = await readPullPlan(ctx);
  return { refused: reading.refused, requests: ctx.client.stats().total - before, ...summarizePullPlan(reading.plan), plan: reading.plan };
}

// `spacesync conflicts`: the conflicts the daemon kept (the space's version stays in the document,
// the local version is a copy beside it, never synced) with the blocks that differ, and
// `spacesync conflicts resolve <copy|id> [--keep mine|space|both]` to settle one (settleConflict.ts).
import type { Command } from 'commander';
import type { Wrap } from './types.js';
import { SpacesyncError } from '../errors.js';
import type { ConflictRecord } from '../journal/index.js';
import { readMirrorFile } from '../mirror/index.js';
import { findConflict, KEEPS, settleConflict, type Keep } from './settleConflict.js';
import { diffBlocks, fileBlocks, formatDiff, type DiffBlock, type DiffLine } from './blockDiff.js';
import { withJsonErrors, shellQuote, ago, localTime } from './format.js';
import { openMirrorState } from './openMirrorState.js';

interface ConflictsFlags {
  dir?: string;
  config?: string;
  json?: boolean;
  all?: boolean;
}

interface ResolveFlags {
  dir?: string;
  config?: string;
  deleteCopy?: boolean;
  keep?: string;
}

/** A conflict as `spacesync conflicts` shows it: the journal's record, whether its files exist, and how they differ. */
export type ConflictView = Omit<ConflictRecord, 'details'> & {
  fileExists: boolean;
  copyExists: boolean;
  /** Blocks only in the file (`removed`: the space's side) and only in the copy (`added`: yours), with context. */
  diff: Array<{ op: DiffLine['op'] } & DiffBlock>;
  /** The title changed on both sides: the space's stayed, yours names the copy. */
  title?: { local: string; remote: string };
};

/** The titles of a conflict's record, when the title was what conflicted. */
function titleOf(details: unknown): { local: string; remote: string } | undefined {
  const t = (details as { title?: { local?: unknown; remote?: unknown } } | null)?.title;
  return t && typeof t.local === 'string' && typeof t.remote === 'string' ? { local: t.local, remote: t.remote } : undefined;
}

async function readText(root: string, rel: string): Promise<string | null> {
  try {
    return (await readMirrorFile(root, rel))?.text ?? null;
  } catch {
    return null;
  }
}

export async function describeConflict(root: string, c: ConflictRecord): Promise<ConflictView> {
  const file = await readText(root, c.path);
  const copy = await readText(root, c.copyPath);
  const diff = file !== null && copy !== null ? diffBlocks(fileBlocks(file), fileBlocks(copy)) : [];
  const title = titleOf(c.details);
  return {
    id: c.id,
    docId: c.docId,
    path: c.path,
    copyPath: c.copyPath,
    createdAt: c.createdAt,
    resolvedAt: c.resolvedAt,
    fileExists: file !== null,
    copyExists: copy !== null,
    diff: diff.map((l) => ({ op: l.op, ...l.block })),
    ...(title ? { title } : {}),
  };
}

function formatConflict(v: ConflictView, dir: string, now: Date): string[] {
  const lines = [`#${v.id}  ${v.path}  (${localTime(v.createdAt)}, ${ago(v.createdAt, now)}${v.resolvedAt ? `; resolved ${localTime(v.resolvedAt)}` : ''})`];
  lines.push(`    your version: ${v.copyPath}${v.copyExists ? '' : ' (deleted)'}`);
  if (v.title)
    lines.push(
      `    The title changed on both sides: the document keeps the space's "${v.title.remote}"; yours, "${v.title.local}", names the copy. Rename the file to take yours.`,
    );
  if (!v.copyExists && !v.resolvedAt) lines.push(`    The copy is gone: mark this done with \`spacesync conflicts resolve ${v.id} --dir ${dir}\`.`);
  else if (!v.fileExists) lines.push("    The document's file is gone (moved or deleted); compare the copy with the document by hand.");
  else {
    const shown = formatDiff(v.diff.map(({ op, ...block }) => ({ op, block })));
    if (shown.length === 0) lines.push('    The copy and the file now hold the same blocks: nothing is left to merge.');
    else lines.push("    (- only in the file: the space's version; + only in your copy)", ...shown.map((l) => `    ${l}`));
  }
  return lines;
}

async function listConflicts(flags: ConflictsFlags): Promise<number> {
  const state = openMirrorState(flags);
  try {
    const { journal, root } = state;
    const records = journal ? journal.listConflicts({ includeResolved: flags.all === true }) : [];
    const views = await Promise.all(records.map((c) => describeConflict(root, c)));
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ dir: root, conflicts: views }, null, 2)}\n`);
      return 0;
    }
    const dir = shellQuote(root);
    const out = (line: string) => process.stdout.write(`${line}\n`);
    if (views.length === 0) {
      out(`No ${flags.all ? '' : 'open '}conflicts in ${root}.`);
      return 0;
    }
    out(
      `${views.length} ${flags.all ? '' : 'open '}conflict${views.length === 1 ? '' : 's'} in ${root}. The space's version stayed in each document; yours is in the copy beside it, never synced.`,
    );
    const now = new Date();
    for (const v of views) {
      out('');
      for (const line of formatConflict(v, dir, now)) out(line);
    }
    out('');
    out("To settle one, keep your version (it replaces the file), the space's (the copy goes) or both (the copy becomes a note of its own):");
    out(`  spacesync conflicts resolve <number or copy path> --dir ${dir} --keep mine|space|both`);
    out('or copy what you want from the copy into the file (it syncs as usual), then resolve it without --keep.');
    return 0;
  } finally {
    state.close();
  }
}

async function resolveConflict(which: string, flags: ResolveFlags): Promise<number> {
  if (flags.keep !== undefined && !(KEEPS as readonly string[]).includes(flags.keep))
    throw new SpacesyncError('usage', `--keep takes mine, space or both (got "${flags.keep}").`);
  if (flags.deleteCopy && flags.keep !== undefined && flags.keep !== 'space')
    throw new SpacesyncError('usage', `--delete-copy is --keep space: give one of them, not --delete-copy with --keep ${flags.keep}.`);
  const keep = (flags.keep as Keep | undefined) ?? (flags.deleteCopy ? 'space' : undefined);
  const state = openMirrorState(flags, { write: true });
  try {
    const { journal, root } = state;
    const dir = shellQuote(root);
    const found = journal ? findConflict(journal, root, which) : undefined;
    if (!journal || !found) {
      throw new SpacesyncError(
        'usage',
        `No conflict "${which}" in ${root}. List them with \`spacesync conflicts --dir ${dir}\` and pass a number or a copy's path from that list.`,
      );
    }
    const out = (line: string) => process.stdout.write(`${line}\n`);
    const settled = await settleConflict({ root, journal, conflict: found, ...(keep ? { keep } : {}) });
    for (const line of settled.said) out(line);
    if (keep === undefined && (await readText(root, found.copyPath)) !== null) {
      out(
        `The copy ${found.copyPath} is kept (it is never synced); delete it when you no longer need it, or run again with --keep space (or --keep mine, --keep both).`,
      );
    }
    return 0;
  } finally {
    state.close();
  }
}

export function registerConflicts(program: Command, wrap: Wrap): void {
  const conflicts = program
    .command('conflicts')
    .description('list conflict copies and the blocks that differ; `conflicts resolve` marks one done')
    .option('--dir <dir>', 'the mirror folder (default: SPACESYNC_DIR, else the current folder)')
    .option('--config <file>', 'config file (default DIR/.spacesync/config.json)')
    .option('--all', 'include resolved conflicts')
    .option('--json', 'print JSON')
    .action(wrap(async (flags: ConflictsFlags) => withJsonErrors(flags.json, () => listConflicts(flags))));
  conflicts
    .command('resolve')
    .description("mark a conflict resolved, by its number or its copy's path")
    .argument('<copy-or-number>', "the conflict copy's path, or the conflict's number from the list")
    .option('--dir <dir>', 'the mirror folder (default: SPACESYNC_DIR, else the current folder)')
    .option('--config <file>', 'config file (default DIR/.spacesync/config.json)')
    .option('--keep <side>', 'mine: your copy replaces the file (the next sync sends it); space: the copy is deleted; both: the copy becomes a note of its own')
    .option('--delete-copy', 'delete the conflict copy as well (the same as --keep space)')
    .action(wrap(async (which: string, _flags: ResolveFlags, cmd: Command) => resolveConflict(which, cmd.optsWithGlobals<ResolveFlags>())));
}

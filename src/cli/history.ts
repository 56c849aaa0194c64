// `spacesync history [FILE]`: the versions the sync kept of what it replaced or deleted, newest
// first: a file's old bytes it replaced (local) and a document's blocks before the push deleted or
// overwrote them (remote), each with what changed. `spacesync restore` writes one back.
import path from 'node:path';
import type { Command } from 'commander';
import type { Wrap } from './types.js';
import type { HistoryRecord } from '../journal/index.js';
import { versionsOf } from '../sync/index.js';
import { withJsonErrors, localTime } from './format.js';
import { openMirrorState } from './openMirrorState.js';

interface HistoryFlags {
  dir?: string;
  config?: string;
  json?: boolean;
}

/** FILE as the user typed it (from here, or from the mirror folder) → its path in the mirror. */
export function mirrorPath(root: string, file: string): string {
  const abs = path.resolve(file);
  const rel = path.relative(root, abs);
  const inside = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  return (inside ? rel : file).split(path.sep).join('/').replace(/^\.\//, '');
}

const CAUSES: Record<string, string> = {
  merge: "your file, before the space's changes were merged into it",
  conflict: "your file, before a conflict put the space's version in it",
  restore: 'the file, before a restore wrote another version over it',
  push: "the space's blocks, before the push changed them",
  revert: "the file as it was changed here, before `spacesync revert` put the space's version back (or took the file out of the folder)",
};

export function describeVersion(v: HistoryRecord): string {
  if (v.cause === 'trash') return `the document, as it went to the trash (its file to Trash/); restoring it moves the file back to "${v.path}"`;
  const s = v.summary;
  const changed =
    [s.edited ? `${s.edited} edited` : '', s.added ? `${s.added} added` : '', s.removed ? `${s.removed} removed` : ''].filter(Boolean).join(', ') ||
    'no block changed';
  return `${CAUSES[v.cause] ?? v.cause}${v.request ? ` (${v.request})` : ''}: blocks ${changed} since`;
}

/** A version as `--json` shows it: the blocks of a remote version only where the push changed them. */
export function versionJson(v: HistoryRecord) {
  const { blocks, ...rest } = v;
  return { version: v.id, ...rest, changedBlocks: (blocks ?? []).filter((b) => b.change !== undefined) };
}

async function runHistory(file: string | undefined, flags: HistoryFlags): Promise<number> {
  const state = openMirrorState(flags);
  try {
    const rel = file === undefined ? undefined : mirrorPath(state.root, file);
    const list = !state.journal ? [] : rel === undefined ? state.journal.listHistory() : versionsOf(state.journal, rel);
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ file: rel ?? null, versions: list.map(versionJson) }, null, 2)}\n`);
      return 0;
    }
    if (list.length === 0) {
      process.stdout.write(
        `No versions${rel ? ` of "${rel}"` : ''}: the sync has replaced or deleted nothing${rel ? ' of it' : ''} since the history began (or retention pruned it).\n`,
      );
      return 0;
    }
    const lines = [
      `${list.length} version${list.length === 1 ? '' : 's'}${rel ? ` of "${rel}"` : ''}, newest first (restore one with \`spacesync restore FILE --version N\`):`,
    ];
    for (const v of list) {
      lines.push(`  ${String(v.id).padStart(4)}  ${localTime(v.at)}  ${v.side === 'local' ? 'local ' : 'remote'}  ${v.path}`);
      lines.push(`        ${describeVersion(v)}${v.versionFile ? `; kept in ${v.versionFile}` : ''}`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    state.close();
  }
}

export function registerHistory(program: Command, wrap: Wrap): void {
  program
    .command('history [file]')
    .description('versions the sync kept of what it replaced or deleted (a file, or the whole mirror), newest first')
    .option('--dir <dir>', 'the mirror folder (default: SPACESYNC_DIR, else the current folder)')
    .option('--config <file>', 'config file (default DIR/.spacesync/config.json)')
    .option('--json', 'print JSON')
    .action(wrap(async (file: string | undefined, flags: HistoryFlags) => withJsonErrors(flags.json, () => runHistory(file, flags))));
}

// `spacesync restore FILE [--version N | --at TIME] [--dry-run]`: writes a version from the history
// back into the file; the next cycle sends it as an ordinary edit. A trashed document's file comes
// back out of Trash/ first (to where it was, when FILE is its path in Trash/); with nothing else to
// restore (the document as it went to the trash), that move is all.
import type { Command } from 'commander';
import type { Wrap } from './types.js';
import { SpacesyncError } from '../errors.js';
import { restoreVersion } from '../sync/index.js';
import { describeVersion, mirrorPath } from './history.js';
import { localTime } from './format.js';
import { openMirrorState } from './openMirrorState.js';

interface RestoreFlags {
  dir?: string;
  config?: string;
  version?: string;
  at?: string;
  dryRun?: boolean;
}

async function runRestore(file: string, flags: RestoreFlags): Promise<number> {
  if (flags.version !== undefined && flags.at !== undefined) throw new SpacesyncError('usage', 'Give --version or --at, not both.');
  const version = flags.version === undefined ? undefined : Number(flags.version);
  if (version !== undefined && !Number.isInteger(version))
    throw new SpacesyncError('usage', `--version takes a version's number as \`spacesync history\` lists it (got "${flags.version}").`);
  const at = flags.at === undefined ? undefined : new Date(flags.at);
  if (at !== undefined && Number.isNaN(at.getTime()))
    throw new SpacesyncError('usage', `--at takes a time such as 2026-11-24T16:40:00Z or "2026-11-24 16:40" (got "${flags.at}").`);
  const state = openMirrorState(flags, { write: !flags.dryRun });
  try {
    const rel = mirrorPath(state.root, file);
    if (!state.journal) throw new SpacesyncError('usage', `"${rel}" has no versions: this folder was never synced.`);
    const r = await restoreVersion({
      root: state.root,
      journal: state.journal,
      settings: { versions: state.config.versions },
      now: () => new Date(),
      path: rel,
      ...(version !== undefined ? { version } : {}),
      ...(at ? { at } : {}),
      dryRun: flags.dryRun === true,
    });
    const v = r.version;
    const out = (line: string) => process.stdout.write(`${line}\n`);
    if (v.cause === 'trash') {
      // The document as it went to the trash: its file only moves back.
      if (flags.dryRun) {
        out(`Dry run: would move "${r.fromTrash}" back to "${r.path}" (out of the trash); the next sync would take its document out of the space's trash.`);
        return 0;
      }
      out(
        `Moved "${r.fromTrash}" back to "${r.path}" (out of the trash, as it went there ${localTime(v.at)}). The next sync takes its document out of the space's trash into that folder.`,
      );
      return 0;
    }
    const what = `version ${v.id} (${localTime(v.at)}: ${describeVersion(v)})`;
    if (flags.dryRun) {
      out(`Dry run: would ${r.fromTrash ? `move "${r.fromTrash}" back to "${r.path}" (out of the trash) and ` : ''}write ${what} into "${r.path}":`);
      out(r.text);
      return 0;
    }
    const beside = r.files.length > 0 ? `, with ${r.files.map((f) => `"${f}"`).join(', ')} it links written back` : '';
    out(
      `Restored "${r.path}" to ${what}${r.fromTrash ? `, moved back from "${r.fromTrash}"` : ''}${beside}. The next sync sends it as an ordinary edit; what the file held is itself a version now (\`spacesync history "${r.path}"\`).`,
    );
    return 0;
  } finally {
    state.close();
  }
}

export function registerRestore(program: Command, wrap: Wrap): void {
  program
    .command('restore <file>')
    .description('write a version from the history back into a file (the next sync sends it)')
    .option('--version <n>', "the version's number, as `spacesync history` lists it")
    .option('--at <time>', 'the newest version at or before this time')
    .option('--dry-run', 'show what would be written, change nothing')
    .option('--dir <dir>', 'the mirror folder (default: SPACESYNC_DIR, else the current folder)')
    .option('--config <file>', 'config file (default DIR/.spacesync/config.json)')
    .action(wrap(async (file: string, flags: RestoreFlags) => runRestore(file, flags)));
}

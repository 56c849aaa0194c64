// `spacesync revert [FILE…] [--dry-run]` (backup mode): the folder back to the space's state as the
// journal knows it; nothing is sent. What is replaced or removed goes to the version history first.
// It works beside a running daemon. In two-way mode it is refused: there, changes here are sent.
import type { Command } from 'commander';
import { SpacesyncError } from '../errors.js';
import { OwnWrites } from '../mirror/index.js';
import { DEFAULT_SETTINGS, applyRevert, planRevert, type RevertItem } from '../sync/index.js';
import { mirrorPath } from './history.js';
import { openMirrorState, type MirrorState } from './openMirrorState.js';
import type { Wrap } from './types.js';

interface RevertFlags {
  dir?: string;
  config?: string;
  dryRun?: boolean;
}

const out = (line: string) => process.stdout.write(`${line}\n`);

const WORDS: Record<RevertItem['what'], string> = {
  rewrite: "written again from the space's version",
  restore: 'written back (it was deleted here)',
  move: 'moved back',
  remove: 'only here: moved into the version history (`spacesync restore` brings it back)',
};

/**
 * Reverts the files named (every change here when none is) in the mirror `state` opened; the items
 * it would revert when `dryRun`. Refused in two-way mode. The console's revert runs this too.
 */
export async function revertMirror(state: MirrorState, files: readonly string[], dryRun: boolean): Promise<RevertItem[]> {
  if (state.config.mode !== 'backup')
    throw new SpacesyncError(
      'usage',
      `${state.root} syncs both ways ("mode": "two-way"): its changes here are sent to the space, not reverted. To undo one, edit the file back, or bring an older version back with \`spacesync restore\`.`,
    );
  if (!state.journal) throw new SpacesyncError('usage', `${state.root} was never synced: there is no state of the space to go back to.`);
  const ctx = {
    root: state.root,
    journal: state.journal,
    now: () => new Date(),
    ownWrites: new OwnWrites(),
    settings: { ...DEFAULT_SETTINGS, versions: state.config.versions },
  };
  const items = await planRevert(
    ctx,
    state.config.ignore,
    files.map((f) => mirrorPath(state.root, f)),
  );
  return dryRun || items.length === 0 ? items : applyRevert(ctx, items);
}

/** One reverted file, as the command and the console say it. */
export const revertLine = (i: RevertItem): string => `${i.path}${i.from ? ` (from ${i.from})` : ''}: ${WORDS[i.what]}`;

async function runRevert(files: readonly string[], flags: RevertFlags): Promise<number> {
  const state = openMirrorState(flags, { write: !flags.dryRun });
  try {
    const items = await revertMirror(state, files, flags.dryRun === true);
    if (items.length === 0) {
      out('Nothing to revert: no file here differs from the space as the last sync left it.');
      return 0;
    }
    out(flags.dryRun ? `Dry run: would revert ${items.length} file(s):` : `Reverted ${items.length} file(s) to the space's version; nothing was sent:`);
    items.forEach((i) => out(`  ${revertLine(i)}`));
    return 0;
  } finally {
    state.close();
  }
}

export function registerRevert(program: Command, wrap: Wrap): void {
  program
    .command('revert')
    .argument('[files...]', 'the files to revert (every change here when none is named)')
    .description("backup mode: put the folder back to the space's state, sending nothing")
    .option('--dir <dir>', 'the mirror folder (default: SPACESYNC_DIR, else the current folder)')
    .option('--config <file>', 'config file (default DIR/.spacesync/config.json)')
    .option('--dry-run', 'print what would be reverted, change nothing')
    .action(wrap(async (files: string[], flags: RevertFlags) => runRevert(files, flags)));
}

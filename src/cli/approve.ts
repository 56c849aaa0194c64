// `spacesync approve [FILE…] [--deletes]`: lets through what a safety check held back, exactly as
// `spacesync status` listed it: files that would wipe their documents, and the deletes of a refused
// cycle. Without FILE or --deletes, everything that waits for approval. The approval goes into the
// journal (beside a running daemon, as `conflicts resolve` writes), and the next cycle acts on it:
// the running daemon's, or the next `sync` when none runs. `sync --once --force` cannot be followed
// while a daemon holds the folder; this can. It syncs nothing itself.
import os from 'node:os';
import type { Command } from 'commander';
import { approve, awaitingApproval } from './approval.js';
import { mirrorPath } from './history.js';
import { openMirrorState } from './openMirrorState.js';
import { daemonInfo } from './status.js';
import { shellQuote } from './format.js';
import { readHeldBack } from '../sync/index.js';
import type { Wrap } from './types.js';

interface ApproveFlags {
  dir?: string;
  config?: string;
  deletes?: boolean;
}

const out = (line: string) => process.stdout.write(`${line}\n`);

/** Who acts on the approval, and when: the running daemon at its next cycle, or the next sync. */
export function whoActs(root: string, poll: { maxSeconds: number }): string {
  const dir = shellQuote(root);
  const d = daemonInfo(root);
  if (d.running) {
    return `spacesync: the daemon syncing ${root} (pid ${d.pid}${d.host && d.host !== os.hostname() ? ` on ${d.host}` : ''}) acts on it at its next cycle (within about ${poll.maxSeconds} s); \`spacesync status --dir ${dir}\` shows when it went.`;
  }
  return `spacesync: nothing was sent yet: no daemon syncs ${root}. The next sync acts on it: \`spacesync sync --dir ${dir} --once\`, or the daemon once started (\`spacesync sync --dir ${dir}\`).`;
}

async function runApprove(files: readonly string[], flags: ApproveFlags): Promise<number> {
  const state = openMirrorState(flags, { write: true });
  const root = state.root;
  try {
    if (!state.journal) {
      out(`Nothing waits for approval: ${root} was never synced.`);
      return 0;
    }
    const waiting = awaitingApproval(state.journal);
    const held = readHeldBack(state.journal);
    // A path as status prints it (from the mirror folder) is taken as it is, wherever the command runs.
    const inMirror = (f: string) => (held.some((h) => h.path === f) ? f : mirrorPath(root, f));
    const all = files.length === 0 && !flags.deletes;
    const request = {
      files: all ? waiting.files.map((f) => f.path) : files.map(inMirror),
      deletes: all ? waiting.refusal !== null : flags.deletes === true,
    };
    if (request.files.length === 0 && !request.deletes) {
      out(`Nothing in ${root} waits for approval (no file held back for wiping its document, no refused cycle).`);
      return 0;
    }
    approve(state.journal, root, request, new Date()).said.forEach(out);
    out(whoActs(root, state.config.poll));
    return 0;
  } finally {
    state.close();
  }
}

export function registerApprove(program: Command, wrap: Wrap): void {
  program
    .command('approve')
    .description('let through what a safety check held back, as status lists it (beside a running daemon too)')
    .argument('[files...]', 'held-back files to send as they are (default: everything that waits for approval)')
    .option('--deletes', "approve the refused cycle's deletes, exactly as status lists them")
    .option('--dir <dir>', 'the mirror folder (default: SPACESYNC_DIR, else the current folder)')
    .option('--config <file>', 'config file (default DIR/.spacesync/config.json)')
    .action(wrap(async (files: string[], flags: ApproveFlags) => runApprove(files, flags)));
}

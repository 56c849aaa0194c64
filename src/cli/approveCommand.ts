// The command line that approves what a safety check held back, as every surface names it (the
// terminal's lines, status, the desktop notice): a whole line to paste, with the folder, so it can
// be followed from anywhere and whether or not a daemon runs.
import { shellQuote } from './format.js';
import type { HeldBackFile } from '../sync/index.js';

/** A held-back file an approval can let through: one that would wipe its document, held back with its hash. */
export const approvable = (h: HeldBackFile): h is HeldBackFile & { hash: string } => h.reason === 'wipe' && typeof h.hash === 'string';

/** `spacesync approve 'Notes/Plan.md' --dir /notes`, or with `deletes`, `spacesync approve --deletes --dir /notes`. */
export function approveCommand(root: string, what: { files: readonly string[] } | { deletes: true }): string {
  const args = 'deletes' in what ? ['--deletes'] : what.files.map(shellQuote);
  return ['spacesync approve', ...args, `--dir ${shellQuote(root)}`].join(' ');
}

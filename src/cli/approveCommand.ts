// The command line that approves what a safety check held back, as every surface names it (the
// terminal's lines, status, the desktop notice): a whole line to paste, with the folder, so it can
// be followed from anywhere and whether or not a daemon runs.
import { shellQuote } from './format.js';

/** `spacesync approve 'Notes/Plan.md' --dir /notes`, or with `deletes`, `spacesync approve --deletes --dir /notes`. */
export function approveCommand(root: string, what: { files: readonly string[] } | { deletes: true }): string {
  const args = 'deletes' in what ? ['--deletes'] : what.files.map(shellQuote);
  return ['spacesync approve', ...args, `--dir ${shellQuote(root)}`].join(' ');
}

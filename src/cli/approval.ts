// Approving what a safety check held back, as status listed it: a file that would wipe its document
// (by the hash it had when it was held back) and the deletes of a refused cycle (by their set). The
// approval goes into the journal, where the push's and the pull's checks read it at their next look:
// a running daemon's next cycle, or the next sync when none runs.
// `spacesync approve` and the console's "Approve" both call this.
import { SpacesyncError } from '../errors.js';
import type { Journal } from '../journal/index.js';
import { readRefusal, type StatusRefusal } from '../journal/daemonStatus.js';
import { readHeldBack, recordApprovals, type DeletesApproval, type FileApproval, type HeldBackFile } from '../sync/index.js';
import { count, shellQuote } from './format.js';

// The command line that approves what a safety check held back, as every surface names it (the
// terminal's lines, status, the desktop notice): a whole line to paste, with the folder, so it can
// be followed from anywhere and whether or not a daemon runs.
/** A held-back file an approval can let through: one that would wipe its document, held back with its hash. */
export const approvable = (h: HeldBackFile): h is HeldBackFile & { hash: string } => h.reason === 'wipe' && typeof h.hash === 'string';

/** `spacesync approve 'Notes/Plan.md' --dir /notes`, or with `deletes`, `spacesync approve --deletes --dir /notes`. */
export function approveCommand(root: string, what: { files: readonly string[] } | { deletes: true }): string {
  const args = 'deletes' in what ? ['--deletes'] : what.files.map(shellQuote);
  return ['spacesync approve', ...args, `--dir ${shellQuote(root)}`].join(' ');
}

/** What waits for the person's approval: the held-back files an approval lets through, and the refused cycle. */
export interface AwaitingApproval {
  files: Array<HeldBackFile & { hash: string }>;
  refusal: (StatusRefusal & { key: string }) | null;
}

export function awaitingApproval(journal: Journal): AwaitingApproval {
  const refusal = readRefusal(journal);
  return {
    files: readHeldBack(journal).filter(approvable),
    refusal: refusal?.key !== undefined ? (refusal as StatusRefusal & { key: string }) : null,
  };
}

export interface ApprovalRequest {
  /** Held-back files (paths in the mirror); with `hashes`, each only as it was shown (the console's page). */
  files: readonly string[];
  hashes?: Readonly<Record<string, string>>;
  /** The refused cycle's deletes; with `deletesKey`, only if they are still the set that was shown (the console's page). */
  deletes: boolean;
  deletesKey?: string;
}

export interface Approved {
  files: FileApproval[];
  deletes: DeletesApproval | null;
  /** What was approved, a sentence each. */
  said: string[];
}

const usage = (message: string) => new SpacesyncError('usage', message);

/** Records the approvals asked for; throws a usage error naming what cannot be approved (nothing is recorded then). */
export function approve(journal: Journal, root: string, req: ApprovalRequest, now: Date): Approved {
  const waiting = awaitingApproval(journal);
  const held = readHeldBack(journal);
  const at = now.toISOString();
  const files: FileApproval[] = [];
  for (const path of req.files) {
    const h = waiting.files.find((f) => f.path === path);
    if (!h) {
      const other = held.find((f) => f.path === path);
      throw usage(
        other
          ? `"${path}" is held back for a reason an approval cannot lift: ${other.message}`
          : `"${path}" is not held back in ${root}, so there is nothing to approve (it may have been sent, or changed, since). \`spacesync status\` lists what waits.`,
      );
    }
    const shown = req.hashes?.[path];
    if (shown !== undefined && shown !== h.hash)
      throw usage(`"${path}" changed since it was shown, and the next cycle looks at it again: approve it once it is held back as it is now.`);
    files.push({ path, hash: h.hash, at });
  }
  let deletes: DeletesApproval | null = null;
  if (req.deletes) {
    const r = waiting.refusal;
    if (!r) throw usage(`No refused cycle of ${root} waits for approval: \`spacesync status\` shows the last one, if any.`);
    if (req.deletesKey !== undefined && req.deletesKey !== r.key)
      throw usage(`The refused cycle of ${root} would delete other files than were shown: look at them again before approving.`);
    deletes = { reason: r.reason, key: r.key, count: r.deleteCount, at };
  }
  recordApprovals(journal, { files, ...(deletes ? { deletes } : {}) });
  const said = files.map((f) => `Approved sending "${f.path}" as it was held back (changed again, it is held back again).`);
  if (deletes)
    said.push(
      `Approved the refused cycle's ${count(deletes.count, 'delete')}, exactly as listed (another file deleted meanwhile, the cycle is refused again).`,
    );
  return { files, deletes, said };
}

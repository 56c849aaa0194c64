// What the console can do, and the buttons each action puts on the page. The server attaches to
// every item it shows (a conflict, a version, a held-back file, a change not sent) the offers of
// the actions that apply to it; the page renders an item's offers as buttons and posts the one
// clicked back to /api/mirrors/:id/actions/:name. So an action is added here alone (its offers and
// its run), and the page shows it wherever it applies: approving a held-back file or reverting a
// change not sent come in as two more entries of CONSOLE_ACTIONS, with no page change. Approving
// a held-back wipe or a refused cycle (`spacesync approve`) is one.
import { SpacesyncError } from '../errors.js';
import type { HistoryRecord } from '../journal/index.js';
import type { HeldBackFile, LocalPendingChange } from '../sync/index.js';
import type { StatusRefusal } from '../journal/daemonStatus.js';
import { approve, approvable } from '../cli/approval.js';
import { whoActs } from '../cli/approve.js';
import { count, localTime } from '../cli/format.js';
import { restoreVersion } from '../sync/index.js';
import type { ConflictView } from '../cli/conflicts.js';
import { describeVersion } from '../cli/history.js';
import { openMirrorState } from '../cli/openMirrorState.js';
import { revertLine, revertMirror } from '../cli/revert.js';
import { KEEPS, settleConflict, type Keep } from '../cli/settleConflict.js';

/** A button: the action it posts, with these arguments. */
export interface Offer {
  action: string;
  label: string;
  args: Record<string, unknown>;
  /** What it will do, in a sentence (the button's tooltip). */
  hint: string;
  /** `primary` for the usual choice, `danger` for one that drops something. */
  tone?: 'primary' | 'danger';
}

/** The items of the page an action can apply to. */
export type OfferTarget =
  | { kind: 'conflict'; conflict: Omit<ConflictView, 'diff'> }
  | { kind: 'version'; path: string; version: HistoryRecord }
  | { kind: 'heldBack'; file: HeldBackFile }
  | { kind: 'refusal'; refusal: StatusRefusal }
  /** `backup`: the mirror is in backup mode, where a change here is kept, not sent (and may be reverted). */
  | { kind: 'localChange'; change: LocalPendingChange; backup: boolean };

export interface ActionResult {
  /** What was done, for the person who clicked. */
  message: string;
}

export interface ConsoleAction {
  name: string;
  /** The buttons it puts on an item (none: it does not apply to it). */
  offers(target: OfferTarget): Offer[];
  /** Runs it on the mirror in `dir` with the arguments of one of its offers; throws a SpacesyncError it cannot. */
  run(dir: string, args: Record<string, unknown>): Promise<ActionResult>;
}

const bad = (message: string) => new SpacesyncError('usage', message);

function integer(args: Record<string, unknown>, key: string): number {
  const v = args[key];
  if (typeof v !== 'number' || !Number.isInteger(v)) throw bad(`The action needs "${key}" as a whole number.`);
  return v;
}

function text(args: Record<string, unknown>, key: string): string {
  const v = args[key];
  if (typeof v !== 'string' || v === '') throw bad(`The action needs "${key}" as a text.`);
  return v;
}

/** Keep the space's, keep mine, keep both, or only mark it resolved: `conflicts resolve [--keep …]`. */
export const settleConflictAction: ConsoleAction = {
  name: 'settle-conflict',
  offers(t) {
    if (t.kind !== 'conflict' || t.conflict.resolvedAt !== null) return [];
    const c = t.conflict;
    const offer = (label: string, keep: Keep | null, hint: string, tone?: Offer['tone']): Offer => ({
      action: 'settle-conflict',
      label,
      args: { id: c.id, ...(keep ? { keep } : {}) },
      hint,
      ...(tone ? { tone } : {}),
    });
    if (!c.copyExists) return [offer('Mark resolved', null, `Your copy ${c.copyPath} is gone: mark the conflict done.`, 'primary')];
    return [
      offer("Keep the space's", 'space', `Delete your copy ${c.copyPath}; ${c.path} keeps the space's version.`, 'danger'),
      offer('Keep mine', 'mine', `Your copy replaces ${c.path}; the next sync sends it to the space.`, 'primary'),
      offer('Keep both', 'both', `Your copy becomes a note of its own beside ${c.path}; the next sync sends it as a new document.`),
      offer('Mark resolved', null, `You merged by hand: mark the conflict done and leave both files as they are.`),
    ];
  },
  async run(dir, args) {
    const id = integer(args, 'id');
    const keep = args.keep;
    if (keep !== undefined && !(KEEPS as readonly unknown[]).includes(keep)) throw bad('"keep" is mine, space or both.');
    const state = openMirrorState({ dir }, { write: true });
    try {
      const conflict = state.journal?.getConflict(id);
      if (!state.journal || !conflict) throw bad(`No conflict #${id} in ${state.root}: it may have been settled meanwhile.`);
      const settled = await settleConflict({ root: state.root, journal: state.journal, conflict, ...(keep ? { keep: keep as Keep } : {}) });
      return { message: settled.said.join(' ') };
    } finally {
      state.close();
    }
  },
};

/** Writes a version back into its file: `spacesync restore FILE --version N`. */
export const restoreVersionAction: ConsoleAction = {
  name: 'restore-version',
  offers(t) {
    if (t.kind !== 'version') return [];
    return [
      {
        action: 'restore-version',
        label: 'Restore',
        args: { path: t.path, version: t.version.id },
        hint: `Write version ${t.version.id} back into ${t.path}; what the file holds now becomes a version itself, and the next sync sends it.`,
      },
    ];
  },
  async run(dir, args) {
    const rel = text(args, 'path');
    const version = integer(args, 'version');
    const state = openMirrorState({ dir }, { write: true });
    try {
      if (!state.journal) throw bad(`"${rel}" has no versions: this folder was never synced.`);
      const r = await restoreVersion({
        root: state.root,
        journal: state.journal,
        settings: { versions: state.config.versions },
        now: () => new Date(),
        path: rel,
        version,
      });
      const v = r.version;
      return {
        message: `Restored "${rel}" to version ${v.id} (${localTime(v.at)}: ${describeVersion(v)})${r.fromTrash ? `, moved back from "${r.fromTrash}"` : ''}. The next sync sends it as an ordinary edit.`,
      };
    } finally {
      state.close();
    }
  },
};

/** Backup mode: a change here back to the space's version, nothing sent: `spacesync revert FILE`. */
export const revertChangeAction: ConsoleAction = {
  name: 'revert-change',
  offers(t) {
    if (t.kind !== 'localChange' || !t.backup) return [];
    const c = t.change;
    const what =
      c.change === 'new'
        ? `${c.path} exists only here: it moves into the version history (restore brings it back) and leaves the folder.`
        : c.change === 'missing'
          ? `${c.path} is written back from the space's version.`
          : c.change === 'moved'
            ? `${c.path} moves back to ${c.from ?? 'where it was'}.`
            : `${c.path} is written again from the space's version; what it holds now goes to the version history.`;
    return [{ action: 'revert-change', label: 'Revert', args: { path: c.path }, hint: `${what} Nothing is sent.`, tone: 'danger' }];
  },
  async run(dir, args) {
    const rel = text(args, 'path');
    const state = openMirrorState({ dir }, { write: true });
    try {
      const done = await revertMirror(state, [rel], false);
      if (done.length === 0) return { message: `"${rel}" is as the space has it already: nothing to revert.` };
      return { message: `Reverted ${done.map(revertLine).join('; ')}. Nothing was sent.` };
    } finally {
      state.close();
    }
  },
};

/**
 * Lets through what a safety check held back, as the page showed it: `spacesync approve FILE` for a
 * file that would wipe its document (by the hash it had then), `--deletes` for a refused cycle (by
 * its set of deletes). Handed over through the journal: a running daemon acts at its next cycle.
 */
export const approveAction: ConsoleAction = {
  name: 'approve',
  offers(t) {
    if (t.kind === 'heldBack' && approvable(t.file)) {
      const f = t.file;
      return [
        {
          action: 'approve',
          label: 'Approve',
          args: { path: f.path, hash: f.hash },
          hint: `Send ${f.path} as it is now, emptying its document in the space (as \`spacesync approve\`); changed again meanwhile, it is held back again.`,
          tone: 'danger',
        },
      ];
    }
    if (t.kind === 'refusal' && t.refusal.key !== undefined) {
      return [
        {
          action: 'approve',
          label: 'Approve these deletes',
          args: { deletes: t.refusal.key },
          hint: `Let the cycle go ahead with its ${count(t.refusal.deleteCount, 'delete')} (as \`spacesync approve --deletes\`); with other deletes by then, it is refused again.`,
          tone: 'danger',
        },
      ];
    }
    return [];
  },
  async run(dir, args) {
    const file = args.path === undefined ? null : text(args, 'path');
    const key = args.deletes === undefined ? null : text(args, 'deletes');
    if (file === null && key === null) throw bad('The action needs "path" (a held-back file) or "deletes" (a refused cycle).');
    const state = openMirrorState({ dir }, { write: true });
    try {
      if (!state.journal) throw bad(`Nothing waits for approval: ${state.root} was never synced.`);
      const done = approve(
        state.journal,
        state.root,
        {
          files: file === null ? [] : [file],
          ...(file === null ? {} : { hashes: { [file]: text(args, 'hash') } }),
          deletes: key !== null,
          ...(key === null ? {} : { deletesKey: key }),
        },
        new Date(),
      );
      return { message: [...done.said, whoActs(state.root, state.config.poll).replace(/^spacesync: /, '')].join(' ') };
    } finally {
      state.close();
    }
  },
};

export const CONSOLE_ACTIONS: readonly ConsoleAction[] = [settleConflictAction, restoreVersionAction, approveAction, revertChangeAction];

/** Every offer of `actions` for one item. */
export function offersFor(target: OfferTarget, actions: readonly ConsoleAction[] = CONSOLE_ACTIONS): Offer[] {
  return actions.flatMap((a) => a.offers(target));
}

// Whether this process still owns the mirror: its lock file and its journal are the ones it
// opened. Deleting `.spacesync/` under a running daemon (a `git clean -fdx` in a mirror kept under
// git) leaves it writing to a journal nobody else sees while a second spacesync may start beside
// it; both would then send the same changes. The check runs at every cycle, before every write of
// a file and every writing request, and once a second meanwhile; once lost, it stays lost.
import { statSync } from 'node:fs';
import { SpacesyncError } from '../../errors.js';
import type { Lock } from '../../mirror/index.js';

export class Ownership {
  private lostError: SpacesyncError | null = null;
  private readonly journalIno: bigint | null;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly root: string,
    private readonly lock: Lock,
    private readonly journalFile: string,
  ) {
    this.journalIno = statSync(journalFile, { bigint: true, throwIfNoEntry: false })?.ino ?? null;
  }

  /** The error that ended it, once lost. */
  get lost(): SpacesyncError | null {
    return this.lostError;
  }

  /** Throws `state_lost` when the lock or the journal is no longer this process's. */
  check(): void {
    if (this.lostError) throw this.lostError;
    const what = !this.lock.isOurs()
      ? 'its lock file (.spacesync/lock) was deleted or taken by another process'
      : statSync(this.journalFile, { bigint: true, throwIfNoEntry: false })?.ino !== this.journalIno
        ? 'its journal (.spacesync/journal.db) was deleted or replaced'
        : null;
    if (what === null) return;
    this.lostError = new SpacesyncError(
      'state_lost',
      `The sync of ${this.root} stopped: ${what} while it ran. Nothing more is written or sent by this run, so that two spacesync never sync one folder at once. If another spacesync runs there now, leave it; otherwise start spacesync again: without its journal it compares the folder with the space and duplicates nothing.`,
      { details: { root: this.root, what } },
    );
    throw this.lostError;
  }

  /** Checks every `everyMs` between the writes; `onLost` is told once. */
  watch(onLost: (e: SpacesyncError) => void, everyMs = 1_000): void {
    this.timer = setInterval(() => {
      try {
        this.check();
      } catch (e) {
        clearInterval(this.timer);
        onLost(e as SpacesyncError);
      }
    }, everyMs);
    this.timer.unref();
  }

  close(): void {
    clearInterval(this.timer);
  }
}

// Group commit for the journal: records of several pulled documents go in one transaction, so a
// large pull pays one fsync per batch rather than one per document. A record is queued only
// after its file is on disk, so the journal still follows the disk; a crash loses at most the
// last batch's records, and those documents are read once more.
import type { Journal } from '../../../journal/index.js';

export class CommitBatcher {
  private pending: Array<() => void> = [];
  private waiters: Array<{ resolve: () => void; reject: (e: unknown) => void }> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly journal: Journal,
    private readonly maxDelayMs = 25,
    private readonly maxBatch = 64,
  ) {}

  /** Queues `write` (synchronous journal writes); resolves once it is committed. */
  add(write: () => void): Promise<void> {
    this.pending.push(write);
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (this.pending.length >= this.maxBatch) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.maxDelayMs);
    return done;
  }

  /** Commits everything queued now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const writes = this.pending;
    const waiters = this.waiters;
    this.pending = [];
    this.waiters = [];
    if (writes.length === 0) return;
    try {
      this.journal.transaction(() => {
        for (const w of writes) w();
      });
    } catch (e) {
      for (const w of waiters) w.reject(e);
      return;
    }
    for (const w of waiters) w.resolve();
  }
}

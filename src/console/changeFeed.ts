// When a mirror's data changed, for the page's live view: the journal (every cycle and every
// command writes it), its write-ahead log and the daemon's lock are looked at (a stat each) every
// `intervalMs` while a page listens, and a change of any of them is told to the listeners, which
// tell the page over server-sent events; the page then reads that mirror again.
import { statSync } from 'node:fs';
import { configPath, journalPath, lockPath } from '../stateDir.js';

function fingerprint(dir: string): string {
  const journal = journalPath(dir);
  return [journal, `${journal}-wal`, lockPath(dir), configPath(dir)]
    .map((f) => {
      const s = statSync(f, { throwIfNoEntry: false });
      return s ? `${s.mtimeMs}:${s.size}:${s.ino}` : '-';
    })
    .join('|');
}

export class ChangeFeed {
  private readonly listeners = new Set<(id: number) => void>();
  private readonly prints: string[];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dirs: readonly string[],
    private readonly intervalMs = 1000,
  ) {
    this.prints = dirs.map(fingerprint);
  }

  /** Calls `fn` with a mirror's index each time its data changes; returns the unsubscribe. */
  subscribe(fn: (id: number) => void): () => void {
    this.listeners.add(fn);
    if (!this.timer) {
      // Looked at afresh: what changed while nobody listened is the page's first read.
      this.dirs.forEach((d, i) => (this.prints[i] = fingerprint(d)));
      this.timer = setInterval(() => this.look(), this.intervalMs);
      this.timer.unref();
    }
    return () => {
      this.listeners.delete(fn);
      if (this.listeners.size === 0) this.stop();
    };
  }

  /** Tells the listeners now (after an action of the console's own). */
  poke(id: number): void {
    this.prints[id] = fingerprint(this.dirs[id]!);
    for (const fn of this.listeners) fn(id);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private look(): void {
    this.dirs.forEach((d, i) => {
      const now = fingerprint(d);
      if (now === this.prints[i]) return;
      this.prints[i] = now;
      for (const fn of this.listeners) fn(i);
    });
  }
}

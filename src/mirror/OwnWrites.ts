// Remembers the files the daemon itself just wrote, moved or removed, so the watcher pipeline
// can drop the events they cause instead of sending the daemon's own writes back as edits.

interface Entry {
  /** sha256 of what was written; null for a removal. */
  hash: string | null;
  at: number;
}

export interface OwnWritesOptions {
  /** How long a record stays claimable (ms); long enough for the watcher's debounce and stability wait. */
  ttlMs?: number;
  now?: () => number;
  /**
   * Asked before each write is noted, i.e. before it lands: the session checks there that it still
   * owns the mirror (what it throws stops the write).
   */
  beforeWrite?: () => void;
}

export class OwnWrites {
  private readonly entries = new Map<string, Entry[]>();
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly beforeWrite: (() => void) | undefined;

  constructor(opts: OwnWritesOptions = {}) {
    this.ttlMs = opts.ttlMs ?? 60_000;
    this.now = opts.now ?? Date.now;
    this.beforeWrite = opts.beforeWrite;
  }

  /** Call before the write (or removal) lands, so its event can never arrive first. */
  note(relPath: string, hash: string | null): void {
    this.beforeWrite?.();
    const at = this.now();
    const list = this.live(relPath, at).filter((e) => e.hash !== hash);
    list.push({ hash, at });
    this.entries.set(relPath, list);
  }

  /**
   * True when the file's current state (`hash`, null when gone) is one the daemon wrote: the
   * event is the daemon's own. The record and every older one for the path are used up, so a
   * user who later puts the same bytes back is seen as editing. A state the daemon did not write
   * means the user has moved the file on: every record for the path is dropped, for the same reason.
   */
  consume(relPath: string, hash: string | null): boolean {
    const list = this.live(relPath, this.now());
    const i = list.findLastIndex((e) => e.hash === hash);
    this.store(relPath, i < 0 ? [] : list.slice(i + 1));
    return i >= 0;
  }

  /** Whether the daemon wrote (or removed) the path lately: a claimable record is there. */
  has(relPath: string): boolean {
    return this.live(relPath, this.now()).length > 0;
  }

  /** Paths with a claimable record (expired ones are dropped on the way). */
  get size(): number {
    const at = this.now();
    for (const p of [...this.entries.keys()]) this.store(p, this.live(p, at));
    return this.entries.size;
  }

  private live(relPath: string, at: number): Entry[] {
    return (this.entries.get(relPath) ?? []).filter((e) => at - e.at <= this.ttlMs);
  }

  private store(relPath: string, list: Entry[]): void {
    if (list.length === 0) this.entries.delete(relPath);
    else this.entries.set(relPath, list);
  }
}

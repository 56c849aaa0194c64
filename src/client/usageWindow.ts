// What this process has spent of one rate budget, counted so that no window of the service can
// ever see more than the limit, whether the service counts in fixed or in sliding windows.
//
// The service counts a request when it arrives, somewhere between our send and our receipt of
// the answer. So a request occupies the budget from the moment it is sent until `windowMs` after
// its answer came back (forever while it is still in flight). Admitting a request only while the
// occupancy is below the limit then bounds every window of arrival times as well.

export interface UsageEntry {
  /** Admission order; header corrections name the request they came with by it. */
  seq: number;
  weight: number;
  /** Infinity while in flight. */
  expiresAt: number;
}

export class UsageWindow {
  private entries: UsageEntry[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(
    public limit: number,
    public windowMs: number,
  ) {}

  /** The service's window turned out to be `windowMs` long: answered entries leave it by then. */
  setWindow(windowMs: number): void {
    const shift = windowMs - this.windowMs;
    if (shift === 0) return;
    this.windowMs = windowMs;
    for (const e of this.entries) if (e.expiresAt !== Infinity) e.expiresAt += shift;
  }

  add(seq: number, weight: number): UsageEntry {
    const entry: UsageEntry = { seq, weight, expiresAt: Infinity };
    this.entries.push(entry);
    return entry;
  }

  /** The answer arrived at `at`: the entry leaves every window of the service by `at + windowMs`. */
  settle(entry: UsageEntry, at: number, weight = entry.weight): void {
    entry.weight = weight;
    entry.expiresAt = at + this.windowMs;
  }

  used(now: number): number {
    this.prune(now);
    let sum = 0;
    for (const e of this.entries) sum += e.weight;
    return sum;
  }

  /** Weight of the entries admitted after `seq` that still occupy the window. */
  usedAfter(seq: number, now: number): number {
    this.prune(now);
    let sum = 0;
    for (const e of this.entries) if (e.seq > seq) sum += e.weight;
    return sum;
  }

  /**
   * When at least `free` units will be free for a request of `weight`, or Infinity when that
   * depends on answers still in flight (their arrival wakes the scheduler anyway).
   */
  freeAt(weight: number, limit: number, now: number): number {
    this.prune(now);
    let used = 0;
    for (const e of this.entries) used += e.weight;
    // An oversize request goes alone, when the window is empty.
    const need = Math.min(weight, limit);
    if (used + need <= limit) return now;
    const byExpiry = [...this.entries].sort((a, b) => a.expiresAt - b.expiresAt);
    for (const e of byExpiry) {
      used -= e.weight;
      if (used + need <= limit) return e.expiresAt;
    }
    return Infinity;
  }

  /** Called when another user of a shared window frees part of it; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every subscriber but `self` that entries were settled. */
  notify(self?: () => void): void {
    for (const l of this.listeners) if (l !== self) l();
  }

  get size(): number {
    return this.entries.length;
  }

  private prune(now: number): void {
    if (this.entries.some((e) => e.expiresAt <= now)) this.entries = this.entries.filter((e) => e.expiresAt > now);
  }
}

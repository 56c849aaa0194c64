// What this process has spent of one rate budget, counted so that no window of the service can
// ever see more than the limit, whether the service counts in fixed or in sliding windows.
//
// The service counts a request when it arrives, somewhere between our send and our receipt of
// the answer. So a request occupies the budget from the moment it is sent until `windowMs` after
// its answer came back (forever while it is still in flight). Admitting a request only while the
// occupancy is below the limit then bounds every window of arrival times as well.
//
// The scheduler asks on every request, and a window may hold tens of thousands of entries when the
// budget is wide, so every question is answered from running totals, not by going over the
// entries: answered entries wait in a queue in the order they leave the window (one length of
// window after their answer, so answer order), each with the total weight queued up to it; the
// weight after a given request is kept for the last request asked about, and moved when another
// is. Each entry is then touched a fixed number of times over its life. The totals are exact for
// whole-number weights, which is what the budgets are counted in (requests, blocks).

export interface UsageEntry {
  /** Admission order (a whole number); header corrections name the request they came with by it. */
  readonly seq: number;
  readonly weight: number;
  /** Infinity while in flight. */
  readonly expiresAt: number;
}

/** An entry with the window's bookkeeping. */
interface Slot {
  seq: number;
  weight: number;
  expiresAt: number;
  /** While answered: the weight of the answered queue from its start up to and including this entry. */
  through: number;
  /** Another entry of the same seq still in the window (schedulers sharing an address window count their own seqs). */
  sameSeq: Slot | undefined;
}

/** Past this many left entries at its front, the answered queue is copied without them. */
const COMPACT_AFTER = 1024;

export class UsageWindow {
  private inFlightWeight = 0;
  private inFlightCount = 0;
  /** Answered entries by the time they leave (ascending); those before `head` have left. */
  private settled: Slot[] = [];
  private head = 0;
  /** `through` of the last entry that left (the queue's weight before `head`). */
  private leftThrough = 0;
  /** Entries still in the window by seq, for the weight after a request. */
  private readonly bySeq = new Map<number, Slot>();
  /** The seq whose later weight `afterMark` holds. */
  private mark = -Infinity;
  private afterMark = 0;
  private readonly listeners = new Set<() => void>();

  constructor(
    public limit: number,
    public windowMs: number,
  ) {}

  /**
   * The service's window turned out to be `windowMs` long: answered entries leave it by then. It
   * changes when the service's reset times show a new length (a few times a run): the answered
   * entries are moved one by one, keeping their order.
   */
  setWindow(windowMs: number): void {
    const shift = windowMs - this.windowMs;
    if (shift === 0) return;
    this.windowMs = windowMs;
    for (let i = this.head; i < this.settled.length; i++) this.settled[i]!.expiresAt += shift;
  }

  add(seq: number, weight: number): UsageEntry {
    const slot: Slot = { seq, weight, expiresAt: Infinity, through: 0, sameSeq: this.bySeq.get(seq) };
    this.bySeq.set(seq, slot);
    this.inFlightWeight += weight;
    this.inFlightCount++;
    if (seq > this.mark) this.afterMark += weight;
    return slot;
  }

  /**
   * The answer arrived at `at`: the entry leaves every window of the service by `at + windowMs`,
   * counted at `weight` from now on (what it really cost, when that differs from what it was
   * charged while in flight). Each entry is settled once.
   */
  settle(entry: UsageEntry, at: number, weight = entry.weight): void {
    const slot = entry as Slot;
    if (slot.expiresAt !== Infinity) throw new Error(`usage entry ${slot.seq} was settled twice`);
    this.inFlightWeight -= slot.weight;
    // Whole-number weights sum exactly; others would drift, so the total restarts from nothing.
    if (--this.inFlightCount === 0) this.inFlightWeight = 0;
    if (slot.seq > this.mark) this.afterMark += weight - slot.weight;
    slot.weight = weight;
    slot.expiresAt = at + this.windowMs;
    this.enqueue(slot);
  }

  used(now: number): number {
    this.prune(now);
    return this.inFlightWeight + this.settledWeight();
  }

  /** Weight of the entries admitted after `seq` that still occupy the window. */
  usedAfter(seq: number, now: number): number {
    this.prune(now);
    this.moveMark(seq);
    return this.afterMark;
  }

  /**
   * When at least `free` units will be free for a request of `weight`, or Infinity when that
   * depends on answers still in flight (their arrival wakes the scheduler anyway).
   */
  freeAt(weight: number, limit: number, now: number): number {
    const used = this.used(now);
    // An oversize request goes alone, when the window is empty.
    const need = Math.min(weight, limit);
    if (used + need <= limit) return now;
    // The first answered entry whose leaving (with all that leave before it) makes room.
    const fits = (i: number) => used - (this.settled[i]!.through - this.leftThrough) + need <= limit;
    let lo = this.head;
    let hi = this.settled.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (fits(mid)) hi = mid;
      else lo = mid + 1;
    }
    return lo < this.settled.length ? this.settled[lo]!.expiresAt : Infinity;
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

  /** Entries in the window as of the last question (in flight or answered). */
  get size(): number {
    return this.inFlightCount + this.settled.length - this.head;
  }

  private settledWeight(): number {
    return this.head < this.settled.length ? this.settled[this.settled.length - 1]!.through - this.leftThrough : 0;
  }

  /** Into the answered queue at its place: the end, unless the clock went back. */
  private enqueue(slot: Slot): void {
    const q = this.settled;
    const last = q.length > this.head ? q[q.length - 1]! : undefined;
    if (!last || last.expiresAt <= slot.expiresAt) {
      slot.through = (last ? last.through : this.leftThrough) + slot.weight;
      q.push(slot);
      return;
    }
    // After every entry that leaves no later (as a stable sort would place it), then the totals
    // of the entries behind it are brought up to date.
    let lo = this.head;
    let hi = q.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (q[mid]!.expiresAt <= slot.expiresAt) lo = mid + 1;
      else hi = mid;
    }
    q.splice(lo, 0, slot);
    for (let i = lo; i < q.length; i++) q[i]!.through = (i > this.head ? q[i - 1]!.through : this.leftThrough) + q[i]!.weight;
  }

  /** Drops the answered entries that left the window by `now` (those whose time is `now` included). */
  private prune(now: number): void {
    const q = this.settled;
    while (this.head < q.length && q[this.head]!.expiresAt <= now) {
      const slot = q[this.head++]!;
      this.leftThrough = slot.through;
      if (slot.seq > this.mark) this.afterMark -= slot.weight;
      this.forget(slot);
    }
    if (this.head === q.length) {
      this.settled = [];
      this.head = 0;
      this.leftThrough = 0;
    } else if (this.head >= COMPACT_AFTER && this.head * 2 >= q.length) {
      this.settled = q.slice(this.head);
      this.head = 0;
    }
  }

  private forget(slot: Slot): void {
    const first = this.bySeq.get(slot.seq);
    if (first === slot) {
      if (slot.sameSeq) this.bySeq.set(slot.seq, slot.sameSeq);
      else this.bySeq.delete(slot.seq);
    } else {
      let s = first;
      while (s && s.sameSeq !== slot) s = s.sameSeq;
      if (s) s.sameSeq = slot.sameSeq;
    }
    if (this.bySeq.size === 0) this.afterMark = 0;
  }

  /**
   * Makes `afterMark` the weight after `seq`: by the seqs between the old mark and the new one
   * (a step of a few requests, as the answers come in), or from every entry when that is fewer.
   */
  private moveMark(seq: number): void {
    if (seq === this.mark) return;
    const lo = Math.min(seq, this.mark);
    const hi = Math.max(seq, this.mark);
    const sign = seq > this.mark ? -1 : 1;
    this.mark = seq;
    if (Number.isInteger(lo) && Number.isInteger(hi) && hi - lo <= this.bySeq.size) {
      for (let s = lo + 1; s <= hi; s++) for (let slot = this.bySeq.get(s); slot; slot = slot.sameSeq) this.afterMark += sign * slot.weight;
      return;
    }
    let sum = 0;
    for (const first of this.bySeq.values()) for (let slot: Slot | undefined = first; slot; slot = slot.sameSeq) if (slot.seq > seq) sum += slot.weight;
    this.afterMark = sum;
  }
}

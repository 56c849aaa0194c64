import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageWindow, type UsageEntry } from './usageWindow.js';

describe('UsageWindow', () => {
  it('holds an entry while in flight and for one window after its answer', () => {
    const w = new UsageWindow(2, 1000);
    const a = w.add(1, 1);
    const b = w.add(2, 1);
    expect(w.freeAt(1, 2, 0)).toBe(Infinity);
    w.settle(b, 50);
    w.settle(a, 300);
    // The entry answered first frees first, whatever the order they were sent in.
    expect(w.freeAt(1, 2, 100)).toBe(1050);
    expect(w.used(1049)).toBe(2);
    expect(w.used(1050)).toBe(1);
    expect(w.used(1300)).toBe(0);
  });

  it('counts weights, frees enough room for a heavy entry, and lets an oversize one go alone', () => {
    const w = new UsageWindow(100, 1000);
    w.settle(w.add(1, 30), 0);
    w.settle(w.add(2, 50), 200, 60);
    expect(w.used(300)).toBe(90);
    expect(w.freeAt(20, 100, 300)).toBe(1000);
    expect(w.freeAt(70, 100, 300)).toBe(1200);
    expect(w.freeAt(500, 100, 300)).toBe(1200);
    expect(w.usedAfter(1, 300)).toBe(60);
  });

  it('tells the other users of a shared window, not the one that settled', () => {
    const w = new UsageWindow(1, 1000);
    const heard: string[] = [];
    const a = () => heard.push('a');
    const off = w.subscribe(a);
    w.subscribe(() => heard.push('b'));
    w.notify(a);
    off();
    w.notify();
    expect(heard).toEqual(['b', 'b']);
  });
});

/** The window as first written: every question goes over every entry. The running totals must agree with it. */
class ScanWindow {
  entries: Array<{ seq: number; weight: number; expiresAt: number }> = [];
  constructor(
    public limit: number,
    public windowMs: number,
  ) {}
  setWindow(windowMs: number): void {
    const shift = windowMs - this.windowMs;
    this.windowMs = windowMs;
    for (const e of this.entries) if (e.expiresAt !== Infinity) e.expiresAt += shift;
  }
  add(seq: number, weight: number) {
    const e = { seq, weight, expiresAt: Infinity };
    this.entries.push(e);
    return e;
  }
  settle(e: { weight: number; expiresAt: number }, at: number, weight = e.weight): void {
    e.weight = weight;
    e.expiresAt = at + this.windowMs;
  }
  used(now: number): number {
    this.prune(now);
    return this.entries.reduce((n, e) => n + e.weight, 0);
  }
  usedAfter(seq: number, now: number): number {
    this.prune(now);
    return this.entries.filter((e) => e.seq > seq).reduce((n, e) => n + e.weight, 0);
  }
  freeAt(weight: number, limit: number, now: number): number {
    let used = this.used(now);
    const need = Math.min(weight, limit);
    if (used + need <= limit) return now;
    for (const e of [...this.entries].sort((a, b) => a.expiresAt - b.expiresAt)) {
      used -= e.weight;
      if (used + need <= limit) return e.expiresAt;
    }
    return Infinity;
  }
  private prune(now: number): void {
    this.entries = this.entries.filter((e) => e.expiresAt > now);
  }
}

describe('UsageWindow running totals', () => {
  it('counts an entry at its estimate while in flight and at its real cost once answered', () => {
    const w = new UsageWindow(1000, 1000);
    const a = w.add(1, 100);
    const b = w.add(2, 100);
    expect(w.used(0)).toBe(200);
    w.settle(a, 10, 40);
    expect(w.used(10)).toBe(140);
    expect(a.weight).toBe(40);
    w.settle(b, 20, 300);
    expect(w.used(20)).toBe(340);
    expect(w.usedAfter(1, 20)).toBe(300);
    // Each leaves at its own answer + window, with the weight it was settled at.
    expect(w.used(1010)).toBe(300);
    expect(w.used(1020)).toBe(0);
  });

  it('gives back a refused request: settled at nothing, it frees its estimate at once', () => {
    const w = new UsageWindow(100, 1000);
    const a = w.add(1, 80);
    expect(w.freeAt(30, 100, 0)).toBe(Infinity);
    w.settle(a, 5, 0);
    expect(w.used(5)).toBe(0);
    expect(w.freeAt(30, 100, 5)).toBe(5);
    expect(w.size).toBe(1);
    expect(w.used(1005)).toBe(0);
    expect(w.size).toBe(0);
  });

  it('lets an entry leave exactly one window after its answer, not a millisecond before', () => {
    const w = new UsageWindow(1, 1000);
    w.settle(w.add(1, 1), 500);
    expect(w.used(1499)).toBe(1);
    expect(w.freeAt(1, 1, 1499)).toBe(1500);
    expect(w.usedAfter(0, 1499)).toBe(1);
    expect(w.used(1500)).toBe(0);
    expect(w.freeAt(1, 1, 1500)).toBe(1500);
    expect(w.usedAfter(0, 1500)).toBe(0);
  });

  it('finds when enough room frees for a heavy entry among many answered ones, and waits for answers beyond them', () => {
    const w = new UsageWindow(100, 1000);
    for (let i = 1; i <= 10; i++) w.settle(w.add(i, 10), i * 10);
    expect(w.freeAt(1, 100, 100)).toBe(1010);
    expect(w.freeAt(35, 100, 100)).toBe(1040);
    expect(w.freeAt(100, 100, 100)).toBe(1100);
    // One more in flight: a full window's worth then waits for its answer.
    w.add(11, 5);
    expect(w.freeAt(95, 100, 100)).toBe(1100);
    expect(w.freeAt(100, 100, 100)).toBe(Infinity);
  });

  it('keeps answered entries in leaving order when the clock goes back', () => {
    const w = new UsageWindow(100, 1000);
    const a = w.add(1, 10);
    const b = w.add(2, 20);
    const c = w.add(3, 30);
    w.settle(a, 500);
    w.settle(b, 300);
    w.settle(c, 400);
    expect(w.freeAt(100, 100, 600)).toBe(1500);
    expect(w.freeAt(60, 100, 600)).toBe(1300);
    expect(w.freeAt(70, 100, 600)).toBe(1400);
    expect(w.used(1300)).toBe(40);
    expect(w.used(1400)).toBe(10);
    expect(w.used(1500)).toBe(0);
  });

  it('moves answered entries when the window changes length, and counts later ones at the new length', () => {
    const w = new UsageWindow(10, 1000);
    w.settle(w.add(1, 1), 0);
    const late = w.add(2, 1);
    w.setWindow(400);
    w.settle(late, 100);
    expect(w.used(399)).toBe(2);
    expect(w.used(400)).toBe(1);
    expect(w.used(500)).toBe(0);
  });

  it('tells the weight after a request whichever way the request asked about moves', () => {
    const w = new UsageWindow(1000, 1000);
    const entries = [1, 2, 3, 4, 5].map((seq) => w.add(seq, seq * 10));
    expect(w.usedAfter(2, 0)).toBe(120);
    expect(w.usedAfter(4, 0)).toBe(50);
    expect(w.usedAfter(0, 0)).toBe(150);
    w.settle(entries[4]!, 0, 1);
    expect(w.usedAfter(4, 0)).toBe(1);
    expect(w.usedAfter(-1, 0)).toBe(101);
  });

  it('counts entries of the same seq apart, as schedulers sharing an address window number their own', () => {
    const w = new UsageWindow(10, 1000);
    const a = w.add(1, 1);
    const b = w.add(1, 1);
    w.add(2, 1);
    expect(w.usedAfter(0, 0)).toBe(3);
    w.settle(b, 0);
    w.settle(a, 10);
    expect(w.usedAfter(0, 1000)).toBe(2);
    expect(w.usedAfter(1, 1000)).toBe(1);
    expect(w.usedAfter(0, 1010)).toBe(1);
  });

  it('refuses to settle an entry twice', () => {
    const w = new UsageWindow(10, 1000);
    const a = w.add(1, 1);
    w.settle(a, 0);
    expect(() => w.settle(a, 5)).toThrow(/settled twice/);
  });

  it('answers every question as a scan of every entry does', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), weight: fc.integer({ min: 0, max: 300 }) }),
      fc.record({ kind: fc.constant('settle' as const), pick: fc.nat(), weight: fc.option(fc.integer({ min: 0, max: 300 }), { nil: undefined }) }),
      fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: -50, max: 400 }) }),
      fc.record({ kind: fc.constant('window' as const), ms: fc.integer({ min: 100, max: 2000 }) }),
      fc.record({ kind: fc.constant('ask' as const), weight: fc.integer({ min: 0, max: 1200 }), limit: fc.integer({ min: 1, max: 1000 }), back: fc.nat(12) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const fast = new UsageWindow(1000, 1000);
        const scan = new ScanWindow(1000, 1000);
        const inFlight: Array<[UsageEntry, { weight: number; expiresAt: number }]> = [];
        let now = 0;
        let seq = 0;
        for (const o of ops) {
          if (o.kind === 'add') {
            seq++;
            inFlight.push([fast.add(seq, o.weight), scan.add(seq, o.weight)]);
          } else if (o.kind === 'settle' && inFlight.length > 0) {
            const [f, s] = inFlight.splice(o.pick % inFlight.length, 1)[0]!;
            fast.settle(f, now, o.weight);
            scan.settle(s, now, o.weight);
          } else if (o.kind === 'tick') {
            // Mostly forward; now and then back a little, as a wall clock may go.
            now = Math.max(0, now + o.ms);
          } else if (o.kind === 'window') {
            fast.setWindow(o.ms);
            scan.setWindow(o.ms);
          } else if (o.kind === 'ask') {
            expect(fast.freeAt(o.weight, o.limit, now)).toBe(scan.freeAt(o.weight, o.limit, now));
            expect(fast.usedAfter(seq - o.back, now)).toBe(scan.usedAfter(seq - o.back, now));
            expect(fast.size).toBe(scan.entries.length);
          }
          expect(fast.used(now)).toBe(scan.used(now));
        }
      }),
      { numRuns: 500 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import { UsageWindow } from './usageWindow.js';

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

import { describe, expect, it } from 'vitest';
import { FixedWindow } from './FixedWindow.js';

describe('FixedWindow', () => {
  it('opens with the first use and refuses once the allowance is spent', () => {
    const w = new FixedWindow(3, 1000);
    expect([w.tryTake(100, 1), w.tryTake(200, 1), w.tryTake(300, 1), w.tryTake(400, 1)]).toEqual([true, true, true, false]);
    expect(w.remainingAt(400)).toBe(0);
    expect(w.resetInMs(400)).toBe(700);
  });

  it('starts afresh when the window has ended', () => {
    const w = new FixedWindow(1, 1000);
    w.tryTake(0, 1);
    expect(w.tryTake(999, 1)).toBe(false);
    expect(w.tryTake(1000, 1)).toBe(true);
    expect(w.resetInMs(1000)).toBe(1000);
  });

  it('an empty window admits one use larger than the whole allowance', () => {
    const w = new FixedWindow(10, 1000);
    expect(w.fits(0, 50)).toBe(true);
    w.take(0, 50);
    expect(w.fits(1, 1)).toBe(false);
    expect(w.remainingAt(1)).toBe(0);
  });

  it('fits tells without taking', () => {
    const w = new FixedWindow(10, 1000);
    w.take(0, 6);
    expect(w.fits(1, 4)).toBe(true);
    expect(w.fits(1, 5)).toBe(false);
    expect(w.usedAt(1)).toBe(6);
    expect(w.usedAt(1000)).toBe(0);
  });

  it('a clock that goes back opens a new window rather than counting into the future', () => {
    const w = new FixedWindow(1, 1000);
    w.tryTake(5000, 1);
    expect(w.tryTake(4000, 1)).toBe(true);
  });
});

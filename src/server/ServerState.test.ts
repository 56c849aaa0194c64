import { describe, expect, it } from 'vitest';
import { ServerClock } from './ServerState.js';

describe('ServerClock', () => {
  it('follows its base clock, shifted by set and advance', () => {
    let base = 1000;
    const c = new ServerClock({ now: () => base });
    c.set(5000);
    base += 10;
    expect(c.now()).toBe(5010);
    c.advance(90);
    expect(c.now()).toBe(5100);
  });

  it('a frozen clock stands still until advanced; restore goes back to the base', () => {
    let base = 1000;
    const c = new ServerClock({ now: () => base });
    c.set(7000, true);
    base += 500;
    expect(c.now()).toBe(7000);
    expect(c.frozen).toBe(true);
    c.advance(1);
    expect(c.now()).toBe(7001);
    c.restore();
    expect(c.now()).toBe(1500);
    expect(c.frozen).toBe(false);
  });
});

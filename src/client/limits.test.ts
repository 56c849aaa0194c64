import { describe, expect, it } from 'vitest';
import { fullJitter } from './scheduler.js';
import { DEFAULT_LIMITS, resolveLimits } from './limits.js';

describe('resolveLimits', () => {
  it('starts from the spec and scales every window', () => {
    expect(resolveLimits()).toEqual(DEFAULT_LIMITS);
    expect(resolveLimits({ scale: 0.01, requestsPerMinute: 60, reservePercent: 10 })).toEqual({
      spaceRequests: { limit: 60, windowMs: 600 },
      addressRequests: { limit: 50, windowMs: 100 },
      blocks: { limit: 20_000, windowMs: 600 },
      reservePercent: 10,
    });
    expect(() => resolveLimits({ scale: 0 })).toThrow(RangeError);
    expect(() => resolveLimits({ reservePercent: 95 })).toThrow(RangeError);
  });
});

describe('fullJitter', () => {
  it('draws below a ceiling that doubles per attempt up to the cap', () => {
    const o = { baseMs: 100, capMs: 1000 };
    expect([1, 2, 3, 4, 5].map((n) => fullJitter(n, o, () => 0.999))).toEqual([99, 199, 399, 799, 999]);
    expect(fullJitter(3, o, () => 0)).toBe(0);
  });
});

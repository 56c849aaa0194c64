import { describe, expect, it } from 'vitest';
import { fullJitter } from './scheduler.js';
import { DEFAULT_LIMITS, resolveLimits, blockBudgetReport, parseReset, requestBudgetReport, retryAfterMs } from './limits.js';

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

const now = Date.UTC(2026, 8, 5, 10, 0, 0);

describe('rate headers', () => {
  it('reads the request and block budgets', () => {
    expect(requestBudgetReport({ 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '42', 'x-ratelimit-reset': '12.5' }, now)).toEqual({
      limit: 100,
      remaining: 42,
      resetAt: now + 12_500,
    });
    expect(blockBudgetReport({ 'x-blockbudget-remaining': '19000' }, now)).toEqual({ limit: undefined, remaining: 19000, resetAt: undefined });
    expect(requestBudgetReport({ 'x-ratelimit-limit': '100' }, now)).toBeUndefined();
    expect(requestBudgetReport({ 'x-ratelimit-remaining': 'lots' }, now)).toBeUndefined();
  });

  it('understands a reset as seconds from now, epoch seconds, epoch milliseconds or a date', () => {
    expect(parseReset('30', now)).toBe(now + 30_000);
    expect(parseReset(String(now / 1000 + 30), now)).toBe(now + 30_000);
    expect(parseReset(String(now + 30_000), now)).toBe(now + 30_000);
    expect(parseReset(new Date(now + 30_000).toUTCString(), now)).toBe(now + 30_000);
    expect(parseReset('-1', now)).toBeUndefined();
  });

  it('reads Retry-After in seconds, as an HTTP date against the Date header, and its exact form', () => {
    expect(retryAfterMs({ 'retry-after': '7' }, now)).toBe(7000);
    expect(retryAfterMs({ 'retry-after': '0.25' }, now)).toBe(250);
    expect(retryAfterMs({ 'retry-after': new Date(now + 5000).toUTCString() }, now)).toBe(5000);
    const served = now - 3_600_000;
    expect(retryAfterMs({ 'retry-after': new Date(served + 5000).toUTCString(), date: new Date(served).toUTCString() }, now)).toBe(5000);
    expect(retryAfterMs({ 'retry-after': '1', 'retry-after-ms': '6' }, now)).toBe(6);
    expect(retryAfterMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(retryAfterMs({}, now)).toBeUndefined();
  });
});

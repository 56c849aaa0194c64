import { describe, expect, it } from 'vitest';
import { afterFailedDownload, downloadDue, retryDelayMs } from './downloadRetry.js';

const T0 = new Date('2026-09-05T10:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

describe('download retries', () => {
  it('back off from 1 minute, doubling to 1 hour', () => {
    expect([1, 2, 3, 6, 7, 8, 40].map(retryDelayMs)).toEqual([60_000, 120_000, 240_000, 1_920_000, 3_600_000, 3_600_000, 3_600_000]);
  });

  it('a failed URL is not tried before its time, then is; a second failure waits twice as long', () => {
    const one = afterFailedDownload(undefined, 'https://s/a', T0, { message: '500' });
    expect(one).toEqual({ url: 'https://s/a', failures: 1, notBefore: at(60_000).toISOString(), message: '500' });
    expect(downloadDue(one, 'https://s/a', at(59_999), 100)).toBe(false);
    expect(downloadDue(one, 'https://s/a', at(60_000), 100)).toBe(true);
    const two = afterFailedDownload(one, 'https://s/a', at(60_000), { message: '404' });
    expect(two.failures).toBe(2);
    expect(downloadDue(two, 'https://s/a', at(60_000 + 119_999), 100)).toBe(false);
    expect(downloadDue(two, 'https://s/a', at(180_000), 100)).toBe(true);
  });

  it('a new URL (the block got a new asset) starts afresh', () => {
    const two = afterFailedDownload(afterFailedDownload(undefined, 'https://s/a', T0, { message: 'x' }), 'https://s/a', T0, { message: 'x' });
    expect(downloadDue(two, 'https://s/b', T0, 100)).toBe(true);
    expect(afterFailedDownload(two, 'https://s/b', T0, { message: 'x' }).failures).toBe(1);
  });

  it('a too-large asset waits for the setting to hold it, however long it has been', () => {
    const big = afterFailedDownload(undefined, 'https://s/v', T0, { message: 'too large', tooLarge: { size: 3 * 1024 * 1024, maxMiB: 2 } });
    expect(downloadDue(big, 'https://s/v', at(10 * 3_600_000), 2)).toBe(false);
    expect(downloadDue(big, 'https://s/v', T0, 3)).toBe(true);
  });
});

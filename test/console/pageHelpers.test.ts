// The page's own helpers that are not drawing (src/console/page/*.js, plain ES modules the browser
// loads as they are; Node loads them the same way here).
import { describe, expect, it } from 'vitest';

type Call = (id: number) => void;
const page = (file: string) => new URL(`../../src/console/page/${file}`, import.meta.url).href;
const { oneAtATime } = (await import(page('api.js'))) as { oneAtATime: (fn: (id: number) => Promise<unknown>) => Call };
const { ago, count } = (await import(page('time.js'))) as { ago: (iso: string, now: number) => string; count: (n: number, one: string) => string };

describe('oneAtATime', () => {
  it('runs one read per mirror at a time; the calls made meanwhile become one more read after it', async () => {
    const started: number[] = [];
    const finish: Array<() => void> = [];
    const read = oneAtATime((id) => {
      started.push(id);
      return new Promise<void>((resolve) => finish.push(resolve));
    });
    read(0);
    read(0);
    read(0);
    read(1);
    expect(started).toEqual([0, 1]);
    finish.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual([0, 1, 0]);
    finish.shift()!();
    finish.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual([0, 1, 0]);
  });

  it('a read that fails does not stop the next one', async () => {
    let n = 0;
    const read = oneAtATime(() => (n++ === 0 ? Promise.reject(new Error('no')) : Promise.resolve()));
    read(0);
    read(0);
    await new Promise((r) => setTimeout(r, 10));
    expect(n).toBe(2);
  });
});

describe('times and counts as the terminal writes them', () => {
  it('ago', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(ago('2026-11-21T09:59:58Z', now)).toBe('just now');
    expect(ago('2026-11-21T09:59:18Z', now)).toBe('42 s ago');
    expect(ago('2026-11-21T09:55:00Z', now)).toBe('5 min ago');
    expect(ago('2026-11-21T07:00:00Z', now)).toBe('3 h ago');
    expect(ago('2026-11-19T10:00:00Z', now)).toBe('2 days ago');
    expect(ago('2026-11-21T10:00:40Z', now)).toBe('in 40 s');
    expect(count(1, 'document')).toBe('1 document');
    expect(count(3, 'document')).toBe('3 documents');
  });
});

import { describe, expect, it } from 'vitest';
import { OwnWrites } from './OwnWrites.js';

describe('OwnWrites', () => {
  let t = 0;
  const clock = () => t;

  it('claims an event whose result the daemon wrote, once', () => {
    t = 0;
    const own = new OwnWrites({ now: clock });
    own.note('A.md', 'h1');
    expect(own.consume('A.md', 'h2')).toBe(false);
    expect(own.consume('B.md', 'h1')).toBe(false);
    expect(own.consume('A.md', 'h1')).toBe(true);
    expect(own.consume('A.md', 'h1')).toBe(false); // the same bytes again later are the user's
    expect(own.size).toBe(0);
  });

  it('claims removals noted as null', () => {
    const own = new OwnWrites({ now: clock });
    own.note('A.md', null);
    expect(own.consume('A.md', 'h')).toBe(false);
    expect(own.consume('A.md', null)).toBe(true);
  });

  it('keeps several writes in flight, and a claim uses up the older ones', () => {
    t = 0;
    const own = new OwnWrites({ now: clock });
    own.note('A.md', 'v1');
    own.note('A.md', 'v2');
    own.note('A.md', 'v3');
    expect(own.consume('A.md', 'v2')).toBe(true);
    expect(own.consume('A.md', 'v1')).toBe(false); // superseded: a user reverting to v1 is an edit
    expect(own.consume('A.md', 'v3')).toBe(true);
  });

  it('forgets records after the time to live', () => {
    t = 1000;
    const own = new OwnWrites({ ttlMs: 500, now: clock });
    own.note('A.md', 'h');
    t = 1500;
    expect(own.size).toBe(1);
    t = 1501;
    expect(own.size).toBe(0);
    expect(own.consume('A.md', 'h')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { OwnWrites } from './OwnWrites.js';

describe('OwnWrites', () => {
  let t = 0;
  const clock = () => t;

  it('claims an event whose result the daemon wrote, once', () => {
    t = 0;
    const own = new OwnWrites({ now: clock });
    own.note('A.md', 'h1');
    expect(own.consume('B.md', 'h1')).toBe(false);
    expect(own.consume('A.md', 'h1')).toBe(true);
    expect(own.consume('A.md', 'h1')).toBe(false); // the same bytes again later are the user's
    expect(own.size).toBe(0);
  });

  it('claims removals noted as null', () => {
    const own = new OwnWrites({ now: clock });
    own.note('A.md', null);
    expect(own.consume('A.md', null)).toBe(true);
  });

  it("forgets a path's records once the file shows bytes the daemon did not write", () => {
    const own = new OwnWrites({ now: clock });
    own.note('A.md', 'pulled');
    expect(own.consume('A.md', 'user edit')).toBe(false);
    // The user reverting to what the daemon wrote is an edit too.
    expect(own.consume('A.md', 'pulled')).toBe(false);
  });

  it('keeps several writes in flight, and a claim uses up the older ones', () => {
    t = 0;
    const own = new OwnWrites({ now: clock });
    own.note('A.md', 'v1');
    own.note('A.md', 'v2');
    own.note('A.md', 'v3');
    expect(own.consume('A.md', 'v2')).toBe(true);
    expect(own.consume('A.md', 'v3')).toBe(true);
    own.note('A.md', 'v4');
    own.note('A.md', 'v5');
    expect(own.consume('A.md', 'v5')).toBe(true);
    expect(own.consume('A.md', 'v4')).toBe(false); // superseded: a user reverting to v4 is an edit
  });

  it('says whether a path has a live record, without using it up', () => {
    t = 0;
    const own = new OwnWrites({ ttlMs: 500, now: clock });
    own.note('A.md', 'h');
    expect([own.has('A.md'), own.has('B.md')]).toEqual([true, false]);
    expect(own.consume('A.md', 'h')).toBe(true);
    expect(own.has('A.md')).toBe(false);
    own.note('A.md', 'h');
    t = 501;
    expect(own.has('A.md')).toBe(false);
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

import { describe, expect, it } from 'vitest';
import { pullOrder, type PullOrderEntry } from './pullOrder.js';

const now = new Date('2026-11-27T09:00:00Z');
const doc = (id: string, lastModifiedAt: string | null, dailyNoteDate: string | null = null): PullOrderEntry => ({ id, lastModifiedAt, dailyNoteDate });

describe('pullOrder', () => {
  it('reads the most recently modified documents first, those without a time last, ties in the order given', () => {
    const entries = [
      doc('old', '2024-01-01T00:00:00Z'),
      doc('none', null),
      doc('new', '2026-11-26T10:00:00Z'),
      doc('mid-a', '2025-06-01T00:00:00Z'),
      doc('mid-b', '2025-06-01T00:00:00Z'),
    ];
    expect(pullOrder(entries, now)).toEqual(['new', 'mid-a', 'mid-b', 'old', 'none']);
  });

  it("puts the last week's daily notes first, today's first, whenever they were last modified", () => {
    const entries = [
      doc('note', '2026-11-27T08:00:00Z'),
      doc('day-21', '2026-11-21T20:00:00Z', '2026-11-21'),
      doc('day-27', '2026-11-20T00:00:00Z', '2026-11-27'),
      doc('day-25', null, '2026-11-25'),
      // Eight days ago: an old note like any other, by its modification time.
      doc('day-19', '2026-11-19T20:00:00Z', '2026-11-19'),
      doc('day-20', '2026-11-01T00:00:00Z', '2026-11-20'),
      doc('day-2020', '2026-11-26T00:00:00Z', '2020-01-01'),
    ];
    expect(pullOrder(entries, now)).toEqual(['day-27', 'day-25', 'day-21', 'day-20', 'note', 'day-2020', 'day-19']);
  });

  it('counts tomorrow as recent (a space ahead of UTC) but not the day after', () => {
    const entries = [doc('a', '2026-11-27T00:00:00Z'), doc('tomorrow', null, '2026-11-28'), doc('later', null, '2026-11-29')];
    expect(pullOrder(entries, now)).toEqual(['tomorrow', 'a', 'later']);
  });

  it('keeps every entry once', () => {
    expect(pullOrder([], now)).toEqual([]);
    const many = Array.from({ length: 50 }, (_, i) => doc(`d${i}`, i % 3 === 0 ? null : new Date(Date.UTC(2026, 0, 1 + (i % 17))).toISOString()));
    expect([...pullOrder(many, now)].sort()).toEqual(many.map((d) => d.id).sort());
  });
});

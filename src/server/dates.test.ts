import { describe, expect, it } from 'vitest';
import { addDays, checkTimezone, dailyNoteTitle, friendlyDate, isCalendarDate, localDate, localDateTime, resolveDate, utcSeconds } from './dates.js';

const t = Date.parse('2026-09-05T22:30:00Z');

describe('dates in the space time zone', () => {
  it('a day is the calendar day in the zone, not in UTC', () => {
    expect(localDate(t, 'UTC')).toBe('2026-09-05');
    expect(localDate(t, 'Europe/Berlin')).toBe('2026-09-06');
    expect(localDate(t, 'America/Los_Angeles')).toBe('2026-09-05');
  });

  it('local time, friendly date and the UTC clock', () => {
    expect(localDateTime(t, 'Europe/Berlin')).toBe('2026-09-06T00:30:00');
    expect(friendlyDate(t, 'Europe/Berlin')).toBe('6 Sep');
    expect(utcSeconds(t + 123)).toBe('2026-09-05T22:30:00Z');
  });

  it('today, tomorrow and yesterday resolve in the zone; dates must be real', () => {
    expect(resolveDate('today', t, 'Europe/Berlin')).toBe('2026-09-06');
    expect(resolveDate('tomorrow', t, 'Europe/Berlin')).toBe('2026-09-07');
    expect(resolveDate('yesterday', t, 'UTC')).toBe('2026-09-04');
    expect(resolveDate('2026-02-28', t, 'UTC')).toBe('2026-02-28');
    expect(resolveDate('2026-02-30', t, 'UTC')).toBeUndefined();
    expect(resolveDate('next week', t, 'UTC')).toBeUndefined();
    expect(isCalendarDate('2024-02-29')).toBe(true);
  });

  it('adds days across months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('daily-note titles look like 2026.11.21', () => {
    expect(dailyNoteTitle('2026-11-21')).toBe('2026.11.21');
  });

  it('an unknown zone is named in the error', () => {
    expect(() => checkTimezone('Mars/Olympus')).toThrow(/Mars\/Olympus/);
    expect(() => checkTimezone('Asia/Tokyo')).not.toThrow();
  });
});

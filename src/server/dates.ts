// Calendar days in the space's time zone: date filters, daily notes and `today` are whole days
// there (docs/api.md, Envelopes: dates are whole days in the space's time zone).

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timezone: string): Intl.DateTimeFormat {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timezone, f);
  }
  return f;
}

/** Throws a RangeError naming the zone when `timezone` is not an IANA time zone. */
export function checkTimezone(timezone: string): void {
  try {
    partsFormatter(timezone);
  } catch {
    throw new RangeError(`Unknown time zone "${timezone}": use an IANA name such as Europe/Berlin or UTC.`);
  }
}

function localParts(ms: number, timezone: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of partsFormatter(timezone).formatToParts(new Date(ms))) out[p.type] = p.value;
  return out;
}

/** `YYYY-MM-DD` of the instant `ms` in `timezone`. */
export function localDate(ms: number, timezone: string): string {
  const p = localParts(ms, timezone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** `YYYY-MM-DDTHH:mm:ss` (no offset), as `GET /connection` shows the space's time. */
export function localDateTime(ms: number, timezone: string): string {
  const p = localParts(ms, timezone);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `5 Sep`. */
export function friendlyDate(ms: number, timezone: string): string {
  const p = localParts(ms, timezone);
  return `${Number(p.day)} ${MONTHS[Number(p.month) - 1]}`;
}

/** `2026-09-05T10:00:00Z`: the service's UTC clock, to the second. */
export function utcSeconds(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isCalendarDate(s: string): boolean {
  const m = DAY.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

export function addDays(date: string, days: number): string {
  const m = DAY.exec(date);
  if (!m) throw new RangeError(`not a date: ${date}`);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days)).toISOString().slice(0, 10);
}

/**
 * `YYYY-MM-DD`, `today`, `tomorrow` or `yesterday` → the calendar date in the space's zone;
 * undefined when `input` is none of them.
 */
export function resolveDate(input: string, now: number, timezone: string): string | undefined {
  if (input === 'today') return localDate(now, timezone);
  if (input === 'tomorrow') return addDays(localDate(now, timezone), 1);
  if (input === 'yesterday') return addDays(localDate(now, timezone), -1);
  return isCalendarDate(input) ? input : undefined;
}

/** Daily-note titles look like `2026.11.21`. */
export function dailyNoteTitle(date: string): string {
  return date.replaceAll('-', '.');
}

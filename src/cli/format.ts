// The words and shapes every command's output shares: counts with their noun, names listed up to a
// few, indented lists cut at a maximum, times as a person reads them, a path quoted for a shell line.
// One module, so "3 documents", "A, B and 4 more" and "5 min ago" read the same in every command.
import { isSpacesyncError } from '../errors.js';
import { redactText } from '../redact.js';

/** How many names a line shows before it counts the rest. */
export const NAMED = 3;

/** `A, B, C and 4 more`. */
export function nameList(names: readonly string[], max = NAMED): string {
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

/** `1 document`, `3 documents` (or the plural given). */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** One indented line per item, at most `max`, then a line counting the rest (with `more`, what shows them all). */
export function indentedList<T>(items: readonly T[], show: (t: T) => string, opts: { indent: string; max: number; more?: string }): string[] {
  const lines = items.slice(0, opts.max).map((t) => `${opts.indent}${show(t)}`);
  if (items.length > opts.max) lines.push(`${opts.indent}… and ${items.length - opts.max} more${opts.more ? ` (${opts.more})` : ''}`);
  return lines;
}

/** Quotes a path for a shell line when it needs it, so the printed next command can be pasted. */
export function shellQuote(p: string): string {
  return /^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
}

/** A length of time as a person says it: `45 s`, `2 min 10 s`, `1 h 5 min`. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return s % 60 === 0 ? `${s / 60} min` : `${Math.floor(s / 60)} min ${s % 60} s`;
  const min = Math.round((s % 3600) / 60);
  const h = Math.floor(s / 3600) + (min === 60 ? 1 : 0);
  return min === 0 || min === 60 ? `${h} h` : `${h} h ${min} min`;
}

/** "just now", "42 s ago", "5 min ago", "3 h ago", "2 days ago". */
export function ago(thenIso: string, now: Date): string {
  const s = Math.round((now.getTime() - Date.parse(thenIso)) / 1000);
  if (!Number.isFinite(s)) return 'at an unknown time';
  if (s < 0) return 'in the future (check the clock)';
  if (s < 5) return 'just now';
  if (s < 90) return `${s} s ago`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min ago`;
  if (s < 36 * 3600) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} days ago`;
}

/** A local time a person reads: `2026-11-21 09:30:05`. */
export function localTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** `1.5 MiB`, `320 KiB`, `12 bytes`. */
export function byteSize(n: number): string {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KiB`;
  return `${n} byte${n === 1 ? '' : 's'}`;
}

// The exit code of an error, and, for `--json`, the error as a JSON object on stdout: a script that
// asked for JSON gets JSON whatever happened (`{"error": {"code", "message", "exitCode"}}`).
/** 2 refused by a safety check, 64 a usage mistake, 1 any other error. */
export function exitCodeOf(e: unknown): number {
  if (!isSpacesyncError(e)) return 1;
  if (e.code === 'refused_safety') return 2;
  if (e.code === 'usage') return 64;
  return 1;
}

/**
 * Runs a command's action; with `json`, an error it throws is printed as a JSON object on stdout
 * (the link masked) and becomes the exit code, instead of a line on stderr and nothing on stdout.
 */
export async function withJsonErrors(json: boolean | undefined, action: () => Promise<number>): Promise<number> {
  try {
    return await action();
  } catch (e) {
    if (!json || !isSpacesyncError(e)) throw e;
    const exitCode = exitCodeOf(e);
    process.stdout.write(`${JSON.stringify({ error: { code: e.code, message: redactText(e.message), exitCode } }, null, 2)}\n`);
    return exitCode;
  }
}

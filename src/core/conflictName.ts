// The name of a conflict copy, `<title> (conflict <date> <time>).md`, kept beside the document and never synced.
import { collisionKey, dirOfPath, stemOfPath, suffixedStem } from './fileName.js';

/** `2026-11-21 14-30-05` in the given time zone (colons cannot appear in file names on Windows). */
export function conflictStamp(now: Date, timeZone = 'UTC'): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}-${get('minute')}-${get('second')}`;
}

/** Matches a conflict copy's file name, so scans can leave these files out of sync. */
export const CONFLICT_NAME = /\(conflict \d{4}-\d{2}-\d{2} \d{2}-\d{2}-\d{2}(?: \d+)?\)\.md$/;

/**
 * The relative path of the conflict copy of the document at `relPath`, unique against `taken`
 * (paths already in use; compared as the file system would), with ` 2`, ` 3`… when two copies share a second.
 */
export function conflictCopyPath(relPath: string, now: Date, taken: ReadonlySet<string> = new Set(), timeZone = 'UTC'): string {
  const dir = dirOfPath(relPath);
  const stem = stemOfPath(relPath);
  const stamp = conflictStamp(now, timeZone);
  const takenKeys = new Set([...taken].map(collisionKey));
  for (let n = 1; ; n++) {
    const name = `${suffixedStem(stem, n === 1 ? `conflict ${stamp}` : `conflict ${stamp} ${n}`)}.md`;
    const candidate = dir === '' ? name : `${dir}/${name}`;
    if (!takenKeys.has(collisionKey(candidate))) return candidate;
  }
}

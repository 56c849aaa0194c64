// A task's dates as a file writes them: the signifiers of the Tasks plugin for Markdown editors at
// the end of the task line, `⏳ YYYY-MM-DD` (scheduleDate) then `📅 YYYY-MM-DD` (deadlineDate).
// The service keeps the dates in `taskInfo`, never in the block's markdown: a file's task line is
// the service's markdown with the signifiers appended, and reading a file takes them off again.
// Only a task block's trailing signifiers with a real calendar date are read; anything else is text.
import { readBlock } from './readBlock.js';
import { markerOf, withMarker, withoutMarker } from './blockIdMarker.js';

export const SCHEDULED = '⏳';
export const DUE = '📅';

export interface TaskDates {
  scheduleDate?: string;
  deadlineDate?: string;
}

/** A block's markdown without its trailing date signifiers, and the dates they gave. */
export interface SplitTaskDates extends TaskDates {
  markdown: string;
}

const CALLOUT_END = /<\/callout>[ \t]*$/;
const TRAILING = /[ \t]+(⏳|📅)[ \t]+(\d{4})-(\d{2})-(\d{2})[ \t]*$/u;

/** Whether `YYYY-MM-DD` names a day of the calendar (`2026-13-45` does not). */
export function isCalendarDate(y: string, m: string, d: string): boolean {
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(m) - 1 && date.getUTCDate() === Number(d);
}

/** Whether a block markdown is a task (list style task). */
export const isTaskMarkdown = (markdown: string): boolean => {
  try {
    return readBlock(markdown).listStyle === 'task';
  } catch {
    return false;
  }
};

/** The trailing signifiers of `text` (each kind at most once, in any order) taken off. */
function takeDates(text: string): SplitTaskDates {
  const out: SplitTaskDates = { markdown: text };
  let rest = text;
  for (;;) {
    const m = TRAILING.exec(rest);
    if (!m) break;
    const key = m[1] === SCHEDULED ? 'scheduleDate' : 'deadlineDate';
    if (out[key] !== undefined || !isCalendarDate(m[2]!, m[3]!, m[4]!)) break;
    out[key] = `${m[2]}-${m[3]}-${m[4]}`;
    rest = rest.slice(0, m.index);
    // A task keeps some text before its dates: `- [ ] ⏳ 2026-12-01` alone is text.
    if (!/\S/.test(rest.replace(/^[ \t]*(?:>[ \t]*)?(?:<callout>)?[ \t]*[-*+][ \t]+\[[ xX-]\]/, ''))) return { markdown: text };
  }
  out.markdown = rest;
  return out;
}

/**
 * A block markdown as a file shows it → the service's markdown and the task's dates. Not a task, or
 * no valid trailing signifier: the markdown unchanged and no dates.
 */
export function splitTaskDates(markdown: string): SplitTaskDates {
  if (!markdown.includes(SCHEDULED) && !markdown.includes(DUE)) return { markdown };
  if (!isTaskMarkdown(markdown)) return { markdown };
  // A block-id marker stands after the dates (blockIdMarker.ts): the dates are read before it, and it stays.
  const marker = markerOf(markdown);
  if (marker !== undefined) {
    const bare = withoutMarker(markdown, marker);
    const inner = splitTaskDates(bare);
    return inner.markdown === bare ? { markdown } : { ...inner, markdown: withMarker(inner.markdown, marker) };
  }
  const close = CALLOUT_END.exec(markdown);
  if (close) {
    const inner = takeDates(markdown.slice(0, close.index));
    return { ...inner, markdown: inner.markdown + markdown.slice(close.index) };
  }
  const lastLine = markdown.lastIndexOf('\n');
  const head = markdown.slice(0, lastLine + 1);
  const split = takeDates(markdown.slice(lastLine + 1));
  if (lastLine >= 0 && split.markdown === markdown.slice(lastLine + 1)) return { markdown };
  return { ...split, markdown: head + split.markdown };
}

/** The signifiers of the dates, in the file's order, each after one space; '' without dates. */
export function dateSuffix(dates: TaskDates): string {
  return (dates.scheduleDate ? ` ${SCHEDULED} ${dates.scheduleDate}` : '') + (dates.deadlineDate ? ` ${DUE} ${dates.deadlineDate}` : '');
}

/**
 * The service's markdown of a block with its task dates as the file shows them: the signifiers at the
 * end of the task line (inside a callout's closing tag). Not a task, or no dates: the markdown as is.
 */
export function withTaskDates(markdown: string, dates: TaskDates | undefined): string {
  const suffix = dates ? dateSuffix(dates) : '';
  if (suffix === '' || !isTaskMarkdown(markdown)) return markdown;
  const marker = markerOf(markdown);
  if (marker !== undefined) return withMarker(withTaskDates(withoutMarker(markdown, marker), dates), marker);
  const close = CALLOUT_END.exec(markdown);
  if (close) return markdown.slice(0, close.index).replace(/[ \t]+$/, '') + suffix + markdown.slice(close.index);
  return markdown.replace(/[ \t]+$/, '') + suffix;
}

/** Whether two file markdowns give the same dates. */
export function sameTaskDates(a: TaskDates, b: TaskDates): boolean {
  return (a.scheduleDate ?? '') === (b.scheduleDate ?? '') && (a.deadlineDate ?? '') === (b.deadlineDate ?? '');
}

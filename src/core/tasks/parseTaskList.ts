// A task file's text → its task lines. Every line with text is a task: `- [ ] text` is open,
// `- [x]` done, `- [-]` canceled; a line without a checkbox (`- text` or `text`) is an open task too,
// so typing a line is enough to add one. Blank lines and lines with no text are skipped. Trailing
// date signifiers (`⏳ YYYY-MM-DD`, `📅 YYYY-MM-DD`) are read as the task's dates.
import { splitTaskDates } from '../../dialect/index.js';
import type { TaskLine, TaskLineState } from './TaskEntry.js';

const CHECKBOX = /^[ \t]*[-*+][ \t]+\[([ xX-])\](?:[ \t]+|$)(.*)$/;
const BULLET = /^[ \t]*[-*+][ \t]+(.*)$/;

export function parseTaskLine(line: string): TaskLine | undefined {
  let state: TaskLineState = 'todo';
  let rest: string;
  const box = CHECKBOX.exec(line);
  if (box) {
    state = box[1] === ' ' ? 'todo' : box[1] === '-' ? 'canceled' : 'done';
    rest = box[2]!;
  } else {
    rest = BULLET.exec(line)?.[1] ?? line;
  }
  const split = splitTaskDates(`- [ ] ${rest.trim()}`);
  const text = split.markdown.slice('- [ ] '.length).trim();
  if (text === '') return undefined;
  return {
    state,
    text,
    ...(split.scheduleDate ? { scheduleDate: split.scheduleDate } : {}),
    ...(split.deadlineDate ? { deadlineDate: split.deadlineDate } : {}),
  };
}

export function parseTaskList(text: string): TaskLine[] {
  const out: TaskLine[] = [];
  for (const raw of text.split('\n')) {
    const line = parseTaskLine(raw.replace(/\r$/, ''));
    if (line) out.push(line);
  }
  return out;
}

import { describe, expect, it } from 'vitest';
import { splitTaskDates, withTaskDates } from './taskDates.js';
import { canonicalMarkdown, markdownEquals } from './canonicalMarkdown.js';
import { renderFileBody, renderDocumentMarkdown } from './renderBlocks.js';

describe('task dates in the file', () => {
  it('renders the dates at the end of a task line, schedule then deadline', () => {
    const body = renderFileBody([
      {
        id: 'A',
        type: 'text',
        listStyle: 'task',
        markdown: '- [ ] call Ana',
        taskInfo: { state: 'todo', deadlineDate: '2026-12-05', scheduleDate: '2026-12-01' },
      },
      { id: 'B', type: 'text', listStyle: 'task', markdown: '- [x] paid', taskInfo: { state: 'done', deadlineDate: '2026-11-30' } },
      { id: 'C', type: 'text', listStyle: 'task', markdown: '- [ ] no dates', taskInfo: { state: 'todo' } },
    ]);
    expect(body).toBe('- [ ] call Ana ⏳ 2026-12-01 📅 2026-12-05\n- [x] paid 📅 2026-11-30\n- [ ] no dates\n');
  });

  it('keeps the service text form without dates (the server renders it)', () => {
    const text = renderDocumentMarkdown({
      id: 'D',
      type: 'page',
      markdown: 'Doc',
      content: [{ id: 'A', type: 'text', listStyle: 'task', markdown: '- [ ] call Ana', taskInfo: { state: 'todo', scheduleDate: '2026-12-01' } }],
    });
    expect(text).not.toContain('⏳');
  });

  it('reads trailing signifiers of a task line back into dates, the rest of the line untouched', () => {
    expect(splitTaskDates('- [ ] call  *Ana* ⏳ 2026-12-01 📅 2026-12-05')).toEqual({
      markdown: '- [ ] call  *Ana*',
      scheduleDate: '2026-12-01',
      deadlineDate: '2026-12-05',
    });
    // Either order, spaces as typed.
    expect(splitTaskDates('  - [-] x 📅 2026-12-05   ⏳  2026-12-01 ')).toEqual({
      markdown: '  - [-] x',
      scheduleDate: '2026-12-01',
      deadlineDate: '2026-12-05',
    });
    expect(splitTaskDates('<callout>- [ ] inside 📅 2026-02-28</callout>')).toEqual({
      markdown: '<callout>- [ ] inside</callout>',
      deadlineDate: '2026-02-28',
    });
    // A date in the middle of the line is text.
    expect(splitTaskDates('- [ ] ⏳ 2026-12-01 is the day')).toEqual({ markdown: '- [ ] ⏳ 2026-12-01 is the day' });
  });

  it('reads a date in a line that is not a task as text', () => {
    for (const md of ['call Ana ⏳ 2026-12-01', '- call Ana 📅 2026-12-05', '# Plan 📅 2026-12-05', '1. one ⏳ 2026-12-01']) {
      expect(splitTaskDates(md)).toEqual({ markdown: md });
      expect(withTaskDates(md, { scheduleDate: '2026-12-01' })).toBe(md);
    }
  });

  it('keeps a malformed date as text of the line', () => {
    expect(splitTaskDates('- [ ] call Ana ⏳ 2026-13-45')).toEqual({ markdown: '- [ ] call Ana ⏳ 2026-13-45' });
    expect(splitTaskDates('- [ ] call Ana ⏳ 2026-02-30 📅 2026-12-05')).toEqual({ markdown: '- [ ] call Ana ⏳ 2026-02-30', deadlineDate: '2026-12-05' });
    expect(splitTaskDates('- [ ] call Ana 📅 26-12-05')).toEqual({ markdown: '- [ ] call Ana 📅 26-12-05' });
    // A task of dates only has no text: its signifiers are its text.
    expect(splitTaskDates('- [ ] ⏳ 2026-12-01')).toEqual({ markdown: '- [ ] ⏳ 2026-12-01' });
  });

  it('compares canonically: spacing and order of the signifiers are one form, a different date is not', () => {
    expect(markdownEquals('- [ ] a  📅 2026-12-05 ⏳ 2026-12-01', '- [ ] a ⏳ 2026-12-01 📅 2026-12-05')).toBe(true);
    expect(markdownEquals('- [ ] a ⏳ 2026-12-01', '- [ ] a ⏳ 2026-12-02')).toBe(false);
    expect(markdownEquals('- [ ] a ⏳ 2026-12-01', '- [ ] a')).toBe(false);
    expect(canonicalMarkdown('* [ ] a ⏳ 2026-12-01')).toBe('- [ ] a ⏳ 2026-12-01');
  });

  it('reads back what it renders', () => {
    const md = withTaskDates('  - [x] done thing', { scheduleDate: '2026-01-31', deadlineDate: '2026-02-01' });
    expect(md).toBe('  - [x] done thing ⏳ 2026-01-31 📅 2026-02-01');
    expect(splitTaskDates(md)).toEqual({ markdown: '  - [x] done thing', scheduleDate: '2026-01-31', deadlineDate: '2026-02-01' });
  });
});

describe('task dates before a block-id marker', () => {
  it('writes the dates before a trailing ` ^id` and reads them back from before it, the marker kept last', () => {
    expect(withTaskDates('- [ ] call Ana ^a1b2c3d4', { scheduleDate: '2026-12-01', deadlineDate: '2026-12-05' })).toBe(
      '- [ ] call Ana ⏳ 2026-12-01 📅 2026-12-05 ^a1b2c3d4',
    );
    expect(splitTaskDates('- [ ] call Ana ⏳ 2026-12-01 📅 2026-12-05 ^a1b2c3d4')).toEqual({
      markdown: '- [ ] call Ana ^a1b2c3d4',
      scheduleDate: '2026-12-01',
      deadlineDate: '2026-12-05',
    });
    expect(splitTaskDates('<callout>- [ ] in 📅 2026-02-28 ^x1</callout>')).toEqual({
      markdown: '<callout>- [ ] in ^x1</callout>',
      deadlineDate: '2026-02-28',
    });
    expect(markdownEquals('- [ ] call 📅 2026-12-05 ⏳ 2026-12-01 ^m', '- [ ] call ⏳ 2026-12-01 📅 2026-12-05 ^m')).toBe(true);
  });
  it('leaves a line with no dates before its marker as it is', () => {
    expect(splitTaskDates('- [ ] call ⏳ soon ^a1')).toEqual({ markdown: '- [ ] call ⏳ soon ^a1' });
    expect(withTaskDates('- [ ] call ^a1', undefined)).toBe('- [ ] call ^a1');
  });
});

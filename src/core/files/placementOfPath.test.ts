import { describe, expect, it } from 'vitest';
import { parseFrontMatter } from './frontMatter.js';
import { localTitle, placementOfPath } from './placementOfPath.js';

const fm = (yaml?: string) => parseFrontMatter(yaml);
const rec = { path: 'Projects/Plan.md', title: 'Plan' };

describe('localTitle', () => {
  it('a new file is named by its front matter title, else its name', () => {
    expect(localTitle('Projects/Launch.md', fm('id: x\n'))).toBe('Launch');
    expect(localTitle('Projects/What_ now.md', fm('title: "What? now"\n'))).toBe('What? now');
  });
  it('a renamed file takes its new name; an untouched one keeps the recorded title', () => {
    expect(localTitle('Projects/Roadmap.md', fm('id: D\n'), rec)).toBe('Roadmap');
    expect(localTitle('Archive/Plan.md', fm('id: D\n'), rec)).toBe('Plan');
  });
  it('an edited title key wins, also when the name cannot carry it', () => {
    expect(localTitle('Projects/Plan.md', fm('id: D\ntitle: "Plan: 2027"\n'), rec)).toBe('Plan: 2027');
    expect(localTitle('Projects/Better.md', fm('id: D\ntitle: Plan\n'), rec)).toBe('Better');
  });
  it("a daily note keeps the service's title", () => {
    expect(localTitle('Daily Notes/2026-09-04.md', fm('id: D\n'), { path: 'Daily Notes/2026-09-04.md', title: '2026.09.04' })).toBe('2026.09.04');
  });
});

describe('placementOfPath', () => {
  const folders = new Map([
    ['F1', 'Projects'],
    ['F2', 'Projects/Sub'],
  ]);
  it('places files by their directory: built-ins, folders, the top of the mirror', () => {
    expect(placementOfPath('Unsorted/a.md', folders)).toEqual({ ok: true, placement: { location: 'unsorted', folderId: null, dailyNoteDate: null } });
    expect(placementOfPath('templates/a.md', folders)).toMatchObject({ placement: { location: 'templates' } });
    expect(placementOfPath('Projects/Sub/a.md', folders)).toMatchObject({ placement: { location: 'folder', folderId: 'F2' } });
    expect(placementOfPath('a.md', folders)).toMatchObject({ placement: { location: 'unsorted' } });
    expect(placementOfPath('Daily Notes/2026-09-05.md', folders)).toMatchObject({ placement: { location: 'daily_notes', dailyNoteDate: '2026-09-05' } });
  });
  it('refuses, saying why, what the space cannot hold', () => {
    expect(placementOfPath('Daily Notes/monday.md', folders)).toMatchObject({ ok: false, problem: expect.stringContaining('YYYY-MM-DD') });
    expect(placementOfPath('Unsorted/Sub/a.md', folders)).toMatchObject({ ok: false, problem: expect.stringContaining('inside Unsorted/') });
    expect(placementOfPath('Elsewhere/a.md', folders)).toMatchObject({ ok: false, problem: expect.stringContaining('not a folder of the space yet') });
  });
});

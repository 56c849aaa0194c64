// The small space the conformance tests start from: known ids, every block kind, a folder tree
// three levels deep, templates, trash, daily notes, a document created just after midnight
// Berlin time (so whole days in the space's zone differ from UTC days).
import type { SpaceFixture } from '../../src/server/index.js';

/** A 1×1 transparent PNG. */
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export const ids = {
  projects: 'F-PROJ',
  archive: 'F-ARCH',
  old: 'F-OLD',
  personal: 'F-PERS',
  unsorted: 'D-UNS',
  edge: 'D-EDGE',
  template: 'D-TPL',
  roadmap: 'D-ROAD',
  oldPlan: 'D-ARCH',
  ancient: 'D-OLD',
  diary: 'D-PERS',
  trashed: 'D-TRASH',
  yesterday: 'D-DN1',
  today: 'D-DN2',
};

export const fixture: SpaceFixture = {
  version: 1,
  space: { id: 'SPACE-1', name: 'Test Space', timezone: 'Europe/Berlin', userId: 'USER-1' },
  folders: [
    {
      id: 'F-PROJ',
      name: 'Projects',
      createdAt: '2026-01-01T00:00:00Z',
      folders: [{ id: 'F-ARCH', name: 'Archive', folders: [{ id: 'F-OLD', name: 'Old' }] }],
    },
    { id: 'F-PERS', name: 'Personal' },
  ],
  assets: [{ id: 'A-IMG', contentType: 'image/png', fileName: 'pixel.png', base64: PNG_BASE64 }],
  documents: [
    {
      id: 'D-UNS',
      title: 'Unsorted note',
      createdAt: '2026-09-01T08:00:00Z',
      lastModifiedAt: '2026-09-03T08:00:00Z',
      content: [{ id: 'B-HELLO', markdown: 'hello world' }],
    },
    {
      id: 'D-EDGE',
      title: 'Late night',
      createdAt: '2026-08-31T23:30:00Z',
      lastModifiedAt: '2026-08-31T23:30:00Z',
      content: [{ id: 'B-LATE', markdown: 'written after midnight' }],
    },
    { id: 'D-TPL', title: 'Meeting template', location: 'templates', createdAt: '2026-06-01T10:00:00Z', content: [{ id: 'B-AGENDA', markdown: '## Agenda' }] },
    {
      id: 'D-ROAD',
      title: 'Roadmap',
      folderId: 'F-PROJ',
      createdAt: '2026-08-01T10:00:00Z',
      lastModifiedAt: '2026-09-05T09:00:00Z',
      content: [
        { id: 'B-H1', markdown: '# Roadmap goals' },
        { id: 'B-P', markdown: 'Ship the **sync** engine', font: 'serif', color: '#AA3300', textAlignment: 'center' },
        { id: 'B-BUL', markdown: '- first' },
        { id: 'B-BUL2', markdown: '  - nested' },
        { id: 'B-NUM', markdown: '1. step one' },
        { id: 'B-NUM2', markdown: '1. step two' },
        { id: 'B-TGL', markdown: '+ toggle' },
        { id: 'B-TODO', markdown: '- [ ] write tests', taskInfo: { state: 'todo', scheduleDate: '2026-09-05', deadlineDate: '2026-09-10' } },
        { id: 'B-DONE', markdown: '- [x] design', taskInfo: { state: 'done', completedAt: '2026-09-01T10:00:00.000Z' } },
        { id: 'B-CANC', markdown: '- [-] dropped idea' },
        { id: 'B-QUOTE', markdown: '> quoted words' },
        { id: 'B-CALL', markdown: '<callout>a callout</callout>' },
        { id: 'B-CAP', markdown: '<caption>small print</caption>' },
        { id: 'B-H2', markdown: '## Details' },
        { id: 'B-LINE', markdown: '---' },
        { id: 'B-LINE-S', type: 'line', lineStyle: 'strong' },
        { id: 'B-LINE-XL', type: 'line', lineStyle: 'extraLight' },
        { id: 'B-LINE-L', type: 'line', lineStyle: 'light' },
        { id: 'B-LINE-PB', type: 'line', lineStyle: 'pageBreak' },
        { id: 'B-CODE', markdown: '```typescript\nconst a = 1;\n```' },
        { id: 'B-IMG', type: 'image', url: 'asset:A-IMG' },
        { id: 'B-FILE', type: 'file', url: 'asset:A-IMG', fileName: 'pixel.png' },
        { id: 'B-RICH', type: 'richUrl', url: 'https://example.com/', title: 'Example', description: 'An example site' },
        { id: 'B-EMPTY', markdown: '' },
        { id: 'B-CARD', type: 'page', textStyle: 'card', cardLayout: 'small', title: 'A card', content: [{ id: 'B-CARD-C', markdown: 'inside the card' }] },
        {
          id: 'B-PAGE',
          type: 'page',
          title: 'Sub page',
          content: [
            { id: 'B-SUB', markdown: 'text on the sub page' },
            { id: 'B-DEEPER', type: 'page', title: 'Deeper', content: [{ id: 'B-DEEP', markdown: 'the deepest sync text' }] },
          ],
        },
        { id: 'B-LAST', markdown: 'the end' },
      ],
    },
    { id: 'D-ARCH', title: 'Old plan', folderId: 'F-ARCH', createdAt: '2026-07-01T10:00:00Z', content: [{ id: 'B-OLDPLAN', markdown: 'an old sync plan' }] },
    { id: 'D-OLD', title: 'Ancient', folderId: 'F-OLD', createdAt: '2026-05-01T10:00:00Z' },
    { id: 'D-PERS', title: 'Diary', folderId: 'F-PERS', createdAt: '2026-09-02T10:00:00Z' },
    {
      id: 'D-TRASH',
      title: 'Deleted thing',
      location: 'trash',
      trashedAt: '2026-09-01T10:00:00Z',
      createdAt: '2026-08-20T10:00:00Z',
      content: [{ id: 'B-GONE', markdown: 'gone but searchable' }],
    },
    {
      id: 'D-DN1',
      title: '2026.09.04',
      dailyNoteDate: '2026-09-04',
      createdAt: '2026-09-04T06:00:00Z',
      content: [{ id: 'B-YDAY', markdown: "yesterday's note" }],
    },
    { id: 'D-DN2', title: '2026.09.05', dailyNoteDate: '2026-09-05', createdAt: '2026-09-05T06:00:00Z', content: [{ id: 'B-TDAY', markdown: "today's note" }] },
  ],
};

// The space the pull tests start from: nested folders, an empty folder, templates, trash, daily
// notes, titles a file system cannot hold, an empty title, colliding titles (also by case),
// a decomposed Unicode title, and a document with every kind of block (pages, a card, media,
// a collection, code, lines).
import type { SpaceFixture } from '../../src/server/index.js';

export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export const demoSpace: SpaceFixture = {
  version: 1,
  space: { id: 'SPACE-DEMO', name: 'Demo', timezone: 'Europe/Berlin', userId: 'USER-1' },
  folders: [
    {
      id: 'F-PROJ',
      name: 'Projects',
      createdAt: '2026-01-01T00:00:00Z',
      folders: [
        { id: 'F-ARCH', name: 'Archive', createdAt: '2026-01-02T00:00:00Z', folders: [{ id: 'F-OLD', name: 'Old', createdAt: '2026-01-03T00:00:00Z' }] },
      ],
    },
    { id: 'F-PERS', name: 'Personal', createdAt: '2026-01-04T00:00:00Z' },
    { id: 'F-ODD', name: 'Notes: 2026/Q1', createdAt: '2026-01-05T00:00:00Z' },
    { id: 'F-EMPTY', name: 'Empty', createdAt: '2026-01-06T00:00:00Z' },
  ],
  assets: [{ id: 'A-IMG', contentType: 'image/png', fileName: 'pixel.png', base64: PNG_BASE64 }],
  documents: [
    {
      id: 'D-UNS',
      title: 'Unsorted note',
      createdAt: '2026-09-01T08:00:00Z',
      content: [
        { id: 'B-HELLO', markdown: 'hello world' },
        { id: 'B-HELLO2', markdown: 'second paragraph' },
      ],
    },
    { id: 'D-EMPTYTITLE', title: '', createdAt: '2026-09-01T09:00:00Z', content: [{ id: 'B-NT', markdown: 'no title here' }] },
    { id: 'D-ODD', title: 'What? A/B: "quotes" *stars*', createdAt: '2026-09-01T10:00:00Z', content: [{ id: 'B-ODD', markdown: 'odd title' }] },
    { id: 'D-MEET1', title: 'Meeting', createdAt: '2026-09-02T08:00:00Z', content: [{ id: 'B-M1', markdown: 'first meeting' }] },
    { id: 'D-MEET2', title: 'Meeting', createdAt: '2026-09-02T09:00:00Z', content: [{ id: 'B-M2', markdown: 'second meeting' }] },
    { id: 'D-MEET3', title: 'meeting', createdAt: '2026-09-02T10:00:00Z', content: [{ id: 'B-M3', markdown: 'third meeting, lower case' }] },
    { id: 'D-CAFE', title: 'Cafe\u0301 notes', createdAt: '2026-09-02T11:00:00Z', content: [{ id: 'B-CAFE', markdown: 'un café' }] },
    {
      id: 'D-TPL',
      title: 'Meeting template',
      location: 'templates',
      createdAt: '2026-06-01T10:00:00Z',
      content: [
        { id: 'B-AGENDA', markdown: '## Agenda' },
        { id: 'B-AG1', markdown: '- item' },
      ],
    },
    {
      id: 'D-ROAD',
      title: 'Roadmap',
      folderId: 'F-PROJ',
      createdAt: '2026-08-01T10:00:00Z',
      content: [
        { id: 'B-H1', markdown: '# Roadmap goals' },
        { id: 'B-P', markdown: 'Ship the **sync** engine' },
        { id: 'B-BUL', markdown: '- first' },
        { id: 'B-BUL2', markdown: '  - nested' },
        { id: 'B-NUM', markdown: '1. step one' },
        { id: 'B-TODO', markdown: '- [ ] write tests' },
        { id: 'B-QUOTE', markdown: '> quoted words' },
        { id: 'B-CALL', markdown: '<callout>a callout</callout>' },
        { id: 'B-LINE', markdown: '---' },
        { id: 'B-CODE', markdown: '```typescript\nconst a = 1;\n```' },
        { id: 'B-IMG', type: 'image', url: 'asset:A-IMG' },
        { id: 'B-EMPTY', markdown: '' },
        { id: 'B-CARD', type: 'page', textStyle: 'card', cardLayout: 'small', title: 'A card', content: [{ id: 'B-CARD-C', markdown: 'inside the card' }] },
        {
          id: 'B-PAGE',
          type: 'page',
          title: 'Sub page',
          content: [
            { id: 'B-SUB', markdown: 'text on the sub page' },
            { id: 'B-DEEPER', type: 'page', title: 'Deeper', content: [{ id: 'B-DEEP', markdown: 'the deepest text' }] },
          ],
        },
        {
          id: 'B-COLL',
          type: 'collection',
          title: 'Tasks table',
          collection: {
            name: 'Tasks table',
            schema: { name: 'Tasks table', contentPropDetails: { name: 'Notes' }, properties: [{ key: 'status', name: 'Status', type: 'text' }] },
          },
          content: [{ id: 'B-ITEM1', type: 'collectionItem', title: 'First item', properties: { status: 'open' } }],
        },
        { id: 'B-LAST', markdown: 'the end' },
      ],
    },
    { id: 'D-ARCH', title: 'Old plan', folderId: 'F-ARCH', createdAt: '2026-07-01T10:00:00Z', content: [{ id: 'B-OLDPLAN', markdown: 'an old plan' }] },
    { id: 'D-OLD', title: 'Ancient', folderId: 'F-OLD', createdAt: '2026-05-01T10:00:00Z' },
    { id: 'D-PERS', title: 'Diary', folderId: 'F-PERS', createdAt: '2026-09-02T10:00:00Z', content: [{ id: 'B-DIARY', markdown: 'dear diary' }] },
    { id: 'D-Q1', title: 'Plan', folderId: 'F-ODD', createdAt: '2026-09-02T10:00:00Z', content: [{ id: 'B-Q1', markdown: 'quarter one' }] },
    {
      id: 'D-TRASH',
      title: 'Deleted thing',
      location: 'trash',
      trashedAt: '2026-09-01T10:00:00Z',
      createdAt: '2026-08-20T10:00:00Z',
      content: [{ id: 'B-GONE', markdown: 'gone but kept' }],
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

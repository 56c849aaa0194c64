// The test space plus two collections: C-1 (three properties, three items, one with content,
// three stored views, the kanban one active, refs written by key only) and C-2 (no views).
import type { SpaceFixture } from '../../src/server/index.js';
import { fixture } from './spaceFixture.js';

export const collectionFixture: SpaceFixture = {
  ...fixture,
  documents: [
    ...fixture.documents!,
    {
      id: 'D-COLL',
      title: 'Launch',
      createdAt: '2026-09-01T10:00:00Z',
      lastModifiedAt: '2026-09-01T10:00:00Z',
      content: [
        { id: 'B-INTRO', markdown: 'launch plan' },
        {
          id: 'C-1',
          type: 'collection',
          collection: {
            name: 'Launch tasks',
            schema: {
              name: 'Launch tasks',
              contentPropDetails: { key: 'title', name: 'Task' },
              properties: [
                {
                  id: 'P-STATUS',
                  key: 'status',
                  name: 'Status',
                  type: 'singleSelect',
                  options: [
                    { name: 'Todo', color: 'gray' },
                    { name: 'Doing', color: 'yellow' },
                    { name: 'Done', color: 'mint-green' },
                  ],
                },
                { id: 'P-DUE', key: 'dueDate', name: 'Due Date', type: 'date', options: [] },
                { key: 'owner', name: 'Owner', type: 'text', options: [] },
              ],
            },
            views: [
              { id: 'V-TABLE', name: 'All', type: 'table', sortBy: [{ propertyKey: 'dueDate', ascending: true }], columnWidth: { title: '240' } },
              {
                id: 'V-BOARD',
                name: 'Board',
                type: 'kanban',
                groupBy: [{ propertyKey: 'status', ascending: true }],
                kanban: { columnOrder: ['Todo', 'Doing', 'Done'], hiddenGroupValues: [], showsColumnColors: true, visibleFields: [{ propertyKey: 'owner' }] },
              },
              {
                id: 'V-GALLERY',
                name: 'Cards',
                type: 'gallery',
                filters: [{ propertyKey: 'status', filterType: 'select_isNoneOf', filterValue: ['Done'] }],
                gallery: { cardSize: 'large', previewType: 'fill', visibleFields: [] },
              },
            ],
            activeViewId: 'V-BOARD',
          },
          content: [
            {
              id: 'I-1',
              type: 'collectionItem',
              title: 'Copy review',
              properties: { status: 'Doing', dueDate: '2026-09-08', owner: 'Ana' },
              content: [
                { id: 'I-1-C', markdown: 'check the tone' },
                { id: 'I-1-P', type: 'page', title: 'Notes', content: [{ id: 'I-1-PC', markdown: 'deep note' }] },
              ],
            },
            { id: 'I-2', type: 'collectionItem', title: 'Screenshots', properties: { status: 'Todo', owner: 'Ben' } },
            { id: 'I-3', type: 'collectionItem', title: 'DNS switch', properties: { status: 'Done', dueDate: '2026-09-03' } },
          ],
        },
        { id: 'B-OUTRO', markdown: 'the end' },
      ],
    },
    {
      id: 'D-COLL2',
      title: 'Reading',
      createdAt: '2026-09-02T10:00:00Z',
      content: [
        {
          id: 'C-2',
          type: 'collection',
          collection: {
            name: 'Books',
            schema: { name: 'Books', contentPropDetails: { name: 'Title' }, properties: [{ key: 'author', name: 'Author', type: 'text' }] },
          },
        },
      ],
    },
  ],
};

// A space with one document holding a collection (a select, a date and a number property, two
// items): the collection tables' tests start from it.
import type { SpaceFixture } from '../../src/server/index.js';

export const collectionSpace: SpaceFixture = {
  version: 1,
  space: { id: 'S-COLL', name: 'Collections', timezone: 'UTC', userId: 'U1' },
  documents: [
    {
      id: 'D-BOOKS',
      title: 'Books',
      createdAt: '2026-09-01T08:00:00Z',
      content: [
        { id: 'B1', markdown: 'What we read' },
        {
          id: 'C1',
          type: 'collection',
          title: 'Reading list',
          collection: {
            name: 'Reading list',
            schema: {
              name: 'Reading list',
              contentPropDetails: { name: 'Title' },
              properties: [
                { key: 'status', name: 'Status', type: 'singleSelect', options: ['Reading', 'Done'] },
                { key: 'due', name: 'Due', type: 'date' },
                { key: 'pages', name: 'Pages', type: 'number' },
              ],
            },
          },
          content: [
            { id: 'I1', type: 'collectionItem', title: 'Dune', properties: { status: 'Reading', due: '2026-12-01', pages: 412 } },
            { id: 'I2', type: 'collectionItem', title: 'Emma', properties: { status: 'Done' } },
          ],
        },
      ],
    },
  ],
} as SpaceFixture;

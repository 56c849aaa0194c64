import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SpacesyncError } from '../errors.js';
import { check, items, checkDocumentList } from './schemas.js';

/** The listing's check as a schema: what the check written out by hand must agree with. */
const documentList = items(
  z.looseObject({
    id: z.string().min(1),
    // Titles can be empty; a missing title reads as empty.
    title: z.string().default(''),
    dailyNoteDate: z.string().optional(),
    lastModifiedAt: z.string().optional(),
    createdAt: z.string().optional(),
    clickableLink: z.string().optional(),
  }),
);

const answers: unknown[] = [
  { items: [] },
  { items: [{ id: 'a', title: 'A', lastModifiedAt: '2026-01-01T00:00:00Z', createdAt: '2026-01-01T00:00:00Z', clickableLink: 'x', extra: 1 }] },
  { items: [{ id: 'a' }] },
  { items: [{ id: 'a', title: '', dailyNoteDate: '2026-01-02' }], next: 'kept' },
  null,
  'text',
  [],
  {},
  { items: {} },
  { items: [null] },
  { items: [[]] },
  { items: ['a'] },
  { items: [{ title: 'no id' }] },
  { items: [{ id: '' }] },
  { items: [{ id: 3 }] },
  { items: [{ id: 'a', title: null }] },
  { items: [{ id: 'a', title: 5 }] },
  { items: [{ id: 'a', lastModifiedAt: null }] },
  { items: [{ id: 'a', createdAt: 1 }] },
  { items: [{ id: 'a', dailyNoteDate: false }] },
  { items: [{ id: 'a', clickableLink: {} }] },
  {
    items: [
      { id: 'a', title: 'ok' },
      { id: 'b', title: 'ok', lastModifiedAt: 7 },
    ],
  },
];

describe('checkDocumentList', () => {
  it('accepts and refuses what the documentList schema does, with the same values', () => {
    for (const answer of answers) {
      const viaSchema = (() => {
        try {
          return { ok: true, value: check(documentList)(structuredClone(answer)) };
        } catch {
          return { ok: false };
        }
      })();
      const byHand = (() => {
        try {
          return { ok: true, value: checkDocumentList(structuredClone(answer)) };
        } catch (e) {
          expect(e).toBeInstanceOf(SpacesyncError);
          expect((e as SpacesyncError).code).toBe('bad_response');
          return { ok: false };
        }
      })();
      expect(byHand, JSON.stringify(answer)).toEqual(viaSchema);
    }
  });

  it('names the first item at fault', () => {
    expect(() => checkDocumentList({ items: [{ id: 'a' }, { id: 'b', lastModifiedAt: 7 }] })).toThrow(
      'unexpected shape (items.1.lastModifiedAt: expected a string)',
    );
    expect(() => checkDocumentList({ documents: [] })).toThrow('unexpected shape (items: expected an array)');
  });
});

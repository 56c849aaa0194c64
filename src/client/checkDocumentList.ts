// The document listing's check, written out by hand: the whole space's listing (10,000 items and
// more) is read on every poll, and a schema library's per-item parse of it cost more than the rest
// of an idle poll. It accepts and refuses what a schema would (its test holds one to compare): an
// `items` array of objects with a non-empty string `id`, a string `title` (missing reads as empty)
// and, when present, string `dailyNoteDate`, `lastModifiedAt`, `createdAt` and `clickableLink`.
// Unknown fields are kept. A wrong shape is a `bad_response` naming the first item at fault.
import { SpacesyncError } from '../errors.js';
import type { Parse } from './apiCall.js';
import type { DocumentListItem, Items } from '../wire/types.js';

const OPTIONAL_STRINGS = ['dailyNoteDate', 'lastModifiedAt', 'createdAt', 'clickableLink'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function refuse(where: string, what: string): never {
  throw new SpacesyncError('bad_response', `unexpected shape (${where}: ${what})`);
}

export const checkDocumentList: Parse<Items<DocumentListItem>> = (value) => {
  if (!isObject(value)) refuse('(top)', 'expected an object');
  const items = value.items;
  if (!Array.isArray(items)) refuse('items', 'expected an array');
  for (let i = 0; i < items.length; i++) {
    const item: unknown = items[i];
    if (!isObject(item)) refuse(`items.${i}`, 'expected an object');
    if (typeof item.id !== 'string' || item.id.length === 0) refuse(`items.${i}.id`, 'expected a non-empty string');
    if (item.title === undefined) item.title = '';
    else if (typeof item.title !== 'string') refuse(`items.${i}.title`, 'expected a string');
    for (const key of OPTIONAL_STRINGS) {
      const v = item[key];
      if (v !== undefined && typeof v !== 'string') refuse(`items.${i}.${key}`, 'expected a string');
    }
  }
  return value as unknown as Items<DocumentListItem>;
};

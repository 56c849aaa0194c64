// Checks on the answers whose wrong shape would corrupt the journal: blocks (ids, markdown,
// children), folder listings, and the ids returned by writes (the document listing's check is
// written out by hand, checkDocumentList below). Unknown fields are
// kept; a block type the service adds later passes as a string rather than failing a whole sync.
import { z } from 'zod';
import { SpacesyncError } from '../errors.js';
import type { Parse } from './apiCall.js';
import type { DocumentListItem, Items } from '../wire/types.js';

const taskInfo = z.looseObject({ state: z.enum(['todo', 'done', 'canceled']) });

/**
 * Drops the previews a depth-limited read puts where it cuts (`contentPreviewMd`, `itemsPreviewMd`):
 * a summary of content left out, never content, so it must not reach a block, a file or a write.
 */
function withoutPreviews<T extends Record<string, unknown>>(value: T): T {
  if (!('contentPreviewMd' in value) && !('itemsPreviewMd' in value)) return value;
  const out = { ...value };
  delete out.contentPreviewMd;
  delete out.itemsPreviewMd;
  return out;
}

export const blockSchema: z.ZodType<{ id: string; type: string; markdown?: string | undefined; content?: unknown[] | undefined }> = z
  .looseObject({
    id: z.string().min(1),
    type: z.string().min(1),
    markdown: z.string().optional(),
    get content() {
      return z.array(blockSchema).optional();
    },
    indentationLevel: z.number().int().min(0).optional(),
    taskInfo: taskInfo.optional(),
  })
  .transform(withoutPreviews);

const idItem = z.looseObject({ id: z.string().min(1) });
export const items = <T extends z.ZodType>(item: T) => z.looseObject({ items: z.array(item) });

export const blocksResult = items(blockSchema);
export const idItems = items(idItem);
export const idStrings = items(z.string().min(1));
/** Lists whose items the journal does not keep: the envelope is checked, the items are objects. */
export const objectItems = items(z.looseObject({}));

export const createdDocuments = items(z.looseObject({ id: z.string().min(1), title: z.string().default(''), clickableLink: z.string().optional() }));
const documentDestination = z.union([z.looseObject({ destination: z.string() }), z.looseObject({ folderId: z.string() })]);
export const movedDocuments = items(z.looseObject({ id: z.string().min(1), destination: documentDestination }));

interface FolderShape {
  id: string;
  name: string;
  documentCount?: number | undefined;
  folders?: FolderShape[] | undefined;
  parentFolderId?: string | undefined;
}
export const folderSchema: z.ZodType<FolderShape> = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  documentCount: z.number().int().min(0).optional(),
  get folders() {
    return z.array(folderSchema).optional();
  },
  parentFolderId: z.string().optional(),
});
export const folderList = items(folderSchema);
export const createdFolders = items(z.looseObject({ id: z.string().min(1), name: z.string(), parentFolderId: z.string().optional() }));
export const movedFolders = items(
  z.looseObject({ id: z.string().min(1), destination: z.union([z.literal('root'), z.looseObject({ parentFolderId: z.string() })]) }),
);

export const connectionInfo = z.looseObject({
  space: z.looseObject({ id: z.string(), name: z.string(), timezone: z.string(), time: z.string(), friendlyDate: z.string() }),
  utc: z.looseObject({ time: z.string() }),
  urlTemplates: z.looseObject({ app: z.string().optional() }).optional(),
});

export const tasks = items(z.looseObject({ id: z.string().min(1), markdown: z.string().optional(), taskInfo: taskInfo.optional() }));
export const collectionItems = items(
  z.looseObject({ id: z.string().min(1), title: z.string().optional(), properties: z.record(z.string(), z.unknown()).optional() }).transform(withoutPreviews),
);
export const reminderPage = z.looseObject({
  items: z.array(z.looseObject({ id: z.string().min(1), blockId: z.string() })),
  pagination: z.looseObject({ cursor: z.string().nullable().optional() }).optional(),
});
export const anyObject = z.looseObject({});
export const uploadResult = z.looseObject({ blockId: z.string().min(1), assetUrl: z.string() });
export const whiteboardContent = z.looseObject({
  elements: z.array(z.looseObject({})),
  assets: z.record(z.string(), z.unknown()).optional(),
  appState: z.record(z.string(), z.unknown()).optional(),
});

/** Root block plus every descendant, as the block budget counts a read. */
export function countBlocks(value: unknown): number {
  if (!value || typeof value !== 'object') return 0;
  const content = (value as { content?: unknown }).content;
  let n = 1;
  if (Array.isArray(content)) for (const child of content) n += countBlocks(child);
  return n;
}

// Validation of answers with zod: a wrong shape is a `bad_response`, never a corrupted journal.
/** Validates the answer against `schema`; a mismatch is a `bad_response`, never a corrupted journal. */
export function check<S extends z.ZodType>(schema: S): Parse<z.infer<S>> {
  return (value) => {
    const r = schema.safeParse(value);
    if (r.success) return r.data;
    const where = r.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`)
      .join('; ');
    throw new SpacesyncError('bad_response', `unexpected shape (${where})`);
  };
}

/** `check`, with the result typed as the wire type `T` (the schema checks what the journal relies on). */
export function checkAs<T>(schema: z.ZodType): Parse<T> {
  return check(schema) as Parse<T>;
}

// The document listing's check, written out by hand: the whole space's listing (10,000 items and
// more) is read on every poll, and a schema library's per-item parse of it cost more than the rest
// of an idle poll. It accepts and refuses what a schema would (its test holds one to compare): an
// `items` array of objects with a non-empty string `id`, a string `title` (missing reads as empty)
// and, when present, string `dailyNoteDate`, `lastModifiedAt`, `createdAt` and `clickableLink`.
// Unknown fields are kept. A wrong shape is a `bad_response` naming the first item at fault.
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

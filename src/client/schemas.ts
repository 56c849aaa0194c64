// Checks on the answers whose wrong shape would corrupt the journal: blocks (ids, markdown,
// children), folder listings, and the ids returned by writes (the document listing's check is
// written out by hand, checkDocumentList.ts). Unknown fields are
// kept; a block type the service adds later passes as a string rather than failing a whole sync.
import { z } from 'zod';

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

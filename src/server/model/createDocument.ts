// A new document is a document row plus its root page block (document id = root block id).
import type { RequestContext } from '../context.js';
import { newId } from '../store/openStore.js';
import { dailyNote, insertDocument, type DocumentRow, type StoredLocation, getDocument } from '../store/documents.js';
import { insertBlock } from '../store/blocks.js';
import { dailyNoteTitle } from '../dates.js';

export function createDocument(ctx: RequestContext, d: { title: string; location: StoredLocation; folderId: string | null; dailyNoteDate?: string }): string {
  const id = newId();
  insertDocument(ctx.db, {
    id,
    location: d.location,
    folderId: d.folderId,
    dailyNoteDate: d.dailyNoteDate ?? null,
    createdAt: ctx.now,
    lastModifiedAt: ctx.now,
    trashedAt: null,
  });
  insertBlock(ctx.db, {
    id,
    doc_id: id,
    parent_id: null,
    pos: 0,
    type: 'page',
    data: JSON.stringify({ body: d.title }),
    markdown: d.title,
    created_at: ctx.now,
    created_by: ctx.space.userId,
    modified_at: ctx.now,
    modified_by: ctx.space.userId,
  });
  return id;
}

/** The daily note of `date`, created when it does not exist yet. */
export function ensureDailyNote(ctx: RequestContext, date: string): DocumentRow {
  const found = dailyNote(ctx.db, date);
  if (found) return found;
  const id = createDocument(ctx, { title: dailyNoteTitle(date), location: 'daily_notes', folderId: null, dailyNoteDate: date });
  return getDocument(ctx.db, id)!;
}

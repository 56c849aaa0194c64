// Documents: list with filters, create (a root page block), soft delete to trash, move/restore.
import { z } from 'zod';
import type { ApiRouter } from '../http/router.js';
import { badRequest, notFound } from '../http/apiError.js';
import { parseBody, queryBool } from '../http/query.js';
import { getDocument, setDocumentLocation, type StoredLocation } from '../store/documents.js';
import { createDocument } from '../model/createDocument.js';
import { selectDocuments } from '../model/selectDocuments.js';
import { clickableLink } from '../model/blockJson.js';
import { isoTime } from '../dates.js';
import { registerDocumentSearch } from './documentsSearch.js';
import type { RequestContext } from '../context.js';
import { getFolder } from '../store/folders.js';

// Where a document goes on create or move: `{destination: 'unsorted' | 'templates'}` or
// `{folderId}`; never trash (docs/api.md "Document location").
export const destinationSchema = z.union([z.object({ destination: z.string().min(1) }), z.object({ folderId: z.string().min(1) }), z.string().min(1)]);

export type DestinationInput = z.infer<typeof destinationSchema>;

export interface ResolvedDestination {
  location: StoredLocation;
  folderId: string | null;
  /** The destination as results echo it. */
  echo: { destination: string } | { folderId: string };
}

export function resolveDestination(ctx: RequestContext, input: DestinationInput | undefined, action: 'created' | 'moved'): ResolvedDestination {
  const raw = input ?? { destination: 'unsorted' };
  const key = typeof raw === 'string' ? raw : 'destination' in raw ? raw.destination : raw.folderId;
  if (key === 'trash') {
    throw badRequest(
      action === 'created'
        ? 'Documents cannot be created in trash: create them in unsorted, templates or a folder.'
        : 'Documents cannot be moved to trash: use DELETE /documents to delete them.',
    );
  }
  if (key === 'unsorted' || key === 'templates') return { location: key, folderId: null, echo: { destination: key } };
  if (key === 'daily_notes') throw badRequest(`Documents cannot be ${action} in daily notes.`);
  if (typeof raw !== 'string' && 'destination' in raw) throw badRequest(`Unknown destination '${key}': use unsorted, templates or {folderId}.`);
  if (!getFolder(ctx.db, key)) throw notFound(`Folder ${key}`);
  return { location: 'folder', folderId: key, echo: { folderId: key } };
}

const createBody = z.object({
  documents: z.array(z.object({ title: z.string() })).min(1),
  destination: destinationSchema.optional(),
});
const deleteBody = z.object({ documentIds: z.array(z.string().min(1)).min(1) });
const moveBody = z.object({ documentIds: z.array(z.string().min(1)).min(1), destination: destinationSchema });

export function registerDocuments(api: ApiRouter): void {
  api.get('/documents', (ctx, req) => {
    const fetchMetadata = queryBool(req.query, 'fetchMetadata', false);
    const { rows, location } = selectDocuments(ctx, req.query, 'folderId');
    return {
      items: rows.map((r) => {
        const item: Record<string, unknown> = { id: r.id, title: r.title };
        if (location === 'daily_notes' && r.daily_note_date !== null) item.dailyNoteDate = r.daily_note_date;
        if (fetchMetadata) {
          item.lastModifiedAt = isoTime(r.last_modified_at);
          item.createdAt = isoTime(r.created_at);
          item.clickableLink = clickableLink(ctx.space.id, r.id);
        }
        return item;
      }),
    };
  });

  api.post('/documents', (ctx, req) => {
    const body = parseBody(createBody, req.body);
    const dest = resolveDestination(ctx, body.destination, 'created');
    const items = body.documents.map((d) => {
      const id = createDocument(ctx, { title: d.title, location: dest.location, folderId: dest.folderId });
      return { id, title: d.title, clickableLink: clickableLink(ctx.space.id, id) };
    });
    return { items };
  });

  api.delete('/documents', (ctx, req) => {
    const body = parseBody(deleteBody, req.body);
    for (const id of body.documentIds) {
      const doc = getDocument(ctx.db, id);
      if (!doc || doc.location === 'inbox') throw notFound(`Document ${id}`);
      if (doc.location !== 'trash') setDocumentLocation(ctx.db, id, 'trash', null, ctx.now);
    }
    return { items: body.documentIds };
  });

  api.put('/documents/move', (ctx, req) => {
    const body = parseBody(moveBody, req.body);
    const dest = resolveDestination(ctx, body.destination, 'moved');
    const items = body.documentIds.map((id) => {
      const doc = getDocument(ctx.db, id);
      if (!doc || doc.location === 'inbox') throw notFound(`Document ${id}`);
      if (doc.daily_note_date !== null) throw badRequest(`Document ${id} is a daily note: daily notes cannot be moved.`);
      setDocumentLocation(ctx.db, id, dest.location, dest.folderId, null);
      return { id, destination: dest.echo };
    });
    return { items };
  });

  registerDocumentSearch(api);
}

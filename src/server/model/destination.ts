// Where a document goes on create or move: `{destination: 'unsorted' | 'templates'}` or
// `{folderId}`; never trash (docs/api.md "Document location").
import { z } from 'zod';
import type { RequestContext } from '../context.js';
import { badRequest, notFound } from '../http/apiError.js';
import { getFolder } from '../store/folders.js';
import type { StoredLocation } from '../store/documents.js';

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

// The document filters shared by `GET /documents` and `GET /documents/search`: a location, or
// folders (recursive) and/or document ids, then the six date filters in the space's time zone.
import type { RequestContext } from '../context.js';
import { badRequest, notFound, validationFailed } from '../http/apiError.js';
import { queryArray, queryDate, queryString, type Query } from '../http/query.js';
import { allDocuments, documentsAt, documentsInFolders, getDocument, type DocumentRow, type StoredLocation } from '../store/documents.js';
import { folderSubtreeIds, getFolder, isBuiltInFolder } from '../store/folders.js';
import { localDate } from '../dates.js';
import { LOCATIONS, type Location } from '../../wire/types.js';

const DATE_FILTERS = ['createdDateGte', 'createdDateLte', 'lastModifiedDateGte', 'lastModifiedDateLte', 'dailyNoteDateGte', 'dailyNoteDateLte'] as const;

export interface Selection {
  rows: DocumentRow[];
  location: Location | undefined;
}

/** `folderParam` is `folderId` (listing) or `folderIds` (search). */
export function selectDocuments(ctx: RequestContext, q: Query, folderParam: 'folderId' | 'folderIds'): Selection {
  const location = queryString(q, 'location');
  if (location !== undefined && !(LOCATIONS as readonly string[]).includes(location)) {
    throw validationFailed([{ message: `'location' must be one of ${LOCATIONS.join(', ')}.`, path: ['location'] }]);
  }
  const folderIds = queryArray(q, folderParam);
  const documentIds = queryArray(q, 'documentIds');
  if (location !== undefined && (folderIds !== undefined || documentIds !== undefined)) {
    throw badRequest(`'location' cannot be combined with '${folderParam}' or 'documentIds'.`);
  }
  if (folderParam === 'folderIds' && folderIds !== undefined && documentIds !== undefined) {
    throw badRequest("'documentIds' cannot be combined with 'location' or 'folderIds'.");
  }
  const dates: Partial<Record<(typeof DATE_FILTERS)[number], string>> = {};
  for (const f of DATE_FILTERS) {
    const d = queryDate(q, f, ctx.now, ctx.space.timezone);
    if (d !== undefined) dates[f] = d;
  }

  let rows: DocumentRow[];
  if (location !== undefined) {
    rows = documentsAt(ctx.db, location as StoredLocation);
  } else if (folderIds !== undefined || documentIds !== undefined) {
    let set: DocumentRow[] | undefined;
    if (folderIds !== undefined) set = inFolders(ctx, folderIds);
    if (documentIds !== undefined) {
      const wanted = new Set(documentIds);
      set = set
        ? set.filter((r) => wanted.has(r.id))
        : documentIds.map((id) => getDocument(ctx.db, id)).filter((r): r is DocumentRow => r !== undefined && r.location !== 'inbox');
    }
    rows = dedupe(set ?? []);
  } else {
    rows = allDocuments(ctx.db);
  }
  const tz = ctx.space.timezone;
  const within = (day: string | null, gte: string | undefined, lte: string | undefined) =>
    (gte === undefined || (day !== null && day >= gte)) && (lte === undefined || (day !== null && day <= lte));
  rows = rows.filter(
    (r) =>
      within(localDate(r.created_at, tz), dates.createdDateGte, dates.createdDateLte) &&
      within(localDate(r.last_modified_at, tz), dates.lastModifiedDateGte, dates.lastModifiedDateLte) &&
      within(r.daily_note_date, dates.dailyNoteDateGte, dates.dailyNoteDateLte),
  );
  return { rows, location: location as Location | undefined };
}

function inFolders(ctx: RequestContext, folderIds: string[]): DocumentRow[] {
  const out: DocumentRow[] = [];
  const userFolders: string[] = [];
  for (const id of folderIds) {
    if (isBuiltInFolder(id)) out.push(...documentsAt(ctx.db, id));
    else if (getFolder(ctx.db, id)) userFolders.push(...folderSubtreeIds(ctx.db, id));
    else throw notFound(`Folder ${id}`);
  }
  out.push(...documentsInFolders(ctx.db, userFolders));
  return out;
}

function dedupe(rows: DocumentRow[]): DocumentRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(r.id) && seen.add(r.id)).sort((a, b) => a.seq - b.seq);
}

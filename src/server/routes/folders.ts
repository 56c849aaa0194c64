// Folders: the tree with the built-in locations, create, delete (contents go up a level), move.
import { z } from 'zod';
import type { ApiRouter } from '../http/router.js';
import type { RequestContext } from '../context.js';
import { badRequest, notFound } from '../http/apiError.js';
import { parseBody } from '../http/query.js';
import { newId } from '../store/openStore.js';
import {
  BUILT_IN_FOLDERS,
  deleteFolder,
  folderSubtreeIds,
  getFolder,
  insertFolder,
  isBuiltInFolder,
  listFolders,
  moveFolder,
  childFolders,
  type FolderRow,
} from '../store/folders.js';
import { documentCounts, moveFolderDocuments } from '../store/documents.js';

interface FolderJson {
  id: string;
  name: string;
  documentCount: number;
  folders: FolderJson[];
}

const ids = (field: string) => z.object({ [field]: z.array(z.string().min(1)).min(1, `'${field}' must list at least one id.`) });

const createBody = z.object({
  folders: z.array(z.object({ name: z.string().min(1, 'A folder name cannot be empty.'), parentFolderId: z.string().min(1).optional() })).min(1),
});
const moveBody = z.object({
  folderIds: z.array(z.string().min(1)).min(1),
  destination: z.union([z.literal('root'), z.object({ parentFolderId: z.string().min(1) })]),
});

export function folderTree(ctx: RequestContext): FolderJson[] {
  const counts = documentCounts(ctx.db);
  const rows = listFolders(ctx.db);
  const byParent = new Map<string | null, FolderRow[]>();
  for (const r of rows) byParent.set(r.parent_id, [...(byParent.get(r.parent_id) ?? []), r]);
  const build = (parent: string | null): FolderJson[] =>
    (byParent.get(parent) ?? []).map((f) => ({ id: f.id, name: f.name, documentCount: counts.get(f.id) ?? 0, folders: build(f.id) }));
  return [...BUILT_IN_FOLDERS.map((b) => ({ id: b.id, name: b.name, documentCount: counts.get(b.id) ?? 0, folders: [] })), ...build(null)];
}

function existingFolder(ctx: RequestContext, id: string, action: string): FolderRow {
  if (isBuiltInFolder(id)) throw badRequest(`Built-in folder '${id}' cannot be ${action}.`);
  const f = getFolder(ctx.db, id);
  if (!f) throw notFound(`Folder ${id}`);
  return f;
}

export function registerFolders(api: ApiRouter): void {
  api.get('/folders', (ctx) => ({ items: folderTree(ctx) }));

  api.post('/folders', (ctx, req) => {
    const body = parseBody(createBody, req.body);
    const items = body.folders.map((f) => {
      const parent = f.parentFolderId;
      if (parent !== undefined) {
        if (isBuiltInFolder(parent) || parent === 'daily_notes') throw badRequest(`Folders cannot be created inside the built-in location '${parent}'.`);
        if (!getFolder(ctx.db, parent)) throw notFound(`Folder ${parent}`);
      }
      const id = newId();
      insertFolder(ctx.db, { id, name: f.name, parentId: parent ?? null, createdAt: ctx.now });
      return parent === undefined ? { id, name: f.name } : { id, name: f.name, parentFolderId: parent };
    });
    return { items };
  });

  api.delete('/folders', (ctx, req) => {
    const body = parseBody(ids('folderIds'), req.body) as { folderIds: string[] };
    for (const id of body.folderIds) {
      const f = existingFolder(ctx, id, 'deleted');
      // Contents go up one level: documents to the parent folder (Unsorted at top level), subfolders to the parent.
      if (f.parent_id === null) moveFolderDocuments(ctx.db, id, 'unsorted', null);
      else moveFolderDocuments(ctx.db, id, 'folder', f.parent_id);
      for (const child of childFolders(ctx.db, id)) moveFolder(ctx.db, child.id, f.parent_id);
      deleteFolder(ctx.db, id);
    }
    return { items: body.folderIds };
  });

  api.put('/folders/move', (ctx, req) => {
    const body = parseBody(moveBody, req.body);
    const parentId = body.destination === 'root' ? null : body.destination.parentFolderId;
    if (parentId !== null) {
      if (isBuiltInFolder(parentId) || parentId === 'daily_notes') throw badRequest(`Folders cannot be moved into the built-in location '${parentId}'.`);
      if (!getFolder(ctx.db, parentId)) throw notFound(`Folder ${parentId}`);
    }
    const items = body.folderIds.map((id) => {
      existingFolder(ctx, id, 'moved');
      if (parentId !== null && folderSubtreeIds(ctx.db, id).includes(parentId)) {
        throw badRequest(`Folder ${id} cannot be moved into itself or one of its subfolders.`);
      }
      moveFolder(ctx.db, id, parentId);
      return { id, destination: body.destination };
    });
    return { items };
  });
}

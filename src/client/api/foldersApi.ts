// Folders: the tree with the built-in locations, create, delete, move.
import type { CallOptions, Send } from '../apiCall.js';
import { check, checkAs } from '../check.js';
import { createdFolders, folderList, idStrings, movedFolders } from '../schemas.js';
import type { CreatedFolder, Folder, FolderDestination, Items, MovedFolder } from '../../wire/types.js';

export interface FoldersApi {
  /** `GET /folders`: every location, built-ins included, folders nested. */
  listFolders(options?: CallOptions): Promise<Items<Folder>>;
  createFolders(input: { folders: Array<{ name: string; parentFolderId?: string }> }, options?: CallOptions): Promise<Items<CreatedFolder>>;
  deleteFolders(input: { folderIds: string[] }, options?: CallOptions): Promise<Items<string>>;
  moveFolders(input: { folderIds: string[]; destination: FolderDestination }, options?: CallOptions): Promise<Items<MovedFolder>>;
}

export function foldersApi(send: Send): FoldersApi {
  return {
    listFolders: (options) => send({ method: 'GET', endpoint: 'GET /folders', path: '/folders', blockCost: 0, root: true }, options, check(folderList)),
    createFolders: (input, options) =>
      send({ method: 'POST', endpoint: 'POST /folders', path: '/folders', json: input, blockCost: 0 }, options, check(createdFolders)),
    deleteFolders: (input, options) =>
      send({ method: 'DELETE', endpoint: 'DELETE /folders', path: '/folders', json: input, blockCost: 0 }, options, check(idStrings)),
    moveFolders: (input, options) =>
      send(
        { method: 'PUT', endpoint: 'PUT /folders/move', path: '/folders/move', json: input, blockCost: 0 },
        options,
        checkAs<Items<MovedFolder>>(movedFolders),
      ),
  };
}

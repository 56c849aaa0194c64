// Documents and folders. Documents: list (one request for the whole space), create, soft-delete, move, search.
import type { CallOptions, Send } from '../apiCall.js';
import {
  check,
  checkAs,
  createdDocuments,
  idStrings,
  movedDocuments,
  objectItems,
  checkDocumentList,
  createdFolders,
  folderList,
  movedFolders,
} from '../schemas.js';
import type {
  CreateDocumentsInput,
  CreatedDocument,
  DocumentDestination,
  DocumentListItem,
  DocumentSearchHit,
  Items,
  ListDocumentsQuery,
  MovedDocument,
  SearchDocumentsQuery,
  CreatedFolder,
  Folder,
  FolderDestination,
  MovedFolder,
} from '../../wire/types.js';

export interface DocumentsApi {
  /** `GET /documents`: with no filter every document of the space, daily notes included. */
  listDocuments(query?: ListDocumentsQuery, options?: CallOptions): Promise<Items<DocumentListItem>>;
  createDocuments(input: CreateDocumentsInput, options?: CallOptions): Promise<Items<CreatedDocument>>;
  /** Soft delete: the documents move to trash. Answers the ids. */
  deleteDocuments(input: { documentIds: string[] }, options?: CallOptions): Promise<Items<string>>;
  moveDocuments(input: { documentIds: string[]; destination: DocumentDestination }, options?: CallOptions): Promise<Items<MovedDocument>>;
  /** Relevance-ranked, top 20. */
  searchDocuments(query: SearchDocumentsQuery, options?: CallOptions): Promise<Items<DocumentSearchHit>>;
}

export function documentsApi(send: Send): DocumentsApi {
  return {
    listDocuments: (query = {}, options) =>
      // The whole listing (or a location's) exists only while the link does.
      send(
        { method: 'GET', endpoint: 'GET /documents', path: '/documents', query: { ...query }, blockCost: 0, root: query.folderId === undefined },
        options,
        checkDocumentList,
      ),
    createDocuments: (input, options) =>
      send({ method: 'POST', endpoint: 'POST /documents', path: '/documents', json: input, blockCost: 0 }, options, check(createdDocuments)),
    deleteDocuments: (input, options) =>
      send({ method: 'DELETE', endpoint: 'DELETE /documents', path: '/documents', json: input, blockCost: 0 }, options, check(idStrings)),
    moveDocuments: (input, options) =>
      send(
        { method: 'PUT', endpoint: 'PUT /documents/move', path: '/documents/move', json: input, blockCost: 0 },
        options,
        checkAs<Items<MovedDocument>>(movedDocuments),
      ),
    searchDocuments: (query, options) =>
      send(
        { method: 'GET', endpoint: 'GET /documents/search', path: '/documents/search', query: { ...query }, blockCost: 0 },
        options,
        checkAs<Items<DocumentSearchHit>>(objectItems),
      ),
  };
}

// Folders: the tree with the built-in locations, create, delete, move.
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

// Documents: list (one request for the whole space), create, soft-delete, move, search.
import type { CallOptions, Send } from '../apiCall.js';
import { check, checkAs } from '../check.js';
import { checkDocumentList } from '../checkDocumentList.js';
import { createdDocuments, idStrings, movedDocuments, objectItems } from '../schemas.js';
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

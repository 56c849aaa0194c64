// Collections: their list, schema, items and stored views (several endpoints are experimental).
import { seg, type CallOptions, type Send } from '../apiCall.js';
import { check, checkAs, anyObject, collectionItems, idItems, objectItems } from '../schemas.js';
import type {
  CollectionItem,
  CollectionListItem,
  CollectionSchema,
  CollectionSchemaInput,
  CollectionSchemaResult,
  CollectionView,
  CollectionViewInput,
  CollectionViews,
  IdItem,
  Items,
  Position,
} from '../../wire/types.js';

export interface CollectionsApi {
  /** All collections of the space when `documentIds` is omitted. */
  listCollections(query?: { documentIds?: string | string[] }, options?: CallOptions): Promise<Items<CollectionListItem>>;
  /** Experimental. */
  createCollection(input: { schema: CollectionSchemaInput; position: Position }, options?: CallOptions): Promise<CollectionSchemaResult>;
  getCollectionSchema(collectionId: string, query: { format: 'schema' }, options?: CallOptions): Promise<CollectionSchema>;
  /** The JSON Schema of the add/update payload (the service's default format). */
  getCollectionSchema(collectionId: string, query?: { format?: 'json-schema-items' }, options?: CallOptions): Promise<Record<string, unknown>>;
  /** Experimental. Replaces the schema entirely: send every property to keep, with stable keys. */
  updateCollectionSchema(collectionId: string, input: { schema: CollectionSchemaInput }, options?: CallOptions): Promise<CollectionSchemaResult>;
  listCollectionItems(collectionId: string, query?: { maxDepth?: number }, options?: CallOptions): Promise<Items<CollectionItem>>;
  addCollectionItems(
    collectionId: string,
    input: { items: Array<{ title: string; properties?: Record<string, unknown> }>; allowNewSelectOptions?: boolean },
    options?: CallOptions,
  ): Promise<Items<CollectionItem>>;
  updateCollectionItems(
    collectionId: string,
    input: { itemsToUpdate: Array<{ id: string; properties?: Record<string, unknown> }>; allowNewSelectOptions?: boolean },
    options?: CallOptions,
  ): Promise<Items<CollectionItem>>;
  deleteCollectionItems(collectionId: string, input: { idsToDelete: string[] }, options?: CallOptions): Promise<Items<IdItem>>;
  listCollectionViews(collectionId: string, options?: CallOptions): Promise<CollectionViews>;
  createCollectionView(
    collectionId: string,
    input: { view: CollectionViewInput & { name: string; type: CollectionView['type'] } },
    options?: CallOptions,
  ): Promise<CollectionView>;
  updateCollectionView(collectionId: string, viewId: string, input: { view: CollectionViewInput }, options?: CallOptions): Promise<CollectionView>;
  /** The last stored view cannot be deleted. */
  deleteCollectionView(collectionId: string, viewId: string, options?: CallOptions): Promise<{ deletedViewId: string; activeViewId?: string }>;
  setActiveCollectionView(collectionId: string, input: { viewId: string }, options?: CallOptions): Promise<CollectionView>;
}

/** An answer checked as an object, typed as the call says. */
const obj = <T>() => checkAs<T>(anyObject);
/** The path of one collection. */
const base = (id: string) => `/collections/${seg(id)}`;

export function collectionsApi(send: Send): CollectionsApi {
  return {
    listCollections: (query = {}, options) =>
      send(
        { method: 'GET', endpoint: 'GET /collections', path: '/collections', query: { ...query }, blockCost: 0, root: query.documentIds === undefined },
        options,
        checkAs<Items<CollectionListItem>>(objectItems),
      ),
    createCollection: (input, options) =>
      send({ method: 'POST', endpoint: 'POST /collections', path: '/collections', json: input, blockCost: 1 }, options, obj<CollectionSchemaResult>()),
    getCollectionSchema: ((collectionId: string, query: { format?: 'schema' | 'json-schema-items' } = {}, options?: CallOptions) =>
      send(
        { method: 'GET', endpoint: 'GET /collections/{collectionId}/schema', path: `${base(collectionId)}/schema`, query: { ...query }, blockCost: 0 },
        options,
        obj<Record<string, unknown>>(),
      )) as CollectionsApi['getCollectionSchema'],
    updateCollectionSchema: (collectionId, input, options) =>
      send(
        { method: 'PUT', endpoint: 'PUT /collections/{collectionId}/schema', path: `${base(collectionId)}/schema`, json: input, blockCost: 0 },
        options,
        obj<CollectionSchemaResult>(),
      ),
    ...collectionItemsApi(send),
    ...collectionViewsApi(send),
  };
}

/** A collection's items: the rows of its table. */
function collectionItemsApi(
  send: Send,
): Pick<CollectionsApi, 'listCollectionItems' | 'addCollectionItems' | 'updateCollectionItems' | 'deleteCollectionItems'> {
  const itemsOf = checkAs<Items<CollectionItem>>(collectionItems);
  return {
    listCollectionItems: (collectionId, query = {}, options) =>
      send(
        { method: 'GET', endpoint: 'GET /collections/{collectionId}/items', path: `${base(collectionId)}/items`, query: { ...query }, blockCost: 0 },
        options,
        itemsOf,
      ),
    addCollectionItems: (collectionId, input, options) =>
      send(
        { method: 'POST', endpoint: 'POST /collections/{collectionId}/items', path: `${base(collectionId)}/items`, json: input, blockCost: input.items.length },
        options,
        itemsOf,
      ),
    updateCollectionItems: (collectionId, input, options) =>
      send(
        {
          method: 'PUT',
          endpoint: 'PUT /collections/{collectionId}/items',
          path: `${base(collectionId)}/items`,
          json: input,
          blockCost: input.itemsToUpdate.length,
        },
        options,
        itemsOf,
      ),
    deleteCollectionItems: (collectionId, input, options) =>
      send(
        {
          method: 'DELETE',
          endpoint: 'DELETE /collections/{collectionId}/items',
          path: `${base(collectionId)}/items`,
          json: input,
          blockCost: input.idsToDelete.length,
        },
        options,
        check(idItems),
      ),
  };
}

/** A collection's views: how its table is shown. */
function collectionViewsApi(
  send: Send,
): Pick<CollectionsApi, 'listCollectionViews' | 'createCollectionView' | 'updateCollectionView' | 'deleteCollectionView' | 'setActiveCollectionView'> {
  return {
    listCollectionViews: (collectionId, options) =>
      send(
        { method: 'GET', endpoint: 'GET /collections/{collectionId}/views', path: `${base(collectionId)}/views`, blockCost: 0 },
        options,
        obj<CollectionViews>(),
      ),
    createCollectionView: (collectionId, input, options) =>
      send(
        { method: 'POST', endpoint: 'POST /collections/{collectionId}/views', path: `${base(collectionId)}/views`, json: input, blockCost: 0 },
        options,
        obj<CollectionView>(),
      ),
    updateCollectionView: (collectionId, viewId, input, options) =>
      send(
        {
          method: 'PUT',
          endpoint: 'PUT /collections/{collectionId}/views/{viewId}',
          path: `${base(collectionId)}/views/${seg(viewId)}`,
          json: input,
          blockCost: 0,
        },
        options,
        obj<CollectionView>(),
      ),
    deleteCollectionView: (collectionId, viewId, options) =>
      send(
        { method: 'DELETE', endpoint: 'DELETE /collections/{collectionId}/views/{viewId}', path: `${base(collectionId)}/views/${seg(viewId)}`, blockCost: 0 },
        options,
        obj<{ deletedViewId: string; activeViewId?: string }>(),
      ),
    setActiveCollectionView: (collectionId, input, options) =>
      send(
        { method: 'PUT', endpoint: 'PUT /collections/{collectionId}/active-view', path: `${base(collectionId)}/active-view`, json: input, blockCost: 0 },
        options,
        obj<CollectionView>(),
      ),
  };
}

// What spacesync and the server know of each block type, in one table: the core's sendability and
// media comparison and the server's input rules read it. Record<BlockType, …> makes a new type in
// BLOCK_TYPES fail the type check until its row is written here.
import type { BlockType } from './types.js';

export interface BlockTraits {
  /** A `PUT /blocks` may change its markdown (the type itself never changes). */
  puttable: boolean;
  /** Markdown re-creates it faithfully, so a type change may delete it and insert the new type. */
  replaceable: boolean;
  /** A file must never delete it: it cannot be re-created from its markdown. */
  protected: boolean;
  /** Its markdown links a media asset by a signed URL whose query changes on every read. */
  media: boolean;
  /** Its asset is downloaded into the document's `.assets` folder (a whiteboard's scene is written from its elements instead). */
  downloaded: boolean;
  /** The service derives its markdown from its fields: markdown sent for it is ignored. */
  derivedMarkdown: boolean;
  /** The endpoint that creates it, when `POST /blocks` may not. */
  ownEndpoint: string | null;
}

const plain: BlockTraits = {
  puttable: false,
  replaceable: false,
  protected: false,
  media: false,
  downloaded: false,
  derivedMarkdown: false,
  ownEndpoint: null,
};
const markdownBlock: BlockTraits = { ...plain, puttable: true, replaceable: true };

export const BLOCK_TRAITS: Readonly<Record<BlockType, BlockTraits>> = {
  text: markdownBlock,
  code: markdownBlock,
  line: markdownBlock,
  table: markdownBlock,
  page: plain,
  image: { ...plain, puttable: true, media: true, downloaded: true },
  video: { ...plain, media: true, downloaded: true, derivedMarkdown: true },
  file: { ...plain, media: true, downloaded: true, derivedMarkdown: true },
  drawing: { ...plain, protected: true, media: true, downloaded: true, derivedMarkdown: true },
  // Not protected: its scene file holds its elements, so removing its link from the file removes the block.
  whiteboard: { ...plain, media: true, derivedMarkdown: true, ownEndpoint: 'POST /whiteboards' },
  richUrl: { ...plain, derivedMarkdown: true },
  collection: { ...plain, protected: true, derivedMarkdown: true, ownEndpoint: 'POST /collections' },
  collectionItem: { ...plain, protected: true, ownEndpoint: 'POST /collections/{id}/items' },
};

/** The traits of a type as the service reported it; undefined for a type this version does not know. */
export function traitsOf(type: string): BlockTraits | undefined {
  return Object.hasOwn(BLOCK_TRAITS, type) ? BLOCK_TRAITS[type as BlockType] : undefined;
}

/** The types that have a trait, as a set of type names. */
export function typesWhere(has: (t: BlockTraits) => boolean): ReadonlySet<string> {
  return new Set(
    Object.entries(BLOCK_TRAITS)
      .filter(([, t]) => has(t))
      .map(([type]) => type),
  );
}

// The shapes the pure sync decisions work on: base (the journal), local (the file), remote (the service).
// The journal and the dialect build against these same shapes.
import type { BlockType, CardLayout, Segment } from '../dialect/types.js';
import type { ParsedFrontMatter } from './files/frontMatter.js';
import type { UnshownFields } from './versions/unshownFields.js';

/** How a block appears in a file: a plain block, a nested page or card (a wrapper with children), or output-only content. */
export type BlockKind = 'block' | 'page' | 'card' | 'readonly';

/** One block of a document as both sides last agreed on it (journal). A document's base blocks come in pre-order. */
export interface BaseBlock {
  id: string;
  /** null = a child of the document root. */
  parentId: string | null;
  /** Index among its siblings. */
  position: number;
  /** indentationLevel. */
  level: number;
  kind: BlockKind;
  /** BlockType as the service reported it. */
  type: string;
  /** The markdown as the service returned it (pages and cards: the bare title). */
  markdown: string;
  /**
   * Of `kind`, canonical `markdown` and, for a card, its layout as last synced (hashBlock). The
   * journal keeps no layout of its own: cardLayoutOf reads it back from here.
   */
  hash: string;
  /** A card's layout, when the block was made from the service's (the journal's blocks carry it in `hash` only). */
  cardLayout?: CardLayout;
  /** The service's fields the file does not show (colour, alignment…), so a block deleted and restored gets them back. */
  unshown?: UnshownFields;
}

/**
 * One block of the file, as the dialect cut it (a Segment can be passed as is).
 * Pages and cards: `markdown` is the title as the service stores it, `children` their content.
 */
export interface LocalBlock {
  markdown: string;
  kind: BlockKind;
  children: LocalBlock[];
  /** The wrapper's attributes as the file writes them (`<card cardLayout="small">`); pages and cards only. */
  attrs?: Record<string, string>;
}

/** A block of the service's current tree, flattened (see flattenRemote): BaseBlock without the hash. */
export interface RemoteBlock {
  id: string;
  parentId: string | null;
  position: number;
  level: number;
  kind: BlockKind;
  type: string;
  markdown: string;
  /** A card's layout; absent when it has none. */
  cardLayout?: CardLayout;
  /** Why spacesync keeps the block read-only (readOnlyReasonOf); absent for blocks it knows all of. */
  readOnly?: string;
  /** The fields the file does not show (unshownFieldsOf); absent when it has none. */
  unshown?: UnshownFields;
}

/** Canonical equality of two block markdowns (the dialect's markdownEquals). */
export type MarkdownEquals = (a: string, b: string) => boolean;

/** What the service makes of one block's markdown: exactly one block of a type, or a problem (it would split, or refuses it). */
export type Classification = { type: BlockType } | { problem: string };

/** The parts of the dialect the decisions need; `coreDialect` wires the real one. */
export interface CoreDialect {
  equals: MarkdownEquals;
  /** The block type one local block's markdown becomes when sent; plain blocks only. */
  classify(markdown: string): Classification;
  /** A new block that references a local file to upload (the media step sends it through `POST /upload`, not the push). */
  isUpload?: (markdown: string) => boolean;
  /**
   * A new block that references a local file that is not there: that file's path. Held back until it
   * is (sent as text it would make a media block pointing nowhere, which no later upload replaces).
   */
  missingReference?: (markdown: string) => string | undefined;
}

/** Where a new local block goes among its siblings: after an existing sibling, or first in a parent (null = the document root). */
export type Anchor = { after: string } | { start: string | null };

/** Location of a document in the space. Daily notes live in `daily_notes`; user folders carry `folderId`. */
export type DocLocation = 'unsorted' | 'templates' | 'trash' | 'daily_notes' | 'folder';

/** One document file as the push reads it: its exact text and hash, its front matter and its block segments. */
export interface LocalDocument {
  path: string;
  text: string;
  hash: string;
  frontMatter: ParsedFrontMatter;
  /** The body's top-level blocks, byte-faithful (a Segment is a LocalBlock). */
  segments: Segment[];
  /** The bytes between the top-level blocks (`separators.length === segments.length + 1`). */
  separators: string[];
}

/** A document as `GET /documents?fetchMetadata=true` lists it. */
export interface RemoteDocument {
  id: string;
  title: string;
  lastModifiedAt: string | null;
  createdAt: string | null;
}

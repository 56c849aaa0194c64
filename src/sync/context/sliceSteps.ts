// What one slice does at a point inside another's work: declared here, provided by the cycle
// (cycle/pullAndPush.ts), called by the slice without knowing whose step it is. A step that can run
// before or after a slice's work is not here: the cycle runs it in order (cycle/syncOnce.ts).
import type { BaseBlock } from '../../core/types.js';
import type { Block } from '../../dialect/index.js';
import type { Intent } from '../../journal/index.js';
import type { Position } from '../../wire/index.js';
import type { MediaRecord } from './records.js';
import type { SyncContext } from './SyncContext.js';

/** A new document's assets that came in while it was read (the media slice's awaitNewAssets). */
export interface ArrivedAssets {
  /** The records of the assets that came in, by block id: the file links them. */
  records: ReadonlyMap<string, MediaRecord>;
  /** Moves them into the document's `.assets` folder: right before the file is written. */
  place(): Promise<void>;
  /** The journal's writes (their records, the failures' retries): committed with the document's base. */
  record(): void;
  /** Drops them: the file is not written after all (their downloads start again later). */
  discard(): Promise<void>;
}

/** Inside the documents' pull. */
export interface PullSteps {
  /** Once the layout moved documents, before any is read: the links to them follow (their `.assets` folders first); returns the files rewritten. */
  followMoves(ctx: SyncContext): Promise<string[]>;
  /** A document read for the first time: its assets that come in within a moment, linked as its file is first written; null when it has none. */
  awaitNewAssets(ctx: SyncContext, docId: string, docPath: string, root: Block): Promise<ArrivedAssets | null>;
  /** A document read and written: its assets not downloaded yet start coming in, beside the rest of the pull. */
  prefetchAssets(ctx: SyncContext, docId: string, base: readonly BaseBlock[]): void;
  /** Between two documents: the downloads of those pulled and recorded (`recorded`) go into place. */
  applyBesidePull(ctx: SyncContext, recorded: (docId: string) => boolean): Promise<void>;
}

/** Inside the documents' push. */
export interface PushSteps {
  /** Before any document is merged: the uploads whose answers were lost (`intents` holds theirs) are looked for, one that landed adopted; true when some were. */
  settleUploads(ctx: SyncContext, intents: readonly Intent[]): Promise<boolean>;
  /** Files moved here take their `.assets` folders along, before their references are read; returns the folders' new paths. */
  carryAssetFolders(ctx: SyncContext, moves: ReadonlyArray<{ from: string; to: string }>, newDirs?: readonly string[]): Promise<string[]>;
}

/** A line of a document that links a whiteboard's scene file, to draw as a whiteboard block at its place. */
export interface DrawInput {
  docId: string;
  /** The scene file, inside the document's `.assets` folder. */
  file: string;
  /** The line as the file has it. */
  markdown: string;
  parentId: string | null;
  /** The block it goes after among its siblings; null: first in its parent. */
  after: string | null;
  target: Position;
}

/** Inside the media step's uploads: a scene file referenced from a document becomes a whiteboard (the whiteboards slice's drawWhiteboard). */
export type DrawScene = (ctx: SyncContext, input: DrawInput) => Promise<{ ok: true; blockId: string } | { ok: false; message: string }>;

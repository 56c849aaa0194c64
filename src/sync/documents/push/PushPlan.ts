// A push as data: the core's decisions per document and folder, the steps of requests planSync made
// of them (what `spacesync plan` prints, and what the cycle then sends in that order), the
// problems held back, and a refusal when a safety check stops it.
import type { DocumentDecision } from '../../../core/push/decideDocument.js';
import type { FolderDecisions } from '../../../core/push/decideFolders.js';
import type { PlanStep } from '../../../core/push/plan.js';
import type { SafetyRefusal } from '../../../core/push/safety.js';
import type { BaseBlock } from '../../../core/types.js';
import type { DocumentRecord } from '../../../journal/index.js';
import type { RemoteDocumentState } from './fetchRemoteDocument.js';
import type { FileMerge } from '../../../core/merge/mergeFile.js';
import type { LocalDocument } from './readLocalDocument.js';
import type { Placement } from '../../../core/remoteTypes.js';
import type { Anchor } from '../../../core/links/linkDocuments.js';

/** One document the push touches, and how its record reads afterwards. */
export interface DocumentTask {
  /** Its id, or the ref of a document this push creates. */
  doc: string;
  record: DocumentRecord | null;
  /** The file; null when it is gone. */
  local: LocalDocument | null;
  decision: DocumentDecision;
  base: BaseBlock[];
  /** The service's blocks, read because they changed too. */
  remote: RemoteDocumentState | null;
  /** The blocks to send; absent when the content goes unchanged (a move, a rename, a trash). */
  file: FileMerge | null;
  /** Its place and title afterwards (a folder may still be a ref). */
  next: Placement & { path: string; title: string };
  /** The listing's lastModifiedAt the base stands for afterwards. */
  remoteModifiedAt: string | null;
  /** Intents of an earlier run this push settles. */
  settles: number[];
  /** The file references local files the media step uploads (left out of this push). */
  uploads?: boolean;
}

/** `deletes`: the files whose documents the refused cycle would have moved to the service's trash. */
export type PushRefusal = SafetyRefusal;

export type { HeldBackFile } from '../../context/index.js';
import type { HeldBackFile } from '../../context/index.js';

export interface PushPlan {
  refused: PushRefusal | null;
  /** Files held back (not UTF-8, or wiping their document): named in the output and in status. */
  heldBack: HeldBackFile[];
  steps: PlanStep[];
  tasks: DocumentTask[];
  folders: FolderDecisions | null;
  /** Changes not sent, with the reason (the files keep them); `outputOnly`: an output-only block (a table the tables' push may send). */
  problems: Array<{ path: string; message: string; outputOnly?: boolean }>;
  /** Interrupted requests of an earlier run, settled by re-reading before anything is sent. */
  pendingIntents: number;
  /** Reads made to plan (the listing, documents to merge). */
  reads: number;
  /** Blocks that typed links name and the mirror had no anchor for yet, with the anchor their links show (recorded before sending). */
  anchors?: Map<string, Anchor>;
  /** What goes ahead on the person's approval (`spacesync approve`): held-back files, and the deletes of a refused push; used once sent. */
  approved?: { files: string[]; deletes: boolean };
}

export const emptyPlan = (pendingIntents = 0): PushPlan => ({
  refused: null,
  heldBack: [],
  steps: [],
  tasks: [],
  folders: null,
  problems: [],
  pendingIntents,
  reads: 0,
});

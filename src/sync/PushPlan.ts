// A push as data: the ordered steps (each with the requests it sends and what the journal records
// after), the problems held back, and a refusal when a safety check stops it. `spacesync plan`
// prints it; the cycle then carries out exactly these steps.
import type { FolderRecord } from '../journal/index.js';
import type { RecordFields } from './executeDocumentPush.js';
import type { DocumentPushPlan } from './planDocumentPush.js';
import type { PushRequest } from './pushRequests.js';
import type { Placement } from './remoteTypes.js';

export interface PushRefusal {
  reason: 'mass_delete' | 'empty_root' | 'empty_remote';
  message: string;
}

export type PushStep =
  | { kind: 'createFolders'; request: Extract<PushRequest, { op: 'POST /folders' }>; parents: Array<string | null> }
  | { kind: 'moveFolders'; request: Extract<PushRequest, { op: 'PUT /folders/move' }>; moves: Array<{ id: string; name: string; parent: string | null; from: string; to: string }> }
  | { kind: 'createDocuments'; request: Extract<PushRequest, { op: 'POST /documents' }>; placement: Placement }
  | { kind: 'moveDocuments'; request: Extract<PushRequest, { op: 'PUT /documents/move' }>; placement: Placement }
  /** A document's blocks (and title); `created` for a document made by this push. */
  | { kind: 'content'; plan: DocumentPushPlan; fields: RecordFields; settles: number[]; created: boolean }
  /** Deleted here, edited in the space: the file comes back (the pull writes it), nothing is sent. */
  | { kind: 'restoreFile'; id: string; path: string }
  /** Deleted here and trashed there too: nothing is sent; the file belongs in Trash/ now. */
  | { kind: 'trashedBoth'; id: string; path: string }
  | { kind: 'deleteDocuments'; request: Extract<PushRequest, { op: 'DELETE /documents' }> }
  | { kind: 'deleteFolders'; request: Extract<PushRequest, { op: 'DELETE /folders' }>; records: FolderRecord[] };

export interface PushPlan {
  refused: PushRefusal | null;
  steps: PushStep[];
  /** Changes not sent, with the reason (the files keep them). */
  problems: Array<{ path: string; message: string }>;
  /** Interrupted requests of an earlier run, settled by re-reading before anything is sent. */
  pendingIntents: number;
  /** Reads made to plan (listing, documents to merge). */
  reads: number;
}

export function stepRequests(step: PushStep): PushRequest[] {
  switch (step.kind) {
    case 'content': return step.plan.requests;
    case 'restoreFile':
    case 'trashedBoth': return [];
    default: return [step.request];
  }
}

export function planRequests(plan: PushPlan): PushRequest[] {
  return plan.steps.flatMap(stepRequests);
}

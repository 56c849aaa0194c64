// What pushing one document's file means: diff base → file, merge with the service's blocks when
// they changed too (mirror-and-sync.md §4), the change set, the title, and the requests. No I/O.
import { changeSetOf, type ChangeSet } from '../core/changeSet.js';
import { coreDialect } from '../core/coreDialect.js';
import { diffDocument } from '../core/diff.js';
import { mergeDocument, type MergeResult } from '../core/merge.js';
import type { BaseBlock, CoreDialect } from '../core/types.js';
import type { RemoteDocumentState } from './fetchRemoteDocument.js';
import { blockRequests, type PushRequest } from './pushRequests.js';
import type { LocalDocument } from './readLocalDocument.js';

export interface DocumentPushInput {
  /** The document id (a ref while the document is being created). */
  id: string;
  path: string;
  local: LocalDocument;
  base: readonly BaseBlock[];
  /** The service's blocks when they changed since base (or are not known to be the base). */
  remote: RemoteDocumentState | null;
  /** Titles: as base recorded it, and as the file now says it. */
  baseTitle: string;
  localTitle: string;
}

export interface DocumentPushPlan extends DocumentPushInput {
  merge: MergeResult;
  changes: ChangeSet;
  /** The title the document has afterwards, and whether it is sent. */
  title: string;
  sendTitle: boolean;
  /** Both sides renamed the document differently: the service's title stays. */
  titleConflict: boolean;
  requests: PushRequest[];
  /** False when the diff fell back to pairing by position in a region too costly to diff. */
  exhaustive: boolean;
}

export function planDocumentPush(input: DocumentPushInput, dialect: CoreDialect = coreDialect): DocumentPushPlan {
  const diff = diffDocument(input.base, input.local.segments, { equals: dialect.equals });
  const remoteBlocks = input.remote?.blocks;
  const merge = mergeDocument({ base: input.base, diff, ...(remoteBlocks ? { remote: remoteBlocks } : {}), dialect });
  const changes = changeSetOf(merge.nodes, remoteBlocks ?? input.base, dialect.equals);

  const remoteTitle = input.remote?.title ?? input.baseTitle;
  const localRenamed = input.localTitle !== input.baseTitle;
  const remoteRenamed = remoteTitle !== input.baseTitle;
  const sendTitle = localRenamed && !remoteRenamed && !/[\r\n]/.test(input.localTitle);
  const titleConflict = localRenamed && remoteRenamed && input.localTitle !== remoteTitle;
  const title = sendTitle ? input.localTitle : remoteTitle;

  const requests = blockRequests(input.id, input.path, changes, sendTitle ? input.localTitle : undefined);
  return { ...input, merge, changes, title, sendTitle, titleConflict, requests, exhaustive: diff.exhaustive };
}

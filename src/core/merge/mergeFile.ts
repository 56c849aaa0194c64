// A file against its base, and against the service's blocks when they changed too: the core's
// diff, three-way merge (docs/sync-decisions.md, Merge) and the change set that brings the service there.
import { changeSetOf, type ChangeSet } from './changeSet.js';
import { isSpacesyncError } from '../../errors.js';
import { markdownEquals, parseBlockMarkdown } from '../../dialect/index.js';
import { diffDocument } from './diff.js';
import { mergeDocument, type MergeResult } from './merge.js';
import type { BaseBlock, Classification, CoreDialect, LocalDocument, RemoteBlock } from '../types.js';

// The real dialect, as the decisions use it: canonical equality and what one block's markdown becomes.
export function classifyBlockMarkdown(markdown: string): Classification {
  try {
    return { type: parseBlockMarkdown(markdown).type };
  } catch (e) {
    if (isSpacesyncError(e, 'dialect_input')) return { problem: e.message };
    throw e;
  }
}

export const coreDialect: CoreDialect = { equals: markdownEquals, classify: classifyBlockMarkdown };

export interface FileMerge {
  merge: MergeResult;
  changes: ChangeSet;
  /** False when a region was too costly to diff minimally and was paired by position. */
  exhaustive: boolean;
}

/** `remote`: the service's blocks when they changed since base; the base stands for them otherwise. */
export function mergeFile(
  base: readonly BaseBlock[],
  local: LocalDocument,
  remote?: readonly RemoteBlock[],
  dialect: CoreDialect = coreDialect,
  readOnly?: ReadonlyMap<string, string>,
): FileMerge {
  const diff = diffDocument(base, local.segments, { equals: dialect.equals });
  const merge = mergeDocument({ base, diff, ...(remote ? { remote } : {}), dialect, ...(readOnly ? { readOnly } : {}) });
  // planSync runs the late moves after the inserts, so a block wrapped into a new page keeps its id.
  const changes = changeSetOf(merge.nodes, remote ?? base, dialect.equals, { moveIntoNewPages: true });
  return { merge, changes, exhaustive: diff.exhaustive };
}

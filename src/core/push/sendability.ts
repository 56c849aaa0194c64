// What can be sent for a block of the file: an edit in place (keeps the id), a replacement
// (the type changed: delete and insert), a new block, or nothing (held back and reported).
import { typesWhere, type BlockType } from '../../dialect/index.js';
import { fileCardLayout, invalidLayoutReason } from '../merge/cardLayout.js';
import type { BlockKind, CoreDialect, LocalBlock } from '../types.js';

/** Types whose markdown a `PUT /blocks` may change (the type itself never changes): the dialect's traits. */
export const PUTTABLE = typesWhere((t) => t.puttable);
/** Types that markdown re-creates faithfully, so a type change may delete and insert them. */
export const REPLACEABLE = typesWhere((t) => t.replaceable);
/** Types a file must never delete: they cannot be re-created from their markdown. */
export const PROTECTED = typesWhere((t) => t.protected);

/** `upload`: the block's line now references a local file: the block goes, and the media step uploads the line as a new block. */
export type EditAction = { action: 'put' } | { action: 'replace'; type: BlockType } | { action: 'upload' } | { action: 'hold'; reason: string };

/** Types whose line links their asset (or scene file): an edit of it (its alt text) stays an edit, never an upload. */
const MEDIA_TYPES: ReadonlySet<string> = typesWhere((t) => t.media);

/** A line that references a local file not there: why it is held back. */
const missingReason = (file: string) => `it links "${file}", which is not there: put the file there (it is then uploaded) or remove the line`;

/** `upload`: a reference to a local file, left to the media step (not sent by the push, not a problem). */
export type CreateAction = { action: 'create'; type: BlockType } | { action: 'hold'; reason: string } | { action: 'upload' };

const isWrapper = (kind: BlockKind) => kind === 'page' || kind === 'card';

function titleProblem(title: string): string | undefined {
  return /[\r\n]/.test(title) ? 'a page or card title must be one line' : undefined;
}

/** How an edit of an existing block (base kind and type) to `local` can reach the service. */
export function editAction(base: { kind: BlockKind; type: string }, local: LocalBlock, dialect: CoreDialect, readOnly?: string): EditAction {
  if (base.kind === 'readonly' || local.kind === 'readonly')
    return { action: 'hold', reason: 'it is output-only content the service renders (edit it in the app)' };
  if (readOnly !== undefined) return { action: 'hold', reason: `it is ${readOnly}, which spacesync keeps read-only (change it in the app)` };
  if (isWrapper(base.kind)) {
    const problem = titleProblem(local.markdown);
    return problem ? { action: 'hold', reason: problem } : { action: 'put' };
  }
  if (!MEDIA_TYPES.has(base.type)) {
    // A line turned into a reference to a local file (written over another line): uploaded, not sent as text.
    if (dialect.isUpload?.(local.markdown)) return { action: 'upload' };
    const missing = dialect.missingReference?.(local.markdown);
    if (missing !== undefined) return { action: 'hold', reason: missingReason(missing) };
  }
  const c = dialect.classify(local.markdown);
  if ('problem' in c) return { action: 'hold', reason: c.problem };
  if (c.type === base.type && PUTTABLE.has(base.type)) return { action: 'put' };
  if (REPLACEABLE.has(base.type) && c.type !== base.type) return { action: 'replace', type: c.type };
  return { action: 'hold', reason: `a ${base.type} block cannot be changed through its markdown (change it in the app)` };
}

/** How a block new in the file can be created; a page or card is held when any block inside it is. */
export function createAction(local: LocalBlock, dialect: CoreDialect): CreateAction {
  if (local.kind === 'readonly') return { action: 'hold', reason: 'output-only content (a collection) cannot be created from a file' };
  if (isWrapper(local.kind)) {
    const problem = titleProblem(local.markdown);
    if (problem) return { action: 'hold', reason: problem };
    const layout = fileCardLayout(local);
    if ('invalid' in layout) return { action: 'hold', reason: invalidLayoutReason(layout.invalid) };
    for (const c of local.children) {
      const a = createAction(c, dialect);
      if (a.action === 'hold') return { action: 'hold', reason: `a block inside it cannot be sent: ${a.reason}` };
    }
    return { action: 'create', type: 'page' };
  }
  if (dialect.isUpload?.(local.markdown)) return { action: 'upload' };
  const missing = dialect.missingReference?.(local.markdown);
  if (missing !== undefined) return { action: 'hold', reason: missingReason(missing) };
  const c = dialect.classify(local.markdown);
  if ('problem' in c) return { action: 'hold', reason: c.problem };
  if (PROTECTED.has(c.type)) return { action: 'hold', reason: `a ${c.type} block cannot be created from markdown` };
  return { action: 'create', type: c.type };
}

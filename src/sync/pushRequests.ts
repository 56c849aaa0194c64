// The requests a push sends, as data: what `spacesync plan` prints and what the cycle then sends,
// in the same order. Ids not known before a request (new documents, folders, blocks) are refs
// (`new:…`) that the answers resolve.
import type { ChangeSet, NewBlockSpec } from '../core/changeSet.js';
import type { Anchor } from '../core/types.js';
import type { DocumentDestination, FolderDestination } from '../client/index.js';

export type PushRequest =
  /** Changed blocks of one document (and its title: the root block), one request. */
  | { op: 'PUT /blocks'; doc: string; path: string; blocks: Array<{ id: string; markdown: string }> }
  | { op: 'PUT /blocks/move'; doc: string; path: string; blockIds: string[]; anchor: Anchor }
  /** One contiguous run of new blocks; `date` for the first blocks of a new daily note. */
  | { op: 'POST /blocks'; doc: string; path: string; anchor: Anchor | { date: string }; blocks: NewBlockSpec[] }
  | { op: 'DELETE /blocks'; doc: string; path: string; blockIds: string[] }
  /** New documents of one destination; `refs[i]` names the i-th until its id is known. */
  | { op: 'POST /documents'; refs: string[]; paths: string[]; titles: string[]; destination: DocumentDestination | FolderRef }
  | { op: 'PUT /documents/move'; docs: string[]; paths: string[]; destination: DocumentDestination | FolderRef }
  /** Soft delete: the documents go to the trash. */
  | { op: 'DELETE /documents'; docs: string[]; paths: string[] }
  /** New folders whose parents exist (or are created by an earlier request). */
  | { op: 'POST /folders'; refs: string[]; paths: string[]; folders: Array<{ name: string; parent: string | null }> }
  | { op: 'PUT /folders/move'; folders: string[]; paths: string[]; destination: FolderDestination | { parentFolderId: string } }
  | { op: 'DELETE /folders'; folders: string[]; paths: string[] };

/** A folder destination whose id may still be a ref. */
export interface FolderRef { folderId: string }

export const DOC_REF = 'new:doc:';
export const FOLDER_REF = 'new:folder:';

/** Whether a request writes blocks to one document (so it belongs to that document's push). */
export const isBlockRequest = (r: PushRequest): r is Extract<PushRequest, { doc: string }> => 'doc' in r;

/**
 * The requests that apply a document's change set, fewest first: one PUT for every changed block
 * (the title too), one move per moved run, one POST per inserted run, one DELETE for the rest.
 * Deletes go last, so an interrupted push leaves extra text behind, never missing text.
 */
export function blockRequests(doc: string, path: string, cs: ChangeSet, title?: string): PushRequest[] {
  const out: PushRequest[] = [];
  const edits = cs.edits.map((e) => ({ id: e.id, markdown: e.markdown }));
  if (title !== undefined) edits.unshift({ id: doc, markdown: title });
  if (edits.length > 0) out.push({ op: 'PUT /blocks', doc, path, blocks: edits });
  for (const m of cs.moves) out.push({ op: 'PUT /blocks/move', doc, path, blockIds: m.ids, anchor: m.anchor });
  for (const i of cs.inserts) out.push({ op: 'POST /blocks', doc, path, anchor: i.anchor, blocks: i.blocks });
  if (cs.deletes.length > 0) out.push({ op: 'DELETE /blocks', doc, path, blockIds: cs.deletes });
  return out;
}

const countSpecs = (specs: readonly NewBlockSpec[]): number => specs.reduce((n, s) => n + 1 + countSpecs(s.children), 0);

/** How many blocks a request writes (what the block budget is charged). */
export function blocksWritten(r: PushRequest): number {
  switch (r.op) {
    case 'PUT /blocks': return r.blocks.length;
    case 'PUT /blocks/move': return r.blockIds.length;
    case 'POST /blocks': return countSpecs(r.blocks);
    case 'DELETE /blocks': return r.blockIds.length;
    default: return 0;
  }
}

const quote = (paths: readonly string[]) => (paths.length === 1 ? `"${paths[0]}"` : `${paths.length} files (${paths.slice(0, 3).map((p) => `"${p}"`).join(', ')}${paths.length > 3 ? ', …' : ''})`);

function where(a: Anchor | { date: string }): string {
  if ('date' in a) return `the daily note of ${a.date}`;
  if ('after' in a) return `after block ${a.after}`;
  return a.start === null ? 'at the top' : `at the top of page ${a.start}`;
}

function destinationText(d: DocumentDestination | FolderRef | FolderDestination | { parentFolderId: string }): string {
  if (d === 'root') return 'the top level';
  if ('destination' in d) return d.destination === 'unsorted' ? 'Unsorted' : 'Templates';
  if ('folderId' in d) return `folder ${d.folderId}`;
  return `folder ${d.parentFolderId}`;
}

/** One line per request, as `spacesync plan` shows it. */
export function describeRequest(r: PushRequest): string {
  switch (r.op) {
    case 'PUT /blocks': return `PUT /blocks: ${r.blocks.length} block${r.blocks.length === 1 ? '' : 's'} of "${r.path}"${r.blocks.some((b) => b.id === r.doc) ? ' (its title too)' : ''}`;
    case 'PUT /blocks/move': return `PUT /blocks/move: ${r.blockIds.length} block${r.blockIds.length === 1 ? '' : 's'} of "${r.path}" ${where(r.anchor)}`;
    case 'POST /blocks': {
      const n = countSpecs(r.blocks);
      return `POST /blocks: ${n} new block${n === 1 ? '' : 's'} in "${r.path}" ${where(r.anchor)}`;
    }
    case 'DELETE /blocks': return `DELETE /blocks: ${r.blockIds.length} block${r.blockIds.length === 1 ? '' : 's'} of "${r.path}"`;
    case 'POST /documents': return `POST /documents: new document${r.paths.length === 1 ? '' : 's'} for ${quote(r.paths)} in ${destinationText(r.destination)}`;
    case 'PUT /documents/move': return `PUT /documents/move: ${quote(r.paths)} to ${destinationText(r.destination)}`;
    case 'DELETE /documents': return `DELETE /documents: ${quote(r.paths)} to the trash`;
    case 'POST /folders': return `POST /folders: ${r.paths.map((p) => `"${p}"`).join(', ')}`;
    case 'PUT /folders/move': return `PUT /folders/move: ${r.paths.map((p) => `"${p}"`).join(', ')} to ${destinationText(r.destination)}`;
    case 'DELETE /folders': return `DELETE /folders: ${r.paths.map((p) => `"${p}"`).join(', ')}`;
  }
}

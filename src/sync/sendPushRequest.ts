// Sends one planned request, its refs resolved to the ids earlier answers gave, at the user's
// priority. The answer is returned as it came; reading new ids out of it is the caller's.
import type { DocumentDestination, FolderDestination, Position } from '../client/index.js';
import type { NewBlockSpec } from '../core/changeSet.js';
import type { Anchor } from '../core/types.js';
import type { Block, NewBlock } from '../dialect/index.js';
import type { SyncContext } from './SyncContext.js';
import type { FolderRef, PushRequest } from './pushRequests.js';

/** Ids the answers gave for refs. */
export type Refs = Map<string, string>;

export type PushAnswer =
  | { op: 'PUT /blocks' | 'POST /blocks'; items: Block[] }
  | { op: 'POST /documents'; ids: string[] }
  | { op: 'POST /folders'; ids: string[] }
  | { op: 'other' };

const resolve = (refs: Refs, id: string): string => refs.get(id) ?? id;

export function positionOf(anchor: Anchor | { date: string }, doc: string, refs: Refs): Position {
  if ('date' in anchor) return { position: 'end', date: anchor.date };
  if ('after' in anchor) return { position: 'after', siblingId: resolve(refs, anchor.after) };
  return { position: 'start', pageId: resolve(refs, anchor.start ?? doc) };
}

export function wireBlock(s: NewBlockSpec): NewBlock {
  if (s.kind === 'page' || s.kind === 'card') {
    const b: NewBlock = { type: 'page', title: s.markdown };
    if (s.kind === 'card') b.textStyle = 'card';
    if (s.children.length > 0) b.content = s.children.map(wireBlock);
    return b;
  }
  return { type: s.type as NewBlock['type'], markdown: s.markdown };
}

function destination(d: DocumentDestination | FolderRef, refs: Refs): DocumentDestination {
  return 'folderId' in d ? { folderId: resolve(refs, d.folderId) } : d;
}

function folderDestination(d: FolderDestination | { parentFolderId: string }, refs: Refs): FolderDestination {
  return d === 'root' ? d : { parentFolderId: resolve(refs, d.parentFolderId) };
}

export async function sendPushRequest(ctx: SyncContext, r: PushRequest, refs: Refs): Promise<PushAnswer> {
  const { client } = ctx;
  const o = { priority: 'user' as const };
  switch (r.op) {
    case 'PUT /blocks': {
      const res = await client.updateBlocks({ blocks: r.blocks.map((b) => ({ id: resolve(refs, b.id), markdown: b.markdown })) }, o);
      return { op: r.op, items: res.items };
    }
    case 'POST /blocks': {
      const doc = resolve(refs, r.doc);
      const res = await client.createBlocks({ blocks: r.blocks.map(wireBlock), position: positionOf(r.anchor, doc, refs) }, o);
      return { op: r.op, items: res.items };
    }
    case 'PUT /blocks/move':
      await client.moveBlocks({ blockIds: r.blockIds.map((id) => resolve(refs, id)), position: positionOf(r.anchor, resolve(refs, r.doc), refs) }, o);
      return { op: 'other' };
    case 'DELETE /blocks':
      await client.deleteBlocks({ blockIds: r.blockIds.map((id) => resolve(refs, id)) }, o);
      return { op: 'other' };
    case 'POST /documents': {
      const res = await client.createDocuments({ documents: r.titles.map((title) => ({ title })), destination: destination(r.destination, refs) }, o);
      return { op: r.op, ids: res.items.map((d) => d.id) };
    }
    case 'PUT /documents/move':
      await client.moveDocuments({ documentIds: r.docs.map((id) => resolve(refs, id)), destination: destination(r.destination, refs) }, o);
      return { op: 'other' };
    case 'DELETE /documents':
      await client.deleteDocuments({ documentIds: r.docs.map((id) => resolve(refs, id)) }, o);
      return { op: 'other' };
    case 'POST /folders': {
      const folders = r.folders.map((f) => (f.parent === null ? { name: f.name } : { name: f.name, parentFolderId: resolve(refs, f.parent) }));
      const res = await client.createFolders({ folders }, o);
      return { op: r.op, ids: res.items.map((f) => f.id) };
    }
    case 'PUT /folders/move':
      await client.moveFolders({ folderIds: r.folders.map((id) => resolve(refs, id)), destination: folderDestination(r.destination, refs) }, o);
      return { op: 'other' };
    case 'DELETE /folders':
      await client.deleteFolders({ folderIds: r.folders.map((id) => resolve(refs, id)) }, o);
      return { op: 'other' };
  }
}

// Reads one document's blocks for a merge: flattened as the decisions compare them, the service's
// block objects by id (to render the blocks a merge takes into the file), and its title.
import type { Priority } from '../../../client/index.js';
import { flattenRemote, markdownOf } from '../../../core/pull/flattenRemote.js';
import type { BaseBlock, RemoteBlock } from '../../../core/types.js';
import type { Block } from '../../../dialect/index.js';
import { linkTargetsOf, mediaRecordOf, ownMarkersOf, type SyncContext } from '../../context/index.js';
import { keepBaseMarkers } from '../../../core/links/planAnchors.js';
import { keepSignedUrls, linkAssets, type MediaLink } from '../../../core/media/linkAssets.js';
import { linkDocuments, type LinkTargets } from '../../../core/links/linkDocuments.js';

export interface RemoteDocumentState {
  blocks: RemoteBlock[];
  byId: Map<string, Block>;
  title: string;
  /** The listing's `lastModifiedAt` this read stands for. */
  lastModifiedAt: string | null;
}

/**
 * `path`: the document's file, which its whiteboards', assets' and other documents' links are relative
 * to (as the pull writes them); `media`: the downloaded assets, by block id; `targets`: the documents' files.
 */
export function remoteStateOf(
  root: Block,
  base: readonly BaseBlock[],
  lastModifiedAt: string | null,
  path?: string,
  media?: (id: string) => MediaLink | undefined,
  targets?: LinkTargets,
): RemoteDocumentState {
  const signed = keepSignedUrls(root, base);
  const assets = path === undefined ? signed : linkAssets(signed, path, media);
  const kept = path === undefined || targets === undefined ? assets : linkDocuments(assets, path, targets);
  const byId = new Map<string, Block>();
  const index = (b: Block) => {
    byId.set(b.id, b);
    for (const c of b.content ?? []) index(c);
  };
  for (const c of kept.content ?? []) index(c);
  return { blocks: flattenRemote(kept), byId, title: markdownOf(kept), lastModifiedAt };
}

export async function fetchRemoteDocument(
  ctx: SyncContext,
  id: string,
  base: readonly BaseBlock[],
  lastModifiedAt: string | null,
  priority: Priority = 'user',
): Promise<RemoteDocumentState> {
  const root = await ctx.client.getBlocks({ id }, { priority, ...(base.length ? { blockCost: base.length + 1 } : {}) });
  const state = remoteStateOf(root, base, lastModifiedAt, ctx.journal.getDocument(id)?.path, mediaRecordOf(ctx.journal), linkTargetsOf(ctx.journal));
  return { ...state, blocks: keepBaseMarkers(state.blocks, base, ownMarkersOf(ctx.journal)) };
}

// An upload whose answer was lost (a crash, a reset after the service applied it) left a media
// block in the space that the base does not know. These are the blocks that may be it: media blocks
// of the document of the upload's type that the base does not know, the one nearest to where the
// upload was aimed first (its answer would have put it right there), each with the URL the service
// gave it: the caller compares their bytes with the file's.
import type { Block } from '../../dialect/index.js';
import { destinationOf, DOWNLOADED_TYPES } from './linkAssets.js';

/** Where an upload was sent: after a sibling, or first in a page. */
export type UploadTarget = { position: 'after'; siblingId: string } | { position: 'start'; pageId: string };

export interface UploadCandidate {
  id: string;
  type: string;
  /** The signed URL the service gave the block in this read. */
  url: string;
}

/** The media blocks of `root` (a document as read) not in `known`, of `type` when given, nearest to `target` first. */
export function uploadCandidates(root: Block, known: ReadonlySet<string>, target: UploadTarget, type?: string): UploadCandidate[] {
  const flat: Block[] = [];
  const walk = (b: Block) => {
    for (const c of b.content ?? []) {
      flat.push(c);
      walk(c);
    }
  };
  walk(root);
  const anchorId = target.position === 'after' ? target.siblingId : target.pageId;
  // The block the upload would follow: its sibling, or its page (first child: right after it); the document itself is before the first block.
  const anchor = flat.findIndex((b) => b.id === anchorId);
  const found = flat.flatMap((b, i) => {
    if (!DOWNLOADED_TYPES.has(b.type) || known.has(b.id) || (type !== undefined && b.type !== type)) return [];
    const url = b.url ?? (b.markdown === undefined ? null : destinationOf(b.markdown));
    return url !== null && /^https?:\/\//i.test(url) ? [{ id: b.id, type: b.type, url, at: i }] : [];
  });
  // Nearest to the place right after the anchor (where the upload goes) first; of two as near, the later one.
  const distance = (at: number) => (at > anchor ? 2 * (at - anchor - 1) : 2 * (anchor + 1 - at) + 1);
  return found.sort((a, b) => distance(a.at) - distance(b.at)).map(({ at: _at, ...c }) => c);
}

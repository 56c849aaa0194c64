// The dialect the push merges one file with, knowing which of its new blocks reference a local file
// to upload (core/media/localReference): those the file system has (a file, or a symbolic link the media
// step reports), and those whose path leaves the mirror root (reported, never uploaded). They are
// left to the media step. A reference to a file that is not there (not yet: a folder moved between
// the file's read and this look, an image saved after its line) is held back until it is.
import { promises as fsp } from 'node:fs';
import { coreDialect } from '../../core/merge/mergeFile.js';
import { localReferenceOf, resolveReference } from '../../core/media/localReference.js';
import type { CoreDialect, LocalBlock } from '../../core/types.js';
import { resolveInRoot } from '../../mirror/index.js';

/** Whether `file` (relative to the root) is there, as a file or a link (not followed). */
export async function referencedExists(root: string, file: string): Promise<boolean> {
  try {
    await fsp.lstat(resolveInRoot(root, file));
    return true;
  } catch {
    return false;
  }
}

export async function uploadDialect(root: string, docPath: string, blocks: readonly LocalBlock[]): Promise<CoreDialect> {
  const uploads = new Set<string>();
  const missing = new Map<string, string>();
  const visit = async (list: readonly LocalBlock[]) => {
    for (const b of list) {
      const ref = b.kind === 'block' ? localReferenceOf(b.markdown) : null;
      if (ref) {
        const file = resolveReference(docPath, ref.dest);
        if (file === null || (await referencedExists(root, file))) uploads.add(b.markdown);
        else missing.set(b.markdown, file);
      }
      await visit(b.children);
    }
  };
  await visit(blocks);
  if (uploads.size === 0 && missing.size === 0) return coreDialect;
  return { ...coreDialect, isUpload: (markdown) => uploads.has(markdown), missingReference: (markdown) => missing.get(markdown) };
}

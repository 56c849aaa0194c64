// A document file that moved to another folder (here or by the pull) takes its `.assets` folders
// along, under the names they have: the one named after the file before the move and the one named
// after it now (a file renamed, then given a new image, then moved). Its image and scene lines then
// reach their files again: an image not yet uploaded is uploaded, not held back as missing, and the
// media and whiteboard records follow their files. A file renamed in its folder keeps its folders
// where they are (its lines still name them; the media step moves what it recorded). Nothing is moved
// over a folder already at the new place.
import { assetsDirName } from '../../core/linkAssets.js';
import { dirOfPath } from '../../core/fileName.js';
import { isDirectory, moveDirectory, pathExists } from './moveDirectory.js';
import type { SyncContext } from './SyncContext.js';

const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

/** Moves the `.assets` folders of the files moved from `from` to `to`; returns the folders' new paths. */
export async function carryAssetFolders(ctx: SyncContext, moves: ReadonlyArray<{ from: string; to: string }>): Promise<string[]> {
  const carried: string[] = [];
  for (const { from, to } of moves) {
    const was = dirOfPath(from);
    const now = dirOfPath(to);
    if (was === now) continue;
    for (const name of new Set([assetsDirName(from), assetsDirName(to)])) {
      const source = join(was, name);
      const target = join(now, name);
      if (!(await isDirectory(ctx.root, source)) || (await pathExists(ctx.root, target))) continue;
      await moveDirectory(ctx.root, source, target);
      carried.push(target);
      ctx.logger.info({ from: source, to: target }, `moved ${source} along with its document to ${target}`);
    }
  }
  return carried;
}

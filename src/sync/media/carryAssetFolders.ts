// A document file that moved to another folder (here or by the pull) takes its `.assets` folders
// along, under the names they have: the one named after the file before the move and the one named
// after it now (a file renamed, then given a new image, then moved). Its image and scene lines then
// reach their files again: an image not yet uploaded is uploaded, not held back as missing, and the
// media and whiteboard records follow their files. A file renamed in its folder keeps its folders
// where they are (its lines still name them; the media step moves what it recorded). Nothing is moved
// over what is already at the new place: when the folder is there too (the user saved an image beside
// the moved file first), each file of the old folder goes into it under its name unless that name is
// taken, and the old folder goes once it is empty.
// When the folder the file left is itself gone (renamed or moved here too, before the sync looked),
// its `.assets` folder went with it: it is looked for in the directories new since the last look
// (`newDirs`), and taken only from the one that holds it and no file of that name.
import { promises as fsp } from 'node:fs';
import { ASSETS_SUFFIX, dirOfPath } from '../../core/files/fileName.js';
import { assetsDirName } from '../../core/media/linkAssets.js';
import { resolveForWrite, resolveInRoot } from '../../mirror/index.js';
import { isDirectory, moveDirectory, notedMoves, pathExists, type SyncContext } from '../context/index.js';

const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

/** Each `.assets` folder name in `dirs`, with the directories holding one. */
async function assetFoldersIn(root: string, dirs: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const dir of dirs) {
    const entries = await fsp.readdir(resolveInRoot(root, dir), { withFileTypes: true }).catch(() => []);
    for (const e of entries) if (e.isDirectory() && e.name.endsWith(ASSETS_SUFFIX)) out.set(e.name, [...(out.get(e.name) ?? []), dir]);
  }
  return out;
}

/** Moves each entry of the folder `source` into the folder `target` unless its name is taken there; removes `source` once empty. Returns the names moved. */
async function mergeInto(root: string, source: string, target: string): Promise<string[]> {
  const moved: string[] = [];
  for (const name of await fsp.readdir(resolveInRoot(root, source))) {
    if (await pathExists(root, join(target, name))) continue;
    await moveDirectory(root, join(source, name), join(target, name));
    moved.push(name);
  }
  await fsp.rmdir(resolveForWrite(root, source)).catch(() => undefined); // not empty: a name taken at the target keeps it
  return moved;
}

/** Moves the `.assets` folders of the files moved from `from` to `to`; returns the folders' new paths. */
export async function carryAssetFolders(
  ctx: SyncContext,
  moves: ReadonlyArray<{ from: string; to: string }>,
  newDirs: readonly string[] = [],
): Promise<string[]> {
  const carried: string[] = [];
  let inNewDirs: Map<string, string[]> | undefined;
  for (const { from, to } of moves) {
    const was = dirOfPath(from);
    const now = dirOfPath(to);
    if (was === now) continue;
    for (const name of new Set([assetsDirName(from), assetsDirName(to)])) {
      let source = join(was, name);
      if (!(await isDirectory(ctx.root, source))) {
        if (newDirs.length === 0 || (await pathExists(ctx.root, was))) continue;
        inNewDirs ??= await assetFoldersIn(ctx.root, newDirs);
        const holders = inNewDirs.get(name) ?? [];
        const dir = holders.length === 1 ? holders[0]! : undefined;
        // Not beside a file of its own name there: that file's folder, not this one's.
        if (dir === undefined || dir === now || (await pathExists(ctx.root, join(dir, name.slice(0, -ASSETS_SUFFIX.length) + '.md')))) continue;
        source = join(dir, name);
      }
      const target = join(now, name);
      if (!(await pathExists(ctx.root, target))) {
        await moveDirectory(ctx.root, source, target);
        carried.push(target);
        ctx.logger.info({ from: source, to: target }, `moved ${source} along with its document to ${target}`);
      } else if (await isDirectory(ctx.root, target)) {
        const moved = await mergeInto(ctx.root, source, target);
        if (moved.length === 0) continue;
        carried.push(target);
        ctx.logger.info({ from: source, to: target, files: moved }, `moved ${moved.length} file(s) of ${source} along with its document into ${target}`);
      }
    }
  }
  return carried;
}

/** The `.assets` folders of the files the journal noted moved (by the pull, or a push) and whose links have not followed yet: carried before they do. */
export async function carryMovedAssetFolders(ctx: SyncContext): Promise<void> {
  if (ctx.readOnly || !ctx.journal.hasPendingMoves()) return;
  await carryAssetFolders(ctx, notedMoves(ctx.journal).moves);
}

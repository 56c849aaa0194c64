// A document file moved here to another folder (its name kept) takes its `.assets` folder along,
// before the push reads its references: the images it links by `<Doc>.assets/…` are found again
// (uploaded, not held back as missing), and the media and whiteboard records follow their files.
// A file renamed keeps its folder where it is (its lines still name it; the media step moves what
// it recorded). Nothing is moved over an `.assets` folder already at the new place.
import { assetFileOf } from '../../core/linkAssets.js';
import { stemOfPath } from '../../core/fileName.js';
import { isDirectory, moveDirectory, pathExists, type SyncContext } from '../session/index.js';
import type { LocalScan } from './scanLocal.js';

/** The `.assets` folder of the document file at `docPath`. */
const assetsDirOf = (docPath: string) => assetFileOf(docPath, '').slice(0, -1);

/** Moves the `.assets` folders of the files moved here; returns the folders' new paths. */
export async function carryAssetFolders(ctx: SyncContext, scan: Pick<LocalScan, 'changed'>): Promise<string[]> {
  const carried: string[] = [];
  for (const { record, local } of scan.changed) {
    if (local.path === record.path || stemOfPath(local.path) !== stemOfPath(record.path)) continue;
    const from = assetsDirOf(record.path);
    const to = assetsDirOf(local.path);
    if (!(await isDirectory(ctx.root, from)) || (await pathExists(ctx.root, to))) continue;
    await moveDirectory(ctx.root, from, to);
    carried.push(to);
    ctx.logger.info({ from, to }, `moved ${from} along with its document to ${to}`);
  }
  return carried;
}

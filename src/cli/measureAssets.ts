// What `spacesync status` says of the files beside the documents: the assets (files in `<Doc>.assets`
// folders, downloaded by the sync or put there by hand; the scan skips those folders) by count and
// size, and the large binaries of the mirror (at least LARGE_FILE_MIB, assets or other files that are
// not documents), which a git backup of the mirror keeps whole in its history. Read from disk alone;
// symbolic links are not followed.
import { promises as fsp, type Dirent } from 'node:fs';
import path from 'node:path';
import { ASSETS_SUFFIX } from '../core/files/fileName.js';

/** A file of at least this many MiB is a large binary for `status` (a hint towards git LFS). */
export const LARGE_FILE_MIB = 10;

export interface AssetSizes {
  /** Files inside `<Doc>.assets/` folders. */
  files: number;
  bytes: number;
  /** Files (not documents) of at least `thresholdMiB`, anywhere in the mirror, largest first. */
  large: { files: number; bytes: number; thresholdMiB: number; paths: string[] };
}

const list = (abs: string): Promise<Dirent[]> => fsp.readdir(abs, { withFileTypes: true }).catch(() => []);
const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

/** `dirs`: the folders the scan listed; `others`: the files it skipped (not documents), relative to `root`. */
export async function measureAssets(root: string, dirs: readonly string[], others: readonly string[]): Promise<AssetSizes> {
  const abs = (rel: string) => path.join(root, ...rel.split('/'));
  const sizes = new Map<string, number>();
  let files = 0;
  let bytes = 0;
  for (const dir of ['', ...dirs]) {
    for (const e of await list(abs(dir))) {
      if (!e.isDirectory() || !e.name.endsWith(ASSETS_SUFFIX)) continue;
      const folder = join(dir, e.name);
      for (const f of await list(abs(folder))) {
        if (!f.isFile()) continue;
        const st = await fsp.lstat(abs(join(folder, f.name))).catch(() => null);
        if (!st?.isFile()) continue;
        files++;
        bytes += st.size;
        sizes.set(join(folder, f.name), st.size);
      }
    }
  }
  for (const rel of others) {
    const st = await fsp.lstat(abs(rel)).catch(() => null);
    if (st?.isFile()) sizes.set(rel, st.size);
  }
  const large = [...sizes].filter(([, size]) => size >= LARGE_FILE_MIB * 1024 * 1024).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  return {
    files,
    bytes,
    large: { files: large.length, bytes: large.reduce((n, [, s]) => n + s, 0), thresholdMiB: LARGE_FILE_MIB, paths: large.map(([p]) => p) },
  };
}

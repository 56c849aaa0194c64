// Where the local side's versions live: `.spacesync/versions/<relative path>/<timestamp>.md.gz`, the
// file's bytes gzipped (a third to a half of their size for notes; any archive tool or `zcat`
// opens one). Versions kept before the journal's schema 4 are plain `<timestamp>.md` files.
import { gunzipSync, gzipSync } from 'node:zlib';
import { stateRelPath } from '../../stateDir.js';

export const VERSIONS_DIR = stateRelPath('versions');

/** A version file's path (relative to the root) for `relPath` at `at`; `n` tells apart two at the same millisecond. */
export function versionFilePath(relPath: string, at: Date, n = 1): string {
  const stamp = at.toISOString().replace(/:/g, '-');
  return `${VERSIONS_DIR}/${relPath}/${stamp}${n > 1 ? `-${n}` : ''}.md.gz`;
}

/** The bytes a version file holds, as written. */
export function packVersion(text: string): Buffer {
  return gzipSync(Buffer.from(text, 'utf8'), { level: 9 });
}

/** The text of a version file's bytes: gzipped (`.gz`) or, kept before, plain. */
export function unpackVersion(file: string, bytes: Buffer): string {
  return (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

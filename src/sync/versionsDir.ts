// Where the local side's versions live: `.spacesync/versions/<relative path>/<timestamp>.md`.
import { STATE_DIR } from '../core/layout.js';

export const VERSIONS_DIR = `${STATE_DIR}/versions`;

/** A version file's path (relative to the root) for `relPath` at `at`; `n` tells apart two at the same millisecond. */
export function versionFilePath(relPath: string, at: Date, n = 1): string {
  const stamp = at.toISOString().replace(/:/g, '-');
  return `${VERSIONS_DIR}/${relPath}/${stamp}${n > 1 ? `-${n}` : ''}.md`;
}

// The name of the daemon's own temporary files: dot-prefixed (so every watcher and the ignore
// rules skip it), beside the target (so the rename stays on one file system), recognisable.
import { randomBytes } from 'node:crypto';

const MAX_NAME_BYTES = 100; // keeps the temp name under the usual 255-byte limit

/** `.<name>.spacesync-<random>.tmp`, the name cut to a safe length on a character boundary. */
export function tempFileName(fileName: string, random: string = randomBytes(6).toString('hex')): string {
  let kept = '';
  let bytes = 0;
  for (const ch of fileName) {
    bytes += Buffer.byteLength(ch);
    if (bytes > MAX_NAME_BYTES) break;
    kept += ch;
  }
  return `.${kept}.spacesync-${random}.tmp`;
}

const TEMP_RE = /^\..*\.spacesync-[0-9a-f]+\.tmp$/s;

export function isTempFileName(fileName: string): boolean {
  return TEMP_RE.test(fileName);
}

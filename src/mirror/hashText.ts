// The content hash the daemon compares files by (never mtimes): sha256 of the bytes, as hex.
import { createHash } from 'node:crypto';

/** sha256 hex of a string's UTF-8 bytes, or of raw bytes. */
export function hashText(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

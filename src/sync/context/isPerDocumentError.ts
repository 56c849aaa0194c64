// Errors that end one document's pull or push but not the cycle: the next cycle tries again.
import { isSpacesyncError } from '../../errors.js';

const PER_DOCUMENT = new Set(['server', 'timeout', 'bad_response', 'rate_limited', 'maybe_applied', 'validation', 'too_large']);

export function isPerDocumentError(e: unknown): boolean {
  return isSpacesyncError(e) && PER_DOCUMENT.has(e.code);
}

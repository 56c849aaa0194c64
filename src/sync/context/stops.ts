// What an error means to a slice: the sync asked to stop (SIGINT/SIGTERM: not a failure, the run
// ends with what it recorded so far), or a failure that ends one document's pull or push but not the
// cycle (the next cycle tries again).
import { isSpacesyncError, SpacesyncError } from '../../errors.js';
import type { SyncContext } from './SyncContext.js';

/** Whether an error is the client dropping a waiting request because the sync was asked to stop. */
export function isStopped(ctx: Pick<SyncContext, 'signal'>, e: unknown): boolean {
  return ctx.signal?.aborted === true && isSpacesyncError(e, 'cancelled');
}

/** The error of work not started because the sync was asked to stop. */
export function stoppedBeforeStart(): SpacesyncError {
  return new SpacesyncError('cancelled', 'Nothing more was sent: the sync was asked to stop. The next run goes on from here.');
}

const PER_DOCUMENT = new Set(['server', 'timeout', 'bad_response', 'rate_limited', 'maybe_applied', 'validation', 'too_large']);

/** An error that ends one document's pull or push, not the cycle. */
export function isPerDocumentError(e: unknown): boolean {
  return isSpacesyncError(e) && PER_DOCUMENT.has(e.code);
}

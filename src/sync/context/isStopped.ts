// Whether an error is the client dropping a waiting request because the sync was asked to stop
// (SIGINT/SIGTERM): not a failure, the run ends with what it recorded so far.
import { isSpacesyncError, SpacesyncError } from '../../errors.js';
import type { SyncContext } from './SyncContext.js';

export function isStopped(ctx: Pick<SyncContext, 'signal'>, e: unknown): boolean {
  return ctx.signal?.aborted === true && isSpacesyncError(e, 'cancelled');
}

/** The error of work not started because the sync was asked to stop. */
export function stoppedBeforeStart(): SpacesyncError {
  return new SpacesyncError('cancelled', 'Nothing more was sent: the sync was asked to stop. The next run goes on from here.');
}

// Whether the space answered lately, from what the daemon left in the journal: the last cycle that
// completed (it reached the space) and the errors recorded since. A network failure, a timeout or
// an unavailable service after the last good cycle means the space is out of reach since the first
// of them.
import { OUT_OF_REACH_CODES } from '../errors.js';
import type { StatusError } from '../journal/daemonStatus.js';

export interface Reachability {
  /** null: unknown (no cycle has completed, none has failed to reach it). */
  reachable: boolean | null;
  /** The first failure to reach it since the last good cycle. */
  since: string | null;
  /** The newest such failure. */
  error: StatusError | null;
}

export function reachability(lastGoodCycle: string | null, errors: readonly StatusError[]): Reachability {
  const after = lastGoodCycle === null ? errors : errors.filter((e) => Date.parse(e.at) > Date.parse(lastGoodCycle));
  const failing = after.filter((e) => OUT_OF_REACH_CODES.has(e.code));
  if (failing.length > 0) return { reachable: false, since: failing[0]!.at, error: failing.at(-1)! };
  return { reachable: lastGoodCycle === null ? null : true, since: null, error: null };
}

// The space out of reach (no answer, no answer in time, the service down): one notice when it
// starts and one when it ends, however many operations fail between, and the daemon looks again
// often (a backoff capped at PROBE_MAX_MS, not the idle poll's minutes) so that edits kept meanwhile
// go out soon after it is back. Only state and arithmetic here; `now` is passed in.
import { isSpacesyncError, OUT_OF_REACH_CODES, type SpacesyncError } from '../../errors.js';

/** The first wait before looking again, doubled after each failed look up to PROBE_MAX_MS. */
export const PROBE_MIN_MS = 2_000;
/** The longest wait between two looks while the space is out of reach. */
export const PROBE_MAX_MS = 15_000;

export type OutageEvent =
  /** The first failure to reach the space; `since` is when it failed. */
  | { kind: 'started'; since: string; error: SpacesyncError }
  /** Another failed look while it is out of reach (said to nobody but the log and the desktop notice). */
  | { kind: 'failed'; since: string; error: SpacesyncError }
  /** The space answered again: out of reach for `downMs`; `sent` edits went out with the look that reached it. */
  | { kind: 'ended'; since: string; downMs: number; sent: number };

/** Whether an error says the space is out of reach (rather than that it refused a request). */
export function isOutOfReach(e: unknown): e is SpacesyncError {
  return isSpacesyncError(e) && OUT_OF_REACH_CODES.has(e.code);
}

export class Outage {
  private sinceMs: number | undefined;
  private looks = 0;

  get active(): boolean {
    return this.sinceMs !== undefined;
  }

  /** A failure to reach the space at `now`: the event to tell. */
  failed(error: SpacesyncError, now: number): OutageEvent {
    const started = this.sinceMs === undefined;
    this.sinceMs ??= now;
    this.looks++;
    return { kind: started ? 'started' : 'failed', since: new Date(this.sinceMs).toISOString(), error };
  }

  /** The wait before the next look: PROBE_MIN_MS, doubled after each failed look, at most PROBE_MAX_MS. */
  nextLookMs(): number {
    return Math.min(PROBE_MAX_MS, PROBE_MIN_MS * 2 ** Math.max(0, this.looks - 1));
  }

  /** The space answered at `now`: the end of the outage (undefined when there was none). */
  reached(now: number, sent: number): OutageEvent | undefined {
    if (this.sinceMs === undefined) return undefined;
    const since = this.sinceMs;
    this.sinceMs = undefined;
    this.looks = 0;
    return { kind: 'ended', since: new Date(since).toISOString(), downMs: Math.max(0, now - since), sent };
  }
}

// A one-line progress bar for a terminal: documents done / total, the time left at the space's pace
// and what the budget waits for. Only drawn when the stream is a TTY; logs stay the record everywhere else.
import type { SchedulerLimits } from '../client/index.js';
import type { PullProgress } from '../sync/index.js';

const WAIT_TEXT: Record<string, string> = {
  'retry-after': 'waiting: the service asked to slow down',
  address: 'waiting for the request budget (this machine)',
  space: 'waiting for the request budget (the space)',
  blocks: 'waiting for the block budget',
};

/** A stream lines are written to: the terminal's stderr or stdout, or a fake one in tests. */
export interface LineStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/**
 * The bar drawn now, if any. A terminal has one line the bar owns (its last): another line written
 * there while it is drawn would run on after it (`…(the space)15:16:07 warning: …`), so every writer
 * to the terminal goes through writeAboveBar.
 */
let drawn: { stream: LineStream; line: string } | undefined;

const CLEAR_LINE = '\r\u001b[2K';

/**
 * Writes whole lines to `target` with the bar out of their way: cleared first, drawn again after
 * them (the run goes on; the bar's stop clears it for good). A target that is not a terminal
 * (a file, a pipe) is not where the bar is, and is written as it is.
 */
export function writeAboveBar(target: LineStream, text: string): void {
  if (!drawn || target.isTTY !== true) {
    target.write(text);
    return;
  }
  drawn.stream.write(CLEAR_LINE);
  target.write(text);
  drawn.stream.write(drawn.line);
}

export interface ProgressBar {
  update(p: PullProgress): void;
  /** Clears the line. */
  stop(): void;
}

/**
 * The requests a minute a pull may spend: the space's budget less the share kept for edits, or the
 * address's budget when that is tighter. A document is one read, so it is documents a minute too.
 */
export function pullPace(limits: SchedulerLimits): number {
  const perMinute = (limit: number, windowMs: number) => (limit * 60_000) / windowMs;
  const space = perMinute(Math.floor((limits.spaceRequests.limit * (100 - limits.reservePercent)) / 100), limits.spaceRequests.windowMs);
  return Math.max(1, Math.floor(Math.min(space, perMinute(limits.addressRequests.limit, limits.addressRequests.windowMs))));
}

/** `about 1 h 40 min at 100 requests a minute`: the time `left` documents take at `perMinute` requests a minute. */
export function formatTimeLeft(left: number, perMinute: number): string {
  const minutes = Math.ceil(left / perMinute);
  const time =
    left / perMinute < 1
      ? 'under a minute'
      : minutes < 60
        ? `about ${minutes} min`
        : `about ${Math.floor(minutes / 60)} h${minutes % 60 === 0 ? '' : ` ${minutes % 60} min`}`;
  return `${time} at ${perMinute} request${perMinute === 1 ? '' : 's'} a minute`;
}

/** `pace`: the pull's requests a minute (pullPace); the time left is shown with it. */
export function formatProgress(p: PullProgress, width = 24, pace?: number): string {
  const share = p.total === 0 ? 1 : p.done / p.total;
  const filled = Math.round(share * width);
  const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
  const left = pace !== undefined && p.done < p.total ? `, ${formatTimeLeft(p.total - p.done, pace)}` : '';
  const wait = p.waitingFor && p.waitingFor !== 'in-flight' ? `  ${WAIT_TEXT[p.waitingFor] ?? `waiting (${p.waitingFor})`}` : '';
  return `pulling [${bar}] ${p.done}/${p.total} documents${left}${wait}`;
}

export function createProgressBar(stream: LineStream, pace?: number): ProgressBar {
  let shown = false;
  let last = '';
  return {
    update(p) {
      if (!stream.isTTY || p.total === 0) return;
      const line = formatProgress(p, undefined, pace);
      if (line === last) return;
      last = line;
      shown = true;
      drawn = { stream, line: `${CLEAR_LINE}${line}` };
      stream.write(drawn.line);
    },
    stop() {
      if (shown) stream.write(CLEAR_LINE);
      if (drawn?.stream === stream) drawn = undefined;
      shown = false;
      last = '';
    },
  };
}

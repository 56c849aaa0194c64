// The daemon's two lines about a space out of reach: one when it starts (what failed and what to
// check, and that edits are kept), one when it ends (how long it lasted, the edits that went out).
// The failed looks between them are the log file's, not the terminal's.
import type { OutageEvent } from '../sync/index.js';
import { count, duration } from './format.js';

/** The line an outage event prints, with its stream; null for a look that failed while it lasts. */
export function describeOutage(e: OutageEvent): { stream: 'out' | 'err'; line: string } | null {
  if (e.kind === 'failed') return null;
  if (e.kind === 'started')
    return {
      stream: 'err',
      line: `spacesync: the space is unreachable: retrying every few seconds; edits are kept and sent when it is back. ${e.error.message}`,
    };
  const sent = e.sent > 0 ? `; ${count(e.sent, 'edit')} sent` : '';
  return { stream: 'out', line: `spacesync: the space is reachable again after ${duration(e.downMs)}${sent}.` };
}

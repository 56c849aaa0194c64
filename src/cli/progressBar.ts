// A one-line progress bar for a terminal: documents done / total and what the budget waits for.
// Only drawn when the stream is a TTY; logs stay the record everywhere else.
import type { PullProgress } from '../sync/index.js';

const WAIT_TEXT: Record<string, string> = {
  'retry-after': 'waiting: the service asked to slow down',
  address: 'waiting for the request budget (this machine)',
  space: 'waiting for the request budget (the space)',
  blocks: 'waiting for the block budget',
};

export interface ProgressBar {
  update(p: PullProgress): void;
  /** Clears the line. */
  stop(): void;
}

export function formatProgress(p: PullProgress, width = 24): string {
  const share = p.total === 0 ? 1 : p.done / p.total;
  const filled = Math.round(share * width);
  const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
  const wait = p.waitingFor && p.waitingFor !== 'in-flight' ? `  ${WAIT_TEXT[p.waitingFor] ?? `waiting (${p.waitingFor})`}` : '';
  return `pulling [${bar}] ${p.done}/${p.total} documents${wait}`;
}

export function createProgressBar(stream: NodeJS.WriteStream): ProgressBar {
  let shown = false;
  let last = '';
  return {
    update(p) {
      if (!stream.isTTY || p.total === 0) return;
      const line = formatProgress(p);
      if (line === last) return;
      last = line;
      shown = true;
      stream.write(`\r\u001b[2K${line}`);
    },
    stop() {
      if (shown) stream.write('\r\u001b[2K');
      shown = false;
      last = '';
    },
  };
}

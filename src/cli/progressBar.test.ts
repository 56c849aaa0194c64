import { describe, expect, it } from 'vitest';
import { createProgressBar, formatProgress } from './progressBar.js';

describe('progress bar', () => {
  it('shows documents done of the total and what the budget waits for', () => {
    expect(formatProgress({ done: 5, total: 10, waitingFor: undefined }, 10)).toBe('pulling [#####.....] 5/10 documents');
    expect(formatProgress({ done: 0, total: 4, waitingFor: 'blocks' }, 4)).toBe('pulling [....] 0/4 documents  waiting for the block budget');
    expect(formatProgress({ done: 1, total: 4, waitingFor: 'in-flight' }, 4)).toBe('pulling [#...] 1/4 documents');
  });

  it('draws only on a terminal', () => {
    const written: string[] = [];
    const stream = (isTTY: boolean) => ({ isTTY, write: (s: string) => written.push(s) }) as unknown as NodeJS.WriteStream;
    const quiet = createProgressBar(stream(false));
    quiet.update({ done: 1, total: 2, waitingFor: undefined });
    quiet.stop();
    expect(written).toEqual([]);
    const tty = createProgressBar(stream(true));
    tty.update({ done: 1, total: 2, waitingFor: undefined });
    tty.stop();
    expect(written.join('')).toContain('1/2 documents');
  });
});

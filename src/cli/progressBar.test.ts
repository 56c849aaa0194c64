import { describe, expect, it } from 'vitest';
import { createCliLogger } from './cliLogger.js';
import { createProgressBar, formatProgress, formatTimeLeft, pullPace, writeAboveBar } from './progressBar.js';
import { resolveLimits } from '../client/index.js';

/**
 * A fake terminal: what a real one would show, each line as it ends up (`\r` goes back to the line's
 * start, ESC[2K clears it), and the scrollback: every line that was ended by a newline.
 */
function fakeTerminal(isTTY = true) {
  const scrollback: string[] = [];
  let line = '';
  const write = (text: string) => {
    for (const part of text.split(/(\r\u001b\[2K|\n)/)) {
      if (part === '\r\u001b[2K') line = '';
      else if (part === '\n') {
        scrollback.push(line);
        line = '';
      } else line += part;
    }
    return true;
  };
  return { stream: { isTTY, write }, scrollback, current: () => line };
}

describe("time left at the space's pace", () => {
  it("says the time the documents left take at the pull's requests a minute", () => {
    expect(formatTimeLeft(10_000, 100)).toBe('about 1 h 40 min at 100 requests a minute');
    expect(formatTimeLeft(6_000, 100)).toBe('about 1 h at 100 requests a minute');
    expect(formatTimeLeft(250, 100)).toBe('about 3 min at 100 requests a minute');
    expect(formatTimeLeft(40, 100)).toBe('under a minute at 100 requests a minute');
    expect(formatTimeLeft(3, 1)).toBe('about 3 min at 1 request a minute');
  });

  it("takes the pace from the budget: the space's less the reserve for edits, or the address's when tighter", () => {
    expect(pullPace(resolveLimits({ requestsPerMinute: 100, reservePercent: 0, requestsPerAddress10s: 1000 }))).toBe(100);
    expect(pullPace(resolveLimits({ requestsPerMinute: 100, reservePercent: 20, requestsPerAddress10s: 1000 }))).toBe(80);
    expect(pullPace(resolveLimits({ requestsPerMinute: 1000, reservePercent: 0, requestsPerAddress10s: 10 }))).toBe(60);
  });

  it('shows in the bar while documents are left', () => {
    expect(formatProgress({ done: 0, total: 10_000, waitingFor: undefined }, 4, 100)).toBe(
      'pulling [....] 0/10000 documents, about 1 h 40 min at 100 requests a minute',
    );
    expect(formatProgress({ done: 4, total: 4, waitingFor: undefined }, 4, 100)).toBe('pulling [####] 4/4 documents');
  });
});

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

  it('clears the bar before a warning and draws it again after, so the warning stands on a line of its own', () => {
    const term = fakeTerminal();
    const bar = createProgressBar(term.stream);
    const { logger, close } = createCliLogger({ root: '/nonexistent-spacesync-root', level: 'info', file: false, terminal: term.stream, colorize: false });
    try {
      bar.update({ done: 1, total: 4, waitingFor: 'space' });
      logger.warn('the space refused a request');
      expect(term.scrollback).toHaveLength(1);
      expect(term.scrollback[0]).toMatch(/^\d\d:\d\d:\d\d warning: the space refused a request$/);
      // The run goes on: the bar is drawn again under the warning, and moves on.
      expect(term.current()).toBe(formatProgress({ done: 1, total: 4, waitingFor: 'space' }));
      bar.update({ done: 2, total: 4, waitingFor: undefined });
      writeAboveBar(term.stream, 'a line of the command\n');
      expect(term.scrollback[1]).toBe('a line of the command');
      expect(term.current()).toBe(formatProgress({ done: 2, total: 4, waitingFor: undefined }));
      // Stopped: cleared for good, and later lines are written as they are.
      bar.stop();
      logger.warn('after the bar');
      expect(term.scrollback[2]).toMatch(/ warning: after the bar$/);
      expect(term.current()).toBe('');
    } finally {
      bar.stop();
      close();
    }
  });

  it('writes lines to a file or a pipe as they are, with no bar to clear there', () => {
    const term = fakeTerminal();
    const pipe = fakeTerminal(false);
    const written: string[] = [];
    const bar = createProgressBar(term.stream);
    try {
      bar.update({ done: 1, total: 2, waitingFor: undefined });
      writeAboveBar({ isTTY: false, write: (t: string) => written.push(t) }, 'to the file\n');
      writeAboveBar(pipe.stream, 'to the pipe\n');
      expect(written).toEqual(['to the file\n']);
      expect(pipe.scrollback).toEqual(['to the pipe']);
      expect(term.current()).toBe(formatProgress({ done: 1, total: 2, waitingFor: undefined }));
    } finally {
      bar.stop();
    }
  });
});

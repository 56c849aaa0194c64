import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SpacesyncError } from '../errors.js';
import { createCliLogger, formatRecord } from './cliLogger.js';
import { logFilePath } from '../stateDir.js';
import { FILE_ONLY } from '../log.js';

const LINK = 'https://space.example/links/ABCDEF123456SECRET/api/v1';
const KEY = 'sk-very-secret-key-42';

function root(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-log-'));
}

function terminal() {
  const lines: string[] = [];
  return { lines, stream: { write: (s: string) => lines.push(...s.split('\n').filter(Boolean)), isTTY: false } };
}

const fileLines = (r: string) =>
  fs
    .readFileSync(logFilePath(r), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('createCliLogger', () => {
  it('writes JSON lines to .spacesync/logs/spacesync.log and only warnings to the terminal', () => {
    const r = root();
    const t = terminal();
    const { logger, file, close } = createCliLogger({ root: r, level: 'info', terminal: t.stream });
    logger.debug('detail');
    logger.info({ doc: 'D1' }, 'pulled quietly');
    logger.warn('the space refused a request');
    close();
    expect(file).toBe(logFilePath(r));
    expect(fileLines(r).map((l) => l.msg)).toEqual(['pulled quietly', 'the space refused a request']);
    expect(fileLines(r)[0]).toMatchObject({ doc: 'D1', level: 30 });
    expect(t.lines).toHaveLength(1);
    expect(t.lines[0]).toMatch(/^\d\d:\d\d:\d\d warning: the space refused a request$/);
    expect(fs.statSync(logFilePath(r)).mode & 0o777).toBe(0o600);
  });

  it('FILE_ONLY records go to the file, and to the terminal only with --verbose', () => {
    for (const verbose of [false, true]) {
      const r = root();
      const t = terminal();
      const { logger, close } = createCliLogger({ root: r, level: 'info', verbose, terminal: t.stream });
      logger.error({ ...FILE_ONLY, err: new Error('the link is dead') }, 'sync stopped');
      close();
      expect(fileLines(r).map((l) => l.msg)).toEqual(['sync stopped']);
      expect(t.lines.some((l) => l.includes('sync stopped'))).toBe(verbose);
    }
  });

  it('--verbose shows debug lines with their fields and error stacks', () => {
    const t = terminal();
    const { logger, close } = createCliLogger({ root: root(), level: 'debug', verbose: true, terminal: t.stream });
    logger.debug({ doc: 'D1', requests: 3 }, 'read');
    logger.error({ err: new Error('boom') }, 'cycle failed');
    close();
    expect(t.lines[0]).toMatch(/debug: read \{"doc":"D1","requests":3\}$/);
    expect(t.lines[1]).toMatch(/error: cycle failed: boom$/);
    expect(t.lines[2]).toMatch(/^\s+Error: boom$/);
  });

  it("an error line carries the error's own message, which says what to do", () => {
    const t = terminal();
    const { logger, close } = createCliLogger({ root: root(), level: 'info', terminal: t.stream });
    logger.error({ err: new SpacesyncError('network', 'Could not reach the service. Check the network connection.') }, 'cycle failed');
    close();
    expect(t.lines).toEqual([expect.stringMatching(/error: cycle failed: Could not reach the service\. Check the network connection\.$/)]);
  });

  it('never lets the link or the key reach the file or the terminal', () => {
    const r = root();
    const t = terminal();
    const { logger, close } = createCliLogger({ root: r, level: 'debug', verbose: true, secrets: [KEY], terminal: t.stream });
    logger.child({ link: LINK }).warn({ headers: { authorization: `Bearer ${KEY}` } }, `GET ${LINK}/documents failed`);
    logger.error({ err: new Error(`key ${KEY} refused at ${LINK}`) }, 'failed');
    close();
    const all = fs.readFileSync(logFilePath(r), 'utf8') + t.lines.join('\n');
    expect(all).not.toContain('ABCDEF123456SECRET');
    expect(all).not.toContain(KEY);
    expect(all).toContain('/links/ABCD…/api/v1');
  });

  it('the configured level holds for both: warn keeps info out of the file and off the terminal', () => {
    const r = root();
    const t = terminal();
    const { logger, close } = createCliLogger({ root: r, level: 'warn', terminal: t.stream });
    logger.info('Pulled 2 documents');
    logger.warn('careful');
    close();
    expect(fileLines(r).map((l) => l.msg)).toEqual(['careful']);
    expect(t.lines).toEqual([expect.stringMatching(/warning: careful$/)]);
  });

  it('with file: false, or a missing root, writes no file and creates nothing', () => {
    const r = root();
    const off = createCliLogger({ root: r, level: 'info', file: false, terminal: terminal().stream });
    off.logger.warn('x');
    off.close();
    expect(off.file).toBeUndefined();
    expect(fs.existsSync(path.join(r, '.spacesync'))).toBe(false);
    const missing = path.join(r, 'not-mounted');
    const gone = createCliLogger({ root: missing, level: 'info', terminal: terminal().stream });
    gone.logger.warn('x');
    gone.close();
    expect(gone.file).toBeUndefined();
    expect(fs.existsSync(missing)).toBe(false);
  });

  it('rotates the file by size, keeping a bounded number of files', () => {
    const r = root();
    const { logger, close } = createCliLogger({ root: r, level: 'info', terminal: terminal().stream, rotation: { maxBytes: 400, files: 3 } });
    for (let i = 0; i < 40; i++) logger.info({ i }, `line number ${i} with some padding to fill the file`);
    close();
    const dir = path.dirname(logFilePath(r));
    expect(fs.readdirSync(dir).sort()).toEqual(['spacesync.log', 'spacesync.log.1', 'spacesync.log.2']);
    for (const name of fs.readdirSync(dir)) expect(fs.statSync(path.join(dir, name)).size).toBeLessThanOrEqual(400);
    // The newest lines are in the current file, the ones before in .1, in order.
    const current = fileLines(r).map((l) => l.i as number);
    const older = fs
      .readFileSync(`${logFilePath(r)}.1`, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { i: number }).i);
    expect(current.at(-1)).toBe(39);
    expect(older.at(-1)).toBe(current[0]! - 1);
  });

  it('a log file that cannot be written is reported once on the terminal, and logging goes on', () => {
    const r = root();
    const t = terminal();
    const { logger, close } = createCliLogger({ root: r, level: 'info', terminal: t.stream, rotation: { maxBytes: 100, files: 2 } });
    logger.info('first line that fills the small file up to its limit quickly');
    // The logs folder becomes a file: the rotation cannot reopen the log.
    fs.rmSync(path.dirname(logFilePath(r)), { recursive: true });
    fs.writeFileSync(path.dirname(logFilePath(r)), 'not a folder');
    logger.info('second line, which rotates');
    logger.info('third line');
    logger.warn('still shown');
    close();
    expect(t.lines.filter((l) => l.includes('cannot write the log file'))).toHaveLength(1);
    expect(t.lines.at(-1)).toMatch(/warning: still shown$/);
  });
});

describe('formatRecord', () => {
  it('labels warnings and errors, colours them on a TTY, and leaves info lines bare', () => {
    const time = new Date(2026, 10, 21, 9, 30, 5).getTime();
    expect(formatRecord({ level: 30, time, msg: 'hi' }, { verbose: false, color: false })).toBe('09:30:05 hi\n');
    expect(formatRecord({ level: 40, time, msg: 'hm' }, { verbose: false, color: true })).toBe('09:30:05 \x1b[33mwarning:\x1b[0m hm\n');
    expect(formatRecord({ level: 50, time, msg: 'no', doc: 'D' }, { verbose: false, color: false })).toBe('09:30:05 error: no\n');
  });
});

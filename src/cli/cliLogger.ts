// The logger of a command that keeps running (sync, demo): JSON lines to
// `.spacesync/logs/spacesync.log` (rotated by size), and a quiet terminal: warnings and errors;
// `--verbose` adds info and debug lines with their fields.
// Every record is redacted by createLogger before it reaches either, so the link never appears.
import fs from 'node:fs';
import path from 'node:path';
import pino, { type LevelWithSilent } from 'pino';
import { createLogger, type Logger } from '../log.js';
import { RotatingFile } from './rotatingFile.js';
import { logFilePath } from '../stateDir.js';
import { writeAboveBar } from './progressBar.js';

export interface TerminalStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface CliLoggerOptions {
  /** The mirror root; the log file lives in its `.spacesync/logs/`. */
  root: string;
  /** The configured level (`config.log.level`; `--verbose` makes it debug). */
  level: LevelWithSilent;
  /** Write the JSON log file (`config.log.file`). Default true. */
  file?: boolean;
  /** Debug lines and every record's fields on the terminal. */
  verbose?: boolean;
  /** Values masked wherever they appear: the link, the API key. */
  secrets?: readonly string[];
  /** Where terminal lines go. Default: stderr (stdout stays for a command's own output). */
  terminal?: TerminalStream;
  /** Colour the labels. Default: when the terminal is a TTY. */
  colorize?: boolean;
  rotation?: { maxBytes?: number; files?: number };
}

export interface CliLogger {
  logger: Logger;
  /** The log file, when one is written. */
  file: string | undefined;
  close(): void;
}

interface LogRecord {
  level: number;
  time?: number;
  msg?: string;
  show?: boolean;
  err?: { message?: string; stack?: string };
  [key: string]: unknown;
}

const LEVEL = pino.levels.values as Record<string, number>;
const levelValue = (level: LevelWithSilent): number => (level === 'silent' ? Infinity : LEVEL[level]!);
const HIDDEN = new Set(['level', 'time', 'msg', 'show', 'name', 'pid', 'hostname', 'err']);
const pad = (n: number) => String(n).padStart(2, '0');

/** One record as a short terminal line: `09:30:05 warning: <message>`; in verbose mode with its fields. */
export function formatRecord(rec: LogRecord, opts: { verbose: boolean; color: boolean }): string {
  const d = new Date(rec.time ?? Date.now());
  const [label, colour] = rec.level >= 50 ? ['error', '31'] : rec.level >= 40 ? ['warning', '33'] : rec.level >= 30 ? ['', ''] : ['debug', '2'];
  const tag = label ? `${opts.color ? `\x1b[${colour}m${label}:\x1b[0m` : `${label}:`} ` : '';
  let msg = rec.msg ?? '';
  const errMessage = rec.err?.message;
  // An error's own message says what to do; a bare "cycle failed" would not.
  if (errMessage && !msg.includes(errMessage)) msg = msg ? `${msg}: ${errMessage}` : errMessage;
  let line = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ${tag}${msg}`;
  if (opts.verbose) {
    const fields = Object.fromEntries(Object.entries(rec).filter(([k]) => !HIDDEN.has(k)));
    if (Object.keys(fields).length > 0) line += ` ${JSON.stringify(fields)}`;
    if (rec.err?.stack) line += `\n  ${rec.err.stack.split('\n').join('\n  ')}`;
  }
  return `${line}\n`;
}

/** Opens `.spacesync/logs/` in an existing root; never creates the root (a missing one may be an unmounted disk). */
function openLogFile(root: string, rotation: CliLoggerOptions['rotation'], onError: (e: Error) => void): RotatingFile | undefined {
  if (!fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) return undefined;
  const dir = path.dirname(logFilePath(root));
  fs.mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return new RotatingFile(logFilePath(root), { ...rotation, onError });
}

export function createCliLogger(options: CliLoggerOptions): CliLogger {
  const terminal = options.terminal ?? process.stderr;
  // A progress bar may be drawn on the terminal's last line: it is cleared before a line and drawn again after.
  const say = (text: string) => writeAboveBar(terminal, text);
  const verbose = options.verbose === true;
  const color = options.colorize ?? terminal.isTTY === true;
  const configured = levelValue(options.level);
  // The terminal is quiet: warnings and up, everything with --verbose.
  const terminalFloor = verbose ? Math.min(configured, LEVEL.debug!) : Math.max(configured, LEVEL.warn!);

  let file: RotatingFile | undefined;
  try {
    if (options.file !== false) {
      file = openLogFile(options.root, options.rotation, (e) => {
        say(
          formatRecord(
            {
              level: LEVEL.warn!,
              msg: `cannot write the log file ${logFilePath(options.root)} (${e.message}); logging to it stopped. Free some disk space or fix the folder's permissions, then restart spacesync.`,
            },
            { verbose: false, color },
          ),
        );
      });
    }
  } catch (e) {
    say(
      formatRecord(
        {
          level: LEVEL.warn!,
          msg: `cannot open the log file ${logFilePath(options.root)} (${(e as Error).message}); logging to the terminal only. Check the folder's permissions.`,
        },
        { verbose: false, color },
      ),
    );
  }

  const destination = {
    write(line: string): void {
      let rec: LogRecord;
      try {
        rec = JSON.parse(line) as LogRecord;
      } catch {
        return;
      }
      if (file && rec.level >= configured) file.write(line.endsWith('\n') ? line : `${line}\n`);
      // FILE_ONLY records (show: false) were already told to the user by the command itself.
      const shown = rec.show === false ? verbose : rec.level >= terminalFloor;
      if (shown) say(formatRecord(rec, { verbose, color }));
    },
  };
  const floor = Math.min(file ? configured : Infinity, terminalFloor);
  const level = (Object.entries(LEVEL).find(([, v]) => v === floor)?.[0] ?? 'silent') as LevelWithSilent;
  const logger = createLogger({ level, secrets: options.secrets ?? [], destination });
  return {
    logger,
    file: file?.file,
    close: () => file?.close(),
  };
}

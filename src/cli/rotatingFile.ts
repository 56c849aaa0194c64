// An append-only log file that rotates by size: `x.log` → `x.log.1` → … → `x.log.<files-1>`, the
// oldest dropped, so a daemon left running for months keeps at most `files × maxBytes` of logs.
import fs from 'node:fs';

export interface RotatingFileOptions {
  /** A file reaching this size is rotated before the next line. Default 5 MB. */
  maxBytes?: number;
  /** Files kept, the current one included. Default 5. */
  files?: number;
  /** Told once when the file cannot be written (a full disk must not stop the daemon). */
  onError?: (error: Error) => void;
}

export class RotatingFile {
  readonly file: string;
  private readonly maxBytes: number;
  private readonly files: number;
  private readonly onError: ((error: Error) => void) | undefined;
  private fd: number | undefined;
  private size = 0;
  private failed = false;

  constructor(file: string, options: RotatingFileOptions = {}) {
    this.file = file;
    this.maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
    this.files = Math.max(1, options.files ?? 5);
    this.onError = options.onError;
    this.open();
  }

  private open(): void {
    // 0600: log lines are redacted, but they still name the user's documents.
    this.fd = fs.openSync(this.file, 'a', 0o600);
    this.size = fs.fstatSync(this.fd).size;
  }

  private rotate(): void {
    this.closeFd();
    const name = (i: number) => (i === 0 ? this.file : `${this.file}.${i}`);
    fs.rmSync(name(this.files - 1), { force: true });
    for (let i = this.files - 2; i >= 0; i--) {
      try {
        fs.renameSync(name(i), name(i + 1));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    }
    this.open();
  }

  /** Appends one line (synchronously: a line logged just before a crash is on disk). */
  write(line: string): void {
    if (this.failed) return;
    try {
      const bytes = Buffer.byteLength(line);
      if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
      fs.writeSync(this.fd!, line);
      this.size += bytes;
    } catch (e) {
      this.failed = true;
      this.closeFd();
      this.onError?.(e as Error);
    }
  }

  private closeFd(): void {
    if (this.fd === undefined) return;
    try {
      fs.closeSync(this.fd);
    } catch {
      /* already gone */
    }
    this.fd = undefined;
  }

  close(): void {
    this.closeFd();
    this.failed = true;
  }
}

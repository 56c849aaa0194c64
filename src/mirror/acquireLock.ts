// One daemon per mirror root: `.spacesync/lock` names the holder ({ pid, hostname, startedAt }).
// A lock whose process is gone, or another machine's lock not refreshed for hours, is taken over.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { SpacesyncError } from '../errors.js';
import { assertRootSync } from './assertRoot.js';
import { mirrorIoError } from './readMirrorFile.js';
import { lockPath } from '../stateDir.js';

export interface LockInfo {
  pid: number;
  hostname: string;
  startedAt: string;
}

export interface Lock {
  readonly file: string;
  readonly info: LockInfo;
  /** Marks the lock alive (its mtime); done by itself every 5 minutes. */
  refresh(): void;
  /**
   * Whether the lock file is still this holder's: false once it was deleted (a `git clean -fdx`, a
   * removed `.spacesync/`) or replaced by another process's. Read each time (a tiny file): one made
   * anew may get the old one's inode.
   */
  isOurs(): boolean;
  /** Removes the lock if it is still ours. Safe to call twice. */
  release(): void;
}

export interface AcquireLockOptions {
  /** Another host's lock older than this (by its last refresh) is stale. Default: 2 hours. */
  staleAfterMs?: number;
  now?: () => Date;
}

/** Locks this process holds, so a second acquire in one process is refused like any other. */
const held = new Set<string>();

export { lockPath };

function readLock(file: string): { info: LockInfo | null; mtimeMs: number } | null {
  let text: string;
  let mtimeMs: number;
  try {
    text = fs.readFileSync(file, 'utf8');
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  try {
    const v = JSON.parse(text) as Partial<LockInfo>;
    if (typeof v.pid === 'number' && typeof v.hostname === 'string' && typeof v.startedAt === 'string') {
      return { info: { pid: v.pid, hostname: v.hostname, startedAt: v.startedAt }, mtimeMs };
    }
  } catch {
    /* not JSON: treated below as a lock nobody holds */
  }
  return { info: null, mtimeMs };
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by another user
  }
}

/** Creates the lock file with its whole content at once (written aside, then hard-linked), or false if one exists. */
function tryCreate(root: string, file: string, text: string): boolean {
  const tmp = path.join(path.dirname(file), `.lock.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    fs.writeFileSync(tmp, text, { flag: 'wx' });
  } catch (e) {
    // A full disk can leave the file half written: never left behind.
    fs.rmSync(tmp, { force: true });
    throw mirrorIoError('create the lock file', path.relative(root, file).split(path.sep).join('/'), root, e);
  }
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EXDEV') throw e;
    // No hard links on this file system: exclusive create, then write.
    try {
      fs.writeFileSync(file, text, { flag: 'wx' });
      return true;
    } catch (e2) {
      if ((e2 as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e2;
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * Whether the lock file still names this holder. The file as it was when last found ours (inode,
 * size, times in ns) is remembered: the daemon asks every second, and a lock that is the same file
 * unchanged needs no read and parse (the check's CPU halved, some 190 -> 90 us, beside the 150 us of
 * the timer's wake-up). A replacement or rewrite changes them.
 */
function holderCheck(file: string, info: LockInfo): () => boolean {
  let ourStat = '';
  const statKey = () => {
    const st = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
    return st ? `${st.ino}:${st.size}:${st.ctimeNs}:${st.mtimeNs}` : null;
  };
  return () => {
    const before = statKey();
    if (before === null) return false;
    if (before === ourStat) return true;
    const current = readLock(file);
    const mine = current?.info != null && current.info.pid === info.pid && current.info.hostname === info.hostname && current.info.startedAt === info.startedAt;
    // Remembered only when the file did not change while it was read.
    ourStat = mine && statKey() === before ? before : '';
    return mine;
  };
}

export function acquireLock(root: string, opts: AcquireLockOptions = {}): Lock {
  const file = lockPath(root);
  const now = opts.now ?? (() => new Date());
  const staleAfterMs = opts.staleAfterMs ?? 2 * 3600_000;
  const info: LockInfo = { pid: process.pid, hostname: os.hostname(), startedAt: now().toISOString() };
  const text = `${JSON.stringify(info)}\n`;
  assertRootSync(root);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
  } catch (e) {
    throw new SpacesyncError('mirror_io', `Cannot create ${path.dirname(file)}: ${(e as Error).message}. Check that ${root} is writable.`, { cause: e });
  }

  for (let attempt = 0; ; attempt++) {
    if (tryCreate(root, file, text)) break;
    const current = readLock(file);
    if (current === null) continue; // released meanwhile: try again
    const holder = current.info;
    const sameHost = holder !== null && holder.hostname === info.hostname;
    // Our own pid in a lock this process does not hold: a previous run whose pid was reused (containers).
    const stale =
      holder === null ||
      (sameHost && (holder.pid === process.pid ? !held.has(file) : !pidAlive(holder.pid))) ||
      (!sameHost && now().getTime() - current.mtimeMs > staleAfterMs);
    if (!stale || attempt >= 3) {
      const who =
        holder === null
          ? 'another spacesync'
          : sameHost
            ? `another spacesync (pid ${holder.pid}, started ${holder.startedAt})`
            : `spacesync on host ${holder.hostname} (pid ${holder.pid}, started ${holder.startedAt})`;
      const todo =
        sameHost || holder === null
          ? `Stop it first (for example \`kill ${holder?.pid ?? '<pid>'}\`, or stop the spacesync service), or sync a different folder.`
          : `Stop it there first. If that machine no longer runs spacesync, delete ${file}; it is also taken over by itself once it has not been refreshed for ${Math.round((staleAfterMs / 3600_000) * 10) / 10} hours.`;
      throw new SpacesyncError('locked', `${root} is already being synced by ${who}. ${todo}`, {
        details: { file, holder: holder ?? undefined },
      });
    }
    fs.rmSync(file, { force: true }); // stale: take it over
  }

  held.add(file);
  let released = false;
  const ours = holderCheck(file, info);
  const refresh = () => {
    const t = now();
    try {
      fs.utimesSync(file, t, t);
    } catch {
      /* a missing lock is noticed by release() and the next start */
    }
  };
  const timer = setInterval(refresh, 5 * 60_000); // the holder's refresh, every 5 minutes
  timer.unref();
  return {
    file,
    info,
    refresh,
    isOurs: ours,
    release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      held.delete(file);
      if (ours()) fs.rmSync(file, { force: true });
    },
  };
}

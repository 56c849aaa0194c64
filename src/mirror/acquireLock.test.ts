import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSpacesyncError, type SpacesyncError } from '../errors.js';
import { acquireLock, lockPath } from './acquireLock.js';
import { useTempDir } from '../../test/support/testDir.js';

const root = useTempDir();
const writeLock = (info: unknown, mtime?: Date) => {
  const file = lockPath(root());
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof info === 'string' ? info : JSON.stringify(info));
  if (mtime) fs.utimesSync(file, mtime, mtime);
};
const readLock = () => JSON.parse(fs.readFileSync(lockPath(root()), 'utf8')) as { pid: number; hostname: string; startedAt: string };
const refusal = (fn: () => unknown): SpacesyncError => {
  try {
    fn();
  } catch (e) {
    if (isSpacesyncError(e)) return e;
    throw e;
  }
  throw new Error('expected a refusal');
};

/** A process that is alive until killed, and one that has already exited. */
async function liveChild() {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('spawn', resolve));
  return child;
}
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('acquireLock', () => {
  it('writes who holds the lock, refuses a second instance naming the pid, and releases', () => {
    const lock = acquireLock(root(), { now: () => new Date('2026-11-21T10:00:00Z') });
    expect(readLock()).toEqual({ pid: process.pid, hostname: os.hostname(), startedAt: '2026-11-21T10:00:00.000Z' });
    const e = refusal(() => acquireLock(root()));
    expect(e.code).toBe('locked');
    expect(e.message).toContain(`pid ${process.pid}`);
    expect(e.message).toContain(`kill ${process.pid}`);
    lock.release();
    lock.release();
    expect(fs.existsSync(lockPath(root()))).toBe(false);
    acquireLock(root()).release();
  });

  it('does not create a missing mirror root', () => {
    const gone = path.join(root(), 'gone');
    expect(refusal(() => acquireLock(gone)).code).toBe('mirror_io');
    expect(fs.existsSync(gone)).toBe(false);
  });

  it('refuses a lock held by another live process on this host', async () => {
    const child = await liveChild();
    try {
      writeLock({ pid: child.pid, hostname: os.hostname(), startedAt: '2026-11-21T09:00:00Z' });
      const e = refusal(() => acquireLock(root()));
      expect(e.code).toBe('locked');
      expect(e.message).toContain(`pid ${child.pid}`);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('takes over the lock of a process that is gone', async () => {
    writeLock({ pid: await deadPid(), hostname: os.hostname(), startedAt: '2026-11-21T09:00:00Z' });
    const lock = acquireLock(root());
    expect(readLock().pid).toBe(process.pid);
    lock.release();
  });

  it('takes over a lock with our own pid left by an earlier run (a reused pid)', () => {
    writeLock({ pid: process.pid, hostname: os.hostname(), startedAt: '2020-01-01T00:00:00Z' });
    const lock = acquireLock(root());
    expect(readLock().startedAt).not.toBe('2020-01-01T00:00:00Z');
    lock.release();
  });

  it('takes over an unreadable lock', () => {
    writeLock('{"pid": 12');
    acquireLock(root()).release();
  });

  it("respects another host's lock until it has not been refreshed for the stale period", () => {
    const now = new Date('2026-11-21T12:00:00Z');
    writeLock({ pid: 4242, hostname: 'laptop-elsewhere', startedAt: '2026-11-01T00:00:00Z' }, new Date('2026-11-21T11:00:00Z'));
    const e = refusal(() => acquireLock(root(), { now: () => now, staleAfterMs: 2 * 3600_000 }));
    expect(e.message).toContain('host laptop-elsewhere');
    expect(e.message).toContain(lockPath(root()));
    fs.utimesSync(lockPath(root()), new Date('2026-11-21T09:59:00Z'), new Date('2026-11-21T09:59:00Z'));
    const lock = acquireLock(root(), { now: () => now, staleAfterMs: 2 * 3600_000 });
    expect(readLock().hostname).toBe(os.hostname());
    lock.release();
  });

  it('is ours while unchanged, and not once the same file is rewritten with another holder of the same length', () => {
    const lock = acquireLock(root());
    expect(lock.isOurs()).toBe(true);
    expect(lock.isOurs()).toBe(true);
    const text = fs.readFileSync(lockPath(root()), 'utf8');
    const ino = fs.statSync(lockPath(root())).ino;
    // Another holder's info, written over the same file (same inode) with exactly as many bytes.
    const other = text.replace(/"pid":\d+/, (m) => `"pid":${'9'.repeat(m.length - 6)}`);
    expect(other.length).toBe(text.length);
    expect(other).not.toBe(text);
    fs.writeFileSync(lockPath(root()), other);
    expect(fs.statSync(lockPath(root())).ino).toBe(ino);
    expect(lock.isOurs()).toBe(false);
    fs.rmSync(lockPath(root()));
    expect(lock.isOurs()).toBe(false);
    lock.release();
  });

  it('refreshes its mtime, and does not remove a lock someone else took over', () => {
    let now = new Date('2026-11-21T10:00:00Z');
    const lock = acquireLock(root(), { now: () => now });
    now = new Date('2026-11-21T10:30:00Z');
    lock.refresh();
    expect(fs.statSync(lockPath(root())).mtime.toISOString()).toBe('2026-11-21T10:30:00.000Z');
    writeLock({ pid: 1, hostname: 'other', startedAt: 'x' });
    lock.release();
    expect(readLock().hostname).toBe('other');
  });
});

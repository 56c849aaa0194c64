import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { useTempDir } from '../../../test/support/testDir.js';
import { openSyncSession } from './openSyncSession.js';

const dir = useTempDir('spacesync-ownership-');
const logger = pino({ level: 'silent' });
const open = () => openSyncSession({ root: dir(), link: 'http://127.0.0.1:9/links/L/api/v1', logger });

describe('a run owns its mirror while its lock and journal are its own', () => {
  it('passes while nothing changed; after .spacesync/ is deleted, every write and writing request is refused and the run is stopped', async () => {
    const s = await open();
    try {
      expect(() => s.ctx.ownership!.check()).not.toThrow();
      expect(() => s.ctx.ownWrites.note('a.md', 'h')).not.toThrow();
      fs.rmSync(path.join(dir(), '.spacesync'), { recursive: true, force: true });
      expect(() => s.ctx.ownership!.check()).toThrow(/lock file \(\.spacesync\/lock\) was deleted or taken by another process/);
      expect(() => s.ctx.ownWrites.note('a.md', 'h')).toThrow(expect.objectContaining({ code: 'state_lost' }));
      await expect(s.client.createFolders({ folders: [{ name: 'X' }] } as never)).rejects.toMatchObject({ code: 'state_lost' });
    } finally {
      s.close();
    }
  });

  it('a journal replaced under it (the lock left in place) is found too, and the run stops by itself within the watch period', async () => {
    const s = await open();
    try {
      const journal = path.join(dir(), '.spacesync', 'journal.db');
      fs.renameSync(journal, `${journal}.aside`);
      fs.writeFileSync(journal, '');
      const aborted = new Promise<void>((resolve) => s.ctx.signal!.addEventListener('abort', () => resolve(), { once: true }));
      await aborted;
      expect(s.ctx.ownership!.lost).toMatchObject({
        code: 'state_lost',
        message: expect.stringContaining('journal (.spacesync/journal.db) was deleted or replaced'),
      });
    } finally {
      s.close();
    }
  });

  it("a lock taken over by another process's (same name, new file) is not ours", async () => {
    const s = await open();
    try {
      const lock = path.join(dir(), '.spacesync', 'lock');
      fs.rmSync(lock);
      fs.writeFileSync(lock, JSON.stringify({ pid: 1, hostname: 'elsewhere', startedAt: new Date().toISOString() }));
      expect(() => s.ctx.ownership!.check()).toThrow(/taken by another process/);
    } finally {
      s.close();
    }
  });
});

describe('a backup-mode session sends nothing, whatever asks', () => {
  it('refuses every writing request with backup_mode before it leaves, and lets reads through to the network', async () => {
    const s = await openSyncSession({ root: dir(), link: 'http://127.0.0.1:9/links/L/api/v1', logger, settings: { mode: 'backup' } });
    try {
      await expect(s.client.createFolders({ folders: [{ name: 'X' }] } as never)).rejects.toMatchObject({
        code: 'backup_mode',
        message: expect.stringContaining('"mode": "two-way"'),
      });
      // Reads go out (port 9 answers nothing: a network error, not the guard's).
      await expect(s.client.getConnection({ priority: 'user' })).rejects.not.toMatchObject({ code: 'backup_mode' });
      // The mirror's own files are written as ever: the pull writes them.
      expect(() => s.ctx.ownWrites.note('a.md', 'h')).not.toThrow();
    } finally {
      s.close();
    }
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSpacesyncError } from '../errors.js';
import { linkOnTheWay, resolveForWrite, resolveInRoot } from './resolveInRoot.js';
import { useTempDir } from '../../test/support/testDir.js';
import { writeFileAtomic, isTempFileName, tempFileName } from './atomicWrites.js';

describe('resolveInRoot', () => {
  it('joins a relative posix path under the root', () => {
    expect(resolveInRoot('/m', 'Projects/A.md')).toBe(path.join('/m', 'Projects', 'A.md'));
  });

  it.each(['', '/etc/passwd', '../x.md', 'a/../../x.md', 'a//b.md', './a.md', 'a/.', 'a\0b'])('refuses %j', (p) => {
    let err: unknown;
    try {
      resolveInRoot('/m', p);
    } catch (e) {
      err = e;
    }
    expect(isSpacesyncError(err, 'mirror_io')).toBe(true);
  });
});

describe('tempFileName', () => {
  it('is dot-prefixed, recognisable, and short enough for any name', () => {
    expect(tempFileName('A.md', 'abc123')).toBe('.A.md.spacesync-abc123.tmp');
    expect(isTempFileName(tempFileName('A.md'))).toBe(true);
    const long = tempFileName('é'.repeat(200));
    expect(Buffer.byteLength(long)).toBeLessThan(255);
    expect(long).not.toContain('\uFFFD');
    expect(isTempFileName('.A.md.swp')).toBe(false);
    expect(isTempFileName('A.md.spacesync-abc.tmp')).toBe(false);
  });
});

describe('resolveForWrite: never through a symbolic link', () => {
  const dir = useTempDir('spacesync-links-');
  it('refuses a write, move or removal whose folder, or the entry itself, is a link; allows the rest', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-outside-'));
    try {
      fs.mkdirSync(path.join(dir(), 'Real'));
      fs.symlinkSync(outside, path.join(dir(), 'Linked'));
      fs.symlinkSync(path.join(outside, 'x.md'), path.join(dir(), 'file.md'));
      expect(resolveForWrite(dir(), 'Real/New/a.md')).toBe(path.join(dir(), 'Real', 'New', 'a.md'));
      expect(() => resolveForWrite(dir(), 'Linked/a.md')).toThrow(expect.objectContaining({ code: 'mirror_symlink' }));
      expect(() => resolveForWrite(dir(), 'Linked/a.md')).toThrow(`"Linked" is a symbolic link (to ${outside})`);
      expect(() => resolveForWrite(dir(), 'file.md')).toThrow(/"file\.md" is a symbolic link/);
      expect(linkOnTheWay(dir(), 'Linked/deep/er.md')).toBe('Linked');
      expect(linkOnTheWay(dir(), 'Real/x.md')).toBeNull();
      await expect(writeFileAtomic(dir(), 'Linked/a.md', 'planted')).rejects.toMatchObject({ code: 'mirror_symlink' });
      expect(fs.readdirSync(outside)).toEqual([]);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSpacesyncError } from '../errors.js';
import { relativeToRoot, resolveInRoot } from './resolveInRoot.js';
import { isTempFileName, tempFileName } from './tempFileName.js';

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

  it('maps back to posix and rejects the root and outsiders', () => {
    expect(relativeToRoot('/m', path.join('/m', 'a', 'b.md'))).toBe('a/b.md');
    expect(relativeToRoot('/m', '/m')).toBeNull();
    expect(relativeToRoot('/m', '/other/x')).toBeNull();
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

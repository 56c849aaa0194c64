import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSpacesyncError } from '../errors.js';
import { createIgnore } from './createIgnore.js';
import { scanMirror } from './scanMirror.js';
import { useTempDir } from '../../test/support/testDir.js';

const root = useTempDir();
const put = (rel: string, text = 'x') => {
  fs.mkdirSync(path.dirname(path.join(root(), rel)), { recursive: true });
  fs.writeFileSync(path.join(root(), rel), text);
};

describe('scanMirror', () => {
  it('lists documents, folders and other files, skipping everything ignored', async () => {
    put('Unsorted/A.md', 'hello');
    put('Projects/Q1/Plan.md');
    put('Projects/Q1/chart.png');
    put('Projects/Roadmap (conflict 2026-11-21 093005).md');
    put('Projects/.Roadmap.md.swp');
    put('Projects/Roadmap.md~');
    put('.spacesync/journal.db');
    put('.git/HEAD');
    put('Drafts/x.md');
    put('a b.md');
    put('Upper.MD');
    fs.mkdirSync(path.join(root(), 'Empty'));
    fs.symlinkSync(path.join(root(), 'Unsorted/A.md'), path.join(root(), 'Link.md'));
    const scan = await scanMirror(root(), createIgnore(['Drafts/']));
    expect(scan.files.map((f) => f.relPath)).toEqual(['Projects/Q1/Plan.md', 'Unsorted/A.md', 'a b.md']);
    expect(scan.files.find((f) => f.relPath === 'Unsorted/A.md')).toMatchObject({ size: 5 });
    expect(scan.files[0]!.mtimeMs).toBeGreaterThan(0);
    expect(scan.dirs).toEqual(['Empty', 'Projects', 'Projects/Q1', 'Unsorted']);
    expect(scan.skipped).toEqual(['Projects/Q1/chart.png', 'Upper.MD']);
    expect(scan.links).toEqual(['Link.md']);
  });

  it('refuses a missing root with mirror_io instead of reporting an empty tree', async () => {
    const err = await scanMirror(path.join(root(), 'gone'), createIgnore()).catch((e: unknown) => e);
    expect(isSpacesyncError(err, 'mirror_io')).toBe(true);
    expect((err as { details?: { reason?: string } }).details?.reason).toBe('root_missing');
  });

  it.skipIf(process.getuid?.() === 0)('refuses an unreadable folder instead of skipping its documents', async () => {
    put('Locked/A.md');
    fs.chmodSync(path.join(root(), 'Locked'), 0o000);
    try {
      const err = await scanMirror(root(), createIgnore()).catch((e: unknown) => e);
      expect(isSpacesyncError(err, 'mirror_io')).toBe(true);
      expect((err as Error).message).toContain('"Locked"');
    } finally {
      fs.chmodSync(path.join(root(), 'Locked'), 0o755);
    }
  });
});

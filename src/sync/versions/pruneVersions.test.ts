import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal, type Journal } from '../../journal/index.js';
import { useTempDir } from '../../../test/support/testDir.js';
import { pruneVersions } from './pruneVersions.js';
import { saveLocalVersion } from '../context/index.js';

const dir = useTempDir('spacesync-versions-');
let journal: Journal;
let clock: Date;
beforeEach(() => {
  clock = new Date('2026-11-01T10:00:00.000Z');
  journal = openJournal(':memory:', { now: () => clock });
});
afterEach(() => journal.close());

const ctx = (keepDays: number, maxMiB: number) => ({ root: dir(), journal, now: () => clock, settings: { versions: { keepDays, maxMiB } } });
const save = (c: ReturnType<typeof ctx>, p: string, text: string) => saveLocalVersion(c, { path: p, docId: 'D1', text, replacement: 'new\n', cause: 'merge' });

describe('saveLocalVersion and pruneVersions', () => {
  it('keeps the old bytes under .spacesync/versions/<path>/ with what changed, and nothing when history is off', async () => {
    const file = await save(ctx(30, 200), 'Unsorted/Note.md', 'old\n\nkept\n');
    expect(file).toBe('.spacesync/versions/Unsorted/Note.md/2026-11-01T10-00-00.000Z.md.gz');
    expect(gunzipSync(fs.readFileSync(path.join(dir(), file!))).toString('utf8')).toBe('old\n\nkept\n');
    expect(journal.listHistory({ path: 'Unsorted/Note.md' })).toMatchObject([{ side: 'local', cause: 'merge', summary: { edited: 1, removed: 1, added: 0 } }]);
    expect(await save(ctx(30, 200), 'Unsorted/Note.md', 'again\n')).toBe('.spacesync/versions/Unsorted/Note.md/2026-11-01T10-00-00.000Z-2.md.gz');
    expect(await save(ctx(0, 200), 'Unsorted/Note.md', 'off\n')).toBeNull();
    expect(journal.listHistory()).toHaveLength(2);
  });

  it('prunes versions older than keepDays, oldest first, with their files and emptied folders', async () => {
    await save(ctx(30, 200), 'A.md', 'a\n');
    clock = new Date('2026-11-20T10:00:00.000Z');
    await save(ctx(30, 200), 'B.md', 'b\n');
    clock = new Date('2026-12-05T10:00:00.000Z');
    expect(await pruneVersions(ctx(30, 200))).toBe(1);
    expect(journal.listHistory().map((h) => h.path)).toEqual(['B.md']);
    expect(fs.existsSync(path.join(dir(), '.spacesync/versions/A.md'))).toBe(false);
    expect(fs.readdirSync(path.join(dir(), '.spacesync/versions/B.md'))).toHaveLength(1);
    expect(await pruneVersions(ctx(30, 200))).toBe(0);
  });

  it('prunes the oldest until the history weighs at most maxMiB', async () => {
    // Random bytes as text: gzip keeps them about as large (about 420 KiB each).
    const big = randomBytes(420 * 1024).toString('base64');
    for (const p of ['1.md', '2.md', '3.md']) await save(ctx(30, 1), p, big);
    expect(await pruneVersions(ctx(30, 1))).toBe(1);
    expect(journal.listHistory().map((h) => h.path)).toEqual(['3.md', '2.md']);
  });
});

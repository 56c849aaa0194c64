// Restoring from each storage form of the history: a gzipped local version, a plain one kept before
// the journal's schema 4, and a remote version that holds only the blocks the push changed.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashBlock } from '../../core/merge/hashBlock.js';
import { openJournal, type BaseBlock, type HistoryBlock, type Journal } from '../../journal/index.js';
import { useTempDir } from '../../../test/support/testDir.js';
import { restoreVersion } from './restoreVersion.js';
import { saveLocalVersion } from './saveLocalVersion.js';

const dir = useTempDir('spacesync-restore-');
let journal: Journal;
const now = () => new Date('2026-11-01T10:00:00.000Z');
beforeEach(() => {
  journal = openJournal(':memory:', { now });
});
afterEach(() => journal.close());

const settings = { versions: { keepDays: 30, maxMiB: 200 } };
const read = (p: string) => fs.readFileSync(path.join(dir(), p));
const write = (p: string, bytes: string | Buffer) => {
  fs.mkdirSync(path.dirname(path.join(dir(), p)), { recursive: true });
  fs.writeFileSync(path.join(dir(), p), bytes);
};
const restore = (p: string, version?: number) => restoreVersion({ root: dir(), journal, settings, now, path: p, ...(version ? { version } : {}) });

describe('restoreVersion', () => {
  it('gives back the exact bytes of a gzipped local version', async () => {
    const old = '\uFEFF# Notes\n\ncafé ✓ — tabs\there\r\nlast line without newline';
    write('Unsorted/Note.md', 'replaced\n');
    const file = await saveLocalVersion(
      { root: dir(), journal, now, settings },
      { path: 'Unsorted/Note.md', docId: null, text: old, replacement: 'replaced\n', cause: 'merge' },
    );
    expect(file).toMatch(/\.md\.gz$/);
    await restore('Unsorted/Note.md');
    expect(read('Unsorted/Note.md').equals(Buffer.from(old, 'utf8'))).toBe(true);
  });

  it('reads a plain version kept before the versions were gzipped', async () => {
    const old = 'an old version\n\nkept as a plain file\n';
    write('.spacesync/versions/Unsorted/Old.md/2026-10-01T10-00-00.000Z.md', old);
    write('Unsorted/Old.md', 'now\n');
    journal.addHistory({
      at: '2026-10-01T10:00:00.000Z',
      side: 'local',
      docId: null,
      path: 'Unsorted/Old.md',
      cause: 'merge',
      request: null,
      versionFile: '.spacesync/versions/Unsorted/Old.md/2026-10-01T10-00-00.000Z.md',
      size: old.length,
      blocks: null,
      summary: { added: 0, removed: 0, edited: 1 },
    });
    await restore('Unsorted/Old.md');
    expect(read('Unsorted/Old.md').toString('utf8')).toBe(old);
  });

  it('puts back what a push changed over the base: the same bytes as the whole document it overwrote', async () => {
    const b = (id: string, position: number, markdown: string, over: Partial<BaseBlock> = {}): BaseBlock => ({
      id,
      parentId: null,
      position,
      level: 0,
      kind: 'block',
      type: 'text',
      markdown,
      hash: hashBlock(markdown, 'block'),
      ...over,
    });
    const before = [
      b('A', 0, 'first'),
      b('B', 1, 'second'),
      b('P', 2, 'Sub page', { kind: 'page', type: 'page' }),
      b('C', 0, 'inside', { parentId: 'P', level: 1 }),
      b('D', 3, 'fourth'),
    ];
    // The push edited A, deleted B and the page P (with C inside), and kept D.
    const after = [b('A', 0, 'first, edited'), b('D', 1, 'fourth')];
    journal.upsertDocument({
      id: 'DOC',
      path: 'Unsorted/Doc.md',
      title: 'Doc',
      location: 'unsorted',
      folderId: null,
      dailyNoteDate: null,
      remoteModifiedAt: null,
      createdAt: null,
      fileHash: null,
    });
    journal.replaceBaseBlocks('DOC', after);
    const hist = (x: BaseBlock, change?: 'edited' | 'deleted'): HistoryBlock => ({
      id: x.id,
      parentId: x.parentId,
      position: x.position,
      level: x.level,
      kind: x.kind,
      type: x.type,
      markdown: x.markdown,
      ...(change ? { change } : {}),
    });
    const changes = { A: 'edited', B: 'deleted', P: 'deleted', C: 'deleted' } as const;
    const entry = {
      at: now().toISOString(),
      side: 'remote' as const,
      docId: 'DOC',
      path: 'Unsorted/Doc.md',
      cause: 'push',
      request: 'PUT /blocks, DELETE /blocks',
      versionFile: null,
      size: 0,
      summary: { added: 0, removed: 3, edited: 1 },
    };
    const whole = journal.addHistory({ ...entry, blocks: before.map((x) => hist(x, changes[x.id as keyof typeof changes])) });
    const delta = journal.addHistory({ ...entry, blocks: before.filter((x) => x.id in changes).map((x) => hist(x, changes[x.id as keyof typeof changes])) });
    write('Unsorted/Doc.md', '---\nid: DOC\n---\nfirst, edited\n\nfourth\n');
    const fromWhole = await restoreVersion({ root: dir(), journal, settings, now, path: 'Unsorted/Doc.md', version: whole, dryRun: true });
    const fromDelta = await restoreVersion({ root: dir(), journal, settings, now, path: 'Unsorted/Doc.md', version: delta });
    expect(fromDelta.text).toBe(fromWhole.text);
    expect(read('Unsorted/Doc.md').toString('utf8')).toBe(fromWhole.text);
    expect(fromWhole.text).toMatch(/^---\nid: DOC\n---\nfirst\n\nsecond\n[\s\S]*Sub page[\s\S]*inside[\s\S]*\nfourth\n$/);
  });
});

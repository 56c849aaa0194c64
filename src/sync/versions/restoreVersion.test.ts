// Restoring from each storage form of the history: a gzipped local version, a plain one kept before
// the journal's schema 4, and a remote version that holds only the blocks the push changed.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashBlock } from '../../core/merge/hashBlock.js';
import { openJournal, type BaseBlock, type HistoryBlock, type Journal } from '../../journal/index.js';
import { useTempDir } from '../../../test/support/testDir.js';
import { restoreVersion } from './restoreVersion.js';
import { saveLocalVersion } from '../context/index.js';

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

describe('restoreVersion of what the file does not show', () => {
  it("keeps a card's layout, which a base block has in its hash only, and notes a restored block's colour for the push", async () => {
    journal.upsertDocument({
      id: 'DOC',
      path: 'Work/Team.md',
      title: 'Team',
      location: 'folder',
      folderId: 'F1',
      dailyNoteDate: null,
      remoteModifiedAt: null,
      createdAt: null,
      fileHash: null,
    });
    const card: BaseBlock = {
      id: 'K',
      parentId: null,
      position: 0,
      level: 0,
      kind: 'card',
      type: 'page',
      markdown: 'Who to ask',
      hash: hashBlock('Who to ask', 'card', 'small'),
    };
    journal.replaceBaseBlocks('DOC', [card]);
    const red: HistoryBlock = {
      id: 'R',
      parentId: null,
      position: 1,
      level: 0,
      kind: 'block',
      type: 'text',
      markdown: 'Red',
      unshown: { color: '#ff0000' },
      change: 'deleted',
    };
    journal.addHistory({
      at: now().toISOString(),
      side: 'remote',
      docId: 'DOC',
      path: 'Work/Team.md',
      cause: 'push',
      request: 'DELETE /blocks',
      versionFile: null,
      size: 0,
      blocks: [red],
      summary: { added: 0, removed: 1, edited: 0 },
    });
    write('Work/Team.md', '---\nid: DOC\n---\n<card cardLayout="small">\n<pageTitle>Who to ask</pageTitle>\n</card>\n');
    const dry = await restoreVersion({ root: dir(), journal, settings, now, path: 'Work/Team.md', dryRun: true });
    expect(dry.text).toContain('<card cardLayout="small">');
    expect(journal.getState('restored:DOC')).toBeUndefined();
    await restore('Work/Team.md');
    expect(read('Work/Team.md').toString('utf8')).toMatch(/<card cardLayout="small">[\s\S]*\nRed\n$/);
    expect(journal.getState('restored:DOC')).toEqual([{ kind: 'block', type: 'text', markdown: 'Red', unshown: { color: '#ff0000' } }]);
  });
});

describe('restoreVersion of a trashed document', () => {
  const record = (p: string, location: 'folder' | 'trash') =>
    journal.upsertDocument({
      id: 'DOC',
      path: p,
      title: 'Doc',
      location,
      folderId: location === 'folder' ? 'F1' : null,
      dailyNoteDate: null,
      remoteModifiedAt: null,
      createdAt: null,
      fileHash: null,
    });
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => {
        throw new Error('the restore went through');
      },
      (e: Error) => e.message,
    );

  it('moves the file back where it was, by either path, and writes nothing else', async () => {
    record('Work/Doc.md', 'folder');
    record('Trash/Doc.md', 'trash');
    const text = '---\nid: DOC\n---\nas it went\n';
    for (const asked of ['Work/Doc.md', 'Trash/Doc.md']) {
      write('Trash/Doc.md', text);
      const dry = await restoreVersion({ root: dir(), journal, settings, now, path: asked, dryRun: true });
      expect(dry).toMatchObject({ path: 'Work/Doc.md', fromTrash: 'Trash/Doc.md', text, written: false, version: { cause: 'trash' } });
      expect(fs.existsSync(path.join(dir(), 'Work/Doc.md'))).toBe(false);
      await restore(asked);
      expect(read('Work/Doc.md').toString('utf8')).toBe(text);
      expect(fs.existsSync(path.join(dir(), 'Trash/Doc.md'))).toBe(false);
      fs.rmSync(path.join(dir(), 'Work/Doc.md'));
    }
    // Nothing was replaced: no version of a restore.
    expect(journal.listHistory().map((h) => h.cause)).toEqual(['trash']);
  });

  it('writes the newest version of a trashed document into its file once moved back, the trashed text kept as a version', async () => {
    record('Work/Doc.md', 'folder');
    await saveLocalVersion(
      { root: dir(), journal, now, settings },
      { path: 'Work/Doc.md', docId: 'DOC', text: 'older\n', replacement: 'newer\n', cause: 'merge' },
    );
    record('Trash/Doc.md', 'trash');
    write('Trash/Doc.md', 'newer\n');
    const r = await restore('Trash/Doc.md');
    expect(r).toMatchObject({ path: 'Work/Doc.md', fromTrash: 'Trash/Doc.md', version: { cause: 'merge' } });
    expect(read('Work/Doc.md').toString('utf8')).toBe('older\n');
    expect(fs.existsSync(path.join(dir(), 'Trash/Doc.md'))).toBe(false);
    expect(journal.listHistory({ path: 'Work/Doc.md' }).map((h) => h.cause)).toEqual(['restore', 'trash', 'merge']);
  });

  it('says what to do when its file is not in Trash/, or when where it was is not known', async () => {
    record('Work/Doc.md', 'folder');
    record('Trash/Doc.md', 'trash');
    expect(await failure(restore('Work/Doc.md'))).toContain('its file is not in Trash/ ("Trash/Doc.md"): the next sync writes it there again');
    journal.deleteHistory(journal.listHistory().map((h) => h.id));
    write('Trash/Doc.md', 'x\n');
    journal.addHistory({
      at: now().toISOString(),
      side: 'local',
      docId: 'DOC',
      path: 'Trash/Doc.md',
      cause: 'merge',
      request: null,
      versionFile: '.spacesync/versions/Trash/Doc.md/old.md',
      size: 1,
      blocks: null,
      summary: { added: 0, removed: 0, edited: 1 },
    });
    expect(await failure(restore('Trash/Doc.md'))).toContain('is in the trash, but the history does not say where it was before');
  });

  it('leaves out the versions of the other files of the document (a whiteboard scene)', async () => {
    record('Work/Doc.md', 'folder');
    write('Work/Doc.md', '---\nid: DOC\n---\nnow\n');
    await saveLocalVersion(
      { root: dir(), journal, now, settings },
      { path: 'Work/Doc.assets/board.excalidraw', docId: 'DOC', text: '{}', replacement: null, cause: 'delete' },
    );
    expect(await failure(restore('Work/Doc.md'))).toContain('has no versions in the history');
    await saveLocalVersion(
      { root: dir(), journal, now, settings },
      { path: 'Work/Doc.md', docId: 'DOC', text: 'before\n', replacement: 'now\n', cause: 'merge' },
    );
    await restore('Work/Doc.md');
    expect(read('Work/Doc.md').toString('utf8')).toBe('before\n');
  });
});

import { describe, expect, it } from 'vitest';
import { decideDocument, type BaseSide, type LocalSide, type RemoteSide } from './decideDocument.js';

const base: BaseSide = { id: 'D', path: 'Projects/Plan.md', title: 'Plan', location: 'folder', folderId: 'F' };
const local = (o: Partial<LocalSide> = {}): LocalSide => ({ path: 'Projects/Plan.md', title: 'Plan', location: 'folder', folderId: 'F', changed: false, ...o });
const remote = (o: Partial<RemoteSide> = {}): RemoteSide => ({ id: 'D', title: 'Plan', location: 'folder', folderId: 'F', changed: false, ...o });

describe('decideDocument: content', () => {
  it('does nothing when neither side changed', () => {
    expect(decideDocument({ base, local: local(), remote: remote() })).toEqual({ content: 'none', conflicts: [], problems: [] });
  });
  it('pushes, pulls or merges by which side changed', () => {
    expect(decideDocument({ base, local: local({ changed: true }), remote: remote() }).content).toBe('push');
    expect(decideDocument({ base, local: local(), remote: remote({ changed: true }) }).content).toBe('pull');
    expect(decideDocument({ base, local: local({ changed: true }), remote: remote({ changed: true }) }).content).toBe('merge');
  });
});

describe('decideDocument: new on one side', () => {
  it('creates a document for a new file in its folder', () => {
    expect(decideDocument({ local: local({ title: 'New' }) })).toMatchObject({ content: 'create', create: { title: 'New', destination: { folderId: 'F' } } });
    expect(decideDocument({ local: local({ location: 'templates', folderId: null }) })).toMatchObject({ create: { destination: { location: 'templates' } } });
  });
  it('creates a daily note from a file named by its date, and refuses other names there', () => {
    expect(decideDocument({ local: local({ location: 'daily_notes', folderId: null, dailyNoteDate: '2026-11-21' }) })).toMatchObject({
      content: 'create',
      create: { dailyNoteDate: '2026-11-21' },
    });
    const bad = decideDocument({ local: local({ location: 'daily_notes', folderId: null, dailyNoteDate: null }) });
    expect(bad.content).toBe('none');
    expect(bad.problems[0]).toContain('YYYY-MM-DD');
  });
  it('does not send a new file dropped into Trash/', () => {
    const d = decideDocument({ local: local({ location: 'trash', folderId: null }) });
    expect(d.content).toBe('none');
    expect(d.problems[0]).toContain('Trash/');
  });
  it('pulls a new document', () => {
    expect(decideDocument({ remote: remote() }).content).toBe('pull');
  });
  it('merges a file and a document that meet without a base', () => {
    expect(decideDocument({ local: local(), remote: remote() }).content).toBe('merge');
  });
});

describe('decideDocument: deletes', () => {
  it('trashes the document of a deleted file', () => {
    expect(decideDocument({ base, remote: remote() })).toMatchObject({ trash: true });
  });
  it('brings the file back when the service edited the document since (local delete + remote edit)', () => {
    expect(decideDocument({ base, remote: remote({ changed: true }) })).toMatchObject({ content: 'pull', rewrite: true });
    expect(decideDocument({ base, remote: remote({ changed: true }) }).trash).toBeUndefined();
  });
  it('is clean when deleted on both sides: nothing sent, the trash mirrored', () => {
    const d = decideDocument({ base, remote: remote({ location: 'trash', folderId: null }) });
    expect(d.trash).toBeUndefined();
    expect(d.content).toBe('none');
  });
  it('forgets a document gone everywhere', () => {
    expect(decideDocument({ base })).toMatchObject({ forget: true });
  });
  it('removes an unchanged file whose document was purged, and re-creates a changed one', () => {
    expect(decideDocument({ base, local: local() })).toMatchObject({ removeFile: true, forget: true });
    expect(decideDocument({ base, local: local({ changed: true, title: 'Plan' }) })).toMatchObject({
      content: 'create',
      create: { title: 'Plan', destination: { folderId: 'F' } },
    });
  });
});

describe('decideDocument: trash', () => {
  const inTrash = { location: 'trash' as const, folderId: null };
  it('trashes a document whose file moved into Trash/', () => {
    expect(decideDocument({ base, local: local({ ...inTrash, path: 'Trash/Plan.md' }), remote: remote() })).toMatchObject({ trash: true });
  });
  it('keeps a document trashed in the mirror but edited on the service; its file comes back', () => {
    const d = decideDocument({ base, local: local({ ...inTrash }), remote: remote({ changed: true }) });
    expect(d).toMatchObject({ content: 'pull', rewrite: true });
    expect(d.trash).toBeUndefined();
  });
  it('pushes an edit and restores a document trashed on the service (remote trash + local edit)', () => {
    expect(decideDocument({ base, local: local({ changed: true }), remote: remote({ ...inTrash }) })).toMatchObject({
      content: 'push',
      move: { folderId: 'F' },
    });
  });
  it('lets an unchanged file follow the service into the trash', () => {
    const d = decideDocument({ base, local: local(), remote: remote({ ...inTrash }) });
    expect(d.move).toBeUndefined();
    expect(d.content).toBe('none');
  });
  it('restores a document whose file moved out of Trash/', () => {
    const tb: BaseSide = { ...base, ...inTrash, path: 'Trash/Plan.md' };
    expect(decideDocument({ base: tb, local: local({ location: 'unsorted', folderId: null }), remote: remote({ ...inTrash }) })).toMatchObject({
      move: { location: 'unsorted' },
    });
  });
});

describe('decideDocument: moves and renames', () => {
  it('moves the document of a moved file', () => {
    expect(decideDocument({ base, local: local({ folderId: 'G' }), remote: remote() })).toMatchObject({ move: { folderId: 'G' } });
    expect(decideDocument({ base, local: local({ location: 'unsorted', folderId: null }), remote: remote() })).toMatchObject({
      move: { location: 'unsorted' },
    });
  });
  it('lets the service win when both moved it', () => {
    expect(decideDocument({ base, local: local({ folderId: 'G' }), remote: remote({ folderId: 'H' }) }).move).toBeUndefined();
  });
  it('never moves a daily note', () => {
    const db: BaseSide = { ...base, location: 'daily_notes', folderId: null, dailyNoteDate: '2026-11-21' };
    const d = decideDocument({ base: db, local: local({ location: 'unsorted', folderId: null }), remote: remote({ location: 'daily_notes', folderId: null }) });
    expect(d.move).toBeUndefined();
    expect(d.problems[0]).toContain('Daily notes cannot be moved');
  });
  it("renames the document of a renamed file; a rename on both sides keeps the service's, says so and marks the file's for a conflict copy", () => {
    expect(decideDocument({ base, local: local({ title: 'Plan B' }), remote: remote() }).rename).toBe('Plan B');
    const both = decideDocument({ base, local: local({ title: 'Plan B' }), remote: remote({ title: 'Plan C' }) });
    expect(both.rename).toBeUndefined();
    expect(both.conflicts[0]).toContain('Plan B');
    expect(both.titleConflict).toEqual({ local: 'Plan B', remote: 'Plan C' });
    expect(decideDocument({ base, local: local({ title: 'Same' }), remote: remote({ title: 'Same' }) }).conflicts).toEqual([]);
  });
});

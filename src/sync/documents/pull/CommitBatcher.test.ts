import { describe, expect, it } from 'vitest';
import { openJournal } from '../../../journal/index.js';
import { CommitBatcher } from './CommitBatcher.js';

const doc = (id: string) => ({
  id,
  path: `Unsorted/${id}.md`,
  title: id,
  location: 'unsorted' as const,
  folderId: null,
  dailyNoteDate: null,
  remoteModifiedAt: null,
  createdAt: null,
  fileHash: 'h',
});

describe('CommitBatcher', () => {
  it('commits queued writes together once the batch is full or the delay passed', async () => {
    const journal = openJournal(':memory:');
    const batcher = new CommitBatcher(journal, 10_000, 2);
    const first = batcher.add(() => journal.upsertDocument(doc('a')));
    expect(journal.getDocument('a')).toBeUndefined();
    await Promise.all([first, batcher.add(() => journal.upsertDocument(doc('b')))]);
    expect(journal.listDocuments().map((d) => d.id)).toEqual(['a', 'b']);
    const late = new CommitBatcher(journal, 5);
    await late.add(() => journal.upsertDocument(doc('c')));
    expect(journal.getDocument('c')).toBeDefined();
    journal.close();
  });

  it('rolls the whole batch back when one write fails, and says so to every waiter', async () => {
    const journal = openJournal(':memory:');
    const batcher = new CommitBatcher(journal);
    const ok = batcher.add(() => journal.upsertDocument(doc('a')));
    const bad = batcher.add(() => {
      throw new Error('disk full');
    });
    batcher.flush();
    await expect(ok).rejects.toThrow('disk full');
    await expect(bad).rejects.toThrow('disk full');
    expect(journal.getDocument('a')).toBeUndefined();
    journal.close();
  });
});

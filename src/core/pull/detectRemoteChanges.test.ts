import { describe, expect, it } from 'vitest';
import { detectRemoteChanges } from './detectRemoteChanges.js';

type Rec = {
  id: string;
  path: string;
  title: string;
  location: string;
  folderId: string | null;
  dailyNoteDate: string | null;
  remoteModifiedAt: string | null;
  createdAt: string | null;
  fileHash: string | null;
  syncedAt: string;
};

const rec = (id: string, over: Partial<Rec> = {}): Rec => ({
  id,
  path: `Unsorted/${id}.md`,
  title: id,
  location: 'unsorted',
  folderId: null,
  dailyNoteDate: null,
  remoteModifiedAt: '2026-09-01T00:00:00.000Z',
  createdAt: null,
  fileHash: 'h',
  syncedAt: '2026-09-01T00:00:00.000Z',
  ...over,
});
const listed = (id: string, lastModifiedAt = '2026-09-01T00:00:00.000Z', title = id) => [id, { id, title, lastModifiedAt, createdAt: null }] as const;

describe('detectRemoteChanges', () => {
  it('reads documents whose lastModifiedAt moved, that were retitled, or never written; purges those no longer listed', () => {
    const r = detectRemoteChanges(
      [rec('same'), rec('edited'), rec('retitled'), rec('unwritten', { fileHash: null, remoteModifiedAt: null }), rec('purged')],
      new Map([listed('same'), listed('edited', '2026-09-02T00:00:00.000Z'), listed('retitled', undefined, 'New'), listed('unwritten')]),
    );
    expect(r).toEqual({ changed: ['edited', 'retitled', 'unwritten'], purged: ['purged'] });
  });
});

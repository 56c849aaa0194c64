import { describe, expect, it } from 'vitest';
import type { LayoutDocument } from '../../../core/pull/layout.js';
import type { DocumentRecord, FolderRecord, Journal } from '../../../journal/index.js';
import { LayoutMemo } from './pullMemos.js';

const journal = {} as Journal;
const docs: LayoutDocument[] = [
  { id: 'a', title: 'A', location: 'folder', folderId: 'f', createdAt: '2026-01-01T00:00:00Z' },
  { id: 'b', title: 'B', location: 'unsorted', folderId: null },
];
const folders = [{ id: 'f', name: 'Projects', parentId: null, documentCount: 1 }];
const layout = {
  documents: new Map([
    ['a', 'Projects/A.md'],
    ['b', 'Unsorted/B.md'],
  ]),
  folders: new Map([['f', 'Projects']]),
};
const record = (id: string, path: string) => ({ id, path }) as DocumentRecord;
const records = [record('a', 'Projects/A.md'), record('b', 'Unsorted/B.md')];
const folderRecords = [{ id: 'f', path: 'Projects' }] as FolderRecord[];

describe('LayoutMemo', () => {
  it('knows nothing before a layout was applied whole', () => {
    LayoutMemo.forget(journal);
    expect(LayoutMemo.unchanged(journal, docs, folders, records, folderRecords)).toBe(false);
  });

  it('holds for the same input with every record and folder where the layout put it, and for nothing else', () => {
    LayoutMemo.remember(journal, docs, folders, layout);
    expect(
      LayoutMemo.unchanged(
        journal,
        docs.map((d) => ({ ...d })),
        folders,
        records,
        folderRecords,
      ),
    ).toBe(true);
    expect(LayoutMemo.unchanged(journal, [{ ...docs[0]!, title: 'A2' }, docs[1]!], folders, records, folderRecords)).toBe(false);
    expect(LayoutMemo.unchanged(journal, [docs[0]!, { ...docs[1]!, location: 'trash' }], folders, records, folderRecords)).toBe(false);
    expect(LayoutMemo.unchanged(journal, [docs[0]!], folders, [records[0]!], folderRecords)).toBe(false);
    expect(LayoutMemo.unchanged(journal, docs, [{ ...folders[0]!, name: 'Plans' }], records, folderRecords)).toBe(false);
    expect(LayoutMemo.unchanged(journal, docs, folders, [records[0]!, record('b', 'Unsorted/B (2).md')], folderRecords)).toBe(false);
    expect(LayoutMemo.unchanged(journal, docs, folders, records, [{ id: 'f', path: 'Elsewhere' } as FolderRecord])).toBe(false);
    LayoutMemo.forget(journal);
    expect(LayoutMemo.unchanged(journal, docs, folders, records, folderRecords)).toBe(false);
  });
});

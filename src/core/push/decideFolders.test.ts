import { describe, expect, it } from 'vitest';
import { decideFolders, type FolderDecisionInput } from './decideFolders.js';

const base: FolderDecisionInput['base'] = [
  { id: 'P', name: 'Projects', parentId: null, path: 'Projects' },
  { id: 'S', name: 'Sub', parentId: 'P', path: 'Projects/Sub' },
  { id: 'A', name: 'Archive', parentId: null, path: 'Archive' },
];
const remote = base.map(({ path: _p, ...f }) => f);

describe('decideFolders', () => {
  it('changes nothing when every directory is where it was', () => {
    const d = decideFolders({ base, remote, localDirs: ['Projects', 'Projects/Sub', 'Archive'], documents: [] });
    expect(d).toMatchObject({ creates: [], renames: [], moves: [], deletes: [] });
    expect(d.folderOfDir.get('Projects/Sub')).toBe('S');
  });

  it("creates folders for new directories, parents first, children naming the parent's ref", () => {
    const d = decideFolders({ base, remote, localDirs: ['Projects', 'Projects/Sub', 'Archive', 'New/Deeper', 'New', 'Projects/Ideas'], documents: [] });
    expect(d.creates).toEqual(
      [
        { ref: '@ref:folder:New', name: 'New', parent: null, path: 'New' },
        { ref: '@ref:folder:New/Deeper', name: 'Deeper', parent: '@ref:folder:New', path: 'New/Deeper' },
        { ref: '@ref:folder:Projects/Ideas', name: 'Ideas', parent: 'P', path: 'Projects/Ideas' },
      ].sort((a, b) => a.path.split('/').length - b.path.split('/').length),
    );
    expect(d.folderOfDir.get('New/Deeper')).toBe('@ref:folder:New/Deeper');
  });

  it('deletes the folder of a removed directory, deepest first', () => {
    const d = decideFolders({ base, remote, localDirs: ['Archive'], documents: [] });
    expect(d.deletes).toEqual([
      { id: 'S', path: 'Projects/Sub' },
      { id: 'P', path: 'Projects' },
    ]);
  });

  it('keeps a removed folder that holds documents new on the service, and says so', () => {
    const d = decideFolders({ base, remote, localDirs: ['Projects', 'Projects/Sub'], documents: [{ id: 'N', remoteFolderId: 'A' }] });
    expect(d.deletes).toEqual([]);
    expect(d.problems[0]).toContain('Archive');
  });

  it('turns a renamed directory into create + move contents + delete, moving every document the service has there (new ones too)', () => {
    const d = decideFolders({
      base,
      remote,
      localDirs: ['Work', 'Work/Sub', 'Archive'],
      documents: [
        { id: 'D1', basePath: 'Projects/a.md', localPath: 'Work/a.md', remoteFolderId: 'P' },
        { id: 'D2', basePath: 'Projects/b.md', localPath: 'Work/b.md', remoteFolderId: 'P' },
        { id: 'NEW', remoteFolderId: 'P' },
        { id: 'D3', basePath: 'Projects/Sub/c.md', localPath: 'Work/Sub/c.md', remoteFolderId: 'S' },
      ],
    });
    expect(d.creates).toEqual([{ ref: '@ref:folder:Work', name: 'Work', parent: null, path: 'Work' }]);
    expect(d.renames).toEqual([{ id: 'P', from: 'Projects', to: 'Work', ref: '@ref:folder:Work', documentIds: ['D1', 'D2', 'NEW'], subfolderIds: ['S'] }]);
    expect(d.deletes).toEqual([]);
    expect(d.folderOfDir.get('Work/Sub')).toBe('S');
  });

  it('moves a directory moved under another with its name unchanged (the folder keeps its id)', () => {
    const d = decideFolders({
      base,
      remote,
      localDirs: ['Projects', 'Archive', 'Archive/Sub'],
      documents: [{ id: 'D3', basePath: 'Projects/Sub/c.md', localPath: 'Archive/Sub/c.md', remoteFolderId: 'S' }],
    });
    expect(d.moves).toEqual([{ id: 'S', from: 'Projects/Sub', to: 'Archive/Sub', parent: 'A' }]);
    expect(d.creates).toEqual([]);
    expect(d.deletes).toEqual([]);
  });

  it('moves a folder into the new place of another moved folder under that folder, whatever order the two are decided in', () => {
    // Archive → Sub/Archive while Projects/Sub → Sub: the shallower one is decided first, before "Sub" is known to be S's.
    const d = decideFolders({
      base,
      remote,
      localDirs: ['Projects', 'Sub', 'Sub/Archive'],
      documents: [
        { id: 'D1', basePath: 'Archive/a.md', localPath: 'Sub/Archive/a.md', remoteFolderId: 'A' },
        { id: 'D3', basePath: 'Projects/Sub/c.md', localPath: 'Sub/c.md', remoteFolderId: 'S' },
      ],
    });
    expect(d.moves).toEqual([
      { id: 'A', from: 'Archive', to: 'Sub/Archive', parent: 'S' },
      { id: 'S', from: 'Projects/Sub', to: 'Sub', parent: null },
    ]);
    expect(d.creates).toEqual([]);
  });

  it("creates a new directory inside a moved folder's new place under that folder, and a renamed one's under its new ref", () => {
    const d = decideFolders({
      base,
      remote,
      localDirs: ['Projects', 'Sub', 'Sub/Fresh', 'Attic', 'Attic/New'],
      documents: [
        { id: 'D3', basePath: 'Projects/Sub/c.md', localPath: 'Sub/c.md', remoteFolderId: 'S' },
        { id: 'D1', basePath: 'Archive/a.md', localPath: 'Attic/a.md', remoteFolderId: 'A' },
      ],
    });
    expect(d.creates).toEqual([
      { ref: '@ref:folder:Attic', name: 'Attic', parent: null, path: 'Attic' },
      { ref: '@ref:folder:Attic/New', name: 'New', parent: '@ref:folder:Attic', path: 'Attic/New' },
      { ref: '@ref:folder:Sub/Fresh', name: 'Fresh', parent: 'S', path: 'Sub/Fresh' },
    ]);
  });

  it('lets a folder the service renamed or deleted meanwhile be', () => {
    const d = decideFolders({
      base,
      remote: [
        { id: 'P', name: 'Renamed', parentId: null },
        { id: 'S', name: 'Sub', parentId: 'P' },
      ],
      localDirs: ['Projects/Sub'],
      documents: [],
    });
    expect(d.deletes).toEqual([]);
    expect(d.renames).toEqual([]);
  });
});

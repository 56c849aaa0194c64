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

  it('creates folders for new directories, parents first, children naming the parent\'s ref', () => {
    const d = decideFolders({ base, remote, localDirs: ['Projects', 'Projects/Sub', 'Archive', 'New/Deeper', 'New', 'Projects/Ideas'], documents: [] });
    expect(d.creates).toEqual([
      { ref: '@ref:folder:New', name: 'New', parent: null, path: 'New' },
      { ref: '@ref:folder:New/Deeper', name: 'Deeper', parent: '@ref:folder:New', path: 'New/Deeper' },
      { ref: '@ref:folder:Projects/Ideas', name: 'Ideas', parent: 'P', path: 'Projects/Ideas' },
    ].sort((a, b) => a.path.split('/').length - b.path.split('/').length));
    expect(d.folderOfDir.get('New/Deeper')).toBe('@ref:folder:New/Deeper');
  });

  it('deletes the folder of a removed directory, deepest first', () => {
    const d = decideFolders({ base, remote, localDirs: ['Archive'], documents: [] });
    expect(d.deletes).toEqual([{ id: 'S', path: 'Projects/Sub' }, { id: 'P', path: 'Projects' }]);
  });

  it('keeps a removed folder that holds documents new on the service, and says so', () => {
    const d = decideFolders({ base, remote, localDirs: ['Projects', 'Projects/Sub'], documents: [{ id: 'N', remoteFolderId: 'A' }] });
    expect(d.deletes).toEqual([]);
    expect(d.problems[0]).toContain('Archive');
  });

  it('turns a renamed directory into create + move contents + delete, moving every document the service has there (new ones too)', () => {
    const d = decideFolders({
      base, remote,
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
      base, remote, localDirs: ['Projects', 'Archive', 'Archive/Sub'],
      documents: [{ id: 'D3', basePath: 'Projects/Sub/c.md', localPath: 'Archive/Sub/c.md', remoteFolderId: 'S' }],
    });
    expect(d.moves).toEqual([{ id: 'S', from: 'Projects/Sub', to: 'Archive/Sub', parent: 'A' }]);
    expect(d.creates).toEqual([]);
    expect(d.deletes).toEqual([]);
  });

  it('lets a folder the service renamed or deleted meanwhile be', () => {
    const d = decideFolders({ base, remote: [{ id: 'P', name: 'Renamed', parentId: null }, { id: 'S', name: 'Sub', parentId: 'P' }], localDirs: ['Projects/Sub'], documents: [] });
    expect(d.deletes).toEqual([]);
    expect(d.renames).toEqual([]);
  });
});

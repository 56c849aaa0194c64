import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isBuiltinIgnored } from '../../mirror/createIgnore.js';
import { collisionKey, dirOfPath } from '../files/fileName.js';
import { locationOfDir, needsTitle, planLayout, type LayoutDocument, type LayoutFolder } from './layout.js';

const doc = (id: string, title: string, extra: Partial<LayoutDocument> = {}): LayoutDocument => ({
  id,
  title,
  location: 'unsorted',
  createdAt: `2026-01-01T00:00:0${id.length % 10}Z`,
  ...extra,
});

describe('planLayout', () => {
  it('puts documents in the built-in locations and user folders', () => {
    const folders: LayoutFolder[] = [
      { id: 'F1', name: 'Projects', parentId: null },
      { id: 'F2', name: 'Sub', parentId: 'F1' },
    ];
    const layout = planLayout({
      folders,
      documents: [
        doc('D1', 'Inbox idea'),
        doc('D2', 'Template A', { location: 'templates' }),
        doc('D3', 'Old', { location: 'trash' }),
        doc('D4', '2026.11.21', { location: 'daily_notes', dailyNoteDate: '2026-11-21' }),
        doc('D5', 'Roadmap', { location: 'folder', folderId: 'F1' }),
        doc('D6', 'Deep', { location: 'folder', folderId: 'F2' }),
      ],
    });
    expect(Object.fromEntries(layout.documents)).toEqual({
      D1: 'Unsorted/Inbox idea.md',
      D2: 'Templates/Template A.md',
      D3: 'Trash/Old.md',
      D4: 'Daily Notes/2026-11-21.md',
      D5: 'Projects/Roadmap.md',
      D6: 'Projects/Sub/Deep.md',
    });
    expect(Object.fromEntries(layout.folders)).toEqual({ F1: 'Projects', F2: 'Projects/Sub' });
  });

  it('never merges a user folder into a built-in directory', () => {
    const layout = planLayout({
      folders: [
        { id: 'ABCDEF1234', name: 'trash', parentId: null },
        { id: 'X2', name: 'Daily Notes', parentId: null },
        { id: 'X3', name: '.spacesync', parentId: null },
      ],
      documents: [doc('D1', 'A', { location: 'folder', folderId: 'ABCDEF1234' })],
    });
    expect(layout.folders.get('ABCDEF1234')).toBe('trash (ABCDEF12)');
    expect(layout.folders.get('X2')).toBe('Daily Notes (X2)');
    expect(layout.folders.get('X3')).toBe('_spacesync');
    expect(layout.documents.get('D1')).toBe('trash (ABCDEF12)/A.md');
  });

  it("gives a folder named like a document's assets folder its id's suffix: the mirror ignores such directories", () => {
    const layout = planLayout({
      folders: [
        { id: 'ABCDEF1234', name: 'Roadmap.assets', parentId: null },
        { id: 'X2', name: 'Inner.assets', parentId: 'ABCDEF1234' },
      ],
      documents: [doc('D1', 'Kept', { location: 'folder', folderId: 'X2' })],
    });
    expect(layout.folders.get('ABCDEF1234')).toBe('Roadmap.assets (ABCDEF12)');
    expect(layout.folders.get('X2')).toBe('Roadmap.assets (ABCDEF12)/Inner.assets (X2)');
    expect(layout.documents.get('D1')).toBe('Roadmap.assets (ABCDEF12)/Inner.assets (X2)/Kept.md');
    expect(isBuiltinIgnored('Roadmap.assets (ABCDEF12)')).toBe(false);
  });

  it('gives colliding names a stable id suffix, the oldest document keeping the plain name', () => {
    const docs = [
      doc('bbbbbbbb-2', 'Notes', { createdAt: '2026-02-01T00:00:00Z' }),
      doc('aaaaaaaa-1', 'notes', { createdAt: '2026-01-01T00:00:00Z' }),
      doc('cccccccc-3', 'Note\u0073', { createdAt: '2026-03-01T00:00:00Z' }),
    ];
    const layout = planLayout({ folders: [], documents: docs });
    expect(layout.documents.get('aaaaaaaa-1')).toBe('Unsorted/notes.md');
    expect(layout.documents.get('bbbbbbbb-2')).toBe('Unsorted/Notes (bbbbbbbb).md');
    expect(layout.documents.get('cccccccc-3')).toBe('Unsorted/Notes (cccccccc).md');
  });

  it('collides NFC and NFD spellings of one title', () => {
    const layout = planLayout({ folders: [], documents: [doc('A1', 'Caf\u00e9', { createdAt: '1' }), doc('B2', 'Cafe\u0301', { createdAt: '2' })] });
    expect(layout.documents.get('A1')).toBe('Unsorted/Café.md');
    expect(layout.documents.get('B2')).toBe('Unsorted/Café (B2).md');
  });

  it('falls back to the whole id when two short suffixes collide', () => {
    const layout = planLayout({
      folders: [],
      documents: [doc('SAME0000-a', 'T', { createdAt: '1' }), doc('SAME0000-b', 'T', { createdAt: '2' }), doc('SAME0000-c', 'T', { createdAt: '3' })],
    });
    expect([...layout.documents.values()]).toEqual(['Unsorted/T.md', 'Unsorted/T (SAME0000).md', 'Unsorted/T (SAME0000-c).md']);
  });

  it('does not let a document shadow a folder of the same name', () => {
    const layout = planLayout({
      folders: [
        { id: 'P', name: 'Projects', parentId: null },
        { id: 'S', name: 'Plan.md', parentId: 'P' },
      ],
      documents: [doc('DOC12345', 'Plan', { location: 'folder', folderId: 'P' })],
    });
    expect(layout.documents.get('DOC12345')).toBe('Projects/Plan (DOC12345).md');
  });

  it('treats unknown and cyclic folders safely', () => {
    const layout = planLayout({
      folders: [
        { id: 'A', name: 'A', parentId: 'B' },
        { id: 'B', name: 'B', parentId: 'A' },
        { id: 'C', name: 'C', parentId: 'nope' },
      ],
      documents: [doc('D', 'x', { location: 'folder', folderId: 'missing' })],
    });
    expect(layout.folders.get('A')).toBe('A');
    expect(layout.folders.get('B')).toBe('B');
    expect(layout.folders.get('C')).toBe('C');
    expect(layout.documents.get('D')).toBe('Unsorted/x.md');
  });

  it('names a daily note without a usable date by its title', () => {
    const layout = planLayout({ folders: [], documents: [doc('D', '2026.11.21', { location: 'daily_notes' })] });
    expect(layout.documents.get('D')).toBe('Daily Notes/2026.11.21.md');
  });

  it('a document appearing later does not rename an existing file', () => {
    const before = planLayout({ folders: [], documents: [doc('OLD', 'Plan', { createdAt: '2026-01-01' })] });
    const after = planLayout({ folders: [], documents: [doc('OLD', 'Plan', { createdAt: '2026-01-01' }), doc('NEW', 'plan', { createdAt: '2026-05-01' })] });
    expect(after.documents.get('OLD')).toBe(before.documents.get('OLD'));
    expect(after.documents.get('NEW')).toBe('Unsorted/plan (NEW).md');
  });
});

describe('planLayout properties', () => {
  const titles = fc.constantFrom('Plan', 'plan', 'PLAN', 'Caf\u00e9', 'Cafe\u0301', '', 'a/b', 'CON', 'Notes', 'Plan (x)', '.x', 'Projects');
  const space = fc
    .record({
      folders: fc.uniqueArray(fc.record({ id: fc.stringMatching(/^[A-Z0-9]{1,10}$/), name: titles, parent: fc.nat(5) }), {
        selector: (f) => f.id,
        maxLength: 6,
      }),
      documents: fc.uniqueArray(
        fc.record({
          id: fc.stringMatching(/^[A-Za-z0-9-]{1,12}$/),
          title: titles,
          where: fc.constantFrom('unsorted', 'templates', 'trash', 'daily_notes', 'folder'),
          folder: fc.nat(5),
          created: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
        }),
        { selector: (d) => d.id, maxLength: 25 },
      ),
    })
    .map(({ folders, documents }) => {
      const fs: LayoutFolder[] = folders.map((f, i) => ({ id: f.id, name: f.name, parentId: i > 0 && f.parent < i ? folders[f.parent]!.id : null }));
      const ds: LayoutDocument[] = documents.map((d) => ({
        id: d.id,
        title: d.title,
        location: d.where as LayoutDocument['location'],
        folderId: fs.length ? fs[d.folder % fs.length]!.id : null,
        dailyNoteDate: d.where === 'daily_notes' ? `2026-01-0${d.folder + 1}` : null,
        createdAt: d.created === undefined ? undefined : `2026-01-0${d.created}`,
      }));
      return { folders: fs, documents: ds };
    });

  it('gives every document and folder a unique path, also case-insensitively', () => {
    fc.assert(
      fc.property(space, (input) => {
        const layout = planLayout(input);
        const all = [...layout.documents.values(), ...layout.folders.values()].map(collisionKey);
        expect(new Set(all).size).toBe(all.length);
        expect(layout.documents.size).toBe(input.documents.length);
        for (const p of layout.documents.values()) expect(p.endsWith('.md')).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('does not depend on the order the service lists things in', () => {
    fc.assert(
      fc.property(space, fc.infiniteStream(fc.nat()), (input, rnd) => {
        const shuffle = <T>(a: readonly T[]) =>
          a
            .map((x) => [rnd.next().value, x] as const)
            .sort((p, q) => p[0] - q[0])
            .map(([, x]) => x);
        const a = planLayout(input);
        const b = planLayout({ folders: shuffle(input.folders), documents: shuffle(input.documents) });
        expect(b.documents).toEqual(a.documents);
        expect(b.folders).toEqual(a.folders);
      }),
      { numRuns: 200 },
    );
  });

  it('is idempotent: the titles read back from the paths (and front matter) give the same layout', () => {
    fc.assert(
      fc.property(space, (input) => {
        const a = planLayout(input);
        const readBack = input.documents.map((d) => {
          const path = a.documents.get(d.id)!;
          const title = needsTitle(d.title, path) ? d.title : path.slice(path.lastIndexOf('/') + 1, -3);
          return { ...d, title: d.location === 'daily_notes' ? d.title : title };
        });
        expect(planLayout({ folders: input.folders, documents: readBack }).documents).toEqual(a.documents);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps existing paths when a newer document arrives (listings carry createdAt)', () => {
    fc.assert(
      fc.property(space, titles, (space0, title) => {
        const input = { ...space0, documents: space0.documents.map((d) => ({ ...d, createdAt: d.createdAt ?? '2026-01-09' })) };
        const a = planLayout(input);
        const withNew = planLayout({ ...input, documents: [...input.documents, { id: 'zzzzNEW', title, location: 'unsorted', createdAt: '2027-01-01' }] });
        for (const [id, p] of a.documents) expect(withNew.documents.get(id)).toBe(p);
      }),
      { numRuns: 200 },
    );
  });
});

describe('needsTitle and locationOfDir', () => {
  it('asks for a title only when the file name cannot carry it', () => {
    expect(needsTitle('Roadmap', 'Projects/Roadmap.md')).toBe(false);
    expect(needsTitle('a/b', 'Projects/a_b.md')).toBe(true);
    expect(needsTitle('Roadmap', 'Projects/Roadmap (ABC).md')).toBe(true);
    expect(needsTitle('2026.11.21', 'Daily Notes/2026-11-21.md')).toBe(false);
  });

  it('maps directories back to locations', () => {
    const folders = new Map([['F1', 'Projects']]);
    expect(locationOfDir('Unsorted', folders)).toEqual({ location: 'unsorted' });
    expect(locationOfDir('Trash', folders)).toEqual({ location: 'trash' });
    expect(locationOfDir('Projects', folders)).toEqual({ location: 'folder', folderId: 'F1' });
    expect(locationOfDir('Elsewhere', folders)).toBeUndefined();
    expect(dirOfPath('Daily Notes/2026-01-01.md')).toBe('Daily Notes');
  });
});

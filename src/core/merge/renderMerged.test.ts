import { describe, expect, it } from 'vitest';
import { hashBlock } from './hashBlock.js';
import type { BaseBlock, RemoteBlock } from '../types.js';
import type { Block } from '../../dialect/index.js';
import { alignFile } from './alignFile.js';
import { mergeFile } from './mergeFile.js';
import { parseLocalDocument } from '../../sync/documents/push/readLocalDocument.js';
import { renderMerged } from './renderMerged.js';

const block = (id: string, markdown: string, position: number, parentId: string | null = null, kind: BaseBlock['kind'] = 'block'): RemoteBlock => ({
  id,
  parentId,
  position,
  level: 0,
  kind,
  type: kind === 'block' ? 'text' : 'page',
  markdown,
});
const based = (rs: RemoteBlock[]): BaseBlock[] => rs.map((r) => ({ ...r, hash: hashBlock(r.markdown, r.kind) }));
const byId = (rs: RemoteBlock[]) =>
  new Map(
    rs.map((r): [string, Block] => [
      r.id,
      { id: r.id, type: r.type as Block['type'], markdown: r.markdown, ...(r.markdown.startsWith('- ') ? { listStyle: 'bullet' as const } : {}) },
    ]),
  );

function merged(baseBlocks: RemoteBlock[], text: string, remote: RemoteBlock[]): string {
  const local = parseLocalDocument('Note.md', text, 'h');
  const m = mergeFile(based(baseBlocks), local, remote);
  return renderMerged(local, m.merge.nodes, byId(remote));
}

const BASE = [block('A', 'alpha', 0), block('B', 'beta', 1), block('C', 'gamma', 2)];

describe('renderMerged', () => {
  it("rewrites only the range of a block the service changed, keeping every other byte (odd spacing, the user's emphasis)", () => {
    const text = '---\nid: D\nmine: kept\n---\nalpha _here_\n\n\nbeta\n\ngamma  \n';
    const out = merged([block('A', 'alpha *here*', 0), BASE[1]!, block('C', 'gamma  ', 2)], text, [
      block('A', 'alpha *here*', 0),
      block('B', 'beta, from the app', 1),
      block('C', 'gamma  ', 2),
    ]);
    expect(out).toBe('---\nid: D\nmine: kept\n---\nalpha _here_\n\n\nbeta, from the app\n\ngamma  \n');
  });

  it("when the shape changes, keeps the untouched top-level blocks verbatim and renders the service's new one", () => {
    const text = 'alpha _here_\n\nbeta\n\ngamma\n';
    const base = [block('A', 'alpha *here*', 0), BASE[1]!, BASE[2]!];
    const out = merged(base, text, [block('A', 'alpha *here*', 0), block('N', '- new from the app', 1), BASE[1]!, BASE[2]!]);
    expect(out).toBe('alpha _here_\n\n- new from the app\n\nbeta\n\ngamma\n');
  });

  it('keeps the separators between blocks it keeps verbatim (extra blank lines the user left)', () => {
    const text = 'alpha\n\n\nbeta\n\ngamma\n';
    const out = merged(BASE, text, [...BASE, block('N', 'new at the end', 3)]);
    expect(out).toBe('alpha\n\n\nbeta\n\ngamma\n\nnew at the end\n');
  });

  it("keeps the file's CRLF line endings when it renders", () => {
    const text = 'alpha\r\n\r\nbeta\r\n\r\ngamma\r\n';
    const out = merged(BASE, text, [BASE[0]!, BASE[1]!, block('N', 'new', 2), BASE[2]!]);
    expect(out).toBe('alpha\r\n\r\nbeta\r\n\r\nnew\r\n\r\ngamma\r\n');
  });

  it('keeps consecutive list items on consecutive lines', () => {
    const base = [block('A', '- one', 0), block('B', '- two', 1)];
    const out = merged(base, '- one\n- two\n', [...base, block('C', '- three', 2)]);
    expect(out).toBe('- one\n- two\n- three\n');
  });

  it('writes a block the service added inside a page', () => {
    const base = [block('P', 'Page', 0, null, 'page'), block('X', 'inside', 0, 'P')];
    const text = '<page>\n<pageTitle>Page</pageTitle>\n<content>\ninside\n</content>\n</page>\n';
    const out = merged(base, text, [...base, block('Y', 'also inside', 1, 'P')]);
    expect(parseLocalDocument('x', out, 'h').segments[0]!.children.map((s) => s.markdown)).toEqual(['inside', 'also inside']);
  });

  it('gives an empty body when the merge leaves no block', () => {
    expect(merged(BASE, '---\nid: D\n---\nalpha\n\nbeta\n\ngamma\n', [])).toBe('---\nid: D\n---\n');
  });
});

describe('alignFile', () => {
  it('rewrites a block whose recorded markdown the file does not say (the service normalised it), and nothing else', () => {
    const base = based([block('A', 'alpha', 0), block('B', 'beta as the service keeps it', 1)]);
    expect(alignFile('alpha\n\n\nbeta\n', base)).toEqual({ text: 'alpha\n\n\nbeta as the service keeps it\n', aligned: true });
  });
  it('leaves forms that compare equal as they are', () => {
    const base = based([block('A', 'alpha *x*', 0), block('B', '*****', 1)]);
    expect(alignFile('alpha _x_\n\n---\n', base)).toEqual({ text: 'alpha _x_\n\n---\n', aligned: true });
  });
  it('says so when the file holds other blocks than the base (changes held back)', () => {
    const base = based([block('A', 'alpha', 0)]);
    expect(alignFile('alpha\n\nnot sent\n', base).aligned).toBe(false);
  });
});

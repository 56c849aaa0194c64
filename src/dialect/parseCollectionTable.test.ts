import { describe, expect, it } from 'vitest';
import { parseCollectionTable, splitRow, cellValue } from './parseCollectionTable.js';
import { isSpacesyncError } from '../errors.js';

const table = (...lines: string[]) => ['<collection name="T">', '', ...lines, '', '</collection>'].join('\n');

function problem(md: string): string {
  try {
    parseCollectionTable(md);
  } catch (e) {
    if (isSpacesyncError(e, 'collection_table')) return e.message;
    throw e;
  }
  return 'no error';
}

describe('parseCollectionTable', () => {
  it('reads rows an editor wrote without the outer pipes or with fewer cells', () => {
    const t = parseCollectionTable(table('| title | a | b |', '|---|:-:|---|', 'x | 1 | 2', '| y |'));
    expect(t).toEqual({
      name: 'T',
      keys: ['a', 'b'],
      rows: [
        ['x', '1', '2'],
        ['y', '', ''],
      ],
      rest: '',
    });
  });

  it('keeps escaped pipes inside a cell and an escaped backslash before a separator', () => {
    expect(splitRow('| a \\| b | c\\\\| d |')).toEqual(['a \\| b', 'c\\\\', 'd']);
    expect(splitRow('|  |  |')).toEqual(['', '']);
  });

  it('refuses a table it cannot read, naming the line and what to do', () => {
    expect(problem(table('| title | a |', '| --- | --- |', '| x | 1 | 2 |'))).toMatch(
      /^line 5 of the collection: the row has 3 cells and the header 2\. Write a \| inside a value as \\\|/,
    );
    expect(problem(table('| name | a |', '| --- | --- |'))).toMatch(/first column is "name", not title/);
    expect(problem(table('| title | a |', '| x | y |'))).toMatch(/not a delimiter row/);
    expect(problem(table('| title | a |', '| --- | --- |', 'text'))).toMatch(/has no \|/);
    expect(problem('<collection name="T">\n\n| title |\n| --- |\n')).toMatch(/not closed/);
  });

  it('gives what follows the table (item content) as the rest', () => {
    expect(parseCollectionTable(table('| title |', '| --- |', '| x |', '', '<collectionItem>', '</collectionItem>')).rest).toBe(
      '<collectionItem>\n</collectionItem>',
    );
  });
});

describe('cellValue', () => {
  it('refuses a value its property type cannot hold, saying what to write', () => {
    expect(cellValue('soon', 'date', 'due')).toEqual({ problem: 'due is a date property: write the day as YYYY-MM-DD (not "soon")' });
    expect(cellValue('many', 'number', 'pages')).toMatchObject({ problem: expect.stringMatching(/not a number/) });
    expect(cellValue('yes', 'checkbox', 'owned')).toMatchObject({ problem: expect.stringMatching(/true or false/) });
    expect(cellValue('x', 'relation', 'link')).toMatchObject({ problem: expect.stringMatching(/change it in the app/) });
  });

  it('reads an empty cell as no value, whatever the type', () => {
    for (const t of [undefined, 'text', 'date', 'number', 'multiSelect']) expect(cellValue('  ', t, 'k')).toEqual({ value: null });
  });
});

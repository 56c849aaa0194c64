// A collection's table as the file states it (renderCollectionTable's form, edited): the name, the
// header's keys, each row's cells as their raw text (escapes kept: cellValue reads them by type),
// and what follows the table (the items' read-only content). A table that cannot be read is a
// `collection_table` error naming the line within the collection and what to do.
import { SpacesyncError } from '../errors.js';
import { isDelimiterRow } from './lineKind.js';
import { TITLE_COLUMN } from './renderCollectionTable.js';

export interface CollectionTable {
  name: string;
  /** The property keys of the header, without the title column. */
  keys: string[];
  /** One entry per row: the title cell first, then one cell per key (missing cells are ''). */
  rows: string[][];
  /** The lines after the table, up to `</collection>`, trimmed. */
  rest: string;
}

const OPEN = /^<collection(?:[ \t]+name="([^"]*)")?[ \t]*>[ \t]*$/;
const unattr = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

function tableError(line: number, problem: string, fix: string): SpacesyncError {
  return new SpacesyncError('collection_table', `line ${line} of the collection: ${problem}. ${fix}`, { details: { line } });
}

/** The cells of one table row, split on the pipes that are not escaped, each trimmed. */
export function splitRow(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  const cells: string[] = [];
  let cur = '';
  let afterPipe = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    afterPipe = false;
    if (c === '\\' && i + 1 < s.length) {
      cur += c + s[i + 1]!;
      i++;
    } else if (c === '|') {
      cells.push(cur.trim());
      cur = '';
      afterPipe = true;
    } else cur += c;
  }
  if (cur.trim() !== '' || !afterPipe) cells.push(cur.trim());
  return cells;
}

export function parseCollectionTable(markdown: string): CollectionTable {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const open = OPEN.exec(lines[0]?.trim() ?? '');
  if (!open) throw tableError(1, 'the first line is not <collection name="…">', 'Keep the opening line as the sync wrote it');
  let last = lines.length - 1;
  while (last > 0 && lines[last]!.trim() === '') last--;
  if (lines[last]!.trim() !== '</collection>') throw tableError(last + 1, 'the collection is not closed', 'End it with </collection> on its own line');
  let i = 1;
  while (i < last && lines[i]!.trim() === '') i++;
  if (i >= last || !lines[i]!.includes('|'))
    throw tableError(i + 1, 'there is no header row', `Keep the header row (| ${TITLE_COLUMN} | …) as the sync wrote it`);
  const header = splitRow(lines[i]!);
  if (header[0] !== TITLE_COLUMN)
    throw tableError(i + 1, `the first column is "${header[0] ?? ''}", not ${TITLE_COLUMN}`, `Keep ${TITLE_COLUMN} as the first column`);
  i++;
  if (i >= last || !isDelimiterRow(lines[i]!.trim()) || splitRow(lines[i]!).length !== header.length)
    throw tableError(i + 1, 'the line under the header is not a delimiter row with one cell per column', 'Write | --- | under the header, once per column');
  i++;
  const rows: string[][] = [];
  for (; i < last && lines[i]!.trim() !== ''; i++) {
    const line = lines[i]!;
    if (!line.includes('|')) throw tableError(i + 1, 'a line in the table has no |', 'Separate the cells of every row with | (a blank line ends the table)');
    const cells = splitRow(line);
    if (cells.length > header.length)
      throw tableError(
        i + 1,
        `the row has ${cells.length} cells and the header ${header.length}`,
        'Write a | inside a value as \\|, or remove the extra cells',
      );
    while (cells.length < header.length) cells.push('');
    rows.push(cells);
  }
  return { name: unattr(open[1] ?? ''), keys: header.slice(1), rows, rest: lines.slice(i, last).join('\n').trim() };
}

// A table cell's text read back into the property value a collection item request sends, by the
// property's type (the schema's). The inverse of cellText: cellText(cellValue(t).value) === t for
// every cell cellText writes. An empty cell is no value (null clears it).
export type CellValue = { value: unknown } | { problem: string };

const SELECT = new Set(['select', 'singleSelect']);
const MULTI = new Set(['multiSelect', 'multi_select', 'multiselect']);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Undoes cellText's escapes. */
export function unescapeCell(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length) {
      const n = raw[i + 1]!;
      if (n === '\\' || n === '|' || n === '<' || n === ',') {
        out += n;
        i++;
        continue;
      }
    }
    if (c === '<' && raw.startsWith('<br>', i)) {
      out += '\n';
      i += 3;
      continue;
    }
    out += c;
  }
  return out;
}

function splitList(raw: string): string[] {
  const parts: string[] = [];
  let cur = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length) {
      cur += c + raw[i + 1]!;
      i++;
    } else if (c === ',') {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  parts.push(cur);
  return parts.map((p) => unescapeCell(p.trim())).filter((p) => p !== '');
}

/** The value of cell text `raw` for a property of `type` (undefined type: the title, a string). */
export function cellValue(raw: string, type: string | undefined, name: string): CellValue {
  const text = raw.trim();
  if (text === '') return { value: null };
  if (type === undefined || type === 'text' || SELECT.has(type)) return { value: unescapeCell(text) };
  if (MULTI.has(type)) return { value: splitList(text) };
  if (type === 'date') {
    return DATE.test(text) ? { value: text } : { problem: `${name} is a date property: write the day as YYYY-MM-DD (not "${text}")` };
  }
  if (type === 'number') {
    const n = Number(text);
    return text !== '' && Number.isFinite(n) ? { value: n } : { problem: `${name} is a number property: "${text}" is not a number` };
  }
  if (type === 'checkbox') {
    if (text === 'true' || text === 'false') return { value: text === 'true' };
    return { problem: `${name} is a checkbox property: write true or false (not "${text}")` };
  }
  return { problem: `${name} is a ${type} property, a type spacesync does not write: change it in the app` };
}

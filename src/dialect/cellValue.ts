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

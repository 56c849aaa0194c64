// One property value of a collection item as the text of a table cell (the file's form). The cell
// is written without knowing the property's type: a string as itself, a number or a boolean as
// JSON writes it, a list (multi-select) as its entries joined by ", ", nothing as an empty cell.
// Escapes keep a cell one cell on one line: `\` → `\\`, `|` → `\|`, a line break → `<br>`, a
// literal `<br>` → `\<br>`, and inside a list entry `,` → `\,`. cellValue reads them back.

const escapeText = (s: string): string =>
  s
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/<br>/g, '\\<br>')
    .replace(/\r\n|\r|\n/g, '<br>');

export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return escapeText(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? escapeText(v).replace(/,/g, '\\,') : cellText(v))).join(', ');
  return escapeText(JSON.stringify(value));
}

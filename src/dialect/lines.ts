// Splits text into lines with offsets, the unit the dialect's scanner works in.

/** One line: its content is `text.slice(s, e)` (no line ending); the next line starts at `n`. */
export interface Line {
  s: number;
  e: number;
  n: number;
}

/** Lines of `text` from `from` on. A final line ending opens no extra empty line; a lone `\r` is content. */
export function makeLines(text: string, from = 0): Line[] {
  const lines: Line[] = [];
  let pos = from;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    if (nl < 0) {
      lines.push({ s: pos, e: text.length, n: text.length });
      break;
    }
    lines.push({ s: pos, e: nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl, n: nl + 1 });
    pos = nl + 1;
  }
  return lines;
}

/** Skips at most `cols` columns of leading spaces and tabs (a tab is 4 columns) from `s`. */
export function skipColumns(text: string, s: number, e: number, cols: number): number {
  let p = s;
  let c = 0;
  while (p < e && c < cols) {
    const ch = text.charCodeAt(p);
    if (ch === 32) c += 1;
    else if (ch === 9) {
      if (c + 4 > cols) break;
      c += 4;
    } else break;
    p++;
  }
  return p;
}

/** The position of the first character that is not a space or tab, and the columns before it. */
export function leading(text: string, s: number, e: number): { p: number; cols: number } {
  let p = s;
  let cols = 0;
  while (p < e) {
    const ch = text.charCodeAt(p);
    if (ch === 32) cols += 1;
    else if (ch === 9) cols += 4 - (cols % 4);
    else break;
    p++;
  }
  return { p, cols };
}

/** Indentation level from leading columns: two spaces per level, 0..5. */
export function levelOf(cols: number): number {
  return Math.min(5, cols >> 1);
}

/** Strips up to `cols` leading columns from every line but the first, and turns CRLF into LF. */
export function dedent(slice: string, cols: number): string {
  let out = slice.indexOf('\r') >= 0 ? slice.replace(/\r\n/g, '\n') : slice;
  if (cols > 0 && out.indexOf('\n') >= 0) {
    out = out
      .split('\n')
      .map((l, i) => (i === 0 ? l : l.slice(skipColumns(l, 0, l.length, cols))))
      .join('\n');
  }
  return out;
}

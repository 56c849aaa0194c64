// The link destinations of a markdown text, outside code: what the links between documents and to
// blocks are read from and rewritten in. Code spans and fenced code are copied as they are.

/** A link's destination right after `](`: in angle brackets, or bare (balanced parentheses one deep), then an optional title. */
const DEST = /^(<[^<>\n]*>|(?:[^\s()]|\([^\s()]*\))+)([ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*\)/;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * `text` with each link destination outside code passed through `map` (the destination as written;
 * it returns the new one as written, or the same). Code spans and fenced code are copied as they are.
 */
export function mapDestinations(text: string, map: (dest: string) => string): string {
  if (!text.includes('](')) return text;
  let out = '';
  let fence: string | null = null;
  for (const line of text.split(/(?<=\n)/)) {
    const m = FENCE.exec(line);
    if (fence === null) {
      if (m) fence = m[1]!;
      out += m ? line : mapLine(line, map);
    } else {
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && line.trim() === m[1]) fence = null;
      out += line;
    }
  }
  return out;
}

function mapLine(line: string, map: (dest: string) => string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === '\\') {
      out += line.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === '`') {
      // A code span: the same run of backticks closes it; an unclosed run is text.
      const run = /^`+/.exec(line.slice(i))![0];
      const close = line.indexOf(run, i + run.length);
      let j = close;
      while (j >= 0 && line[j + run.length] === '`') j = line.indexOf(run, j + run.length + 1);
      const stop = j < 0 ? i + run.length : j + run.length;
      out += line.slice(i, stop);
      i = stop;
      continue;
    }
    if (c === ']' && line[i + 1] === '(') {
      const m = DEST.exec(line.slice(i + 2));
      if (m) {
        out += `](${map(m[1]!)}${line.slice(i + 2 + m[1]!.length, i + 2 + m[0].length)}`;
        i += 2 + m[0].length;
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}

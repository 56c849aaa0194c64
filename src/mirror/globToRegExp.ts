// Compiles one ignore glob to an anchored RegExp over a posix path: `*` and `?` stay inside one
// name, `**` spans folders, `[a-z]`/`[!a-z]` are classes, `\` escapes. Written here, not imported.

const SPECIAL = /[.+^${}()|[\]\\/*?]/g;
const escapeChar = (c: string) => c.replace(SPECIAL, '\\$&');

/** Reads a class starting at glob[i] === '['; returns its source and the index after `]`, or null if unclosed. */
function readClass(glob: string, i: number): { source: string; next: number } | null {
  let j = i + 1;
  let negate = false;
  if (glob[j] === '!' || glob[j] === '^') {
    negate = true;
    j++;
  }
  let body = '';
  let first = true;
  for (; j < glob.length; j++) {
    const c = glob[j]!;
    if (c === ']' && !first) {
      // A class never matches the separator, negated or not.
      return { source: negate ? `[^/${body}]` : `(?![/])[${body}]`, next: j + 1 };
    }
    first = false;
    if (c === '\\' && j + 1 < glob.length) {
      body += `\\${glob[++j]!}`;
    } else if (c === '-') {
      body += '-';
    } else {
      body += c === ']' || c === '\\' || c === '^' || c === '[' ? `\\${c}` : c;
    }
  }
  return null;
}

export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const after = glob[i + 2];
        if (atStart && after === '/') {
          re += '(?:[^/]*/)*'; // `**/`: zero or more folders
          i += 2;
          continue;
        }
        if (atStart && after === undefined) {
          re += '.*'; // a trailing `**`: everything below
          i += 1;
          continue;
        }
        i += 1; // `**` inside a name acts as `*`
      }
      re += '[^/]*';
    } else if (c === '?') {
      re += '[^/]';
    } else if (c === '[') {
      const cls = readClass(glob, i);
      if (cls) {
        re += cls.source;
        i = cls.next - 1;
      } else {
        re += '\\[';
      }
    } else if (c === '\\' && i + 1 < glob.length) {
      re += escapeChar(glob[++i]!);
    } else {
      re += escapeChar(c);
    }
  }
  return new RegExp(`^${re}$`, 's');
}

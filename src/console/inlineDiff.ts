// What changed inside one block, word by word (jsdiff), for the console's views: the text of the
// newer version cut into runs that stayed, were inserted or were deleted.
import { diffWordsWithSpace } from 'diff';

export interface Run {
  text: string;
  op: 'same' | 'ins' | 'del';
}

/** Beyond this many edits two texts are shown as one replaced by the other (a diff that long says nothing). */
const MAX_EDITS = 400;

/** The runs from `before` to `after`: what stayed, what `after` inserted, what it deleted of `before`. */
export function inlineDiff(before: string, after: string): Run[] {
  if (before === after) return before === '' ? [] : [{ text: before, op: 'same' }];
  const changes = diffWordsWithSpace(before, after, { maxEditLength: MAX_EDITS });
  if (!changes) return [...(before ? [{ text: before, op: 'del' as const }] : []), ...(after ? [{ text: after, op: 'ins' as const }] : [])];
  const runs: Run[] = [];
  for (const c of changes) {
    const op = c.added ? 'ins' : c.removed ? 'del' : 'same';
    const last = runs.at(-1);
    if (last && last.op === op) last.text += c.value;
    else runs.push({ text: c.value, op });
  }
  return runs;
}

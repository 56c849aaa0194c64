// Front matter: YAML between `---` lines at the very start of a file. Never throws.
import { parse as parseYaml } from 'yaml';
import type { FileSegments } from './types.js';

const OPEN = /^(?:\uFEFF)?---[ \t]*\r?\n/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/gm;

/** The front matter of `text`, or null when the file does not start with a closed `---` block. */
export function frontMatter(text: string): FileSegments['frontMatter'] {
  const open = OPEN.exec(text);
  if (!open) return null;
  CLOSE.lastIndex = open[0].length;
  const close = CLOSE.exec(text);
  if (!close) return null;
  const end = close.index + close[0].length;
  const raw = text.slice(0, end);
  const yaml = text.slice(open[0].length, close.index);
  try {
    const data: unknown = yaml.trim() === '' ? {} : parseYaml(yaml);
    if (data === null || typeof data !== 'object' || Array.isArray(data)) {
      return { raw, start: 0, end, error: 'The front matter is not a list of `key: value` pairs; keep `id: …` on a line of its own.' };
    }
    return { raw, start: 0, end, data: data as Record<string, unknown> };
  } catch (e) {
    const reason = (e as Error).message.split('\n')[0] ?? 'unreadable YAML';
    return { raw, start: 0, end, error: `The front matter is not valid YAML (${reason}); fix it so the file keeps its document id.` };
  }
}

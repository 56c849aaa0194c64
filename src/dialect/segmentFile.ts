// Cuts a mirror file into front matter and block segments with their exact ranges. Never throws:
// text that is not well-formed dialect still lands in segments, and the slices give the file back.
import type { FileSegments, Segment } from './types.js';
import { scanBlocks, type ScanNode } from './scanBlocks.js';
import { parse as parseYaml } from 'yaml';

// Front matter: YAML between `---` lines at the very start of a file. Never throws.
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

function toSegment(text: string, n: ScanNode, depth: number): Segment {
  const seg: Segment = {
    start: n.start,
    end: n.end,
    text: text.slice(n.start, n.end),
    markdown: n.markdown,
    kind: n.kind,
    depth,
    level: n.level,
    indent: n.base,
    children: [],
  };
  if (n.attrs) seg.attrs = n.attrs;
  if (n.inCallout) seg.inCallout = true;
  if (n.kind === 'page' || n.kind === 'card') {
    const children = n.children ?? [];
    seg.children = children.map((c) => toSegment(text, c, depth + 1));
    const openEnd = n.openEnd ?? n.start;
    const closeStart = n.closeStart ?? n.end;
    seg.open = text.slice(n.start, openEnd);
    seg.close = text.slice(closeStart, n.end);
    seg.separators = separators(text, children, openEnd, closeStart);
  }
  return seg;
}

function separators(text: string, nodes: readonly ScanNode[], from: number, to: number): string[] {
  const out: string[] = [];
  let prev = from;
  for (const n of nodes) {
    out.push(text.slice(prev, n.start));
    prev = n.end;
  }
  out.push(text.slice(prev, to));
  return out;
}

export function segmentFile(text: string): FileSegments {
  const fm = frontMatter(text);
  // A UTF-8 byte-order mark is no text of the first block: it stays before it, byte for byte.
  const bodyStart = fm ? fm.end : text.startsWith('\uFEFF') ? 1 : 0;
  const nodes = scanBlocks(text, false, bodyStart);
  return {
    frontMatter: fm,
    segments: nodes.map((n) => toSegment(text, n, 0)),
    separators: separators(text, nodes, bodyStart, text.length),
  };
}

// The file's new text after a merge: the blocks the merge took from the service are written into
// it, the user's own blocks keep their exact bytes. When the shape is unchanged only the changed
// blocks' ranges are rewritten; otherwise top-level blocks nobody changed are kept verbatim and
// the rest is rendered in the service's markdown.
import { sameContent } from './blockContent.js';
import type { MergedNode } from './merge.js';
import {
  markdownEquals,
  parseBlockMarkdown,
  renderFileBody,
  replaceSegment,
  segmentFile,
  withTaskDates,
  type Block,
  type Segment,
} from '../../dialect/index.js';
import { frontMatterParts } from '../files/fileText.js';
import type { LocalDocument } from '../types.js';

const flattenSegs = (segs: readonly Segment[]): Segment[] => segs.flatMap((s) => [s, ...flattenSegs(s.children)]);
const flattenNodes = (nodes: readonly MergedNode[], depth = 0): Array<{ n: MergedNode; depth: number }> =>
  nodes.flatMap((n) => [{ n, depth }, ...flattenNodes(n.children, depth + 1)]);

/** The markdown the file should show for a block. */
export function shownMarkdown(n: MergedNode): string {
  return n.source === 'local' && n.local ? n.local.markdown : n.markdown;
}

/** A block object the dialect's renderer takes, for a merged node (the service's own block when it has one). */
export function blockOfNode(n: MergedNode, remoteBlocks: ReadonlyMap<string, Block>): Block {
  const md = shownMarkdown(n);
  const seg = n.local as Partial<Segment> | undefined;
  const own = n.id !== null ? remoteBlocks.get(n.id) : undefined;
  if (n.kind === 'page' || n.kind === 'card') {
    const b: Block = { id: n.id ?? '', type: 'page', markdown: md, content: n.children.map((c) => blockOfNode(c, remoteBlocks)) };
    if (n.kind === 'card') b.textStyle = 'card';
    const layout = seg?.attrs?.cardLayout ?? own?.cardLayout;
    if (n.kind === 'card' && layout) b.cardLayout = layout as Block['cardLayout'];
    const level = seg?.level ?? own?.indentationLevel;
    if (level) b.indentationLevel = level;
    return b;
  }
  if (n.kind === 'readonly') return { ...(own ?? { id: n.id ?? '' }), type: 'collection', markdown: md };
  // The service's block renders its task dates too: it stands for the node only when they are the node's.
  if (own && md === withTaskDates(own.markdown ?? '', own.taskInfo)) return own;
  try {
    const parsed = parseBlockMarkdown(md);
    const b: Block = { id: n.id ?? '', type: parsed.type, markdown: md };
    if (parsed.listStyle) b.listStyle = parsed.listStyle;
    if (parsed.indentationLevel) b.indentationLevel = parsed.indentationLevel;
    return b;
  } catch {
    return { id: n.id ?? '', type: 'text', markdown: md };
  }
}

/** Whether the node (and everything under it) is exactly that segment of the file, unchanged. */
function untouched(n: MergedNode, seg: Segment): boolean {
  if (n.source !== 'local' || n.local !== seg || n.children.length !== seg.children.length) return false;
  return n.children.every((c, i) => untouched(c, seg.children[i]!));
}

function isListItem(b: Block): boolean {
  return b.type !== 'page' && b.listStyle !== undefined && b.listStyle !== 'none';
}

/** Same shape as the file: replace only the changed blocks' ranges. Null when that cannot be done. */
function splice(text: string, segs: readonly Segment[], nodes: readonly MergedNode[]): string | null {
  const flatS = flattenSegs(segs);
  const flatN = flattenNodes(nodes);
  if (flatS.length !== flatN.length) return null;
  for (let i = 0; i < flatS.length; i++) {
    const s = flatS[i]!;
    const { n, depth } = flatN[i]!;
    if (s.kind !== n.kind || s.depth !== depth || s.children.length !== n.children.length) return null;
    if (n.source === 'local' && n.local !== s) return null;
  }
  const todo = flatN.flatMap(({ n }, i) => (n.source === 'remote' && !sameContent(n.type, flatS[i]!.markdown, n.markdown, markdownEquals) ? [i] : []));
  // Each replacement re-reads the file; past a few dozen, rendering is cheaper.
  if (todo.length > 32) return null;
  let out = text;
  for (const i of todo) {
    const { n } = flatN[i]!;
    const current = flattenSegs(segmentFile(out).segments);
    const seg = current[i];
    if (!seg) return null;
    if (seg.markdown === n.markdown) continue;
    const next = replaceSegment(out, seg, n.markdown);
    if (next === null) return null;
    out = next;
  }
  return out;
}

/**
 * The file (its text, and the segments the merge was given) showing the merged blocks, front
 * matter kept byte for byte. Top-level blocks the merge kept from the file unchanged keep their
 * bytes and the separators around them.
 */
export function renderMerged(
  file: Pick<LocalDocument, 'text' | 'segments' | 'separators'>,
  nodes: readonly MergedNode[],
  remoteBlocks: ReadonlyMap<string, Block>,
): string {
  const { text } = file;
  const spliced = file.segments.some((s) => s.inCallout) ? null : splice(text, file.segments, nodes);
  if (spliced !== null) return spliced;

  const bodyStart = frontMatterParts(text)?.end ?? 0;
  const eol = text.slice(bodyStart).includes('\r\n') ? '\r\n' : '\n';
  const fix = (s: string) => (eol === '\n' ? s : s.replace(/\r?\n/g, '\r\n'));
  // Several blocks inside one <callout> share tags kept in the separators: render those whole.
  const verbatimOk = !file.segments.some((s) => s.inCallout);
  const index = new Map(file.segments.map((s, i) => [s, i]));
  if (nodes.length === 0) return text.slice(0, bodyStart);
  let body = '';
  let prev: { index: number | undefined; block: Block } | null = null;
  for (const n of nodes) {
    const block = blockOfNode(n, remoteBlocks);
    const seg = n.local as Segment | undefined;
    const i = verbatimOk && seg && index.has(seg) && untouched(n, seg) ? index.get(seg) : undefined;
    if (prev === null) body += i === 0 ? file.separators[0]! : '';
    else if (i !== undefined && prev.index === i - 1) body += file.separators[i]!;
    else body += fix(isListItem(prev.block) && isListItem(block) ? '\n' : '\n\n');
    body += i !== undefined ? seg!.text : fix(renderFileBody([block]).slice(0, -1));
    prev = { index: i, block };
  }
  const last = prev!.index;
  body += last !== undefined && last === file.segments.length - 1 ? file.separators[last + 1]! : eol;
  return text.slice(0, bodyStart) + body;
}

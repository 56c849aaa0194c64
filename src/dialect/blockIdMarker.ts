// An Obsidian block id at the end of a block (` ^a1b2c3d4`): the mark a mirror file puts on a block
// another file links to (`[t](Roadmap.md#^a1b2c3d4)`), where Obsidian reads it as the block's id. It
// stands last on the block's last line: after a task's dates, before closing `</caption>` and
// `</callout>` tags. One space before the caret; the id is letters, digits and dashes.

/** The trailing marker: its space, the caret and the id, then the closing tags that may follow it. */
const TRAILING = /[ \t]\^([A-Za-z0-9-]+)((?:<\/caption>)?(?:<\/callout>)?)[ \t]*$/;
const CLOSERS = /(?:<\/caption>)?(?:<\/callout>)?[ \t]*$/;

/** The id of the block-id marker `markdown` ends with; undefined when it ends with none. */
export function markerOf(markdown: string): string | undefined {
  return TRAILING.exec(markdown)?.[1];
}

/** `markdown` with ` ^id` at its end (before closing tags); the same when it ends with that marker already. */
export function withMarker(markdown: string, id: string): string {
  if (markerOf(markdown) === id) return markdown;
  const at = CLOSERS.exec(markdown)!.index;
  return `${markdown.slice(0, at)} ^${id}${markdown.slice(at)}`;
}

/** `markdown` without its trailing marker when that marker is ` ^id`; the same otherwise. */
export function withoutMarker(markdown: string, id: string): string {
  const m = TRAILING.exec(markdown);
  if (!m || m[1] !== id) return markdown;
  return markdown.slice(0, m.index) + markdown.slice(m.index + 2 + id.length);
}

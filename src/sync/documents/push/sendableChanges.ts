// The push's changes as the service must get them: links to asset files, documents, days and blocks
// sent back as the service writes them, and the markers the sync put on linked blocks left out.
import type { ChangeSet, NewBlockSpec } from '../../../core/merge/changeSet.js';
import { unlinkAsset } from '../../../core/media/linkAssets.js';
import { holdsDocumentLinks, unlinkMarkdown, type LinkTargets } from '../../../core/links/linkDocuments.js';
import { markdownEquals, markerOf, withoutMarker } from '../../../dialect/index.js';
import { mediaRecordOf, type SyncContext } from '../../context/index.js';

/**
 * The changes as the service must get them: an edited line that links its downloaded asset sends the
 * service's URL instead; a relative link to another document's file (from the file at `path`, or,
 * for a file moved since its links were typed, from where it was: `earlierPaths`) sends `block://<id>`, one to a daily note `date://`, one to
 * a block's anchor `block://<block id>`; the marker the sync put on a block other files link to
 * (`owned`) is never sent. An edit that was only that (a marker taken off, a link written another way)
 * sends nothing: the file gets the block back as the pull shows it.
 */
export function sendableChanges(
  ctx: SyncContext,
  targets: LinkTargets,
  changes: ChangeSet,
  path: string,
  earlierPaths: readonly string[],
  owned: (blockId: string) => ReadonlySet<string>,
): ChangeSet {
  const recordOf = mediaRecordOf(ctx.journal);
  const unlink = (markdown: string) => {
    let out = unlinkMarkdown(markdown, path, targets);
    for (const earlier of earlierPaths) if (earlier !== path) out = unlinkMarkdown(out, earlier, targets);
    return out;
  };
  const spec = (b: NewBlockSpec): NewBlockSpec => {
    const markdown = holdsDocumentLinks(b.type) ? unlink(b.markdown) : b.markdown;
    const children = b.children.map(spec);
    return markdown === b.markdown && children.every((c, i) => c === b.children[i]) ? b : { ...b, markdown, children };
  };
  const unmark = (id: string, markdown: string) => {
    const marker = markerOf(markdown);
    return marker !== undefined && owned(id).has(marker) ? withoutMarker(markdown, marker) : markdown;
  };
  const edits = changes.edits.flatMap((e) => {
    const rec = recordOf(e.id);
    if (rec) return [{ ...e, markdown: unlinkAsset(e.markdown, rec.name, rec.signedUrl) }];
    const markdown = unlink(unmark(e.id, e.markdown));
    // (A card's layout is sent with its title, changed or not.)
    if (e.cardLayout === undefined && markdownEquals(markdown, unlink(unmark(e.id, e.was)))) return [];
    return [markdown === e.markdown ? e : { ...e, markdown }];
  });
  const inserts = changes.inserts.map((run) => {
    const blocks = run.blocks.map(spec);
    return blocks.every((b, i) => b === run.blocks[i]) ? run : { ...run, blocks };
  });
  const same = edits.length === changes.edits.length && edits.every((e, i) => e === changes.edits[i]) && inserts.every((r, i) => r === changes.inserts[i]);
  return same ? changes : { ...changes, edits, inserts };
}

// Before the sync replaces or removes bytes of a file that it did not write itself (a merge with the
// space's changes over the user's edit, a conflict resolution), the old bytes go to
// `.spacesync/versions/<path>/<timestamp>.md.gz` (gzipped) and the journal's history names them, with what
// changed, and with the document's blocks whose fields its lines do not show (a colour…), as the base
// holds them: `spacesync history` lists them, `spacesync restore` writes one back.
import { versionSummary } from '../../core/versions/versionSummary.js';
import { segmentFile, type Segment } from '../../dialect/index.js';
import { isDocumentFile, writeFileAtomic } from '../../mirror/index.js';
import { sentByFields } from '../../core/versions/unshownFields.js';
import { pathExists } from './moveDirectory.js';
import type { SyncContext, SyncSettings } from './SyncContext.js';
import { packVersion, versionFilePath } from './versionsDir.js';

export interface LocalVersionInput {
  /** The document file (relative to the root). */
  path: string;
  docId: string | null;
  /** The bytes about to be replaced (or removed). */
  text: string;
  /** What replaces them; null when the file goes. */
  replacement: string | null;
  /** `merge`, `conflict`, `restore`… */
  cause: string;
}

const flatten = (segs: readonly Segment[]): string[] => segs.flatMap((s) => [s.markdown, ...flatten(s.children)]);
const blocksOf = (text: string | null) => (text === null ? [] : flatten(segmentFile(text).segments));

/** Saves the version; returns its file, or null when history is off (`versions.keepDays` 0). */
export async function saveLocalVersion(
  ctx: Pick<SyncContext, 'root' | 'journal' | 'now'> & { settings: Pick<SyncSettings, 'versions'> },
  v: LocalVersionInput,
): Promise<string | null> {
  if (ctx.settings.versions.keepDays <= 0) return null;
  const at = ctx.now();
  let file = versionFilePath(v.path, at);
  for (let n = 2; await pathExists(ctx.root, file); n++) file = versionFilePath(v.path, at, n);
  const packed = packVersion(v.text);
  await writeFileAtomic(ctx.root, file, packed);
  // The text holds the blocks but for the fields their lines do not show: those the base has are kept with it.
  const unshown = v.docId !== null && isDocumentFile(v.path) ? ctx.journal.getBaseBlocks(v.docId).filter((b) => b.unshown || sentByFields(b.type)) : [];
  ctx.journal.addHistory({
    at: at.toISOString(),
    side: 'local',
    docId: v.docId,
    path: v.path,
    cause: v.cause,
    request: null,
    versionFile: file,
    size: packed.length,
    blocks: unshown.length === 0 ? null : unshown.map(({ hash: _h, cardLayout: _c, ...b }) => b),
    summary: versionSummary(blocksOf(v.text), blocksOf(v.replacement)),
  });
  return file;
}

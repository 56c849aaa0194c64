// Which documents' files differ from what the daemon last wrote or read (by content hash; the stat
// cache only spares reading a file whose stat says it still holds its synced content). A pull leaves those files alone; deciding what to do with them is the merge's work.
// What counts as changed is core/files/localChange's rule, the one the push's scan and `status` apply.
import type { DocumentRecord } from '../../../journal/index.js';
import { readMirrorFile } from '../../../mirror/index.js';
import type { SyncContext } from '../../context/index.js';
import { StatCache } from '../../context/index.js';
import type { LocalChange } from '../../../core/pull/PullPlan.js';
import { changeOfRecordedFile, pullChangeOf, readingOf } from '../../../core/files/localChange.js';

export type { LocalChange } from '../../../core/pull/PullPlan.js';

/**
 * Hashes the files of the given documents (every document with a recorded file when omitted) and
 * returns those whose file changed or is gone. Documents with no file recorded yet are skipped.
 */
export async function detectLocalChanges(ctx: SyncContext, records?: readonly DocumentRecord[]): Promise<Map<string, LocalChange>> {
  const changes = new Map<string, LocalChange>();
  const list = (records ?? ctx.journal.listDocuments()).filter((r) => r.fileHash !== null);
  const cache = StatCache.open(ctx);
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const r = list[next++]!;
      if (await cache.holds(r.path, r.fileHash!)) continue;
      const file = await readMirrorFile(ctx.root, r.path);
      if (file) cache.read(r.path, file.hash);
      const reading = file === null ? null : readingOf(file.hash, file.text, r.fileHash, `"${r.path}"`);
      // Whether a named id is known does not matter here: the pull leaves an edited file and one
      // that became another document's alike.
      const change = pullChangeOf(changeOfRecordedFile(r, reading, () => false));
      if (change) changes.set(r.id, change);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, list.length) }, worker));
  cache.save();
  return changes;
}

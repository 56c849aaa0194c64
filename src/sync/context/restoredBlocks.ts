// What a restore notes beside a document for the push that sends its text: the restored blocks
// whose lines do not say all of them (core/versions/withRestoredFields). Kept in the journal's state
// until a push of the document is recorded; a later restore replaces it.
import type { RestoredBlock } from '../../core/versions/withRestoredFields.js';
import type { Journal } from '../../journal/index.js';

const KEY = 'restored:';

export function noteRestoredBlocks(journal: Journal, docId: string, blocks: readonly RestoredBlock[]): void {
  if (blocks.length > 0) journal.setState(`${KEY}${docId}`, blocks);
  else journal.deleteState(`${KEY}${docId}`);
}

/** The blocks the last restore of the document noted; none when no restore waits for its push. */
export const restoredBlocks = (journal: Journal, docId: string): RestoredBlock[] => journal.getState<RestoredBlock[]>(`${KEY}${docId}`) ?? [];

/** The push that sent the restored text is recorded: the note has done its work. */
export const forgetRestoredBlocks = (journal: Journal, docId: string): void => void journal.deleteState(`${KEY}${docId}`);

// The media assets a mirror downloaded, as its journal records them: the oracles link the space's
// blocks with them, as the pull does, before comparing them with the files.
import fs from 'node:fs';
import type { MediaLink } from '../../src/core/media/linkAssets.js';
import { openJournal } from '../../src/journal/index.js';
import { journalPath } from '../../src/stateDir.js';
import { MEDIA_BASE, type MediaRecord } from '../../src/sync/context/index.js';

/** The media assets the mirror at `root` downloaded, by block id, as its journal records them: the files link them where the space has signed URLs. */
export function mediaOf(root: string): (id: string) => MediaLink | undefined {
  if (!fs.existsSync(journalPath(root))) return () => undefined;
  const j = openJournal(journalPath(root));
  try {
    const records = new Map(Object.entries(j.statesWithPrefix<MediaRecord>(MEDIA_BASE)));
    return (id) => records.get(id);
  } finally {
    j.close();
  }
}

// The versions of one file as the console shows them: each as the blocks it differs by from the file
// now (what a restore would change), with its offers (restore). The texts come from the same code
// `spacesync restore --dry-run` prints, so what is shown is what a restore writes.
import { SpacesyncError, isSpacesyncError } from '../errors.js';
import { readMirrorFile } from '../mirror/index.js';
import { restoreVersion, versionsOf } from '../sync/index.js';
import { describeVersion } from '../cli/history.js';
import { openMirrorState } from '../cli/openMirrorState.js';
import { offersFor, type ConsoleAction, type Offer } from './actions.js';
import { blockRows, type BlockRow } from './blockRows.js';
import { masked, type VersionSummary } from './mirrorView.js';

/** How many versions of one file are shown, newest first. */
export const FILE_VERSIONS_SHOWN = 20;

export interface FileVersion extends VersionSummary {
  /** From the version (`a`) to the file now (`b`); null when the version cannot be read (`unavailable` says why). */
  rows: BlockRow[] | null;
  unavailable: string | null;
  /** The version holds what the file holds now: restoring it changes nothing. */
  current: boolean;
  offers: Offer[];
}

export interface FileHistory {
  path: string;
  /** The file is there now (a version of a deleted file is compared with nothing). */
  exists: boolean;
  versions: FileVersion[];
  total: number;
}

export async function readFileHistory(dir: string, rel: string, actions: readonly ConsoleAction[]): Promise<FileHistory> {
  const state = openMirrorState({ dir });
  try {
    const { journal, root, config } = state;
    if (!journal) throw new SpacesyncError('usage', `"${rel}" has no versions: this folder was never synced.`);
    const all = versionsOf(journal, rel);
    const now = await readMirrorFile(root, rel).catch(() => null);
    const nowText = now?.text ?? '';
    const versions: FileVersion[] = [];
    for (const v of all.slice(0, FILE_VERSIONS_SHOWN)) {
      const summary = { id: v.id, at: v.at, side: v.side, path: v.path, cause: v.cause, about: describeVersion(v) };
      const offers = offersFor({ kind: 'version', path: rel, version: v }, actions);
      try {
        const plan = await restoreVersion({
          root,
          journal,
          settings: { versions: config.versions },
          now: () => new Date(),
          path: rel,
          version: v.id,
          dryRun: true,
        });
        versions.push({ ...summary, rows: blockRows(plan.text, nowText), unavailable: null, current: plan.text === nowText, offers });
      } catch (e) {
        if (!isSpacesyncError(e)) throw e;
        versions.push({ ...summary, rows: null, unavailable: e.message, current: false, offers: [] });
      }
    }
    return masked<FileHistory>({ path: rel, exists: now !== null, versions, total: all.length }, [dir]);
  } finally {
    state.close();
  }
}

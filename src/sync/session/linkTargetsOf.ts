// Where the mirror holds each document, as the journal has it now: what the pull's relative links
// between documents point to and what the push reads them back as (core/linkDocuments).
import type { LinkTargets } from '../../core/linkDocuments.js';
import type { Journal } from '../../journal/index.js';

/** State key: the paths documents were moved away from (old path → new path), the latest last. */
export const FORMER_PATHS = 'links.formerPaths';
/** State key: the documents whose links a move made stale while their file was being edited. */
export const RELINK_PENDING = 'links.pending';

/**
 * `local`: paths of files the push is sending from where they are now (moved here, not recorded
 * yet), by document id. A path a document was moved away from still names it while no other
 * document is there (a file edited during the move keeps its links until it is relinked).
 */
export function linkTargetsOf(journal: Journal, local?: ReadonlyMap<string, string>): LinkTargets {
  let former: Record<string, string> | undefined;
  return {
    pathOf: (id) => journal.getDocument(id)?.path,
    idOf: (path) => {
      const id = local?.get(path) ?? journal.getDocumentByPath(path)?.id;
      if (id !== undefined) return id;
      former ??= journal.getState<Record<string, string>>(FORMER_PATHS) ?? {};
      const now = Object.hasOwn(former, path) ? former[path] : undefined;
      return now === undefined ? undefined : journal.getDocumentByPath(now)?.id;
    },
  };
}

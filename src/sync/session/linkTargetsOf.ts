// Where the mirror holds each document, as the journal has it now: what the pull's relative links
// between documents point to and what the push reads them back as (core/linkDocuments).
import type { LinkTargets } from '../../core/linkDocuments.js';
import type { Journal } from '../../journal/index.js';

export const linkTargetsOf = (journal: Journal): LinkTargets => ({
  pathOf: (id) => journal.getDocument(id)?.path,
  idOf: (path) => journal.getDocumentByPath(path)?.id,
});

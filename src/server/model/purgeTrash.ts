// Documents are purged from trash 30 days after they were deleted.
import type { Db } from '../store/openStore.js';
import { deleteDocument, expiredTrash } from '../store/documents.js';

export const TRASH_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export function purgeExpiredTrash(db: Db, now: number): number {
  const ids = expiredTrash(db, now - TRASH_RETENTION_MS);
  for (const id of ids) deleteDocument(db, id);
  return ids.length;
}

// What one listing of the space says: its documents, its folders, where each document lives, and
// the containers (built-in locations, daily notes, user folders) whose membership can be listed.
import type { DocLocation } from './types.js';

export type { RemoteDocument } from './types.js';

/** Where a document lives in the space. */
export interface Placement {
  location: DocLocation;
  /** Set exactly when `location` is `folder`. */
  folderId: string | null;
  /** `YYYY-MM-DD` for daily notes. */
  dailyNoteDate: string | null;
}

/** A user folder, flattened out of the `GET /folders` tree. */
export interface RemoteFolder {
  id: string;
  name: string;
  /** null = a top-level folder. */
  parentId: string | null;
  documentCount: number;
}

/** A listable container: a built-in location, the daily notes, or a user folder's id. */
export type ContainerKey = string;

export const BUILTIN_CONTAINERS = ['unsorted', 'templates', 'trash'] as const;
export const DAILY_NOTES = 'daily_notes';

/** What one membership listing (`location=…` or `folderId=…`) returned. */
export interface ContainerRead {
  ids: readonly string[];
  /** Daily notes only: document id → `dailyNoteDate`. */
  dates?: ReadonlyMap<string, string>;
}

export function containerOf(p: Placement): ContainerKey {
  return p.location === 'folder' ? (p.folderId ?? 'unsorted') : p.location;
}

export function placementOf(key: ContainerKey, dailyNoteDate: string | null = null): Placement {
  if (key === 'unsorted' || key === 'templates' || key === 'trash') return { location: key, folderId: null, dailyNoteDate: null };
  if (key === DAILY_NOTES) return { location: 'daily_notes', folderId: null, dailyNoteDate };
  return { location: 'folder', folderId: key, dailyNoteDate: null };
}

export function samePlacement(a: Placement, b: Placement): boolean {
  return a.location === b.location && a.folderId === b.folderId && a.dailyNoteDate === b.dailyNoteDate;
}

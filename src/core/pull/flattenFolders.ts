// The `GET /folders` tree → the user folders as a flat list with their parents, and the document
// counts of every container (the built-in locations included), which tell what to re-list.
import type { Folder } from '../../wire/types.js';
import { BUILTIN_CONTAINERS, type ContainerKey, type RemoteFolder } from '../remoteTypes.js';

export interface FlatFolders {
  folders: RemoteFolder[];
  /** documentCount per container listed by `GET /folders` (built-ins and user folders). */
  counts: Map<ContainerKey, number>;
}

const BUILTIN = new Set<string>(BUILTIN_CONTAINERS);

export function flattenFolders(items: readonly Folder[]): FlatFolders {
  const folders: RemoteFolder[] = [];
  const counts = new Map<ContainerKey, number>();
  const seen = new Set<string>();
  const walk = (list: readonly Folder[], parentId: string | null) => {
    for (const f of list) {
      const count = f.documentCount ?? 0;
      if (BUILTIN.has(f.id)) {
        counts.set(f.id, count);
        continue;
      }
      if (seen.has(f.id)) continue; // a repeated id is listed once, where first seen
      seen.add(f.id);
      const parent = parentId ?? f.parentFolderId ?? null;
      folders.push({ id: f.id, name: f.name, parentId: parent, documentCount: count });
      counts.set(f.id, count);
      walk(f.folders ?? [], f.id);
    }
  };
  walk(items, null);
  return { folders, counts };
}

// Where each listed document lives, from the membership listings read this cycle and what the
// journal knew. A `folderId` listing may be recursive (the contract) or direct-only (observed),
// so a document goes to the deepest container that lists it, and a document known to sit in a
// subfolder that was not re-read stays there even when an ancestor's recursive listing names it.
import { DAILY_NOTES, containerOf, placementOf, type ContainerKey, type ContainerRead, type Placement } from '../remoteTypes.js';

export interface PlaceInput {
  /** Every document id of the space listing. */
  ids: Iterable<string>;
  /** Where the journal last saw each document. */
  known: ReadonlyMap<string, Placement>;
  /** The user folders of the remote tree: id → parent id (null at the top). */
  folderParents: ReadonlyMap<string, string | null>;
  /** The containers read this cycle (an empty read stands for a container known to be empty). */
  reads: ReadonlyMap<ContainerKey, ContainerRead>;
}

export interface PlaceResult {
  placements: Map<string, Placement>;
  /** Listed documents whose container is not known: new ones no read listed, or ones that left a re-read container. */
  unplaced: string[];
}

export function placeDocuments(input: PlaceInput): PlaceResult {
  const { folderParents, reads, known } = input;
  const depthCache = new Map<ContainerKey, number>();
  const depth = (key: ContainerKey): number => {
    const cached = depthCache.get(key);
    if (cached !== undefined) return cached;
    let d = 0;
    const seen = new Set<string>();
    for (let p: string | null | undefined = key; p != null && folderParents.has(p) && !seen.has(p); p = folderParents.get(p)) {
      seen.add(p);
      d++;
    }
    depthCache.set(key, d);
    return d;
  };
  const isUnder = (key: ContainerKey, ancestor: ContainerKey): boolean => {
    const seen = new Set<string>();
    for (let p = folderParents.get(key); p != null && !seen.has(p); p = folderParents.get(p)) {
      if (p === ancestor) return true;
      seen.add(p);
    }
    return false;
  };
  const exists = (key: ContainerKey) => key === 'unsorted' || key === 'templates' || key === 'trash' || key === DAILY_NOTES || folderParents.has(key);

  // Which containers list each document.
  const listedIn = new Map<string, ContainerKey[]>();
  for (const [key, read] of reads) {
    for (const id of read.ids) {
      const list = listedIn.get(id);
      if (list) list.push(key);
      else listedIn.set(id, [key]);
    }
  }

  const placements = new Map<string, Placement>();
  const unplaced: string[] = [];
  for (const id of input.ids) {
    const before = known.get(id);
    const beforeKey = before ? containerOf(before) : undefined;
    const candidates = listedIn.get(id);
    if (candidates && candidates.length > 0) {
      let chosen = candidates[0]!;
      for (const c of candidates) if (depth(c) > depth(chosen) || (depth(c) === depth(chosen) && c < chosen)) chosen = c;
      // A recursive listing of an ancestor names the documents of subfolders that were not re-read.
      if (beforeKey !== undefined && !reads.has(beforeKey) && exists(beforeKey) && isUnder(beforeKey, chosen)) {
        placements.set(id, before!);
        continue;
      }
      const date = chosen === DAILY_NOTES ? (reads.get(DAILY_NOTES)?.dates?.get(id) ?? before?.dailyNoteDate ?? null) : null;
      placements.set(id, placementOf(chosen, date));
      continue;
    }
    if (before && beforeKey !== undefined && !reads.has(beforeKey) && exists(beforeKey)) {
      placements.set(id, before);
      continue;
    }
    unplaced.push(id);
  }
  return { placements, unplaced };
}

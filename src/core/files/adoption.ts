// A mirror without a journal (lost, deleted, emptied) has no base: nothing says which side changed
// a file, so nothing may be merged or sent on the strength of a difference. The mirror is adopted
// instead: the space is pulled beside it as a first pull writes it, and each file of that pull is
// held against the mirror's file at the same path (a document's file also found by its id, where
// it was moved). Equal bytes are in step; different bytes are a conflict (the mirror's file becomes
// a conflict copy, the space's version takes its place); a file the mirror lacks is written. A file
// found at another place goes back to the space's: as for the text, the space's side wins. Files
// only the mirror has are left to the sync as new here, except documents' files naming a document
// the space does not have: those are held back, never sent again as new documents. Pure: the shell
// reads both trees and applies the steps in order.

/** A file of the space's version (the pull beside the mirror). */
export interface SpaceFile {
  path: string;
  hash: string;
  /**
   * For a document's file: a hash of its text with the space's signed asset URLs unsigned (they are
   * signed anew at every read), the same for the mirror's file at its path; equal ones say the same.
   */
  alike?: string;
  /** The document whose file this is (document files only). */
  docId?: string;
}

/** A file of the mirror. */
export interface MirrorFile {
  path: string;
  hash: string;
  /** As SpaceFile's, computed with the space's file at the same path. */
  alike?: string;
  /** The document a `.md` file names in its front matter (`id:`); null when it names none. */
  claim?: string | null;
}

export type AdoptionStep =
  /** Both hold the same bytes: nothing to do. */
  | { kind: 'same'; path: string }
  /** They differ only in the signatures of the space's asset links: the space's file (freshly signed) takes the place. */
  | { kind: 'refresh'; path: string }
  /** The mirror has no file there: the space's is moved in. */
  | { kind: 'write'; path: string }
  /** The mirror's file at `from` differs: it becomes a conflict copy beside `from`, then the space's file is moved to `path`. */
  | { kind: 'conflict'; path: string; from: string; docId?: string }
  /**
   * The mirror holds the space's bytes at another place (`from`): a document's file found by its id,
   * or a file of that document's `.assets` folder. Nothing says which side moved it, so, as the
   * space's text wins a conflict, the space's place wins: the file is moved back to `path`.
   */
  | { kind: 'moved'; path: string; from: string; docId?: string }
  /** Another file (another note) holds the path: it moves to `to`, beside, and stays a note of its own. */
  | { kind: 'aside'; from: string; to: string };

export interface AdoptionPlan {
  /** In the order they are applied: the files moved aside and the conflict copies before the files moved in. */
  steps: AdoptionStep[];
  /** Document files naming a document the space does not have: held back, not sent. */
  orphans: Array<{ path: string; docId: string }>;
  /**
   * The space has none of the documents the mirror's files name (a backup restored into another or
   * an empty space): they are new documents there, sent as such, and no file is an orphan.
   */
  restore: boolean;
  /**
   * The places here of the documents' files that go back to the space's place (moved, or kept as a
   * conflict copy there), old path → the space's: a link typed to the old place still names its
   * document (the push sends it as `block://`, the relinking rewrites it), as after any move.
   */
  formerPaths: Record<string, string>;
}

/** `Notes/Plan.md` → `Notes/Plan.assets/`: where a document's file keeps its assets and scenes. */
export const assetsDirOf = (file: string): string => `${file.replace(/\.md$/, '')}.assets/`;

const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** `Notes/Plan.md` → `Notes/Plan 2.md` (then 3, …): the first name not in `taken`. */
export function freeSibling(path: string, taken: ReadonlySet<string>): string {
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  for (let n = 2; ; n++) {
    const candidate = `${path.slice(0, slash + 1)}${stem} ${n}${ext}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** `mirror` holds no conflict copies (they are no document's file). */
export function planAdoption(space: readonly SpaceFile[], mirror: readonly MirrorFile[]): AdoptionPlan {
  const mirrorAt = new Map(mirror.map((f) => [f.path, f]));
  const spaceDocs = new Map(space.flatMap((f) => (f.docId ? [[f.docId, f] as const] : [])));
  const taken = new Set([...mirror.map((f) => f.path), ...space.map((f) => f.path)]);
  const steps: AdoptionStep[] = [];

  // First, another document's file (or a file naming no document the space has) standing where a
  // document of the space has its file steps aside: it stays what it is, under a free name.
  for (const s of [...space].sort(byPath)) {
    const here = mirrorAt.get(s.path);
    if (!s.docId || !here || typeof here.claim !== 'string' || here.claim === s.docId) continue;
    const to = freeSibling(here.path, taken);
    taken.add(to);
    mirrorAt.delete(here.path);
    mirrorAt.set(to, { ...here, path: to });
    steps.push({ kind: 'aside', from: here.path, to });
  }

  const claims = [...mirrorAt.values()].filter((f): f is MirrorFile & { claim: string } => typeof f.claim === 'string').sort(byPath);
  const restore = claims.length > 0 && !claims.some((f) => spaceDocs.has(f.claim));
  /** A document's file in the mirror: the one at its place, else the first (by path) naming it. */
  const claimed = new Map<string, MirrorFile>();
  for (const f of claims) {
    const home = spaceDocs.get(f.claim)?.path;
    if (!claimed.has(f.claim) || f.path === home) claimed.set(f.claim, f);
  }
  /** Mirror files that became some document's (its file, or its conflict copy). */
  const used = new Set<string>();
  const copies: AdoptionStep[] = [];
  const rest: AdoptionStep[] = [];
  const spaceAt = new Set(space.map((f) => f.path));
  /** The `.assets` folders of the documents' files found elsewhere: the space's → the mirror's. */
  const assetsMoved = new Map<string, string>();
  for (const s of space) {
    const own = s.docId ? claimed.get(s.docId) : undefined;
    if (own && own.path !== s.path && !mirrorAt.has(s.path)) assetsMoved.set(assetsDirOf(s.path), assetsDirOf(own.path));
  }
  /** The mirror's copy of `s` in the `.assets` folder of its document's file found elsewhere, when it holds the same bytes. */
  const movedAsset = (s: SpaceFile): MirrorFile | undefined => {
    const slash = s.path.lastIndexOf('/');
    const dir = s.path.slice(0, slash + 1);
    const from = assetsMoved.get(dir);
    const there = from === undefined ? undefined : mirrorAt.get(from + s.path.slice(slash + 1));
    return there && there.hash === s.hash && !used.has(there.path) && !spaceAt.has(there.path) ? there : undefined;
  };
  for (const s of [...space].sort(byPath)) {
    // Here, after the asides: this document's file (or one naming none), or an asset, scene or task file.
    const here = mirrorAt.get(s.path);
    const own = s.docId ? claimed.get(s.docId) : undefined;
    if (own && own.path !== s.path && !here) {
      used.add(own.path);
      if (own.hash === s.hash) rest.push({ kind: 'moved', path: s.path, from: own.path, docId: s.docId! });
      else copies.push({ kind: 'conflict', path: s.path, from: own.path, docId: s.docId! });
      continue;
    }
    if (!here) {
      const asset = movedAsset(s);
      if (asset) used.add(asset.path);
      rest.push(asset ? { kind: 'moved', path: s.path, from: asset.path } : { kind: 'write', path: s.path });
      continue;
    }
    used.add(here.path);
    if (here.hash === s.hash) rest.push({ kind: 'same', path: s.path });
    else if (here.alike !== undefined && here.alike === s.alike) rest.push({ kind: 'refresh', path: s.path });
    else copies.push({ kind: 'conflict', path: s.path, from: here.path, ...(s.docId ? { docId: s.docId } : {}) });
  }
  const orphans = restore ? [] : claims.filter((f) => !spaceDocs.has(f.claim) && !used.has(f.path)).map((f) => ({ path: f.path, docId: f.claim }));
  const formerPaths: Record<string, string> = {};
  for (const s of [...copies, ...rest]) if ((s.kind === 'moved' || s.kind === 'conflict') && s.docId && s.from !== s.path) formerPaths[s.from] = s.path;
  return { steps: [...steps, ...copies, ...rest], orphans, restore, formerPaths };
}

// A mirror found without its journal (moved aside, deleted with `.spacesync/`, left at 0 bytes) is
// adopted before anything is sent: the space is pulled into `.spacesync/adopt/` exactly as a first
// pull writes a mirror (documents, assets, scenes, task files), both trees are read, and
// core/files/adoption decides file by file; the steps are applied here, the journal then holds what a
// first pull would have recorded. Nothing is merged without a base and nothing is uploaded again.
// An adoption stopped halfway starts over: its journal is forgotten, the folder was only ever
// changed by whole-file renames.
import { promises as fsp, type Dirent } from 'node:fs';
import path from 'node:path';
import { assetsDirOf, planAdoption, type AdoptionPlan, type MirrorFile, type SpaceFile } from '../../core/files/adoption.js';
import { claimOf } from '../../core/files/localChange.js';
import { parseFrontMatter } from '../../core/files/frontMatter.js';
import { frontMatterParts } from '../../core/files/fileText.js';
import { SpacesyncError } from '../../errors.js';
import {
  freeConflictCopyPath,
  hashText,
  isBuiltinIgnored,
  linkOnTheWay,
  moveFileAtomic,
  OwnWrites,
  readableHead,
  readMirrorFile,
  writeFileAtomic,
} from '../../mirror/index.js';
import { stateRelPath } from '../../stateDir.js';
import { ADOPTION_PENDING, ADOPTION_ORPHANS, FORMER_PATHS, type SyncContext } from '../context/index.js';
import { drawWhiteboard, syncWhiteboards } from '../whiteboards/index.js';
import { syncMedia } from '../media/index.js';
import { syncTaskFiles } from '../tasks/index.js';
import { runPull } from './pullAndPush.js';

export interface AdoptionResult {
  /** Files of the space the folder already held as they are. */
  inStep: number;
  /** Files written from the space (the folder had none there). */
  written: string[];
  /** Files that differed: the folder's version is in `copy`, the space's in `path`. */
  conflicts: Array<{ path: string; copy: string }>;
  /** Documents' files found at another place in the folder: moved back to the space's (with their assets). */
  moved: Array<{ from: string; to: string }>;
  /** Other notes standing where a document of the space has its file: moved beside it. */
  aside: Array<{ from: string; to: string }>;
  /** Files naming a document the space no longer has: held back, not sent. */
  orphans: string[];
  /** The space had none of the folder's documents: a backup restored into another space (sent as new documents). */
  restore: boolean;
}

const SHADOW = stateRelPath('adopt');

/**
 * Every file under `dir` (relative to `root`), but dot-entries, symbolic links, temp files, conflict
 * copies and what the user ignores. The user's patterns do not reach into a document's `.assets`
 * folder: what it holds is the document's.
 */
async function listFiles(ctx: SyncContext, root: string, dir = '', inAssets = false, links: string[] = []): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await fsp.readdir(dir ? path.join(root, ...dir.split('/')) : root, { withFileTypes: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const out: string[] = [];
  for (const e of entries) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    const assets = e.isDirectory() && e.name.endsWith('.assets');
    if (e.name.startsWith('.') || (!assets && (isBuiltinIgnored(e.name) || (!inAssets && ctx.ignore(rel, e.isDirectory()))))) continue;
    if (e.isDirectory()) out.push(...(await listFiles(ctx, root, rel, inAssets || assets, links)));
    else if (e.isFile()) out.push(rel);
    else if (e.isSymbolicLink() && !inAssets && (rel.endsWith('.md') || (await isLinkToDirectory(path.join(root, ...rel.split('/')))))) links.push(rel);
  }
  return out;
}

/** A link's target is a directory (its stat, not its content, is read). */
const isLinkToDirectory = (abs: string): Promise<boolean> =>
  fsp.stat(abs).then(
    (st) => st.isDirectory(),
    () => false,
  );

async function listDirs(root: string, dir = ''): Promise<string[]> {
  const entries = await fsp.readdir(dir ? path.join(root, ...dir.split('/')) : root, { withFileTypes: true });
  const out: string[] = [];
  for (const e of entries) {
    if (!e.isDirectory() || e.name.startsWith('.')) continue;
    const rel = dir ? `${dir}/${e.name}` : e.name;
    out.push(rel, ...(await listDirs(root, rel)));
  }
  return out;
}

/**
 * The space's version of the mirror, pulled into the shadow folder as a first pull writes it; returns
 * the documents the space listed that no container held (moving while it was looked at).
 */
async function pullBeside(ctx: SyncContext, shadowRoot: string): Promise<ReadonlySet<string>> {
  const own = ctx.ownership;
  // No push of saved files while the shadow pull runs (the daemon's editsWaiting): the folder has no
  // base until the adoption is done, and a push without one would send the files as new content.
  const { editsWaiting: _none, ...rest } = ctx;
  const shadow: SyncContext = { ...rest, root: shadowRoot, ownWrites: new OwnWrites(own ? { beforeWrite: () => own.check() } : {}), assets: undefined };
  try {
    const pull = await runPull(shadow, { fullScan: true });
    const missed = [...pull.failed, ...pull.blocked];
    if (pull.aborted || pull.refused || missed.length > 0) {
      throw new SpacesyncError(
        pull.aborted ? 'cancelled' : 'server',
        `The folder has no journal, so it is compared with the space before anything is sent; ${
          pull.aborted ? 'that was stopped' : `${missed.length} document(s) could not be read for it (${missed[0]?.message ?? pull.refused?.message})`
        }. Nothing in the folder was changed; the next cycle starts the comparison again.`,
      );
    }
    await syncWhiteboards(shadow);
    await syncMedia(shadow, { wait: true, drawScene: drawWhiteboard });
    await syncTaskFiles(shadow, { fullScan: true });
    return new Set(pull.unplaced);
  } finally {
    shadow.assets?.close();
  }
}

/** `](https://…/assets/x?expires=…&sig=…)`: a link to an absolute URL with a query. */
const SIGNED = /\]\((https?:\/\/[^()\s?#]*)\?[^()\s]*\)/g;

/** A hash of `text` with the links that are `signed` (unsigned URLs of the space's file) unsigned. */
function alikeHash(text: string, signed: ReadonlySet<string>): string {
  return hashText(text.replace(SIGNED, (link, url: string) => (signed.has(url) ? `](${url})` : link)));
}

/** The unsigned URLs of the signed links in a file of the space, by its path. */
type Signed = Map<string, Set<string>>;

async function readSide(
  ctx: SyncContext,
  root: string,
  docAt: ReadonlyMap<string, string>,
  signed: Signed,
  side: 'space' | 'mirror',
  links: string[] = [],
): Promise<Array<SpaceFile & MirrorFile>> {
  const files = await listFiles(ctx, root, '', false, links);
  const out: Array<SpaceFile & MirrorFile> = [];
  for (const p of files) {
    const f = await readMirrorFile(root, p);
    if (!f) continue;
    const docId = docAt.get(p);
    if (side === 'space' && docId && f.text !== null) signed.set(p, new Set([...f.text.matchAll(SIGNED)].map((m) => m[1]!)));
    const urls = signed.get(p);
    const alike = urls && urls.size > 0 && f.text !== null ? alikeHash(f.text, urls) : undefined;
    let claim: string | null | undefined;
    if (side === 'mirror' && p.endsWith('.md')) {
      // A file that is not UTF-8 still names its document when its front matter can be read: the
      // space's version of that document is not written elsewhere beside it (a copy once it is saved).
      const text = f.text ?? readableHead(await fsp.readFile(path.join(root, ...p.split('/'))));
      const parts = frontMatterParts(text);
      claim = parts ? (claimOf(parseFrontMatter(parts.inner, p)) ?? null) : null;
    }
    out.push({ path: p, hash: f.hash, ...(docId ? { docId } : {}), ...(claim !== undefined ? { claim } : {}), ...(alike ? { alike } : {}) });
  }
  return out;
}

async function apply(ctx: SyncContext, plan: AdoptionPlan, result: AdoptionResult): Promise<void> {
  const move = async (from: string, to: string) => {
    const m = await moveFileAtomic(ctx.root, from, to, { ownWrites: ctx.ownWrites });
    // Changed here meanwhile (a file put at that place): not a broken mirror; the next cycle compares again.
    if (!m.ok) throw new SpacesyncError('mirror_changed', `${m.message} The comparison of the folder with the space starts again on the next cycle.`);
  };
  const fromShadow = (p: string) => move(`${SHADOW}/${p}`, p);
  for (const step of plan.steps) {
    switch (step.kind) {
      case 'same':
        result.inStep++;
        break;
      case 'moved':
        await move(step.from, step.path);
        if (step.docId) {
          result.moved.push({ from: step.from, to: step.path });
          // Its `.assets` folder, emptied by the moves of its files (one holding anything else stays).
          await fsp.rmdir(path.join(ctx.root, ...assetsDirOf(step.from).split('/'))).catch(() => undefined);
        } else result.inStep++;
        break;
      case 'aside':
        await move(step.from, step.to);
        result.aside.push({ from: step.from, to: step.to });
        break;
      case 'write':
        await fromShadow(step.path);
        result.written.push(step.path);
        break;
      case 'refresh':
        // Over the file in one rename: it is never missing meanwhile.
        await writeFileAtomic(ctx.root, step.path, await fsp.readFile(path.join(ctx.root, ...`${SHADOW}/${step.path}`.split('/'))), {
          ownWrites: ctx.ownWrites,
        });
        result.inStep++;
        break;
      case 'conflict': {
        const copy = freeConflictCopyPath(ctx.root, step.from, ctx.now());
        await move(step.from, copy);
        await fromShadow(step.path);
        if (step.docId) ctx.journal.addConflict({ docId: step.docId, path: step.path, copyPath: copy, details: { reason: 'no_journal' } });
        result.conflicts.push({ path: step.path, copy });
        break;
      }
    }
  }
}

/** The symbolic links on the way of the paths the plan's steps would write, move or remove. */
function linksOfSteps(root: string, plan: AdoptionPlan): string[] {
  const paths = plan.steps.flatMap((s) => (s.kind === 'aside' ? [s.from, s.to] : s.kind === 'moved' || s.kind === 'conflict' ? [s.path, s.from] : [s.path]));
  return [...new Set(paths.flatMap((p) => linkOnTheWay(root, p) ?? []))];
}

/** Whether the next cycle must adopt the mirror first. */
export function adoptionPending(ctx: SyncContext): boolean {
  return ctx.journal.getState(ADOPTION_PENDING) !== undefined;
}

export async function adoptMirror(ctx: SyncContext): Promise<AdoptionResult> {
  const { journal } = ctx;
  // What an adoption stopped halfway recorded describes the shadow folder, which starts anew.
  journal.forgetMirror([ADOPTION_PENDING]);
  const shadowRoot = path.join(ctx.root, ...SHADOW.split('/'));
  await fsp.rm(shadowRoot, { recursive: true, force: true });
  await fsp.mkdir(shadowRoot, { recursive: true });
  const unplaced = await pullBeside(ctx, shadowRoot);

  const docAt = new Map(journal.listDocuments().map((r) => [r.path, r.id]));
  const signed: Signed = new Map();
  const space = await readSide(ctx, shadowRoot, docAt, signed, 'space');
  // A folder (or note) of the mirror that is a link hides what is behind it: notes there may name
  // documents the space has elsewhere, and once the link is a folder again they would be taken for
  // copies and sent as new documents (chaos seed 1450063). The comparison waits for them too.
  const hidden: string[] = [];
  const mirror = await readSide(ctx, ctx.root, new Map(), signed, 'mirror', hidden);
  const plan = planAdoption(space, mirror);
  // A file naming a document the space listed but had in no folder (moved or put in the trash between
  // the listing and the look at its folders) is no orphan: the next cycle compares again, with that
  // document at its new place (chaos seed 1310077: taken for an orphan, then for a copy, and sent).
  const moving = plan.orphans.filter((o) => unplaced.has(o.docId));
  if (moving.length > 0) {
    await fsp.rm(shadowRoot, { recursive: true, force: true });
    throw new SpacesyncError(
      'server',
      `The folder has no journal, so it is compared with the space before anything is sent; but the document "${moving[0]!.path}" names moved in the space while it was compared. Nothing in the folder was changed; the next cycle starts the comparison again.`,
    );
  }
  // A symbolic link hides what is behind it, and nothing is written through one: the files there can
  // be neither compared nor put in their place. Nothing is applied (no adoption half done): it waits,
  // and nothing is sent meanwhile.
  const links = [...new Set([...linksOfSteps(ctx.root, plan), ...hidden])];
  if (links.length > 0) {
    await fsp.rm(shadowRoot, { recursive: true, force: true });
    throw new SpacesyncError(
      'mirror_symlink',
      `The folder has no journal, so it is compared with the space file by file before anything is sent; but "${links[0]}"${links.length > 1 ? ` (and ${links.length - 1} more)` : ''} is a symbolic link, which spacesync never reads or writes through. The comparison waits until it is a real folder (or file) again, or is listed in "ignore" in the config.`,
      { details: { links } },
    );
  }
  const result: AdoptionResult = {
    inStep: 0,
    written: [],
    conflicts: [],
    moved: [],
    aside: [],
    orphans: plan.orphans.map((o) => o.path),
    restore: plan.restore,
  };
  if (plan.restore) {
    // A backup restored into another space: nothing of that space is the folder's yet, so the
    // folder is synced as a first sync syncs a folder of notes (every file sent as new).
    journal.forgetMirror();
  } else {
    // Folders of the space with no file in them come over as directories.
    for (const d of await listDirs(shadowRoot)) await fsp.mkdir(path.join(ctx.root, ...d.split('/')), { recursive: true });
    await apply(ctx, plan, result);
    journal.transaction(() => {
      if (plan.orphans.length > 0) journal.setState(ADOPTION_ORPHANS, plan.orphans);
      if (Object.keys(plan.formerPaths).length > 0)
        journal.setState(FORMER_PATHS, { ...journal.getState<Record<string, string>>(FORMER_PATHS), ...plan.formerPaths });
      journal.deleteState(ADOPTION_PENDING);
    });
  }
  await fsp.rm(shadowRoot, { recursive: true, force: true });
  ctx.logger.info({ ...result, written: result.written.length, moved: result.moved.length }, 'adopted the mirror without a journal');
  return result;
}

/** The terminal's line for an adoption. */
export function describeAdoption(r: AdoptionResult): string {
  const parts = [`no journal: compared the folder with the space file by file; ${r.inStep} file(s) in step`];
  if (r.conflicts.length > 0) parts.push(`${r.conflicts.length} differ and were kept as conflict copies (the space's version is in each file)`);
  if (r.written.length > 0)
    parts.push(`${r.written.length} written from the space (a file deleted here meanwhile comes back: delete it again to delete its document)`);
  if (r.moved.length > 0)
    parts.push(
      `${r.moved.length} found at another place and moved back to the space's, as nothing says which side moved them (${r.moved
        .map((m) => `${m.from} → ${m.to}`)
        .join(', ')}): move them again to send the move`,
    );
  if (r.aside.length > 0) parts.push(`${r.aside.length} other note(s) renamed to make room: ${r.aside.map((a) => `${a.from} → ${a.to}`).join(', ')}`);
  if (r.orphans.length > 0)
    parts.push(
      `${r.orphans.length} name a document the space no longer has and were not sent (${r.orphans.join(', ')}): remove their "id:" line to send them as new documents`,
    );
  if (r.restore)
    return 'no journal, and the space holds none of the documents the files name (a backup restored into another space): they are sent as new documents.';
  return `${parts.join('; ')}.`;
}

// What changed in the mirror since the journal's base, by content (never by mtime): edited files,
// files moved or renamed (paired by the `id` in their front matter), files gone, new files (a copy
// of a known file is a new document), new directories and folders whose directory is gone.
// The reading is here (the stat cache spares unchanged files); what counts as a change is
// core/files/localChange's rule, which the pull and `status` apply too.
import { collisionKey } from '../../../core/files/fileName.js';
import { changeOfRecordedFile, deletionHeldMessage, goneAreDeleted, pairMoved, type FileReading } from '../../../core/files/localChange.js';
import { BUILTIN_DIRS, STATE_DIR } from '../../../core/pull/layout.js';
import { isInTasksDir } from '../../../core/tasks/taskFiles.js';
import type { DocumentRecord, FolderRecord } from '../../../journal/index.js';
import { linkOnTheWay, linksHolding, scanMirror } from '../../../mirror/index.js';
import type { SyncContext } from '../../context/index.js';
import { claimedId, isUndecodable, readLocalDocument, type LocalDocument, type UndecodableDocument } from './readLocalDocument.js';
import { undecodableMessage } from '../../../mirror/index.js';
import type { HeldBackFile } from './PushPlan.js';
import { pathExists, readBackupKept, readHeldBack, readOrphans, recordBackupKept } from '../../context/index.js';
import { StatCache } from '../../context/index.js';

export interface ChangedFile {
  record: DocumentRecord;
  local: LocalDocument;
  /** The file is at another path than base recorded (moved or renamed). */
  moved: boolean;
}

export interface LocalScan {
  changed: ChangedFile[];
  /** Known documents whose file is gone and found nowhere else. */
  missing: DocumentRecord[];
  /** Files that are no document yet (or copies of one). */
  added: LocalDocument[];
  /** Directories that are no folder of the space yet, parents first. */
  addedDirs: string[];
  /** Folders whose directory is gone. */
  removedDirs: FolderRecord[];
  /** Every user directory now (a full scan only; the built-in ones and what is inside them aside). */
  dirs: string[];
  /** Directories inside the built-in ones, which the space cannot hold as folders. */
  strayDirs: string[];
  /** Files that cannot be synced as they are. */
  problems: Array<{ path: string; message: string }>;
  /** Files that are not UTF-8 text: neither sent nor written over, nor taken as deleted. */
  heldBack: HeldBackFile[];
  /** Document files seen (a full scan only). */
  filesSeen: number;
  /** Files read and hashed (the others' stat said they still hold their synced content). */
  filesRead: number;
}

export interface ScanOptions {
  /** Only these paths (what the watcher named); every file and directory when omitted. */
  paths?: readonly string[];
}

const readingOf = (doc: LocalDocument | UndecodableDocument | null): FileReading =>
  doc === null
    ? null
    : isUndecodable(doc)
      ? { hash: doc.hash, undecodable: true }
      : { hash: doc.hash, frontMatterOk: doc.frontMatter.ok, claim: claimedId(doc) };

const BUILTIN = new Set<string>(Object.values(BUILTIN_DIRS).map(collisionKey));
// The task files' directory is no folder of the space: its files are the task files' (sync/tasks).
const isBuiltin = (dir: string) => BUILTIN.has(collisionKey(dir)) || isInTasksDir(dir);

export async function scanLocal(ctx: SyncContext, opts: ScanOptions = {}): Promise<LocalScan> {
  return new MirrorScan(ctx, opts).run();
}

/** One scan: what it found so far, and the journal's records it looks files up in. */
class MirrorScan {
  private readonly scan: LocalScan = {
    changed: [],
    missing: [],
    added: [],
    addedDirs: [],
    removedDirs: [],
    dirs: [],
    strayDirs: [],
    problems: [],
    heldBack: [],
    filesSeen: 0,
    filesRead: 0,
  };
  /** Every record (a full scan loads them all at once); null when a scan of some paths looks them up one by one. */
  private readonly records: DocumentRecord[] | null;
  private readonly byPath: Map<string, DocumentRecord | undefined>;
  private readonly byId: Map<string, DocumentRecord>;
  private readonly cache: StatCache;
  private files: string[] = [];
  private dirs: Set<string> | undefined;
  /** Symbolic links met (a scan of some paths: the first link on the way to each). */
  private readonly links = new Set<string>();
  private readonly heldLinks = new Set<string>();
  private present = new Set<string>();
  /** Known documents whose file is not where it was recorded. */
  private readonly gone = new Map<string, DocumentRecord>();
  /** Files that are no known document's at their path. */
  private readonly strangers: LocalDocument[] = [];

  constructor(
    private readonly ctx: SyncContext,
    private readonly opts: ScanOptions,
  ) {
    this.records = opts.paths ? null : ctx.journal.listDocuments();
    this.byPath = new Map(this.records?.map((r) => [r.path, r]));
    this.byId = new Map(this.records?.map((r) => [r.id, r]));
    this.cache = StatCache.open(ctx);
  }

  async run(): Promise<LocalScan> {
    const { scan, opts } = this;
    await this.listFiles();
    this.present = new Set(this.files);
    await this.judgeRecorded();
    await this.judgeUnrecorded();
    await this.findMoves();
    if (this.dirs) this.judgeDirs(this.dirs);
    if (this.ctx.settings.mode !== 'backup') this.holdKeptInBackup();
    for (const list of [scan.added]) list.sort((a, b) => (a.path < b.path ? -1 : 1));
    this.cache.save(opts.paths ? undefined : this.present);
    scan.filesRead = this.cache.reads;
    return scan;
  }

  private recordAt(p: string): DocumentRecord | undefined {
    if (this.records || this.byPath.has(p)) return this.byPath.get(p);
    const r = this.ctx.journal.getDocumentByPath(p);
    this.byPath.set(p, r);
    return r;
  }

  private recordOf(id: string): DocumentRecord | undefined {
    return this.records ? this.byId.get(id) : (this.byId.get(id) ?? this.ctx.journal.getDocument(id));
  }

  /**
   * The document files to look at: the paths named (a scan of some paths), else every file of the
   * mirror with its stat. Files under Tasks/ are the task files', unless a document still lives
   * there (a space folder of that name, mirrored before the name was reserved: the pull moves it out).
   */
  private async listFiles(): Promise<void> {
    const { ctx, opts } = this;
    const isTaskFile = (p: string) => isInTasksDir(p) && this.recordAt(p) === undefined;
    if (opts.paths) {
      for (const p of new Set(opts.paths)) {
        if (!p.endsWith('.md') || ctx.ignore(p) || isTaskFile(p)) continue;
        const link = linkOnTheWay(ctx.root, p);
        if (link === null) this.files.push(p);
        else this.links.add(link);
      }
      return;
    }
    const m = await scanMirror(ctx.root, ctx.ignore);
    this.files = m.files.map((f) => f.relPath).filter((p) => !isTaskFile(p));
    for (const f of m.files) this.cache.seed(f.relPath, f);
    this.dirs = new Set(m.dirs.filter((d) => d !== STATE_DIR));
    for (const l of m.links) this.links.add(l);
    this.scan.filesSeen = this.files.length;
  }

  /** The link a path is (or is inside of): what is there is held back, neither read nor taken as deleted. */
  private linkOf(p: string): string | undefined {
    if (this.links.size === 0) return undefined;
    for (let at = p; ; at = at.slice(0, at.lastIndexOf('/'))) {
      if (this.links.has(at)) return at;
      if (!at.includes('/')) return undefined;
    }
  }

  private holdLink(link: string): void {
    if (this.heldLinks.has(link)) return;
    this.heldLinks.add(link);
    this.scan.heldBack.push({
      path: link,
      reason: 'symlink',
      message: `"${link}" is a symbolic link: spacesync never follows a link nor writes through one, so the documents and folders of the space there are held back (nothing of them is sent, taken as deleted or written). Replace the link with the real folder or file to sync them again.`,
    });
  }

  /** Reads a file; decoding happens here, so whatever decides which files to read sees only the verdict. */
  private async read(p: string): Promise<LocalDocument | UndecodableDocument | null> {
    const doc = await readLocalDocument(this.ctx.root, p);
    if (isUndecodable(doc)) {
      const id = this.recordAt(p)?.id;
      this.scan.heldBack.push({
        path: p,
        reason: 'undecodable',
        offset: doc.undecodable.offset,
        message: undecodableMessage(p, doc.undecodable),
        ...(id ? { docId: id } : {}),
      });
      return doc;
    }
    if (doc) this.cache.read(p, doc.hash);
    if (doc && !doc.frontMatter.ok) this.scan.problems.push({ path: p, message: doc.frontMatter.problem });
    return doc;
  }

  /** Known paths: the file is its document's unless it names another known document. */
  private async judgeRecorded(): Promise<void> {
    const { cache, present } = this;
    const candidates: DocumentRecord[] = this.records ?? this.files.flatMap((p) => this.recordAt(p) ?? []);
    for (const r of candidates) {
      const link = this.linkOf(r.path);
      if (link !== undefined) {
        this.holdLink(link);
        continue;
      }
      // Its stat says it still holds the content recorded as synced: not read (the stat cache).
      if (r.fileHash !== null && present.has(r.path) && (cache.holdsSeeded(r.path, r.fileHash) ?? (await cache.holds(r.path, r.fileHash)))) continue;
      const doc = present.has(r.path) ? await this.read(r.path) : null;
      const change = changeOfRecordedFile(r, readingOf(doc), (id) => this.recordOf(id) !== undefined);
      // A file written by a stopped pull and not recorded is merged with the service's blocks (with
      // no base): an edit made to it since is sent and the pull stops leaving it aside.
      if (change === 'edited') this.scan.changed.push({ record: r, local: doc as LocalDocument, moved: false });
      else if (change === 'missing') this.gone.set(r.id, r);
      else if (change === 'elsewhere') {
        this.gone.set(r.id, r);
        this.strangers.push(doc as LocalDocument);
      }
    }
    // In watcher mode a removed path is a known path no longer there.
    for (const p of this.opts.paths ?? []) {
      const r = this.recordAt(p);
      if (r && r.fileHash !== null && !present.has(p) && this.linkOf(p) === undefined) this.gone.set(r.id, r);
    }
  }

  /**
   * Files at no known path. One found without a journal that names a document the space no longer
   * has is not sent as a new document (it would bring back what was deleted there) unless the user
   * says so (--force).
   */
  private async judgeUnrecorded(): Promise<void> {
    const orphans = this.ctx.settings.force ? new Set<string>() : new Set(readOrphans(this.ctx.journal).map((o) => o.docId));
    for (const p of this.files) {
      if (this.recordAt(p)) continue;
      const doc = await this.read(p);
      if (!doc || isUndecodable(doc) || !doc.frontMatter.ok) continue;
      const claim = claimedId(doc);
      if (claim !== undefined && orphans.has(claim) && this.recordOf(claim) === undefined) {
        this.scan.heldBack.push({
          path: p,
          reason: 'orphan',
          message: `"${p}" names a document the space no longer has (found when the folder had no journal): it was not sent, so a document deleted there does not come back. Delete the file, or remove its "id:" line (or run with --force) to send it as a new document.`,
        });
        continue;
      }
      // It names a document whose file is under a folder replaced by a link: that file moved out
      // the instant before the swap, or a copy of it. Which one shows once the folder is back.
      const owner = claim === undefined ? undefined : this.recordOf(claim);
      const link = owner ? linkOnTheWay(this.ctx.root, owner.path) : null;
      if (owner && link !== null) {
        this.scan.heldBack.push({
          path: p,
          reason: 'link_claim',
          docId: owner.id,
          message: `"${p}" names the document of "${owner.path}", which is under the symbolic link "${link}": it may be that file, moved out, or a copy of it. It is not sent until the link is replaced with the real folder.`,
        });
        continue;
      }
      this.strangers.push(doc);
    }
  }

  /** Pairs files with the documents whose file went missing (moved); the rest are new files and gone documents. */
  private async findMoves(): Promise<void> {
    const { gone, scan } = this;
    if (this.opts.paths) await this.findWatchedMoves();
    // Pair files with the documents whose file went missing; the likeliest first (same name, same folder).
    const pairs = pairMoved(gone, this.strangers, claimedId);
    for (const { id, file } of pairs.moved) {
      scan.changed.push({ record: gone.get(id)!, local: file, moved: true });
      gone.delete(id);
    }
    scan.added.push(...pairs.added);
    // A file that cannot be read may be one of these moved (its id unreadable), and so may a file
    // under a folder of the space replaced by a link: none is taken as deleted meanwhile.
    const unreadable = scan.heldBack.filter((h) => h.reason === 'undecodable' && h.docId === undefined).map((h) => h.path);
    const links =
      gone.size === 0
        ? []
        : linksHolding(
            this.ctx.root,
            this.ctx.journal.listFolders().map((f) => f.path),
          );
    if (!goneAreDeleted(gone.size, unreadable.length + links.length)) {
      // Held back, not dropped: each is looked at again with the held-back files (every cycle of the
      // daemon, and each push), so the deletion goes out as soon as the reason is gone.
      for (const r of gone.values())
        scan.heldBack.push({ path: r.path, reason: 'deletion', docId: r.id, message: deletionHeldMessage(r.path, unreadable, links) });
      gone.clear();
    }
    scan.missing = [...gone.values()];
  }

  /**
   * After a switch from backup to two-way mode: the changes backup mode kept here, made under the
   * promise that they would not be sent, are held back while each file is still as backup mode saw
   * it. An edit since (the file's hash moved), --force or a revert lets each go; the entries that no
   * longer stand are dropped.
   */
  private holdKeptInBackup(): void {
    const { ctx, scan } = this;
    const kept = readBackupKept(ctx.journal);
    if (Object.keys(kept).length === 0) return;
    if (ctx.settings.force) {
      if (!ctx.readOnly) recordBackupKept(ctx.journal, {});
      return;
    }
    const still: Record<string, string | null> = {};
    const held = (path: string, hash: string | null, docId?: string): boolean => {
      if (!(path in kept) || kept[path] !== hash) return false;
      still[path] = hash;
      scan.heldBack.push({
        path,
        reason: 'mode_switch',
        ...(docId ? { docId } : {}),
        message: `"${path}" was ${hash === null ? 'deleted' : 'changed'} here in backup mode, where nothing is sent; the mirror is two-way now, and that change is held back once rather than sent unasked. To send it, ${hash === null ? 'run' : 'save the file again with any edit, or run'} \`spacesync sync --once --force\`; \`spacesync revert "${path}"\` puts the space's version back.`,
      });
      return true;
    };
    scan.changed = scan.changed.filter((c) => !held(c.local.path, c.local.hash, c.record.id));
    scan.added = scan.added.filter((d) => !held(d.path, d.hash));
    scan.missing = scan.missing.filter((r) => !held(r.path, null, r.id));
    if (!ctx.readOnly) recordBackupKept(ctx.journal, still, this.opts.paths);
  }

  /** Watching only some paths, the two halves of a rename may be reported apart. */
  private async findWatchedMoves(): Promise<void> {
    const { ctx, gone } = this;
    // A file claiming a known document whose file is gone from its place is that document moved here.
    for (const doc of this.strangers) {
      const r = this.recordOf(claimedId(doc) ?? '');
      if (r && r.fileHash !== null && !gone.has(r.id) && !(await pathExists(ctx.root, r.path))) gone.set(r.id, r);
    }
    // A document whose file is held back elsewhere (renamed, then emptied or saved in another encoding)
    // is not gone: it waits for the user, as its file does. A poll that names only the old half of
    // that rename would otherwise take it for deleted.
    if (gone.size === 0) return;
    for (const h of readHeldBack(ctx.journal)) {
      if (h.docId !== undefined && gone.has(h.docId) && !this.present.has(h.path) && (await pathExists(ctx.root, h.path))) gone.delete(h.docId);
    }
  }

  /** The directories of a full scan: the user's folders, new ones, those inside built-in folders, and folders whose directory is gone. */
  private judgeDirs(dirs: ReadonlySet<string>): void {
    const { scan } = this;
    const folders = this.ctx.journal.listFolders();
    const known = new Set(folders.map((f) => f.path));
    for (const d of [...dirs].sort()) {
      if (isBuiltin(d)) continue;
      if (isBuiltin(d.split('/')[0]!)) {
        scan.strayDirs.push(d);
        continue;
      }
      scan.dirs.push(d);
      if (!known.has(d)) scan.addedDirs.push(d);
    }
    scan.removedDirs = folders.filter((f) => {
      if (dirs.has(f.path)) return false;
      const link = this.linkOf(f.path);
      if (link !== undefined) this.holdLink(link);
      return link === undefined;
    });
  }
}

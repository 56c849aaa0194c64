// The stat cache of one scan: which files need reading. A file whose stat is the one recorded with
// a hash (and not racy, see statTrusted) holds that hash's content; any other is read, and what was
// read is recorded with the stat taken before the read. Content stays the judge of what changed:
// the stat only spares reading a file whose recorded hash is the one the caller expects.
import { promises as fsp, type BigIntStats } from 'node:fs';
import { statTrusted, type StatKey } from '../../core/files/statTrusted.js';
import type { FileStatRecord } from '../../journal/index.js';
import { resolveInRoot } from '../../mirror/index.js';
import type { SyncContext } from './SyncContext.js';

const keyOf = (st: BigIntStats): StatKey => ({ size: Number(st.size), mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs, ino: st.ino });
const wallNs = (ctx: SyncContext) => BigInt(ctx.now().getTime()) * 1_000_000n;

export class StatCache {
  /** What this scan recorded over the journal's entries (a file read), and the paths it forgot. */
  private readonly updated = new Map<string, FileStatRecord | null>();
  /** Stats a full scan took (before any read), by path: the scan's own entries, held, not copied. */
  private readonly seeded = new Map<string, StatKey>();
  /** Stats taken here of files that are then read, by path, with when each was taken. */
  private readonly taken = new Map<string, StatKey & { at: bigint }>();
  private readonly put: FileStatRecord[] = [];
  /** Files read this scan (for the tests and the benchmarks). */
  reads = 0;

  private constructor(
    private readonly ctx: SyncContext,
    private readonly enabled: boolean,
  ) {
    this.openedNs = wallNs(ctx);
  }

  /** The journal's entry, asked for one file at a time: a scan of 50,000 files holds no list of them all. */
  private recorded(relPath: string): FileStatRecord | undefined {
    const over = this.updated.get(relPath);
    if (over !== undefined) return over ?? undefined;
    return this.enabled ? this.ctx.journal.getFileStat(relPath) : undefined;
  }

  static open(ctx: SyncContext): StatCache {
    return new StatCache(ctx, ctx.settings.statCache !== false);
  }

  /** When this cache was opened: stats seeded by a scan were taken after it (an earlier time only makes an entry racy longer). */
  private readonly openedNs: bigint;

  /** A stat the caller already took (a full scan lists every file with its stat); held as given, so it must not change. */
  seed(relPath: string, st: StatKey): void {
    if (this.enabled) this.seeded.set(relPath, st);
  }

  /** The stat taken of `relPath` this scan, with when. */
  private stat(relPath: string): (StatKey & { at: bigint }) | undefined {
    const taken = this.taken.get(relPath);
    if (taken) return taken;
    const st = this.seeded.get(relPath);
    return st && { size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs, ino: st.ino, at: this.openedNs };
  }

  private trusted(relPath: string, hash: string, st: StatKey): boolean {
    const r = this.recorded(relPath);
    return r !== undefined && r.hash === hash && statTrusted(r, st);
  }

  /** What holds() answers when the file's stat was seeded (no I/O); undefined when it was not. */
  holdsSeeded(relPath: string, hash: string): boolean | undefined {
    if (!this.enabled) return false;
    const st = this.seeded.get(relPath);
    return st && this.trusted(relPath, hash, st);
  }

  /** True when the file certainly still holds the content hashed `hash`: it need not be read. */
  async holds(relPath: string, hash: string): Promise<boolean> {
    if (!this.enabled) return false;
    const known = this.taken.get(relPath) ?? this.seeded.get(relPath);
    if (known) return this.trusted(relPath, hash, known);
    const at = wallNs(this.ctx);
    const s = await fsp.stat(resolveInRoot(this.ctx.root, relPath), { bigint: true }).catch(() => null);
    if (!s || !s.isFile()) return false;
    const st = keyOf(s);
    if (this.trusted(relPath, hash, st)) return true;
    // Kept only for a file that is then read: its record takes the stat taken before the read.
    this.taken.set(relPath, { ...st, at });
    return false;
  }

  /** The file was read and its bytes hash to `hash`: recorded with the stat taken before the read. */
  read(relPath: string, hash: string): void {
    this.reads++;
    if (!this.enabled) return;
    const st = this.stat(relPath);
    if (!st) return;
    const r = this.recorded(relPath);
    if (r && r.hash === hash && statTrusted(r, st)) return;
    if (r && r.hash === hash && r.size === st.size && r.mtimeNs === st.mtimeNs && r.ctimeNs === st.ctimeNs && r.ino === st.ino && r.recordedNs === st.at)
      return;
    const entry: FileStatRecord = { path: relPath, size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs, ino: st.ino, hash, recordedNs: st.at };
    this.updated.set(relPath, entry);
    this.put.push(entry);
  }

  /** Writes what this scan learned (nothing when it learned nothing); `present` (a full scan) forgets the other paths. */
  save(present?: ReadonlySet<string>): void {
    if (!this.enabled || this.ctx.readOnly || (this.put.length === 0 && !present)) return;
    const gone = new Set<string>();
    if (present) {
      for (const p of this.ctx.journal.fileStatPaths()) if (!present.has(p)) gone.add(p);
      for (const [p, r] of this.updated) if (r !== null && !present.has(p)) gone.add(p);
    }
    this.ctx.journal.updateFileStats(this.put.splice(0), [...gone]);
    for (const p of gone) this.updated.set(p, null);
  }
}

/** A file this run wrote itself: the hash written, and the file's stat taken right after the write. */
export interface OwnWrite {
  path: string;
  hash: string;
  stat: StatKey;
}

/** The stat of a file just written with `hash` (null when the cache is off, or the file is gone already). */
export async function statOwnWrite(ctx: SyncContext, relPath: string, hash: string): Promise<OwnWrite | null> {
  if (ctx.settings.statCache === false || ctx.readOnly) return null;
  const s = await fsp.stat(resolveInRoot(ctx.root, relPath), { bigint: true }).catch(() => null);
  return s?.isFile() ? { path: relPath, hash, stat: keyOf(s) } : null;
}

/**
 * Records files this run wrote with their hash, so that the next scan does not read back what the
 * pull just wrote (a first pull of thousands of documents would otherwise read them all once more).
 * Each is stat'd again now: one whose stat moved since the write (an edit, a link rewritten) is
 * left out, and the next scan reads it. The entry's time is now, not the write's, so the racy rule
 * (statTrusted) trusts the files written long enough before the end of the pull; those written
 * within the timestamp granularity of it stay racy and are read once by the next scan. (An edit of
 * the same size in the very timestamp tick of the write is what no stat tells; the daemon's
 * watcher reports it.)
 */
export async function recordOwnWrites(ctx: SyncContext, writes: readonly OwnWrite[]): Promise<void> {
  if (writes.length === 0 || ctx.settings.statCache === false || ctx.readOnly) return;
  const put: FileStatRecord[] = [];
  for (const w of writes) {
    const at = wallNs(ctx);
    const s = await fsp.stat(resolveInRoot(ctx.root, w.path), { bigint: true }).catch(() => null);
    if (!s?.isFile()) continue;
    const now = keyOf(s);
    if (now.size !== w.stat.size || now.mtimeNs !== w.stat.mtimeNs || now.ctimeNs !== w.stat.ctimeNs || now.ino !== w.stat.ino) continue;
    put.push({ path: w.path, ...now, hash: w.hash, recordedNs: at });
  }
  ctx.journal.updateFileStats(put);
}

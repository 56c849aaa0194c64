// One scenario's world: the real server in this process (real clock, the service's limits scaled
// in time), a mirror folder configured for quick tests, the real `spacesync` spawned for every
// cycle and daemon, and the bookkeeping the oracles need — which requests were the harness's own,
// which faults were armed, which texts each side held, which blocks a step touched.
import { INBOX_FILE, LOGBOOK_FILE } from '../../src/core/tasks/taskFiles.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { openJournal } from '../../src/journal/index.js';
import { createLogger } from '../../src/log.js';
import { startServer, type FaultSpec, type LoggedRequest, type RunningServer, type SpaceFixture } from '../../src/server/index.js';
import type { FixtureBlock } from '../../src/server/fixture/types.js';
import { openSyncSession } from '../../src/sync/index.js';
import { journalPath } from '../../src/stateDir.js';
import { syncOnce } from '../../src/sync/cycle/syncOnce.js';
import { unpackVersion } from '../../src/sync/context/versionsDir.js';
import { spawnCli, type CliProcess, type CliResult } from '../cli/cliHarness.js';
import { markdownLines, normalizeLine, TextLedger, textLines } from './texts.js';

export interface WorldOptions {
  fixture: SpaceFixture;
  /** The service's limits: `spec` (default) at `limitScale` (default 0.05: 100 requests / 3 s), or `off`. */
  limits?: 'spec' | 'off';
  limitScale?: number;
  /** Merged into the mirror's `.spacesync/config.json`. */
  config?: Record<string, unknown>;
  /** `inProcess` (default): the first pull runs in this process before the steps; `none`: the steps do it. */
  initialSync?: 'inProcess' | 'none';
  /** Prefix of the temp folder. */
  name?: string;
}

/** A request the harness itself sent (as another client of the space would), to tell it from the daemon's. */
interface HarnessCall {
  method: string;
  path: string;
  status: number;
  from: number;
  to: number;
}

/** A run of one spawned spacesync process, in server-clock time, for the per-process budget check. */
export interface Segment {
  name: string;
  start: number;
  end: number | undefined;
  killed: boolean;
}

export interface ArmedFault {
  spec: FaultSpec;
  /** Server-clock time it was armed. */
  at: number;
  /** How many it answered, once known (the harness reads the rest when it disarms them). */
  used: number | undefined;
}

export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

export const DEFAULT_SCALE = 0.05;
export const DEBOUNCE_MS = 60;

const silentLogger = () => createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) });

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Every block of a fixture document, depth first, with its text as stored. */
export function fixtureBlocks(blocks: readonly FixtureBlock[] | undefined): FixtureBlock[] {
  return (blocks ?? []).flatMap((b) => [b, ...fixtureBlocks(b.content)]);
}

/** Every spacesync process any world started and not yet seen end: killed if this process exits first. */
const live = new Set<CliProcess>();
process.once('exit', () => {
  for (const p of live) p.child.kill('SIGKILL');
});

export class World {
  readonly ledger = new TextLedger();
  /** Block ids a step changed, deleted or moved on purpose: O5 does not expect them unchanged. */
  readonly touchedIds = new Set<string>();
  /** Normalised texts a local step changed or removed: the blocks holding them were touched. */
  readonly touchedTexts = new Set<string>();
  readonly faults: ArmedFault[] = [];
  readonly segments: Segment[] = [];
  readonly events: string[] = [];
  private readonly harnessCalls: HarnessCall[] = [];
  private readonly processes = new Set<CliProcess>();
  private readonly named = new Map<string, CliProcess>();
  private daemonProc: CliProcess | undefined;
  /** Server clock minus ours (moved by the admin clock route). */
  private offset = 0;
  private started = Date.now();
  initial!: SpaceFixture;

  private constructor(
    readonly server: RunningServer,
    readonly root: string,
    readonly limits: 'spec' | 'off',
    readonly limitScale: number,
    readonly config: Record<string, any>,
  ) {}

  static async open(o: WorldOptions): Promise<World> {
    const limits = o.limits ?? 'spec';
    const limitScale = o.limitScale ?? DEFAULT_SCALE;
    const server = await startServer({ port: 0, admin: true, seed: o.fixture, limits, limitScale });
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `spacesync-${o.name ?? 'scenario'}-`)));
    const config = {
      link: server.baseUrl,
      debounceMs: DEBOUNCE_MS,
      poll: { minSeconds: 1, maxSeconds: 1, fullScanMinutes: 30 },
      budget: { scale: limits === 'spec' ? limitScale : 1 },
      log: { level: 'debug', file: true },
      ...(o.config ?? {}),
    };
    const w = new World(server, root, limits, limitScale, config);
    w.writeConfig();
    w.initial = await w.snapshot();
    for (const d of w.initial.documents ?? []) {
      w.ledger.record(
        fixtureBlocks(d.content).flatMap((b) => markdownLines(b.body ?? b.markdown ?? '')),
        `the starting space: ${d.title || d.id}`,
      );
    }
    w.note(`server ${server.origin} (limits ${limits}${limits === 'spec' ? ` × ${limitScale}` : ''}), mirror ${root}`);
    if ((o.initialSync ?? 'inProcess') === 'inProcess') await w.initialPull();
    return w;
  }

  writeConfig(): void {
    fs.mkdirSync(path.join(this.root, '.spacesync'), { recursive: true });
    fs.writeFileSync(path.join(this.root, '.spacesync', 'config.json'), JSON.stringify(this.config, null, 2), { mode: 0o600 });
  }

  /** The first pull, in this process (quicker than a spawn); the files it writes are the starting texts. */
  async initialPull(): Promise<void> {
    const session = await openSyncSession({ root: this.root, link: this.server.baseUrl, logger: silentLogger(), budget: { scale: this.config.budget.scale } });
    try {
      const r = await syncOnce(session.ctx);
      if (r.exitCode !== 0) throw new Error(`the first pull ended with exit code ${r.exitCode}`);
    } finally {
      session.close();
    }
    this.recordAllFiles('the first pull');
  }

  /** Every document file's lines, as texts the local side now holds. */
  recordAllFiles(origin: string): void {
    for (const p of this.mdFiles()) this.ledger.change(null, this.read(p), `${origin}: ${p}`);
  }

  /**
   * A local step changed a file: the texts it wrote are recorded, the ones it removed retired (the
   * user saw them) and touched (the blocks holding them were changed on purpose).
   */
  localChange(rel: string, before: string | null, after: string | null, origin: string): void {
    this.ledger.change(before, after, origin);
    if (before !== null) {
      const kept = new Set(after === null ? [] : textLines(after));
      for (const l of textLines(before)) if (!kept.has(l)) this.touchedTexts.add(l);
    }
    this.note(`${origin} ${rel}`);
  }

  /**
   * The user deletes a file or a directory of them. What each file said that the space does not
   * hold (edits not sent yet) goes with it by the user's choice; what the space holds must survive
   * (the document goes to the trash, or comes back when the space changed it).
   */
  async localDelete(rel: string): Promise<void> {
    const abs = this.file(rel);
    const files = fs.statSync(abs).isDirectory() ? this.mdFiles(rel) : [rel];
    const texts = files.map((f) => this.read(f));
    fs.rmSync(abs, { recursive: true });
    const snap = await this.snapshot();
    for (const text of texts) {
      const id = /^---\n(?:[\s\S]*?\n)?id: (.+)\n/.exec(text)?.[1]?.trim();
      const doc = (snap.documents ?? []).find((d) => d.id === id);
      const held = new Set(doc ? fixtureBlocks(doc.content).flatMap((b) => markdownLines(b.body ?? b.markdown ?? '')) : []);
      this.ledger.retire(textLines(text).filter((l) => !held.has(l)));
    }
    this.note(`local delete ${rel}`);
  }

  /** A file renamed or moved by the user: a title that was in its old name was replaced on purpose. */
  localRename(from: string, to: string): void {
    const stem = (p: string) => normalizeLine(path.posix.basename(p).replace(/\.md$/, ''));
    if (stem(from) !== stem(to)) this.ledger.retire([stem(from)]);
    this.note(`local rename ${from} → ${to}`);
  }

  note(line: string): void {
    this.events.push(`+${((Date.now() - this.started) / 1000).toFixed(2)}s ${line}`);
  }

  // ---- time ----

  serverNow(): number {
    return Date.now() + this.offset;
  }

  // ---- files ----

  file(p: string): string {
    return path.join(this.root, p);
  }

  read(p: string): string {
    return fs.readFileSync(this.file(p), 'utf8');
  }

  readOrNull(p: string): string | null {
    try {
      return fs.readFileSync(this.file(p), 'utf8');
    } catch {
      return null;
    }
  }

  exists(p: string): boolean {
    return fs.existsSync(this.file(p));
  }

  /** Document files under the root (`.spacesync/` and dot-files aside), posix paths. */
  mdFiles(dir = ''): string[] {
    const out: string[] = [];
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(this.root, dir), { withFileTypes: true });
    } catch {
      return out;
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) out.push(...this.mdFiles(rel));
      else if (e.isFile() && e.name.endsWith('.md') && rel !== INBOX_FILE && rel !== LOGBOOK_FILE) out.push(rel);
    }
    return out.sort();
  }

  /** Everything where a text may legitimately end up: every file (conflict copies, Trash/ included) and purged/. */
  haystack(): string {
    const parts: string[] = [];
    const walk = (abs: string) => {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(abs, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const p = path.join(abs, e.name);
        if (e.isDirectory()) {
          // What the sync set aside is kept: purged documents' files and the version history.
          if (e.name === '.spacesync' && abs === this.root) {
            walk(path.join(p, 'purged'));
            walk(path.join(p, 'versions'));
          } else if (!e.name.startsWith('.')) walk(p);
        } else if (e.isFile() && e.name.endsWith('.md')) {
          // The name carries the title (a title written in the space is a text too).
          parts.push(normalizeLine(e.name.slice(0, -3)), fs.readFileSync(p, 'utf8').split('\n').map(normalizeLine).join('\n'));
        } else if (e.isFile() && e.name.endsWith('.excalidraw')) {
          // A whiteboard's scene file: its texts are the mirror's too.
          parts.push(fs.readFileSync(p, 'utf8').split('\n').map(normalizeLine).join('\n'));
        } else if (e.isFile() && e.name.endsWith('.md.gz')) {
          // A version kept gzipped.
          parts.push(unpackVersion(e.name, fs.readFileSync(p)).split('\n').map(normalizeLine).join('\n'));
        }
      }
    };
    walk(this.root);
    return parts.join('\n');
  }

  // ---- the service ----

  async admin(method: string, p: string, body?: unknown): Promise<any> {
    const r = await fetch(`${this.server.adminUrl}${p}`, {
      method,
      headers: { authorization: `Bearer ${this.server.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`admin ${method} ${p}: ${r.status} ${text}`);
    const json = JSON.parse(text);
    if (p === '/clock' && typeof json.ms === 'number') this.offset = json.ms - Date.now();
    return json;
  }

  snapshot(): Promise<SpaceFixture> {
    return this.admin('GET', '/snapshot') as Promise<SpaceFixture>;
  }

  /** The request log: every request under the link, in the order answered. */
  async requests(): Promise<LoggedRequest[]> {
    return (await this.admin('GET', '/requests')).items as LoggedRequest[];
  }

  /** The log without the harness's own calls: what the spacesync processes sent. */
  async clientRequests(): Promise<LoggedRequest[]> {
    return this.withoutHarness(await this.requests());
  }

  withoutHarness(log: readonly LoggedRequest[]): LoggedRequest[] {
    const left = [...this.harnessCalls];
    return log.filter((r) => {
      const i = left.findIndex((c) => c.method === r.method && c.path === r.path && c.status === r.status && r.t >= c.from - 5 && r.t <= c.to + 5);
      if (i < 0) return true;
      left.splice(i, 1);
      return false;
    });
  }

  /** The harness's own calls, as logged times, for the budget check. */
  harnessTimes(): number[] {
    return this.harnessCalls.map((c) => c.to);
  }

  /** A request to the space as another client (the app) sends it; recorded so the oracles can leave it out. */
  async api(method: string, p: string, body?: unknown, query?: Record<string, string>): Promise<ApiAnswer> {
    const qs = query ? `?${new URLSearchParams(query).toString()}` : '';
    const from = this.serverNow();
    let r: Response;
    let text: string;
    try {
      r = await fetch(`${this.server.baseUrl}${p}${qs}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      text = await r.text();
    } catch (e) {
      // A connection reset (an injected fault took this request): it may have been applied.
      this.harnessCalls.push({ method, path: p, status: 0, from, to: this.serverNow() });
      return { status: 0, headers: {}, body: String((e as Error).cause ?? e) };
    }
    this.harnessCalls.push({ method, path: p, status: r.status, from, to: this.serverNow() });
    let json: any = text;
    try {
      json = JSON.parse(text);
    } catch {
      // an HTML 404 or empty body stays text
    }
    return { status: r.status, headers: Object.fromEntries(r.headers), body: json };
  }

  /**
   * A change made in the space by another client. Its texts are recorded; the texts of the blocks
   * it overwrites or deletes are retired (that side saw them), and those blocks count as touched.
   */
  async remote(method: string, p: string, body?: unknown, query?: Record<string, string>): Promise<ApiAnswer> {
    const before = method === 'GET' ? undefined : await this.snapshot();
    const b = (body ?? {}) as Record<string, any>;
    const textsOf = (ids: readonly string[]) => {
      if (!before) return [];
      const wanted = new Set(ids);
      // A document's own id names its title (its root block).
      const titles = (before.documents ?? []).filter((d) => wanted.has(d.id!)).map((d) => normalizeLine(d.title));
      return [
        ...titles,
        ...(before.documents ?? [])
          .flatMap((d) => fixtureBlocks(d.content))
          .filter((x) => x.id && wanted.has(x.id))
          .flatMap((x) => [x, ...fixtureBlocks(x.content)])
          .flatMap((x) => markdownLines(x.body ?? x.markdown ?? '')),
      ];
    };
    let retire: string[] = [];
    if (p === '/blocks' && method === 'PUT') {
      const ids = (b.blocks ?? []).filter((x: any) => typeof x.markdown === 'string').map((x: any) => x.id as string);
      retire = textsOf(ids);
      for (const x of b.blocks ?? []) this.touchedIds.add(x.id);
    } else if (p === '/blocks' && method === 'DELETE') {
      retire = textsOf(b.blockIds ?? []);
      for (const id of b.blockIds ?? []) this.touchedIds.add(id);
    } else if (p === '/blocks/move') {
      for (const id of b.blockIds ?? []) this.touchedIds.add(id);
    }
    const from = Date.now();
    const answer = await this.api(method, p, body, query);
    const to = Date.now();
    // A reset answer may have been applied: what it overwrote may be gone, what it wrote is not promised.
    if (answer.status === 0) this.ledger.retire(retire);
    if (answer.status !== 200) {
      this.note(`remote ${method} ${p} → ${answer.status}`);
      return answer;
    }
    this.ledger.retire(retire);
    const written: string[] = [];
    const collect = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(collect);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if (k === 'markdown' && typeof x === 'string') written.push(...markdownLines(x));
          else collect(x);
        }
      }
    };
    if (method !== 'GET') collect(body);
    this.ledger.record(written, `remote ${method} ${p}`, { from, to });
    this.note(`remote ${method} ${p} → ${answer.status}`);
    return answer;
  }

  /** Runs the harness's own reads with the limits lifted (they are not the client's budget), then puts them back. */
  async unlimited<T>(fn: () => Promise<T>): Promise<T> {
    const was = (await this.admin('GET', '/limits')) as { mode: 'spec' | 'off'; scale: number };
    if (was.mode === 'off') return fn();
    await this.admin('POST', '/limits', { mode: 'off' });
    try {
      return await fn();
    } finally {
      await this.admin('POST', '/limits', was);
    }
  }

  async armFault(spec: FaultSpec): Promise<void> {
    await this.admin('POST', '/faults', spec);
    this.faults.push({ spec, at: this.serverNow(), used: undefined });
    this.note(`fault armed ${JSON.stringify(spec)}`);
  }

  /** Disarms every fault, noting how many times each one answered. */
  async clearFaults(): Promise<void> {
    const left = (await this.admin('GET', '/faults')).items as Array<FaultSpec & { left: number }>;
    await this.admin('DELETE', '/faults');
    // The server lists armed faults in the order they were armed; spent ones are gone.
    const open = this.faults.filter((f) => f.used === undefined);
    let j = 0;
    for (const f of open) {
      const l = left[j];
      if (l && l.kind === f.spec.kind && JSON.stringify(l.match ?? null) === JSON.stringify(f.spec.match ?? null) && l.left <= (f.spec.count ?? 1)) {
        f.used = (f.spec.count ?? 1) - l.left;
        j++;
      } else {
        f.used = f.spec.count ?? 1;
      }
    }
    this.note('faults cleared');
  }

  /** How many of the armed faults' requests were taken so far (a fault is taken when its request arrives). */
  async faultsTaken(): Promise<number> {
    const left = (await this.admin('GET', '/faults')).items as Array<{ left: number }>;
    const open = this.faults.filter((f) => f.used === undefined);
    const armed = open.reduce((s, f) => s + (f.spec.count ?? 1), 0);
    return armed - left.reduce((s, f) => s + f.left, 0);
  }

  // ---- processes ----

  /** Spawns `spacesync <args>` on this mirror; a `sync` run is one segment of the budget check. */
  spawn(args: readonly string[], name?: string): CliProcess {
    const full = ['sync', 'plan', 'status', 'conflicts', 'history', 'restore', 'revert'].includes(args[0] ?? '') ? [...args, '--dir', this.root] : [...args];
    const proc = spawnCli(full);
    this.processes.add(proc);
    live.add(proc);
    const seg: Segment = { name: name ?? args.join(' '), start: this.serverNow(), end: undefined, killed: false };
    if (args[0] === 'sync' || args[0] === 'plan') this.segments.push(seg);
    void proc.done.then((r) => {
      seg.end = this.serverNow();
      seg.killed = r.signal === 'SIGKILL';
      this.processes.delete(proc);
      live.delete(proc);
    });
    if (name) this.named.set(name, proc);
    this.note(`spawned ${name ?? ''} spacesync ${args.join(' ')} (pid ${proc.child.pid})`);
    return proc;
  }

  async cycle(args: readonly string[] = []): Promise<CliResult & { requests: LoggedRequest[] }> {
    const before = (await this.requests()).length;
    const proc = this.spawn(['sync', '--once', ...args]);
    const r = await proc.done;
    const requests = this.withoutHarness((await this.requests()).slice(before));
    this.note(`cycle ${args.join(' ')} exit ${r.code}${r.signal ? ` (${r.signal})` : ''}; ${requests.length} requests`);
    return { ...r, requests };
  }

  process(name: string): CliProcess {
    const p = this.named.get(name);
    if (!p) throw new Error(`no process named "${name}" was started`);
    return p;
  }

  get daemon(): CliProcess | undefined {
    return this.daemonProc;
  }

  /** Starts the daemon and waits until its first cycle is done (it records its status in the journal after each one). */
  async startDaemon(o: { wait?: boolean; timeoutMs?: number } = {}): Promise<CliProcess> {
    if (this.daemonProc) throw new Error('a daemon is already running on this mirror');
    const proc = this.spawn(['sync'], 'daemon');
    this.daemonProc = proc;
    if (o.wait === false) return proc;
    const pid = proc.child.pid;
    let ended = false;
    void proc.done.then(() => {
      ended = true;
    });
    await this.until(
      'the daemon to finish its first cycle',
      () => {
        if (ended) throw new Error(`the daemon ended before its first cycle: ${JSON.stringify(proc.output())}`);
        const s = this.journalState('status.daemon') as { pid?: number } | undefined;
        return s?.pid === pid;
      },
      o.timeoutMs ?? 20_000,
    );
    return proc;
  }

  killDaemon(): Promise<CliResult> {
    return this.endDaemon('SIGKILL', (pid) => `daemon killed (pid ${pid})`);
  }

  stopDaemon(): Promise<CliResult> {
    return this.endDaemon('SIGTERM', (_pid, r) => `daemon stopped: exit ${r.code}`);
  }

  private async endDaemon(signal: NodeJS.Signals, what: (pid: number | undefined, r: CliResult) => string): Promise<CliResult> {
    const proc = this.daemonProc;
    if (!proc) throw new Error('no daemon is running');
    proc.child.kill(signal);
    const r = await proc.done;
    this.daemonProc = undefined;
    this.note(what(proc.child.pid, r));
    return r;
  }

  /** A key of the journal's state, read beside a running daemon (WAL readers never block it). */
  journalState(key: string): unknown {
    if (!fs.existsSync(journalPath(this.root))) return undefined;
    const j = openJournal(journalPath(this.root));
    try {
      return j.allState()[key];
    } finally {
      j.close();
    }
  }

  /** Polls `cond` until it holds; the timeout fails with what was awaited. */
  async until(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 20_000, everyMs = 40): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await cond()) return;
      if (Date.now() > deadline) throw new Error(`gave up after ${timeoutMs} ms waiting for ${what}`);
      await sleep(everyMs);
    }
  }

  /** A signature of the tree: paths, sizes, mtimes and inodes of everything outside `.spacesync/`. */
  treeSignature(): string {
    const parts: string[] = [];
    const walk = (rel: string) => {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(path.join(this.root, rel), { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const p = rel ? `${rel}/${e.name}` : e.name;
        if (p === '.spacesync') continue;
        try {
          const st = fs.statSync(path.join(this.root, p));
          parts.push(`${p}:${st.size}:${st.mtimeMs}:${st.ino}`);
        } catch {
          parts.push(`${p}:gone`);
        }
        if (e.isDirectory()) walk(p);
      }
    };
    walk('');
    return parts.sort().join('\n');
  }

  /**
   * Waits until the daemon is quiet: nothing in the tree and no writing request for longer than it
   * holds a removed file, and two full cycles (their folder listings) after the last change that
   * found nothing to do.
   */
  async waitQuiet(timeoutMs = 30_000, since = 0): Promise<void> {
    // Longer than the daemon holds a removed file for the other half of a rename
    // (max(1 s, 3 × (debounce + stability)), stability = debounce), so a delete it still holds counts.
    const quietMs = Math.max(1000, 6 * (this.config.debounceMs as number)) + 500;
    let sig = '';
    let writes = -1;
    let lastChange = Date.now();
    let lastChangeServer = Math.max(this.serverNow(), since);
    await this.until(
      'the daemon to be quiet (two polls with nothing to do)',
      async () => {
        const s = this.treeSignature();
        const log = await this.clientRequests();
        const w = log.filter((r) => r.method !== 'GET').length;
        if (s !== sig || w !== writes) {
          sig = s;
          writes = w;
          lastChange = Date.now();
          lastChangeServer = this.serverNow();
        }
        // Only a full cycle lists the folders (a push reads just the documents' listing).
        const listings = log.filter((r) => r.method === 'GET' && r.path === '/folders' && r.t > lastChangeServer).length;
        return Date.now() - lastChange >= quietMs && listings >= 2;
      },
      timeoutMs,
      50,
    );
    this.note('quiet');
  }

  /** Stops everything; the mirror stays on disk (for a look at its logs) when `keep` or SPACESYNC_KEEP_MIRROR is set. */
  async close(keep = process.env.SPACESYNC_KEEP_MIRROR === '1'): Promise<void> {
    for (const p of this.processes) p.child.kill('SIGKILL');
    await Promise.all([...this.processes].map((p) => p.done));
    await this.server.close();
    if (keep) console.log(`mirror kept: ${this.root}`);
    else {
      fs.rmSync(this.root, { recursive: true, force: true });
      // A scenario that failed with its root moved away (local.moveRoot) leaves it there.
      fs.rmSync(`${this.root}.away`, { recursive: true, force: true });
    }
  }
}

// The acceptance scenarios' harness: a scenario is a folder (`space.json` the starting space,
// `steps.json` what happens on each side, `expect.json` the end state). The harness runs the steps
// against the real server and the real `spacesync` (spawned; SIGKILLed where a step says so),
// checks the expected end state, then the oracles O1–O6 (oracles.ts; docs/testing.md).
import { linkAssets } from '../../src/core/media/linkAssets.js';
import { linkDocuments } from '../../src/core/links/linkDocuments.js';
import { targetsOf } from '../pull/targetsOf.js';
import { asBlockLinks, spaceBlocks } from '../pull/anchorLinks.js';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { flattenRemote } from '../../src/core/pull/flattenRemote.js';
import { sameContent } from '../../src/core/merge/blockContent.js';
import { parseFrontMatter } from '../../src/core/files/frontMatter.js';
import { markdownEquals, segmentFile, type Block, type Segment as FileSegment } from '../../src/dialect/index.js';
import { openJournal } from '../../src/journal/index.js';
import { isConflictCopy } from '../../src/mirror/index.js';
import { generateSpace, type FaultSpec, type LoggedRequest, type SpaceFixture } from '../../src/server/index.js';
import type { FixtureFolder } from '../../src/server/fixture/types.js';
import { journalPath } from '../../src/stateDir.js';
import { frontMatterParts } from '../../src/core/files/fileText.js';
import { unpackVersion } from '../../src/sync/context/versionsDir.js';
import type { CliResult } from '../cli/cliHarness.js';
import { checkOracles, treeState, type OracleOptions } from './oracles.js';
import { mediaOf } from '../pull/mediaOf.js';
import { normalizeLine } from './texts.js';
import { fixtureBlocks, sleep, World, type WorldOptions } from './world.js';

export const SCENARIOS_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(SCENARIOS_DIR, '../..');

/** How an editor saves a file (docs/mirror.md, "Watching"). */
export type EditorStyle = 'inPlace' | 'vim' | 'vimNoBackup' | 'jetbrains' | 'emacs' | 'atomic';

export interface CycleExpect {
  exit?: number;
  /** The writing requests, in order, as `METHOD /path`. */
  writes?: string[];
  /** The same, in any order. */
  writesUnordered?: string[];
  /** Blocks charged per writing request of this kind, in order (`"PUT /blocks": [1]`). */
  blocksCharged?: Record<string, number[]>;
  stdout?: string;
  stderr?: string;
  /** A pattern stderr must not match. */
  stderrNot?: string;
  /** The writing requests equal those of a `plan --json` saved under this name. */
  sameAsPlan?: string;
}

export type Step =
  | { do: 'local.write'; path: string; text: string }
  /** Raw bytes (hex, spaces allowed): what an editor saving UTF-16 or Latin-1 writes. */
  | { do: 'local.writeBytes'; path: string; hex: string }
  | { do: 'local.edit' | 'local.editorSave'; path: string; from: string; to: string; editor?: EditorStyle }
  | { do: 'local.delete'; path: string }
  | { do: 'local.rename'; from: string; to: string }
  | { do: 'local.mkdir'; path: string }
  | { do: 'local.writeSlowly'; path: string; paragraphs: number; chunkParagraphs?: number; pauseMs?: number }
  | { do: 'local.moveRoot' }
  | { do: 'local.restoreRoot' }
  | { do: 'remote'; method: string; path: string; body?: unknown; query?: Record<string, string>; status?: number; save?: string }
  | ({ do: 'fault' } & FaultSpec)
  | { do: 'faults.clear' }
  | { do: 'clock'; advanceMs: number }
  | { do: 'cycle'; args?: string[]; name?: string; expect?: CycleExpect }
  | { do: 'await'; name: string; expect?: CycleExpect }
  | { do: 'kill'; name: string }
  | { do: 'cli'; args: string[]; save?: string; expect?: CycleExpect }
  | { do: 'daemon.start' }
  | { do: 'daemon.kill' }
  | { do: 'daemon.stop'; expect?: { exit?: number } }
  | { do: 'mark'; name: string }
  | { do: 'treeMark'; name: string }
  | { do: 'wait'; for: 'quiet' }
  | { do: 'wait'; for: 'writes'; count: number; since?: string }
  | { do: 'wait'; for: 'faultsTaken'; count: number }
  | { do: 'wait'; for: 'files'; count: number }
  | { do: 'wait'; for: 'text'; path: string; contains: string }
  | { do: 'wait'; for: 'remoteText'; doc: string; contains: string }
  /** Lets the daemon poll on for a while (its polls are the point: what it says meanwhile). */
  | { do: 'wait'; for: 'time'; seconds: number }
  /** What the running daemon printed so far holds `matches` exactly `times` times. */
  | { do: 'daemon.said'; matches: string; times: number }
  | {
      do: 'expect';
      since?: string;
      writes?: string[];
      writesUnordered?: string[];
      blocksCharged?: Record<string, number[]>;
      noTornFiles?: boolean;
      state?: EndState;
      treeSame?: string;
    };

export interface ScenarioSteps {
  limits?: 'spec' | 'off';
  limitScale?: number;
  config?: Record<string, unknown>;
  initialSync?: 'inProcess' | 'none';
  steps: Step[];
}

export type FileExpect = string | null | { contains?: string | string[]; notContains?: string | string[]; matches?: string };

/** The state a scenario ends in (expect.json), or a check in the middle (`expect` step's `state`). */
export interface EndState {
  files?: Record<string, FileExpect>;
  /** Versions kept of a file in `.spacesync/versions/<path>/`: how many, and texts the newest holds. */
  versions?: Record<string, { count?: number; newestContains?: string | string[] }>;
  /** Files whose bytes are exactly these (hex, spaces allowed), or start with them (`prefix`). */
  bytes?: Record<string, string | { prefix: string }>;
  /** Exactly these document files (conflict copies included), nothing else. */
  fileList?: string[];
  /** Directories that must exist (true) or not (false). */
  dirs?: Record<string, boolean>;
  /** No file or directory name under the root matches this pattern. */
  noPathMatches?: string;
  /** A document's blocks (markdown, in order), by id. */
  documents?: Record<string, string[]>;
  /** Documents the scenario created: by title, their blocks and place. */
  documentsByTitle?: Record<string, { blocks?: string[]; blockCount?: number; placed?: string; count?: number }>;
  /** Where a document is: `trash`, `unsorted`, `templates`, `daily`, or a folder's name. */
  placed?: Record<string, string>;
  titles?: Record<string, string>;
  /** Open conflicts: copies on disk and records in the journal. */
  conflicts?: number;
  /** Writing requests of the whole scenario (the spacesync processes'), as `METHOD /path`, in any order. */
  writes?: string[];
  /** Counts of requests of each kind over the whole scenario (`"PUT /blocks": 1`). */
  requests?: Record<string, number>;
  /** At most this many requests of each kind over the whole scenario. */
  maxRequests?: Record<string, number>;
  /** How many document files (conflict copies included) there are. */
  fileCount?: number;
  /** Blocks whose every stored field is as in the starting space. */
  unchanged?: string[];
  /** A product bug this scenario shows (the suite expects it to fail until the bug is fixed). */
  knownBug?: string;
  /** How the scenario fails while the bug is open (a pattern of the failure message). */
  knownBugFails?: string;
  /** Folder names the space has (exactly these). */
  folders?: string[];
  oracles?: OracleOptions;
}

export interface Scenario {
  name: string;
  dir: string;
  space: SpaceFixture;
  steps: ScenarioSteps;
  expect: EndState;
}

function readJson(file: string): any {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read ${path.relative(REPO, file)}: ${(e as Error).message}`, { cause: e });
  }
}

/** `space.json`: a fixture, `{"$ref": path}` (from the scenario's folder, else the repository), or `{"generate": options}`. */
export function loadSpace(dir: string): SpaceFixture {
  const raw = readJson(path.join(dir, 'space.json'));
  if (raw.$ref) {
    const local = path.resolve(dir, raw.$ref);
    return readJson(fs.existsSync(local) ? local : path.resolve(REPO, raw.$ref)) as SpaceFixture;
  }
  if (raw.generate) return generateSpace(raw.generate);
  return raw as SpaceFixture;
}

export function loadScenario(dir: string): Scenario {
  const stepsFile = path.join(dir, 'steps.json');
  const expectFile = path.join(dir, 'expect.json');
  return {
    name: path.basename(dir),
    dir,
    space: loadSpace(dir),
    steps: readJson(stepsFile) as ScenarioSteps,
    expect: fs.existsSync(expectFile) ? (readJson(expectFile) as EndState) : {},
  };
}

/** The scenario folders run by the harness, in order (`NN-name`; 24-chaos is run by test/chaos/). */
export function scenarioDirs(): string[] {
  return fs
    .readdirSync(SCENARIOS_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory() && /^\d\d[a-z]?-/.test(e.name) && fs.existsSync(path.join(SCENARIOS_DIR, e.name, 'steps.json')))
    .map((e) => path.join(SCENARIOS_DIR, e.name))
    .sort();
}

export class ScenarioFailure extends Error {}

const writesOf = (list: readonly LoggedRequest[]) => list.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
const asList = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function fail(message: string): never {
  throw new ScenarioFailure(message);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function checkRequests(what: string, got: readonly LoggedRequest[], e: Omit<CycleExpect, 'exit' | 'stdout' | 'stderr' | 'sameAsPlan'>): void {
  const writes = writesOf(got);
  if (e.writes && !same(writes, e.writes)) fail(`${what}: writing requests ${JSON.stringify(writes)}, expected ${JSON.stringify(e.writes)}`);
  if (e.writesUnordered && !same([...writes].sort(), [...e.writesUnordered].sort())) {
    fail(`${what}: writing requests ${JSON.stringify(writes)}, expected (any order) ${JSON.stringify(e.writesUnordered)}`);
  }
  for (const [kind, counts] of Object.entries(e.blocksCharged ?? {})) {
    const charged = got.filter((r) => `${r.method} ${r.path}` === kind).map((r) => r.blocksCharged);
    if (!same(charged, counts)) fail(`${what}: blocks of each ${kind}: ${JSON.stringify(charged)}, expected ${JSON.stringify(counts)}`);
  }
}

function checkCli(what: string, r: CliResult, e: CycleExpect | undefined, plans: Map<string, any>, requests?: readonly LoggedRequest[]): void {
  const exit = e?.exit ?? 0;
  if (r.code !== exit) fail(`${what}: exit ${r.code}${r.signal ? ` (${r.signal})` : ''}, expected ${exit}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
  if (e?.stdout && !new RegExp(e.stdout).test(r.stdout)) fail(`${what}: stdout does not match /${e.stdout}/:\n${r.stdout}`);
  if (e?.stderr !== undefined && !new RegExp(e.stderr).test(r.stderr)) fail(`${what}: stderr does not match /${e.stderr}/:\n${r.stderr}`);
  if (e?.stderrNot !== undefined && new RegExp(e.stderrNot).test(r.stderr)) fail(`${what}: stderr matches /${e.stderrNot}/:\n${r.stderr}`);
  if (requests && e) checkRequests(what, requests, e);
  if (requests && e?.sameAsPlan) {
    const plan = plans.get(e.sameAsPlan);
    if (!plan) fail(`${what}: no plan saved as "${e.sameAsPlan}"`);
    const planned = (plan.push.requests as Array<{ method: string; path: string }>).map((q) => `${q.method} ${q.path}`);
    const sent = writesOf(requests);
    if (!same(sent, planned)) fail(`${what}: sent ${JSON.stringify(sent)}, but the plan said ${JSON.stringify(planned)}`);
  }
}

/** Saves the way an editor does; `text` is the new content. */
export function editorSave(w: World, rel: string, text: string, editor: EditorStyle): void {
  const file = w.file(rel);
  const dir = path.dirname(file);
  const name = path.basename(file);
  switch (editor) {
    case 'inPlace':
      fs.writeFileSync(file, text);
      return;
    case 'vim': // swap file, the 4913 probe, backup by rename, write the new file, drop the backup
      fs.writeFileSync(path.join(dir, `.${name}.swp`), 'swap');
      fs.writeFileSync(path.join(dir, '4913'), '');
      fs.unlinkSync(path.join(dir, '4913'));
      fs.renameSync(file, `${file}~`);
      fs.writeFileSync(file, text);
      fs.unlinkSync(`${file}~`);
      fs.unlinkSync(path.join(dir, `.${name}.swp`));
      return;
    case 'vimNoBackup': // backupcopy=no: write a temp file, rename it over
      fs.writeFileSync(`${file}~`, text);
      fs.renameSync(`${file}~`, file);
      return;
    case 'jetbrains':
      fs.writeFileSync(`${file}___jb_tmp___`, text);
      fs.renameSync(file, `${file}___jb_old___`);
      fs.renameSync(`${file}___jb_tmp___`, file);
      fs.unlinkSync(`${file}___jb_old___`);
      return;
    case 'emacs': // lock and auto-save files, backup by rename, then the new file
      fs.writeFileSync(path.join(dir, `#${name}#`), 'autosave');
      fs.symlinkSync('user@host.1234', path.join(dir, `.#${name}`));
      fs.renameSync(file, `${file}~`);
      fs.writeFileSync(file, text);
      fs.unlinkSync(path.join(dir, `#${name}#`));
      fs.unlinkSync(path.join(dir, `.#${name}`));
      fs.unlinkSync(`${file}~`);
      return;
    case 'atomic': {
      // write-file-atomic: a dot-file beside it, renamed over
      const tmp = path.join(dir, `.${name}.${process.pid}.tmp`);
      fs.writeFileSync(tmp, text);
      fs.renameSync(tmp, file);
      return;
    }
  }
}

function listFiles(abs: string, rel = ''): string[] {
  if (!fs.existsSync(abs)) return [];
  if (!fs.statSync(abs).isDirectory()) return [rel];
  return fs.readdirSync(abs).flatMap((n) => listFiles(path.join(abs, n), rel ? `${rel}/${n}` : n));
}

const flatten = (segs: readonly FileSegment[]): FileSegment[] => segs.flatMap((s) => [s, ...flatten(s.children)]);

/** Every document file on disk is whole: its id, and exactly its document's blocks (a kill never tears a file). */
async function checkNoTornFiles(w: World): Promise<void> {
  const files = w.mdFiles().filter((p) => !isConflictCopy(p));
  if (files.length === 0) fail('no document file on disk');
  const ids = new Map<string, string>();
  for (const p of files) {
    const text = w.read(p);
    const fm = parseFrontMatter(frontMatterParts(text)?.inner, p);
    if (!fm.ok || !fm.id) fail(`${p} is torn: no id in its front matter:\n${text}`);
    ids.set(p, fm.id);
  }
  const pathById = new Map([...ids].map(([p, id]) => [id, p]));
  const targets = targetsOf(pathById);
  const trees = new Map<string, Block>();
  for (const [p, id] of ids) {
    const r = await w.api('GET', '/blocks', undefined, { id });
    if (r.status !== 200) fail(`GET /blocks of ${p}'s document answered ${r.status}: ${JSON.stringify(r.body)}`);
    trees.set(id, r.body as Block);
  }
  const space = spaceBlocks(pathById, trees);
  for (const [p, id] of ids) {
    const text = w.read(p);
    const remote = flattenRemote(linkDocuments(linkAssets(trees.get(id)!, p, mediaOf(w.root)), p, targets));
    const local = flatten(segmentFile(text).segments);
    // A link to a block's anchor and the space's block:// are one link; a marker on a block is no text.
    const same = (a: string, b: string, type: string) => sameContent(type, asBlockLinks(a, p, space), asBlockLinks(b, p, space), markdownEquals);
    const whole = local.length === remote.length && remote.every((b, i) => same(local[i]!.markdown, b.markdown, b.type));
    if (!whole) fail(`${p} is torn: its blocks are not its document's\n${text}`);
  }
}

function folderNames(s: SpaceFixture): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (list: readonly FixtureFolder[] | undefined) =>
    list?.forEach((f) => {
      out.set(f.id!, f.name);
      walk(f.folders);
    });
  walk(s.folders);
  return out;
}

function placeOf(d: NonNullable<SpaceFixture['documents']>[number], folders: Map<string, string>): string {
  if (d.location === 'trash') return 'trash';
  if (d.dailyNoteDate) return 'daily';
  if (d.folderId) return folders.get(d.folderId) ?? d.folderId;
  return d.location ?? 'unsorted';
}

async function remoteMarkdown(w: World, id: string): Promise<string[]> {
  const r = await w.api('GET', '/blocks', undefined, { id });
  if (r.status !== 200) fail(`document ${id}: GET /blocks answered ${r.status}`);
  return flattenRemote(r.body as Block).map((b) => b.markdown);
}

/** The expected state: files, documents, places, titles, conflicts, requests, untouched blocks. */
export async function checkState(w: World, e: EndState, log: readonly LoggedRequest[]): Promise<void> {
  for (const [p, want] of Object.entries(e.files ?? {})) {
    const text = w.readOrNull(p);
    if (want === null) {
      if (text !== null) fail(`${p} should not exist; it holds:\n${text}`);
      continue;
    }
    if (text === null) fail(`${p} does not exist (files: ${w.mdFiles().join(', ')})`);
    if (typeof want === 'string') {
      if (text !== want) fail(`${p} is ${JSON.stringify(text)}, expected ${JSON.stringify(want)}`);
      continue;
    }
    for (const c of asList(want.contains)) if (!text.includes(c)) fail(`${p} does not contain ${JSON.stringify(c)}:\n${text}`);
    for (const c of asList(want.notContains)) if (text.includes(c)) fail(`${p} contains ${JSON.stringify(c)}:\n${text}`);
    if (want.matches && !new RegExp(want.matches).test(text)) fail(`${p} does not match /${want.matches}/:\n${text}`);
  }
  const hex = (h: string) => h.replace(/\s+/g, '').toLowerCase();
  for (const [p, want] of Object.entries(e.bytes ?? {})) {
    if (!w.exists(p)) fail(`${p} does not exist`);
    const got = fs.readFileSync(w.file(p)).toString('hex');
    if (typeof want === 'string' ? got !== hex(want) : !got.startsWith(hex(want.prefix)))
      fail(`${p} holds the bytes ${got}, expected ${typeof want === 'string' ? hex(want) : `${hex(want.prefix)}…`}`);
  }
  for (const [p, want] of Object.entries(e.versions ?? {})) {
    const dir = path.join(w.root, '.spacesync', 'versions', ...p.split('/'));
    const names = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
    if (want.count !== undefined && names.length !== want.count) fail(`${names.length} versions of ${p} kept (${names.join(', ')}), expected ${want.count}`);
    const newestName = names[names.length - 1];
    const newest = newestName ? unpackVersion(newestName, fs.readFileSync(path.join(dir, newestName))) : '';
    for (const c of asList(want.newestContains)) if (!newest.includes(c)) fail(`the newest version of ${p} does not contain ${JSON.stringify(c)}:\n${newest}`);
  }
  if (e.fileList && !same(w.mdFiles(), [...e.fileList].sort()))
    fail(`the document files are ${JSON.stringify(w.mdFiles())}, expected ${JSON.stringify([...e.fileList].sort())}`);
  for (const [p, want] of Object.entries(e.dirs ?? {})) {
    const is = fs.existsSync(w.file(p)) && fs.statSync(w.file(p)).isDirectory();
    if (is !== want) fail(`${p} should ${want ? '' : 'not '}be a directory`);
  }
  if (e.noPathMatches) {
    const re = new RegExp(e.noPathMatches);
    const bad = listFiles(w.root).filter((p) => !p.startsWith('.spacesync/') && re.test(p));
    if (bad.length > 0) fail(`paths matching /${e.noPathMatches}/ remain: ${bad.join(', ')}`);
  }
  const snap = await w.snapshot();
  const folders = folderNames(snap);
  const docs = snap.documents ?? [];
  for (const [id, blocks] of Object.entries(e.documents ?? {})) {
    const got = await remoteMarkdown(w, id);
    if (!same(got, blocks)) fail(`document ${id} holds ${JSON.stringify(got)}, expected ${JSON.stringify(blocks)}`);
  }
  for (const [id, where] of Object.entries(e.placed ?? {})) {
    const d = docs.find((x) => x.id === id);
    if (!d) fail(`document ${id} is not in the space`);
    const got = placeOf(d, folders);
    if (got !== where) fail(`document ${id} is in ${got}, expected ${where}`);
  }
  for (const [id, title] of Object.entries(e.titles ?? {})) {
    const d = docs.find((x) => x.id === id);
    if (d?.title !== title) fail(`document ${id} is titled ${JSON.stringify(d?.title)}, expected ${JSON.stringify(title)}`);
  }
  for (const [title, want] of Object.entries(e.documentsByTitle ?? {})) {
    const found = docs.filter((d) => d.title === title);
    if (found.length !== (want.count ?? 1)) fail(`${found.length} documents titled ${JSON.stringify(title)}, expected ${want.count ?? 1}`);
    const d = found[0]!;
    if (want.placed && placeOf(d, folders) !== want.placed) fail(`${JSON.stringify(title)} is in ${placeOf(d, folders)}, expected ${want.placed}`);
    if (want.blocks || want.blockCount !== undefined) {
      const got = await remoteMarkdown(w, d.id!);
      if (want.blocks && !same(got, want.blocks)) fail(`${JSON.stringify(title)} holds ${JSON.stringify(got)}, expected ${JSON.stringify(want.blocks)}`);
      if (want.blockCount !== undefined && got.length !== want.blockCount)
        fail(`${JSON.stringify(title)} holds ${got.length} blocks, expected ${want.blockCount}`);
    }
  }
  if (e.folders) {
    const names = [...folders.values()].sort();
    if (!same(names, [...e.folders].sort())) fail(`the space's folders are ${JSON.stringify(names)}, expected ${JSON.stringify([...e.folders].sort())}`);
  }
  if (e.conflicts !== undefined) {
    const copies = listFiles(w.root).filter((p) => !p.startsWith('.spacesync/') && isConflictCopy(p));
    if (copies.length !== e.conflicts) fail(`${copies.length} conflict copies (${copies.join(', ')}), expected ${e.conflicts}`);
    const j = openJournal(journalPath(w.root));
    try {
      const n = j.listConflicts().length;
      if (n !== e.conflicts) fail(`${n} conflicts recorded in the journal, expected ${e.conflicts}`);
      for (const c of j.listConflicts()) if (!w.exists(c.copyPath)) fail(`the conflict of ${c.path} names the copy ${c.copyPath}, which is not there`);
    } finally {
      j.close();
    }
  }
  const client = w.withoutHarness(log);
  if (e.writes) {
    const got = writesOf(client).sort();
    if (!same(got, [...e.writes].sort()))
      fail(`the scenario's writing requests were ${JSON.stringify(writesOf(client))}, expected (any order) ${JSON.stringify(e.writes)}`);
  }
  for (const [kind, n] of Object.entries(e.requests ?? {})) {
    const got = client.filter((r) => `${r.method} ${r.path}` === kind).length;
    if (got !== n) fail(`${got} requests ${kind} in the scenario, expected ${n}`);
  }
  for (const [kind, n] of Object.entries(e.maxRequests ?? {})) {
    const got = client.filter((r) => `${r.method} ${r.path}` === kind).length;
    if (got > n) fail(`${got} requests ${kind} in the scenario, expected at most ${n}`);
  }
  if (e.fileCount !== undefined && w.mdFiles().length !== e.fileCount) fail(`${w.mdFiles().length} document files, expected ${e.fileCount}`);
  if (e.unchanged) {
    const strip = (b: unknown) => JSON.stringify(b);
    const before = new Map((w.initial.documents ?? []).flatMap((d) => fixtureBlocks(d.content)).map((b) => [b.id!, strip(b)]));
    const after = new Map(docs.flatMap((d) => fixtureBlocks(d.content)).map((b) => [b.id!, strip(b)]));
    for (const id of e.unchanged) {
      if (!before.has(id)) fail(`block ${id} is not in the starting space`);
      if (before.get(id) !== after.get(id)) fail(`block ${id} changed:\n  before ${before.get(id)}\n  after  ${after.get(id) ?? '(gone)'}`);
    }
  }
}

/** The tree (contents, inodes, mtimes) and the journal's bytes: what a run that changes nothing leaves as it was. */
function treeWithJournal(w: World): Map<string, string> {
  const out = treeState(w.root);
  for (const f of ['journal.db', 'journal.db-wal']) {
    const p = path.join(w.root, '.spacesync', f);
    if (fs.existsSync(p)) out.set(`.spacesync/${f}`, createHash('sha256').update(fs.readFileSync(p)).digest('hex'));
  }
  return out;
}

/** `"${name.items.0.id}"` in a step's body or query: a value from the answer a `remote` step saved as `name`. */
function substitute(v: unknown, saved: ReadonlyMap<string, any>): unknown {
  if (typeof v === 'string') {
    return v.replace(/\$\{([^}]+)\}/g, (_m, ref: string) => {
      const [name, ...keys] = ref.split('.');
      let x: any = saved.get(name!);
      for (const k of keys) x = x?.[k];
      if (x === undefined) fail(`nothing saved under ${ref}`);
      return String(x);
    });
  }
  if (Array.isArray(v)) return v.map((x) => substitute(x, saved));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, substitute(x, saved)]));
  return v;
}

/** Runs one scenario's steps on a world. */
export async function runSteps(w: World, steps: readonly Step[]): Promise<void> {
  const marks = new Map<string, number>();
  const plans = new Map<string, any>();
  const saved = new Map<string, any>();
  const trees = new Map<string, Map<string, string>>();
  let movedRoot: string | undefined;
  for (const [i, step] of steps.entries()) {
    const where = `step ${i + 1} (${step.do})`;
    switch (step.do) {
      case 'local.write': {
        const before = w.readOrNull(step.path);
        fs.mkdirSync(path.dirname(w.file(step.path)), { recursive: true });
        fs.writeFileSync(w.file(step.path), step.text);
        w.localChange(step.path, before, step.text, 'local write');
        break;
      }
      case 'local.writeBytes': {
        const before = w.readOrNull(step.path);
        const bytes = Buffer.from(step.hex.replace(/\s+/g, ''), 'hex');
        fs.mkdirSync(path.dirname(w.file(step.path)), { recursive: true });
        fs.writeFileSync(w.file(step.path), bytes);
        w.localChange(step.path, before, bytes.toString('utf8'), 'local write of raw bytes');
        break;
      }
      case 'local.edit':
      case 'local.editorSave': {
        const before = w.readOrNull(step.path);
        if (before === null) fail(`${where}: ${step.path} does not exist`);
        if (!before.includes(step.from)) fail(`${where}: ${step.path} does not contain ${JSON.stringify(step.from)}:\n${before}`);
        const after = before.replace(step.from, step.to);
        editorSave(w, step.path, after, step.editor ?? 'inPlace');
        w.localChange(step.path, before, after, `local save (${step.editor ?? 'inPlace'})`);
        break;
      }
      case 'local.delete':
        if (!w.exists(step.path)) fail(`${where}: ${step.path} does not exist`);
        await w.localDelete(step.path);
        break;
      case 'local.rename':
        fs.mkdirSync(path.dirname(w.file(step.to)), { recursive: true });
        fs.renameSync(w.file(step.from), w.file(step.to));
        w.localRename(step.from, step.to);
        break;
      case 'local.mkdir':
        fs.mkdirSync(w.file(step.path), { recursive: true });
        w.note(`local mkdir ${step.path}`);
        break;
      case 'local.writeSlowly': {
        const paragraphs = Array.from({ length: step.paragraphs }, (_, k) => `paragraph number ${k + 1} of a note written slowly`);
        const per = step.chunkParagraphs ?? 1;
        const fd = fs.openSync(w.file(step.path), 'w');
        try {
          for (let k = 0; k < paragraphs.length; k += per) {
            fs.writeSync(
              fd,
              paragraphs
                .slice(k, k + per)
                .map((p) => `${p}\n\n`)
                .join(''),
            );
            await sleep(step.pauseMs ?? 20);
          }
        } finally {
          fs.closeSync(fd);
        }
        w.localChange(step.path, null, w.read(step.path), 'local slow write');
        break;
      }
      case 'local.moveRoot':
        movedRoot = `${w.root}.away`;
        fs.renameSync(w.root, movedRoot);
        w.note('the mirror root moved away');
        break;
      case 'local.restoreRoot':
        if (!movedRoot) fail(`${where}: the root was not moved away`);
        fs.renameSync(movedRoot, w.root);
        movedRoot = undefined;
        w.note('the mirror root is back');
        break;
      case 'remote': {
        const body = substitute(step.body, saved) as unknown;
        const query = substitute(step.query, saved) as Record<string, string> | undefined;
        const r = await w.remote(step.method, step.path, body, query);
        if (r.status !== (step.status ?? 200)) fail(`${where}: ${step.method} ${step.path} answered ${r.status}: ${JSON.stringify(r.body)}`);
        if (step.save) saved.set(step.save, r.body);
        break;
      }
      case 'fault': {
        const { do: _do, ...spec } = step;
        await w.armFault(spec);
        break;
      }
      case 'faults.clear':
        await w.clearFaults();
        break;
      case 'clock':
        await w.admin('POST', '/clock', { advanceMs: step.advanceMs });
        w.note(`server clock +${step.advanceMs} ms`);
        break;
      case 'cycle': {
        if (step.name) {
          w.spawn(['sync', '--once', ...(step.args ?? [])], step.name);
          marks.set(`start:${step.name}`, (await w.requests()).length);
          break;
        }
        const r = await w.cycle(step.args ?? []);
        checkCli(where, r, step.expect, plans, r.requests);
        break;
      }
      case 'await': {
        const r = await w.process(step.name).done;
        const from = marks.get(`start:${step.name}`) ?? 0;
        const requests = w.withoutHarness((await w.requests()).slice(from));
        w.note(`${step.name} ended: exit ${r.code}${r.signal ? ` (${r.signal})` : ''}`);
        checkCli(`${where} ${step.name}`, r, step.expect, plans, requests);
        break;
      }
      case 'kill': {
        const proc = w.process(step.name);
        proc.child.kill('SIGKILL');
        const r = await proc.done;
        if (r.signal !== 'SIGKILL') fail(`${where}: ${step.name} ended by itself (exit ${r.code}) before the kill:\n${r.stdout}\n${r.stderr}`);
        w.note(`${step.name} killed`);
        break;
      }
      case 'cli': {
        const r = await w.spawn(step.args).done;
        checkCli(where, r, step.expect, plans);
        if (step.save) plans.set(step.save, JSON.parse(r.stdout));
        break;
      }
      case 'daemon.start':
        await w.startDaemon();
        break;
      case 'daemon.said': {
        const o = (w.daemon ?? w.process('daemon')).output();
        const found = (o.stdout + o.stderr).match(new RegExp(step.matches, 'g'))?.length ?? 0;
        if (found !== step.times)
          fail(`${where}: the daemon said ${JSON.stringify(step.matches)} ${found} time(s), expected ${step.times}:\n${o.stdout}\n${o.stderr}`);
        break;
      }
      case 'daemon.kill': {
        const r = await w.killDaemon();
        if (r.signal !== 'SIGKILL') fail(`${where}: the daemon had stopped by itself (exit ${r.code}):\n${r.stderr}`);
        break;
      }
      case 'daemon.stop': {
        const r = await w.stopDaemon();
        if (r.code !== (step.expect?.exit ?? 0)) fail(`${where}: the daemon stopped with exit ${r.code}:\n${r.stdout}\n${r.stderr}`);
        break;
      }
      case 'mark':
        marks.set(step.name, (await w.requests()).length);
        break;
      case 'treeMark':
        trees.set(step.name, treeWithJournal(w));
        break;
      case 'wait':
        await waitFor(w, step, marks);
        break;
      case 'expect': {
        const log = await w.requests();
        const since = step.since === undefined ? 0 : marks.get(step.since);
        if (since === undefined) fail(`${where}: no mark "${step.since}"`);
        checkRequests(where, w.withoutHarness(log.slice(since)), step);
        if (step.treeSame !== undefined) {
          const before = trees.get(step.treeSame);
          if (!before) fail(`${where}: no tree mark "${step.treeSame}"`);
          const now = treeWithJournal(w);
          const changed = [...new Set([...before.keys(), ...now.keys()])].filter((p) => before.get(p) !== now.get(p));
          if (changed.length > 0) fail(`${where}: changed since "${step.treeSame}": ${changed.join(', ')}`);
        }
        if (step.noTornFiles) await w.unlimited(() => checkNoTornFiles(w));
        if (step.state) await w.unlimited(() => checkState(w, step.state!, log));
        break;
      }
      default:
        fail(`${where}: unknown step ${JSON.stringify(step)}`);
    }
  }
}

async function waitFor(w: World, step: Extract<Step, { do: 'wait' }>, marks: Map<string, number>): Promise<void> {
  switch (step.for) {
    case 'quiet':
      await w.waitQuiet();
      return;
    case 'time':
      await new Promise((resolve) => setTimeout(resolve, step.seconds * 1000));
      return;
    case 'writes': {
      const from = step.since === undefined ? 0 : (marks.get(step.since) ?? 0);
      await w.until(
        `${step.count} writing request(s)`,
        async () => writesOf(w.withoutHarness((await w.requests()).slice(from))).length >= step.count,
        20_000,
        10,
      );
      return;
    }
    case 'faultsTaken':
      await w.until(`${step.count} request(s) taken by the armed faults`, async () => (await w.faultsTaken()) >= step.count, 20_000, 10);
      return;
    case 'files':
      await w.until(`${step.count} document files on disk`, () => w.mdFiles().length >= step.count, 20_000, 10);
      return;
    case 'text':
      await w.until(`${step.path} to contain ${JSON.stringify(step.contains)}`, () => (w.readOrNull(step.path) ?? '').includes(step.contains));
      return;
    case 'remoteText': {
      const want = normalizeLine(step.contains);
      await w.until(
        `document ${step.doc} to contain ${JSON.stringify(step.contains)}`,
        async () => {
          const d = (await w.snapshot()).documents?.find((x) => x.id === step.doc);
          return !!d && fixtureBlocks(d.content).some((b) => normalizeLine(b.body ?? b.markdown ?? '').includes(want));
        },
        20_000,
        50,
      );
    }
  }
}

/** Opens the world a scenario asks for. */
export function openScenarioWorld(s: Scenario): Promise<World> {
  const o: WorldOptions = { fixture: s.space, name: s.name };
  if (s.steps.limits) o.limits = s.steps.limits;
  if (s.steps.limitScale) o.limitScale = s.steps.limitScale;
  if (s.steps.config) o.config = s.steps.config;
  if (s.steps.initialSync) o.initialSync = s.steps.initialSync;
  return World.open(o);
}

/** Runs a scenario folder: steps, the expected end state, then the oracles. Throws with everything that failed. */
export async function runScenario(dir: string): Promise<void> {
  const s = loadScenario(dir);
  const w = await openScenarioWorld(s);
  try {
    try {
      await runSteps(w, s.steps.steps);
      const last = s.steps.steps[s.steps.steps.length - 1];
      if (w.daemon && !(last?.do === 'wait' && last.for === 'quiet')) await w.waitQuiet();
      const log = await w.requests();
      await w.unlimited(() => checkState(w, s.expect, log));
    } catch (e) {
      throw new ScenarioFailure(`${s.name}: ${(e as Error).message}\n--- what happened\n${w.events.join('\n')}`, { cause: e });
    }
    const failures = await checkOracles(w, s.expect.oracles ?? {});
    if (failures.length > 0) throw new ScenarioFailure(`${s.name}: the oracles failed:\n${failures.join('\n')}\n--- what happened\n${w.events.join('\n')}`);
  } finally {
    await w.close();
  }
}

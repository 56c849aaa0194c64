// The oracles (docs/testing.md, "The oracles"), checked after every scenario and every chaos run once both sides
// are quiet. Each returns the ways it failed (an empty list: it holds), so one run reports them all:
// O1 nothing lost, O2 convergence, O3 idempotence, O4 budget, O5 identity, O6 the journal.
import { linkAssets } from '../../src/core/media/linkAssets.js';
import { linkDocuments } from '../../src/core/links/linkDocuments.js';
import { targetsOf } from '../pull/targetsOf.js';
import { asBlockLinks, spaceBlocks } from '../pull/anchorLinks.js';
import fs from 'node:fs';
import path from 'node:path';
import { sameContent } from '../../src/core/merge/blockContent.js';
import { flattenRemote } from '../../src/core/pull/flattenRemote.js';
import { parseFrontMatter } from '../../src/core/files/frontMatter.js';
import { markdownEquals, segmentFile, type Block, type Segment as FileSegment } from '../../src/dialect/index.js';
import { openJournal } from '../../src/journal/index.js';
import { hashText, isConflictCopy } from '../../src/mirror/index.js';
import type { LoggedRequest, SpaceFixture } from '../../src/server/index.js';
import type { FixtureBlock, FixtureFolder } from '../../src/server/fixture/types.js';
import { journalPath } from '../../src/stateDir.js';
import { mediaOf } from '../pull/mediaOf.js';
import { frontMatterParts } from '../../src/core/files/fileText.js';
import { normalizeLine, type Entry } from './texts.js';
import { RECHECK_AFTER_MS } from '../../src/sync/documents/push/executePlan.js';
import { fixtureBlocks, type World } from './world.js';

export type OracleName = 'O1' | 'O2' | 'O3' | 'O4' | 'O5' | 'O6';

export interface OracleOptions {
  skip?: OracleName[];
  /** Changes the service cannot take are kept in their files (hash `unsent`); their bodies may differ. */
  heldBack?: string[];
  /** Files the sync leaves alone (not UTF-8 text, or wiping their document): their documents are not compared with them. */
  notSynced?: string[];
  /** Texts that may appear twice in one document (the fixture has them). */
  allowDuplicateTexts?: boolean;
  /** Block ids that a step changed without the harness knowing (purged with their document, …). */
  touched?: string[];
  /** The exit code the extra cycle of O3 must end with (0). */
  idleExit?: number;
}

const SPACE_WINDOW = 60_000;
const ADDRESS_WINDOW = 10_000;
const SPACE_LIMIT = 100;
const ADDRESS_LIMIT = 50;
const BLOCK_LIMIT = 20_000;
/** Requests a killed process may have left in flight (the client's maxInFlight). */
const IN_FLIGHT = 8;

const flatten = (segs: readonly FileSegment[]): FileSegment[] => segs.flatMap((s) => [s, ...flatten(s.children)]);

/** The document files (conflict copies aside): id → path; problems with ids. */
function filesById(w: World, failures: string[], heldBack: readonly string[] = []): Map<string, string> {
  const byId = new Map<string, string>();
  for (const p of w.mdFiles()) {
    if (isConflictCopy(p) || heldBack.includes(p)) continue;
    const fm = parseFrontMatter(frontMatterParts(w.read(p))?.inner, p);
    const id = fm.ok ? fm.id : undefined;
    if (!id) {
      failures.push(`${p} has no id in its front matter`);
      continue;
    }
    const other = byId.get(id);
    if (other) failures.push(`two files claim document ${id}: ${other} and ${p}`);
    else byId.set(id, p);
  }
  return byId;
}

async function getJson(w: World, p: string, query?: Record<string, string>): Promise<any> {
  const r = await w.api('GET', p, undefined, query);
  if (r.status !== 200) throw new Error(`GET ${p} ${JSON.stringify(query ?? {})} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/** O2: one file per document of the space, each saying exactly what the service holds, block by block. */
export async function checkConvergence(w: World, o: OracleOptions = {}): Promise<string[]> {
  const failures: string[] = [];
  const listing = (await getJson(w, '/documents')).items as Array<{ id: string; title: string }>;
  const media = mediaOf(w.root);
  const byId = filesById(w, failures, o.notSynced);
  const listed = new Set(listing.map((d) => d.id));
  for (const [id, p] of byId) if (!listed.has(id)) failures.push(`${p} names document ${id}, which the space does not have`);
  const pathOf = new Map<string, string>();
  if ((o.notSynced ?? []).length > 0) {
    const j = openJournal(journalPath(w.root));
    try {
      for (const r of j.listDocuments()) pathOf.set(r.id, r.path);
    } finally {
      j.close();
    }
  }
  // Every document's blocks first: a link to a block's anchor in one file is read back by the block's own document.
  const trees = new Map<string, Block>();
  for (const d of listing) trees.set(d.id, (await getJson(w, '/blocks', { id: d.id })) as Block);
  const space = spaceBlocks(byId, trees);
  for (const d of listing) {
    const p = byId.get(d.id);
    if (!p && (o.notSynced ?? []).includes(pathOf.get(d.id) ?? '')) continue;
    if (!p) {
      failures.push(`document ${d.id} ("${d.title}") has no file`);
      continue;
    }
    const remote = flattenRemote(linkDocuments(linkAssets(trees.get(d.id)!, p, media), p, targetsOf(byId)));
    const local = flatten(segmentFile(w.read(p)).segments);
    if ((o.heldBack ?? []).includes(p)) continue;
    if (local.length !== remote.length) {
      failures.push(
        `${p}: ${local.length} blocks in the file, ${remote.length} in the space\n  file:  ${JSON.stringify(local.map((s) => s.markdown))}\n  space: ${JSON.stringify(remote.map((r) => r.markdown))}`,
      );
      continue;
    }
    // A link to a block's anchor and the space's block:// are one link; a marker on a block is no text.
    const same = (a: string, b: string, type: string) => sameContent(type, asBlockLinks(a, p, space), asBlockLinks(b, p, space), markdownEquals);
    remote.forEach((r, i) => {
      const l = local[i]!;
      if (l.kind !== r.kind || !same(l.markdown, r.markdown, r.type)) {
        failures.push(`${p}: block ${i} (${r.id}) differs: file ${JSON.stringify(l.markdown)} (${l.kind}), space ${JSON.stringify(r.markdown)} (${r.kind})`);
      }
    });
    if (!o.allowDuplicateTexts) {
      const texts = remote.filter((r) => r.kind === 'block' && r.markdown.trim() !== '').map((r) => r.markdown);
      const twice = texts.filter((t, i) => texts.indexOf(t) !== i);
      if (twice.length > 0) failures.push(`${p}: a block is in the document twice: ${JSON.stringify(twice)}`);
    }
  }
  return failures;
}

/** Every file and directory outside `.spacesync/` with its content, inode and mtime. */
export function treeState(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (p === '.spacesync') continue;
      const st = fs.statSync(path.join(root, p));
      if (e.isDirectory()) {
        out.set(`${p}/`, 'dir');
        walk(p);
      } else {
        out.set(p, `${hashText(fs.readFileSync(path.join(root, p), 'utf8'))} ino ${st.ino} mtime ${st.mtimeMs}`);
      }
    }
  };
  walk('');
  return out;
}

/** O3: one more `sync --once` sends no writing request and rewrites no file. */
export async function checkIdempotent(w: World, o: OracleOptions = {}): Promise<string[]> {
  const failures: string[] = [];
  const before = treeState(w.root);
  const r = await w.cycle();
  const want = o.idleExit ?? 0;
  if (r.code !== want) failures.push(`the extra cycle ended with exit ${r.code} (want ${want}): ${r.stderr.trim() || r.stdout.trim()}`);
  const writes = r.requests.filter((q) => q.method !== 'GET').map((q) => `${q.method} ${q.path}`);
  if (writes.length > 0) failures.push(`the extra cycle sent writing requests: ${writes.join(', ')}`);
  const after = treeState(w.root);
  for (const [p, v] of after) {
    const b = before.get(p);
    if (b === undefined) failures.push(`the extra cycle created ${p}`);
    else if (b !== v) failures.push(`the extra cycle rewrote ${p}`);
  }
  for (const p of before.keys()) if (!after.has(p)) failures.push(`the extra cycle removed ${p}`);
  return failures;
}

function slidingMax(times: readonly { t: number; weight: number }[], windowMs: number): { max: number; at: number } {
  let best = { max: 0, at: 0 };
  let sum = 0;
  let j = 0;
  for (let i = 0; i < times.length; i++) {
    sum += times[i]!.weight;
    while (times[j]!.t < times[i]!.t - windowMs + 1) sum -= times[j++]!.weight;
    if (sum > best.max) best = { max: sum, at: times[i]!.t };
  }
  return best;
}

/**
 * O4: each spacesync process kept within the limits in every window (sliding, which bounds the
 * service's fixed windows), no 429 but the injected ones (or ones the harness's own requests
 * explain), and no request went before an injected `Retry-After` had passed.
 */
export function checkBudget(w: World, log: readonly LoggedRequest[]): string[] {
  const failures: string[] = [];
  const client = w
    .withoutHarness(log)
    .slice()
    .sort((a, b) => a.t - b.t);
  const scale = w.limits === 'spec' ? w.limitScale : undefined;
  if (scale !== undefined) {
    w.segments.forEach((seg, i) => {
      const end = seg.end ?? Number.POSITIVE_INFINITY;
      const reqs = client.filter((r) => r.t >= seg.start && r.t <= end);
      // A killed predecessor's requests in flight may be answered inside this process's first window.
      const prev = w.segments[i - 1];
      const slack = prev && prev.killed && prev.end !== undefined && seg.start - prev.end < SPACE_WINDOW * scale ? IN_FLIGHT : 0;
      const one = reqs.map((r) => ({ t: r.t, weight: 1 }));
      const space = slidingMax(one, SPACE_WINDOW * scale);
      if (space.max > SPACE_LIMIT + slack)
        failures.push(`${seg.name}: ${space.max} requests within ${SPACE_WINDOW * scale} ms (limit ${SPACE_LIMIT}), at t=${space.at}`);
      const address = slidingMax(one, ADDRESS_WINDOW * scale);
      if (address.max > ADDRESS_LIMIT + slack)
        failures.push(`${seg.name}: ${address.max} requests within ${ADDRESS_WINDOW * scale} ms (limit ${ADDRESS_LIMIT}), at t=${address.at}`);
      const blocks = slidingMax(
        reqs.filter((r) => r.status !== 429).map((r) => ({ t: r.t, weight: r.blocksCharged })),
        SPACE_WINDOW * scale,
      );
      const biggest = Math.max(0, ...reqs.map((r) => r.blocksCharged));
      if (blocks.max > BLOCK_LIMIT && blocks.max > biggest)
        failures.push(`${seg.name}: ${blocks.max} blocks within ${SPACE_WINDOW * scale} ms (limit ${BLOCK_LIMIT}), at t=${blocks.at}`);
    });
  }
  const injected429 = w.faults.filter((f) => f.spec.kind === '429').reduce((s, f) => s + (f.used ?? 0), 0);
  const got429 = client.filter((r) => r.status === 429);
  if (got429.length > injected429) {
    const harness = w.harnessTimes();
    const window = SPACE_WINDOW * (scale ?? 1);
    // Another client's requests (the harness's) spend the same budget: a 429 after them is explained.
    const unexplained = got429.filter((r) => !harness.some((t) => t <= r.t && t > r.t - window));
    if (unexplained.length > injected429) {
      failures.push(`${got429.length} answers 429 but ${injected429} injected: ${unexplained.map((r) => `${r.method} ${r.path} at t=${r.t}`).join(', ')}`);
    }
  }
  // Retry-After: nothing from the same process arrives before the floor. A request that arrived
  // before the 429 went out was already in flight (it may be answered later, after a delay it met):
  // arrival, not answer, is what the client controls. 100 ms for the 429 to reach the client and
  // a request it sent before to reach the server, on a loaded machine. The floor counts from the
  // 429's own arrival: its answer left then at the earliest, and the time logged for the answer
  // (`t`) is taken once the server's loop gets round to it, tens of ms late on a loaded machine,
  // after the client may already have read the answer and begun its wait.
  for (const r of got429) {
    const candidates = w.faults.filter((f) => f.spec.kind === '429' && (f.used ?? 1) > 0 && f.at <= r.t && matches(f.spec.match, r));
    if (candidates.length === 0 || candidates.some((f) => f.spec.retryAfter === null)) continue;
    const floorMs = Math.min(...candidates.map((f) => (f.spec.retryAfter ?? 1) * 1000));
    const seg = w.segments.find((s) => r.t >= s.start && r.t <= (s.end ?? Number.POSITIVE_INFINITY));
    const early = client.filter(
      (q) =>
        q !== r &&
        q.receivedAt > r.t + 100 &&
        q.receivedAt < r.receivedAt + floorMs - 30 &&
        (!seg || (q.t >= seg.start && q.t <= (seg.end ?? Number.POSITIVE_INFINITY))),
    );
    if (early.length > 0)
      failures.push(
        `Retry-After ${floorMs} ms after the 429 of ${r.method} ${r.path} at t=${r.t} not honoured: ${early.map((q) => `${q.method} ${q.path} at +${q.receivedAt - r.t} ms`).join(', ')}`,
      );
  }
  return failures;
}

function matches(m: { method?: string; path?: string } | undefined, r: LoggedRequest): boolean {
  if (!m) return true;
  if (m.method && !new RegExp(`^(?:${m.method})$`, 'i').test(r.method)) return false;
  if (m.path && !new RegExp(m.path).test(r.path)) return false;
  return true;
}

interface PlacedBlock {
  docId: string;
  block: FixtureBlock;
}

function blocksById(s: SpaceFixture): Map<string, PlacedBlock> {
  const out = new Map<string, PlacedBlock>();
  for (const d of s.documents ?? []) for (const b of fixtureBlocks(d.content)) if (b.id) out.set(b.id, { docId: d.id!, block: b });
  return out;
}

const textOf = (b: FixtureBlock) => normalizeLine(b.body ?? b.markdown ?? '');

/** O5: every block nobody touched is still there, with its id, in its document, with its text. */
export function checkIdentity(w: World, final: SpaceFixture, o: OracleOptions = {}): string[] {
  const failures: string[] = [];
  const after = blocksById(final);
  const touched = new Set([...w.touchedIds, ...(o.touched ?? [])]);
  for (const [id, { docId, block }] of blocksById(w.initial)) {
    if (touched.has(id)) continue;
    const text = textOf(block);
    if (text !== '' && w.touchedTexts.has(text)) continue;
    const now = after.get(id);
    if (!now) failures.push(`block ${id} (${JSON.stringify(text)}) of ${docId}, which nobody touched, is gone`);
    else if (now.docId !== docId) failures.push(`block ${id}, which nobody touched, moved from ${docId} to ${now.docId}`);
    else if (textOf(now.block) !== text)
      failures.push(`block ${id}, which nobody touched, changed: ${JSON.stringify(text)} → ${JSON.stringify(textOf(now.block))}`);
  }
  return failures;
}

function folderParents(s: SpaceFixture): Map<string, { name: string; parentId: string | null }> {
  const out = new Map<string, { name: string; parentId: string | null }>();
  const walk = (list: readonly FixtureFolder[] | undefined, parentId: string | null) => {
    for (const f of list ?? []) {
      out.set(f.id!, { name: f.name, parentId });
      walk(f.folders, f.id!);
    }
  };
  walk(s.folders, null);
  return out;
}

const BUILTIN_DIR: Record<string, string> = { unsorted: 'Unsorted', templates: 'Templates', trash: 'Trash', daily_notes: 'Daily Notes' };

/** O6: the journal agrees with both sides (read after every process stopped). */
export async function checkJournal(w: World, final: SpaceFixture, o: OracleOptions = {}): Promise<string[]> {
  const failures: string[] = [];
  const media = mediaOf(w.root);
  const journal = openJournal(journalPath(w.root));
  try {
    const intents = journal.pendingIntents();
    if (intents.length > 0) failures.push(`intents left pending: ${intents.map((i) => `${i.op} ${i.docId ?? ''}`).join(', ')}`);
    const docs = journal.listDocuments();
    const space = new Map((final.documents ?? []).map((d) => [d.id!, d]));
    const known = new Set(docs.map((d) => d.id));
    for (const id of space.keys()) if (!known.has(id)) failures.push(`the journal does not know document ${id}`);
    const journalTargets = targetsOf(new Map(docs.map((r) => [r.id, r.path])));
    const trees = new Map<string, Block>();
    for (const rec of docs) if (space.has(rec.id)) trees.set(rec.id, (await getJson(w, '/blocks', { id: rec.id })) as Block);
    const blocks = spaceBlocks(new Map(docs.map((r) => [r.id, r.path])), trees);
    for (const rec of docs) {
      const d = space.get(rec.id);
      if (!d) {
        failures.push(`the journal knows document ${rec.id} (${rec.path}), which the space does not have`);
        continue;
      }
      const location = d.location === 'trash' ? 'trash' : d.dailyNoteDate ? 'daily_notes' : d.folderId ? 'folder' : (d.location ?? 'unsorted');
      if (rec.location !== location || (location === 'folder' && rec.folderId !== d.folderId)) {
        failures.push(`${rec.path}: the journal places it in ${rec.location} ${rec.folderId ?? ''}, the space in ${location} ${d.folderId ?? ''}`);
      }
      const dir = rec.location === 'folder' ? journal.getFolder(rec.folderId!)?.path : BUILTIN_DIR[rec.location];
      if (dir !== undefined && path.posix.dirname(rec.path) !== dir) failures.push(`${rec.path} is not in the directory of its place (${dir})`);
      const text = w.readOrNull(rec.path);
      if (text === null) {
        failures.push(`the journal records ${rec.path} for ${rec.id}, and there is no such file`);
        continue;
      }
      const held = (o.heldBack ?? []).includes(rec.path);
      if ((o.notSynced ?? []).includes(rec.path)) continue;
      if (rec.fileHash !== hashText(text) && !(held && rec.fileHash === 'unsent')) {
        failures.push(`${rec.path}: the journal's file hash ${rec.fileHash} is not the file's (${hashText(text)})`);
      }
      const remote = flattenRemote(linkDocuments(linkAssets(trees.get(rec.id)!, rec.path, media), rec.path, journalTargets));
      const base = journal.getBaseBlocks(rec.id);
      const sameText = (a: string, b: string, type: string) =>
        sameContent(type, asBlockLinks(a, rec.path, blocks), asBlockLinks(b, rec.path, blocks), markdownEquals);
      const same =
        base.length === remote.length &&
        base.every((b, i) => {
          const r = remote[i]!;
          return b.id === r.id && b.parentId === r.parentId && b.position === r.position && b.kind === r.kind && sameText(b.markdown, r.markdown, r.type);
        });
      if (!same) {
        failures.push(
          `${rec.path}: the journal's base is not the space's blocks\n  base:  ${JSON.stringify(base.map((b) => [b.id, b.markdown]))}\n  space: ${JSON.stringify(remote.map((r) => [r.id, r.markdown]))}`,
        );
      }
    }
    const folders = folderParents(final);
    const jf = journal.listFolders();
    for (const f of jf) {
      const s = folders.get(f.id);
      if (!s) failures.push(`the journal knows folder ${f.id} (${f.path}), which the space does not have`);
      else if (s.name !== f.name || s.parentId !== f.parentId)
        failures.push(`folder ${f.id}: the journal has ${f.name} under ${f.parentId}, the space ${s.name} under ${s.parentId}`);
      if (!fs.existsSync(w.file(f.path))) failures.push(`folder ${f.id}: its directory ${f.path} is missing`);
    }
    const jfIds = new Set(jf.map((f) => f.id));
    for (const [id, f] of folders) if (!jfIds.has(id)) failures.push(`the journal does not know folder ${id} (${f.name})`);
  } finally {
    journal.close();
  }
  return failures;
}

/** Writes that replace or remove blocks or a collection's cells: what the space held before them is gone from it. */
const OVERWRITING = /^(?:PUT \/blocks|DELETE \/blocks|PUT \/collections\/[^/]+\/items)$/;

/**
 * O1: every text either side held, and did not remove itself, is in a file, a conflict copy, the
 * trash or purged/. One exception, which no client of this API can avoid (it has no conditional
 * write): a text the space got while a block write of the sync could not know of it may be
 * overwritten by it — the write was on its way (received, not yet answered), or was sent after the
 * sync's last look at the space (the listing) without the edit in it, and that look was younger than
 * the push's re-listing threshold (RECHECK_AFTER_MS; a push that waited longer and did not look again
 * is still caught). `log` is the sync's requests (the harness's own left out).
 */
export function checkNothingLost(w: World, log: readonly LoggedRequest[] = []): string[] {
  const hay = w.haystack();
  const writes = log.filter((r) => OVERWRITING.test(`${r.method} ${r.path}`));
  const looks = log.filter((r) => r.method === 'GET' && r.path === '/documents' && r.query.fetchMetadata === 'true' && r.status === 200);
  // A collection's cells are written from a read of its document (or items) made just before.
  const itemReads = log.filter((r) => r.method === 'GET' && (r.path === '/blocks' || /^\/collections\/[^/]+\/items$/.test(r.path)) && r.status === 200);
  const lastLook = (write: LoggedRequest) =>
    (write.path === '/blocks' ? looks : [...looks, ...itemReads])
      .filter((l) => l.t <= write.receivedAt)
      .reduce<LoggedRequest | undefined>((a, l) => (a && a.t >= l.t ? a : l), undefined);
  const raced = (e: Entry) =>
    e.window !== undefined &&
    writes.some((r) => {
      if (r.receivedAt <= e.window!.to && r.t >= e.window!.from) return true; // on its way
      const look = lastLook(r);
      return look !== undefined && r.receivedAt - look.t <= RECHECK_AFTER_MS && e.window!.to >= look.receivedAt && e.window!.from <= r.receivedAt;
    });
  return w.ledger
    .missing(hay)
    .filter((e) => !raced(e))
    .map((e) => `lost: ${JSON.stringify(e.line)} (written by ${e.origin})`);
}

export interface OracleResults {
  failures: string[];
}

/**
 * Runs O1–O6 on a quiet world: the budget from the log first (before the checks' own reads), then
 * the limits are lifted for the checks' reads, convergence, the daemon stopped, the extra cycle,
 * the journal, identity, and nothing lost.
 */
export async function checkOracles(w: World, o: OracleOptions = {}): Promise<string[]> {
  const skip = new Set(o.skip ?? []);
  const out: string[] = [];
  const add = (name: OracleName, what: string, list: string[]) => {
    for (const f of list) out.push(`${name} ${what}: ${f}`);
  };
  await w.clearFaults();
  const log = await w.requests();
  if (!skip.has('O4')) add('O4', 'budget', checkBudget(w, log));
  await w.admin('POST', '/limits', { mode: 'off' });
  if (!skip.has('O2')) add('O2', 'convergence', await checkConvergence(w, o));
  if (w.daemon) {
    const r = await w.stopDaemon();
    if (r.code !== 0) out.push(`the daemon stopped with exit ${r.code}: ${r.stderr.trim()}`);
  }
  if (!skip.has('O3')) add('O3', 'idempotence', await checkIdempotent(w, o));
  const final = await w.snapshot();
  if (!skip.has('O6')) add('O6', 'journal', await checkJournal(w, final, o));
  if (!skip.has('O5')) add('O5', 'identity', checkIdentity(w, final, o));
  if (!skip.has('O1')) add('O1', 'nothing lost', checkNothingLost(w, w.withoutHarness(log)));
  return out;
}

// The seeded chaos test (scenario 24): random operations on both sides — edits, inserts, deletes and
// moves of blocks, documents and folders, editor-style saves — while the real daemon runs, with
// SIGKILLs of the daemon, injected 429s (with and without Retry-After), 500s, resets after apply and
// slow answers; then quiet, and the oracles O1–O6. The space and every operation come from the seed
// (kills are placed by operation count, never by wall time), so `SEED=… npm run chaos` replays one.
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { isConflictCopy } from '../../src/mirror/index.js';
import type { FaultSpec, SpaceFixture } from '../../src/server/index.js';
import type { FixtureBlock, FixtureDocument, FixtureFolder } from '../../src/server/fixture/types.js';
import { editorSave, type EditorStyle } from '../scenarios/harness.js';
import { checkOracles } from '../scenarios/oracles.js';
import { sleep, World, fixtureBlocks } from '../scenarios/world.js';
import { markdownLines, normalizeLine, textLines } from '../scenarios/texts.js';
import { mulberry32, type Rng } from './prng.js';
import { checkImages, imageOp } from './imageOps.js';
import { chaosBoard, checkWhiteboards, localDrawBoard, localWhiteboardEdit, remoteWhiteboardEdit, whiteboardIds } from './whiteboardOps.js';

export const OP_KINDS = [
  'local.edit',
  'local.insert',
  'local.deleteBlock',
  'local.moveBlock',
  'local.newFile',
  'local.deleteFile',
  'local.renameFile',
  'local.moveFile',
  'local.newFolder',
  'local.renameFolder',
  'local.moveFolder',
  'local.badBytes',
  'local.truncate',
  'local.taskDate',
  'local.collectionCell',
  'local.collectionRow',
  'remote.edit',
  'remote.insert',
  'remote.deleteBlock',
  'remote.moveBlock',
  'remote.newDoc',
  'remote.trashDoc',
  'remote.moveDoc',
  'remote.renameDoc',
  'remote.newFolder',
  'remote.moveFolder',
  'remote.taskDate',
  'local.inboxAdd',
  'local.inboxTick',
  'local.inboxDelete',
  'local.inboxDate',
  'local.logbookEdit',
  'remote.inboxAdd',
  'remote.inboxComplete',
  'remote.inboxDelete',
  'remote.inboxDate',
  'remote.collectionCell',
  'fault.429',
  'fault.429-no-retry-after',
  'fault.500',
  'fault.reset-after-apply',
  'fault.delay',
  'local.whiteboardEdit',
  'remote.whiteboardEdit',
  'local.addLink',
  'remote.addLink',
  'local.addBlockLink',
  'remote.addBlockLink',
  'local.addImage',
  'local.replaceImage',
  'local.drawBoard',
  'local.loseJournal',
  'local.symlinkFolder',
] as const;
export type OpKind = (typeof OP_KINDS)[number];

const WEIGHTS: Record<OpKind, number> = {
  'local.edit': 6,
  'local.insert': 3,
  'local.deleteBlock': 2,
  'local.moveBlock': 2,
  'local.newFile': 2,
  'local.deleteFile': 1,
  'local.renameFile': 1,
  'local.moveFile': 1,
  'local.newFolder': 1,
  'local.renameFolder': 1,
  'local.moveFolder': 1,
  'local.badBytes': 1,
  'local.truncate': 1,
  'local.taskDate': 2,
  'local.collectionCell': 2,
  'local.collectionRow': 1,
  'remote.edit': 6,
  'remote.insert': 3,
  'remote.deleteBlock': 2,
  'remote.moveBlock': 1,
  'remote.newDoc': 2,
  'remote.trashDoc': 1,
  'remote.moveDoc': 1,
  'remote.renameDoc': 1,
  'remote.newFolder': 1,
  'remote.moveFolder': 1,
  'remote.taskDate': 2,
  'local.inboxAdd': 1,
  'local.inboxTick': 1,
  'local.inboxDelete': 1,
  'local.inboxDate': 1,
  'local.logbookEdit': 1,
  'remote.inboxAdd': 1,
  'remote.inboxComplete': 1,
  'remote.inboxDelete': 1,
  'remote.inboxDate': 1,
  'remote.collectionCell': 2,
  'fault.429': 1,
  'fault.429-no-retry-after': 1,
  'fault.500': 1,
  'fault.reset-after-apply': 1,
  'fault.delay': 1,
  'local.whiteboardEdit': 2,
  'remote.whiteboardEdit': 2,
  'local.addLink': 2,
  'remote.addLink': 2,
  'local.addBlockLink': 2,
  'remote.addBlockLink': 2,
  'local.addImage': 1,
  'local.replaceImage': 1,
  'local.drawBoard': 1,
  'local.loseJournal': 1,
  'local.symlinkFolder': 1,
};

const EDITORS: readonly EditorStyle[] = ['inPlace', 'vim', 'vimNoBackup', 'jetbrains', 'emacs', 'atomic'];
const WORDS =
  'amber birch cedar delta ember fjord grove harbor iris juniper kestrel lagoon maple nectar orchid pebble quartz raven sorrel tundra umber violet willow yarrow zephyr'.split(
    ' ',
  );

/** One operation, fixed by the seed: `r` are uniform numbers that pick its targets among what exists when it runs. */
export interface ChaosOp {
  n: number;
  kind: OpKind;
  r: [number, number, number, number];
  /** New text it writes (unique in the run). */
  text: string;
  /** Pause after it, ms. */
  pauseMs: number;
  /** SIGKILL the daemon (and start it again) after this operation. */
  kill: boolean;
}

export interface ChaosPlan {
  seed: number;
  space: SpaceFixture;
  ops: ChaosOp[];
}

export interface ChaosOptions {
  seed: number;
  operations?: number;
  kills?: number;
  /** Called with each line of what happens (a failure message carries them all too). */
  log?: (line: string) => void;
  /** A document id whose file and service content are logged at every change (to see a failure happen). */
  trace?: string;
  /** A space whose folders and documents join the generated ones (e.g. fixtures/spaces/live-shapes.json). */
  with?: SpaceFixture;
  /**
   * The mirror in backup mode: the same operations, and the oracle that no writing request ever left
   * spacesync; after a revert, the folder equals the space (O2, O3, O5, O6).
   */
  backup?: boolean;
}

export interface ChaosResult {
  seed: number;
  ok: boolean;
  failures: string[];
  events: string[];
  ms: number;
}

function weightedKind(rng: Rng): OpKind {
  const total = OP_KINDS.reduce((s, k) => s + WEIGHTS[k], 0);
  let x = rng.next() * total;
  for (const k of OP_KINDS) {
    x -= WEIGHTS[k];
    if (x < 0) return k;
  }
  return 'local.edit';
}

/** A task date of the run: a day of December 2026, from a number. */
const dayOf = (n: number) => `2026-12-${String(1 + (n % 28)).padStart(2, '0')}`;
/** A task line's trailing date signifiers (the dialect's taskDates). */
const DATES = /(?:[ \t]+(?:⏳|📅)[ \t]+\d{4}-\d{2}-\d{2})+[ \t]*$/u;
const TASK_LINE = /^- \[[ xX-]\] \S/;
/** A block-id marker at the end of a line (the sync's on a block other files link to). */
const MARKER = /[ \t]\^[A-Za-z0-9-]+$/;
const alnum = (id: string) => id.replace(/[^A-Za-z0-9]/g, '').toLowerCase();

const phrase = (rng: Rng, tag: string) => `${rng.pick(WORDS)} ${rng.pick(WORDS)} ${tag}`;

/** The space and the operations of a seed: the same seed, the same run. */
export function planChaos(seed: number, operations = 30, kills = 2, extra?: SpaceFixture): ChaosPlan {
  const rng = mulberry32(seed);
  const folders: FixtureFolder[] = [
    { id: `F${seed}-A`, name: 'Alpha', createdAt: '2026-01-01T00:00:00Z' },
    { id: `F${seed}-B`, name: 'Beta', createdAt: '2026-01-02T00:00:00Z', folders: [{ id: `F${seed}-C`, name: 'Gamma', createdAt: '2026-01-03T00:00:00Z' }] },
  ];
  const places = [undefined, `F${seed}-A`, `F${seed}-B`, `F${seed}-C`];
  const documents: FixtureDocument[] = [];
  const docs = rng.between(5, 8);
  for (let d = 0; d < docs; d++) {
    const content: FixtureBlock[] = [];
    const blocks = rng.between(2, 5);
    for (let b = 0; b < blocks; b++) {
      const text = phrase(rng, `s${seed}d${d}b${b}`);
      const form = rng.int(4);
      const block: FixtureBlock = {
        id: `B${seed}-${d}-${b}`,
        markdown: form === 0 ? `## ${text}` : form === 1 ? `- ${text}` : form === 2 ? `- [ ] ${text}` : text,
      };
      // Some tasks start with dates (a schedule, a deadline or both), shown in the file as signifiers.
      if (form === 2 && b % 3 !== 2) block.taskInfo = { state: 'todo', ...(b % 3 === 0 ? { scheduleDate: dayOf(d + b) } : { deadlineDate: dayOf(d * 3 + b) }) };
      if (form === 2 && d % 2 === 1 && block.taskInfo) block.taskInfo = { ...block.taskInfo, scheduleDate: dayOf(d), deadlineDate: dayOf(d + 9) };
      content.push(block);
    }
    const folderId = rng.pick(places);
    documents.push({
      id: `D${seed}-${d}`,
      title: `Note ${d} ${rng.pick(WORDS)}`,
      createdAt: `2026-09-0${1 + (d % 8)}T0${d % 10}:00:00Z`,
      ...(folderId ? { folderId } : {}),
      content,
    });
  }
  // The first document holds a whiteboard, a scene file beside it (local/remote.whiteboardEdit).
  documents[0]!.content!.push({ id: `W${seed}`, type: 'whiteboard', whiteboard: { elements: chaosBoard(seed) } });
  // A document with a collection (a table in its file), which the collection operations edit on both sides.
  documents.push(tableDocument(seed));
  if (extra) {
    folders.push(...(extra.folders ?? []));
    documents.push(...(extra.documents ?? []));
  }
  const space: SpaceFixture = {
    version: 1,
    space: { id: `S-CHAOS-${seed}`, name: `Chaos ${seed}`, timezone: 'UTC', userId: 'U1' },
    folders,
    documents,
    // The task inbox (Tasks/Inbox.md) and one task of its logbook (Tasks/Logbook.md).
    inbox: [
      { id: `I${seed}-0`, markdown: `- [ ] inbox first s${seed}i0`, taskInfo: { state: 'todo', scheduleDate: dayOf(1) } },
      { id: `I${seed}-1`, markdown: `- [ ] inbox second s${seed}i1`, taskInfo: { state: 'todo', deadlineDate: dayOf(4) } },
      { id: `I${seed}-2`, markdown: `- [ ] inbox third s${seed}i2` },
      { id: `I${seed}-3`, markdown: `- [x] inbox done s${seed}i3`, taskInfo: { state: 'done', completedAt: '2026-09-01T00:00:00Z' } },
    ],
    ...(extra?.assets ? { assets: extra.assets } : {}),
  };
  const killAt = new Set<number>();
  while (killAt.size < Math.min(kills, operations)) killAt.add(rng.int(operations));
  const ops: ChaosOp[] = [];
  for (let n = 0; n < operations; n++) {
    ops.push({
      n,
      kind: weightedKind(rng),
      r: [rng.next(), rng.next(), rng.next(), rng.next()],
      text: phrase(rng, `s${seed}o${n}`),
      pauseMs: rng.chance(0.3) ? rng.between(200, 600) : rng.between(0, 120),
      kill: killAt.has(n),
    });
  }
  return { seed, space, ops };
}

/** The run's collection: a select, a date and a text property, three items. */
function tableDocument(seed: number): FixtureDocument {
  return {
    id: `D${seed}-T`,
    title: `Tracker ${seed}`,
    createdAt: '2026-09-09T09:00:00Z',
    content: [
      { id: `B${seed}-T-0`, markdown: `the tracker of s${seed}` },
      {
        id: `C${seed}`,
        type: 'collection',
        title: `Tracker ${seed}`,
        collection: {
          name: `Tracker ${seed}`,
          schema: {
            name: `Tracker ${seed}`,
            contentPropDetails: { name: 'Title' },
            properties: [
              {
                key: 'status',
                name: 'Status',
                type: 'singleSelect',
                options: [
                  { name: 'Open', color: 'yellow' },
                  { name: 'Done', color: 'mint-green' },
                ],
              },
              { key: 'due', name: 'Due', type: 'date' },
              { key: 'note', name: 'Note', type: 'text' },
            ],
          },
        },
        content: [0, 1, 2].map((k) => ({
          id: `CI${seed}-${k}`,
          type: 'collectionItem' as const,
          title: `row ${k} s${seed}`,
          properties: { status: k === 1 ? 'Done' : 'Open', ...(k === 0 ? { due: dayOf(seed) } : {}), note: `note ${k} of s${seed}` },
        })),
      },
    ],
  };
}

/** The values the mirror's tables show for the item titled `title` under the column `key`, normalised. */
function tableCells(w: World, title: string, key: string): string[] {
  const out: string[] = [];
  for (const p of w.mdFiles()) {
    const lines = (w.readOrNull(p) ?? '').split('\n');
    const header = lines.findIndex((l) => l.startsWith('| title |'));
    if (header < 0) continue;
    const col = rowCells(lines[header]!).indexOf(key);
    if (col < 0) continue;
    for (let i = header + 2; i < lines.length && lines[i]!.startsWith('|'); i++) {
      const cells = rowCells(lines[i]!);
      if (cells[0] === title && cells[col]) out.push(normalizeLine(cells[col]!));
    }
  }
  return out;
}

/** The cells of a table row the sync wrote (no escaped pipes: the run writes none). */
const rowCells = (line: string) =>
  line
    .trim()
    .slice(1, -1)
    .split('|')
    .map((c) => c.trim());

// ---- the file as a list of one-line blocks ----

const LIST = /^(?:- \[[ xX]\] |- |\d+\. )/;
const PREFIX = /^((?:#{1,6} |- \[[ xX]\] |- |\d+\. |> )?)(.*)$/;

function splitFile(text: string): { head: string; lines: string[] } {
  const fm = /^---\n[\s\S]*?\n---\n/.exec(text);
  const head = fm ? fm[0] : '';
  return {
    head,
    lines: text
      .slice(head.length)
      .split('\n')
      .filter((l) => l.trim() !== ''),
  };
}

/** The dialect's separators: one newline between list items, a blank line elsewhere. */
function joinFile(head: string, lines: readonly string[]): string {
  let body = '';
  lines.forEach((l, i) => {
    if (i > 0) body += LIST.test(lines[i - 1]!) && LIST.test(l) ? '\n' : '\n\n';
    body += l;
  });
  return `${head}${body}${lines.length ? '\n' : ''}`;
}

const at = <T>(list: readonly T[], r: number): T => list[Math.min(list.length - 1, Math.floor(r * list.length))]!;

interface RunState {
  deletes: number;
  trashes: number;
  /** Blocks the space deleted during the run: the mirror's base may hold them a while yet. */
  goneBlocks: Set<string>;
  /** Files a user saved in another encoding, or that a crash truncated: the sync must keep their bytes. */
  damaged: Damage[];
  /**
   * Links typed in files to other documents (or blocks in them): the text of each line, the id of the
   * document (or block) it names, and the file it was typed to. `moved`: that file (or a folder above
   * it) was moved here after, so the typed path may name a place no look of the sync ever saw (a
   * daemon killed in between): the link then leads nowhere in the mirror too, and is not checked.
   */
  /** `heading`: the text a link to a heading names it by (its anchor), as it was when the link was typed. */
  links: Array<{ text: string; id: string; block?: boolean; heading?: string; target: string; holder: string; moved?: boolean }>;
  /**
   * A folder of the mirror the user replaced by a symbolic link to a copy outside it (until the end
   * of the run): what the copy held then, file by file, which the sync must never change.
   */
  linked: { dir: string; outside: string; files: Map<string, string> } | null;
}

/**
 * Marks the links typed to `from` (a file, or anything under a folder) as moved here since; a folder
 * moved to `to` takes the symbolic link inside it along (it is put back where it went).
 */
function targetsMoved(state: RunState, from: string, to?: string): void {
  const under = (p: string) => p === from || p.startsWith(`${from}/`);
  // A file holding a link moved (with its folder, or after a journal was lost) before the link was
  // sent: the path it names is relative to where it was typed, which the push never saw. A link sent
  // before the move is block:// in the space already, which the check finds either way.
  for (const l of state.links) if (under(l.target) || under(l.holder)) l.moved = true;
  const linked = state.linked;
  if (to !== undefined && linked && (linked.dir === from || linked.dir.startsWith(`${from}/`))) linked.dir = to + linked.dir.slice(from.length);
}

interface Damage {
  what: string;
  /** The bytes on disk now, which the sync must never change. */
  bytes: Buffer;
  /** What the user saves over them at the end (as UTF-8, or the editor's recovered text). */
  fix: string;
  /** The file's text before the damage: only what the fix changes from it is a new text of the user's. */
  original: string;
}

/** Every file under `dir` (any depth), by path relative to it, with its content as base64. */
function filesUnder(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of fs.readdirSync(dir, { recursive: true }).map(String)) {
    const abs = path.join(dir, rel);
    if (fs.lstatSync(abs).isFile()) out.set(rel, fs.readFileSync(abs).toString('base64'));
  }
  return out;
}

/**
 * The user (or `git clean -fdx`) removes the journal, or a crash leaves it empty, while no daemon
 * runs; the daemon started again finds the mirror without its base and must adopt it: nothing
 * uploaded or merged twice, what differs kept as a conflict copy.
 */
async function loseJournal(w: World, op: ChaosOp): Promise<string> {
  const dir = path.join(w.root, '.spacesync');
  await w.killDaemon();
  for (const f of fs.readdirSync(dir)) if (f.startsWith('journal.db')) fs.rmSync(path.join(dir, f));
  const how = op.r[0] < 0.5 ? 'removed' : 'left empty';
  if (how === 'left empty') fs.writeFileSync(path.join(dir, 'journal.db'), '');
  await w.startDaemon({ wait: false });
  return `journal ${how}, daemon started again`;
}

/** A user folder replaced by a symbolic link to a copy of it outside the mirror, until the run's end. */
function symlinkFolder(w: World, op: ChaosOp, state: RunState): string {
  if (state.linked) return 'skipped: a folder is linked already';
  const list = userDirs(w);
  if (list.length === 0) return 'skipped: no folder';
  const dir = at(list, op.r[0]);
  const outside = `${w.root}.outside-${op.n}`;
  fs.renameSync(w.file(dir), outside);
  fs.symlinkSync(outside, w.file(dir));
  state.linked = { dir, outside, files: filesUnder(outside) };
  return `${dir} → link to ${outside}`;
}

/** The mirror path of the symbolic link pointing at `target`, if there is one. */
function linkTo(root: string, target: string, dir = ''): string | undefined {
  for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isSymbolicLink() && fs.readlinkSync(path.join(root, rel)) === target) return rel;
    if (e.isDirectory() && e.name !== '.spacesync') {
      const found = linkTo(root, target, rel);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The linked folder put back: nothing was written through the link meanwhile. */
function unlinkFolder(w: World, state: RunState): string[] {
  const l = state.linked;
  if (!l) return [];
  state.linked = null;
  const now = filesUnder(l.outside);
  const changed = [...new Set([...now.keys(), ...l.files.keys()])].filter((f) => now.get(f) !== l.files.get(f));
  // Where the link is now: a folder that holds it may have moved, the link with it (a move of the
  // folder around it, which writes nothing through it; seed 950042).
  const at = linkTo(w.root, l.outside) ?? l.dir;
  if (at !== l.dir) w.note(`the link of ${l.dir} moved with its folder to ${at}`);
  fs.rmSync(w.file(at), { force: true });
  fs.renameSync(l.outside, w.file(at));
  w.note(`folder ${at} put back in place of its link`);
  return changed.map(
    (f) =>
      `nothing written outside the mirror: ${l.dir}/${f} was ${l.files.has(f) ? (now.has(f) ? 'changed' : 'removed') : 'created'} through its symbolic link`,
  );
}

const isDamaged = (w: World, state: RunState, rel: string): boolean => {
  if (state.damaged.length === 0) return false;
  const bytes = fs.readFileSync(w.file(rel));
  return state.damaged.some((d) => d.bytes.equals(bytes));
};

/** Non-UTF-8 bytes of `text`, as an editor saving another encoding writes them. */
function badEncoding(text: string, r: number): Buffer {
  if (r < 0.4) return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  if (r < 0.8) return Buffer.from(`${text.replace(/\n$/, '')} caf\u00e9\n`, 'latin1');
  const b = Buffer.from(text, 'utf8');
  const at = Math.max(0, b.lastIndexOf(0x0a, b.length - 2));
  return Buffer.concat([b.subarray(0, at), Buffer.from([0]), b.subarray(at)]);
}

/** Blocks of more than one line (fences, formulas, page and card wrappers), which the one-line edits below would break. */
const MULTI_LINE = /^(?:```|~~~|\$\$|<page|<card|<collection)/m;

/**
 * Document files the user may touch: not the trash, not daily notes, not conflict copies, and not
 * files with multi-line blocks (a space joined with `--with` may have them; the daemon still syncs
 * them through every operation and kill, and the oracles check they come through untouched).
 */
function userFiles(w: World): string[] {
  return w.mdFiles().filter((p) => !p.startsWith('Trash/') && !p.startsWith('Daily Notes/') && !isConflictCopy(p) && !MULTI_LINE.test(w.readOrNull(p) ?? ''));
}

// Tasks/ holds the task files only (the inbox operations edit them).
const BUILTIN = new Set(['Unsorted', 'Templates', 'Trash', 'Daily Notes', 'Tasks']);

const INBOX = 'Tasks/Inbox.md';
const LOGBOOK = 'Tasks/Logbook.md';
const inboxDates = (r: number, n: number) =>
  r < 0.3 ? '' : r < 0.55 ? ` ⏳ ${dayOf(n)}` : r < 0.8 ? ` 📅 ${dayOf(n + 5)}` : ` ⏳ ${dayOf(n)} 📅 ${dayOf(n + 5)}`;

/** The inbox operations on the file: a line added, ticked, deleted or re-dated, or the logbook edited. */
function inboxOp(w: World, op: ChaosOp, editor: EditorStyle): string {
  const [r0, r1] = op.r;
  const rel = op.kind === 'local.logbookEdit' ? LOGBOOK : INBOX;
  const before = w.readOrNull(rel);
  if (before === null) return `skipped: no ${rel}`;
  const lines = before.split('\n').filter((l) => l !== '');
  const open = lines.flatMap((l, i) => (l.startsWith('- [ ] ') ? [i] : []));
  const next = [...lines];
  switch (op.kind) {
    case 'local.inboxAdd':
      next.splice(Math.floor(r0 * (next.length + 1)), 0, `- [ ] ${op.text}${inboxDates(r1, op.n)}`);
      break;
    case 'local.logbookEdit':
      next.push(`- [x] ${op.text}`);
      break;
    default: {
      if (open.length === 0) return 'skipped: no open task';
      const i = at(open, r0);
      if (op.kind === 'local.inboxTick') next[i] = next[i]!.replace('- [ ] ', '- [x] ');
      else if (op.kind === 'local.inboxDelete') next.splice(i, 1);
      else next[i] = next[i]!.replace(DATES, '') + inboxDates(r1, op.n);
      if (next.join('\n') === lines.join('\n')) return 'skipped: the same line';
    }
  }
  saveFile(w, rel, before, next.map((l) => `${l}\n`).join(''), editor, op.kind);
  return `${rel}: ${op.kind}`;
}

/** The space's open inbox tasks (the harness's own read, outside the client's budget). */
async function inboxTasks(w: World): Promise<Array<{ id: string; markdown: string }>> {
  const a = await w.unlimited(() => w.api('GET', '/tasks', undefined, { scope: 'inbox' }));
  return a.status === 200 ? ((a.body as { items: Array<{ id: string; markdown: string }> }).items ?? []) : [];
}

/** A task as a task file writes it, from the API's answer. */
function taskLine(t: { markdown: string; taskInfo: { state: string; scheduleDate?: string; deadlineDate?: string } }): string {
  const mark = t.taskInfo.state === 'done' ? 'x' : t.taskInfo.state === 'canceled' ? '-' : ' ';
  return `- [${mark}] ${t.markdown}${t.taskInfo.scheduleDate ? ` ⏳ ${t.taskInfo.scheduleDate}` : ''}${t.taskInfo.deadlineDate ? ` 📅 ${t.taskInfo.deadlineDate}` : ''}\n`;
}

/** O2 for the task files: Tasks/Inbox.md is the space's inbox and Tasks/Logbook.md its logbook's inbox tasks, line for line. */
export async function checkTaskFiles(w: World): Promise<string[]> {
  const list = async (scope: string) => {
    const a = await w.unlimited(() => w.api('GET', '/tasks', undefined, { scope }));
    return ((a.body as { items: any[] }).items ?? []).filter((t) => t.location?.type === 'inbox');
  };
  const failures: string[] = [];
  for (const [rel, scope] of [
    [INBOX, 'inbox'],
    [LOGBOOK, 'logbook'],
  ] as const) {
    const want = (await list(scope)).map(taskLine).join('');
    const got = w.readOrNull(rel);
    if (got !== want) failures.push(`O2 task files: ${rel} is ${JSON.stringify(got)}, the space's ${scope} is ${JSON.stringify(want)}`);
  }
  return failures;
}

function userDirs(w: World): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(w.root, rel), { withFileTypes: true })) {
      if (!e.isDirectory() || e.name.startsWith('.') || e.name.endsWith('.assets')) continue;
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (!rel && BUILTIN.has(e.name)) continue;
      out.push(p);
      walk(p);
    }
  };
  walk('');
  return out.sort();
}

function saveFile(w: World, rel: string, before: string, after: string, editor: EditorStyle, what: string): void {
  editorSave(w, rel, after, editor);
  w.localChange(rel, before, after, `${what} (${editor})`);
}

async function localOp(w: World, op: ChaosOp, state: RunState): Promise<string> {
  const [r0, r1, r2, r3] = op.r;
  const editor = at(EDITORS, r3);
  const files = userFiles(w).filter((p) => !isDamaged(w, state, p));
  const dirs = ['Unsorted', ...userDirs(w)];
  switch (op.kind) {
    case 'local.badBytes':
    case 'local.truncate': {
      if (files.length === 0 || state.damaged.length >= 2) return 'skipped: enough damaged files';
      const rel = at(files, r0);
      const before = w.read(rel);
      const { head, lines } = splitFile(before);
      // Truncated to its front matter (a crash after the header), or saved in another encoding.
      const bytes = op.kind === 'local.truncate' ? Buffer.from(head, 'utf8') : badEncoding(before, r1);
      if (op.kind === 'local.truncate' && (head === '' || lines.length === 0)) return 'skipped: nothing to truncate';
      fs.writeFileSync(w.file(rel), bytes);
      state.damaged.push({
        what: `${op.kind} of ${rel}`,
        bytes,
        fix: op.kind === 'local.truncate' ? before : `${before.replace(/\n$/, '')}${r1 < 0.8 && r1 >= 0.4 ? ' caf\u00e9' : ''}\n`,
        original: before,
      });
      w.note(`${op.kind}: ${rel} now holds ${bytes.length} bytes (${op.kind === 'local.truncate' ? 'front matter only' : 'not UTF-8'})`);
      return rel;
    }
    case 'local.edit':
    case 'local.insert':
    case 'local.deleteBlock':
    case 'local.moveBlock': {
      if (files.length === 0) return 'skipped: no file';
      const rel = at(files, r0);
      const before = w.read(rel);
      const { head, lines } = splitFile(before);
      const next = [...lines];
      if (op.kind === 'local.edit') {
        if (next.length === 0) return 'skipped: empty file';
        const i = Math.floor(r1 * next.length);
        if (next[i]!.match(/\.excalidraw>?\)$/)) return 'skipped: a whiteboard link';
        if (next[i]!.match(/\.assets\/[^)]*>?\)$/)) return 'skipped: an image link (turning an image into text is held back by design)';
        next[i] = `${PREFIX.exec(next[i]!)![1]}${op.text}`;
      } else if (op.kind === 'local.insert') {
        next.splice(Math.floor(r1 * (next.length + 1)), 0, r2 < 0.3 ? `- ${op.text}` : op.text);
      } else if (op.kind === 'local.deleteBlock') {
        if (next.length < 2) return 'skipped: one block left';
        const [gone] = next.splice(Math.floor(r1 * next.length), 1);
        if (gone!.match(/\.excalidraw>?\)$/)) for (const id of whiteboardIds(w)) w.touchedIds.add(id); // the board goes with its link
      } else {
        if (next.length < 2) return 'skipped: one block';
        const [moved] = next.splice(Math.floor(r1 * next.length), 1);
        next.splice(Math.floor(r2 * (next.length + 1)), 0, moved!);
      }
      saveFile(w, rel, before, joinFile(head, next), editor, op.kind);
      return rel;
    }
    case 'local.inboxAdd':
    case 'local.inboxTick':
    case 'local.inboxDelete':
    case 'local.inboxDate':
    case 'local.logbookEdit':
      return inboxOp(w, op, editor);
    case 'local.taskDate': {
      // An editor changes, adds or removes the date signifiers at the end of a task line.
      const tasks = files.flatMap((rel) => splitFile(w.read(rel)).lines.flatMap((l, i) => (TASK_LINE.test(l) ? [{ rel, i }] : [])));
      if (tasks.length === 0) return 'skipped: no task line';
      const { rel, i } = at(tasks, r0);
      const before = w.read(rel);
      const { head, lines } = splitFile(before);
      // The dates stand before a block-id marker (` ^id`), as the Tasks plugin writes them.
      const marker = MARKER.exec(lines[i]!)?.[0] ?? '';
      const text = lines[i]!.slice(0, lines[i]!.length - marker.length).replace(DATES, '');
      const dates = r1 < 0.3 ? '' : r1 < 0.55 ? ` ⏳ ${dayOf(op.n)}` : r1 < 0.8 ? ` 📅 ${dayOf(op.n + 5)}` : ` ⏳ ${dayOf(op.n)} 📅 ${dayOf(op.n + 5)}`;
      const next = [...lines];
      next[i] = text + dates + marker;
      if (next[i] === lines[i]) return 'skipped: the same dates';
      saveFile(w, rel, before, joinFile(head, next), editor, op.kind);
      return `${rel}: ${next[i]}`;
    }
    case 'local.whiteboardEdit':
      return localWhiteboardEdit(w, op, editor);
    case 'local.drawBoard':
      return localDrawBoard(w, op, files, (rel, before, after) => saveFile(w, rel, before, after, editor, op.kind));
    case 'local.addLink': {
      // An editor links another document by its file's relative path, as VS Code or Obsidian writes it.
      const rel = files.length ? at(files, r0) : undefined;
      const others = files.filter((p) => p !== rel && /^---\nid: /.test(w.read(p)));
      if (!rel || others.length === 0) return 'skipped: no other document';
      const to = at(others, r1);
      const id = /^---\nid: (\S+)/.exec(w.read(to))![1]!;
      const dest = path.posix.relative(path.posix.dirname(rel), to);
      const before = w.read(rel);
      const { head, lines } = splitFile(before);
      const next = [...lines];
      next.splice(Math.floor(r2 * (next.length + 1)), 0, `${op.text} [link ${op.n}](${/[\s()]/.test(dest) ? `<${dest}>` : dest})`);
      saveFile(w, rel, before, joinFile(head, next), editor, op.kind);
      state.links.push({ text: `${op.text} [link ${op.n}]`, id, target: to, holder: rel });
      return `${rel} → ${to}`;
    }
    case 'local.addBlockLink': {
      // An editor links a block of a document's file as Obsidian does: a heading by its text, any other
      // block by `#^` and the short id of its block id (whole when another block of the document starts alike).
      const rel = files.length ? at(files, r0) : undefined;
      const docs = files.filter((p) => /^---\nid: /.test(w.read(p)));
      if (!rel || docs.length === 0) return 'skipped: no document';
      const to = at(docs, r1);
      const docId = /^---\nid: (\S+)/.exec(w.read(to))![1]!;
      const snap = await w.snapshot();
      const doc = (snap.documents ?? []).find((d) => d.id === docId);
      const shown = new Set(textLines(w.read(to)));
      const text = (b: FixtureBlock) => normalizeLine(b.body ?? b.markdown ?? '');
      const heading = (b: FixtureBlock) => /^h[1-4]$/.test(b.textStyle ?? '');
      // A short id a block of the run shares (the seeded ids all start alike) names it only while no
      // other block of its document is in the mirror's base, which moves as the daemon works: a user
      // types the anchors that name one block whatever the timing, a heading's text or a unique short id.
      const prefixes = new Map<string, number>();
      const count = (id: string) => prefixes.set(alnum(id).slice(0, 8), (prefixes.get(alnum(id).slice(0, 8)) ?? 0) + 1);
      for (const d of snap.documents ?? []) for (const x of fixtureBlocks(d.content)) count(x.id!);
      // One the space deleted still counts: the base may hold it until the next pull (seed 940047).
      for (const id of state.goneBlocks) count(id);
      const unique = (b: FixtureBlock) => prefixes.get(alnum(b.id!).slice(0, 8)) === 1;
      const blocks = (doc?.content ?? []).filter(
        (b) => (b.type ?? 'text') === 'text' && !b.content?.length && text(b).length >= 3 && shown.has(text(b)) && (heading(b) || unique(b)),
      );
      if (!doc || blocks.length === 0) return 'skipped: no block of that document in its file';
      const b = at(blocks, r2);
      const fragment = heading(b)
        ? encodeURIComponent(b.body ?? '').replace(/[()']/g, (c) => `%${c.charCodeAt(0).toString(16)}`)
        : `^${alnum(b.id!).slice(0, 8)}`;
      const file = path.posix.relative(path.posix.dirname(rel), to) || path.posix.basename(to);
      const before = w.read(rel);
      const { head, lines } = splitFile(before);
      const next = [...lines];
      const dest = `${file}#${fragment}`;
      next.splice(Math.floor(op.r[3] * (next.length + 1)), 0, `${op.text} [blink ${op.n}](${/[\s()]/.test(file) ? `<${dest}>` : dest})`);
      saveFile(w, rel, before, joinFile(head, next), editor, op.kind);
      state.links.push({
        text: `${op.text} [blink ${op.n}]`,
        id: b.id!,
        block: true,
        ...(heading(b) ? { heading: b.body ?? '' } : {}),
        target: to,
        holder: rel,
      });
      return `${rel} → ${to}#${fragment}`;
    }
    case 'local.addImage':
    case 'local.replaceImage': {
      // Some uploads lose their answer (the connection reset after the service applied it): the
      // sync must find the block it made and not upload it again (checkImages: one block per image).
      const lost = op.r[3] < 0.4;
      if (lost) await w.armFault({ kind: 'reset-after-apply', count: 1, match: { method: 'POST', path: '^/upload$' } });
      const what = imageOp(w, op, files, (rel, before, after) => saveFile(w, rel, before, after, editor, op.kind));
      return lost ? `${what} (the upload's answer will be lost)` : what;
    }
    case 'local.collectionCell':
    case 'local.collectionRow': {
      // An editor changes a cell of a collection table, adds a row or removes one.
      const tables = w
        .mdFiles()
        .filter((p) => !p.startsWith('Trash/') && !isConflictCopy(p) && !isDamaged(w, state, p) && (w.readOrNull(p) ?? '').includes('<collection name='));
      if (tables.length === 0) return 'skipped: no table';
      const rel = at(tables, r0);
      const before = w.read(rel);
      const lines = before.split('\n');
      const header = lines.findIndex((l) => l.startsWith('| title |'));
      if (header < 0) return 'skipped: no table header';
      const rows: number[] = [];
      for (let i = header + 2; i < lines.length && lines[i]!.startsWith('|'); i++) rows.push(i);
      const next = [...lines];
      if (op.kind === 'local.collectionCell') {
        if (rows.length === 0) return 'skipped: no row';
        const i = at(rows, r1);
        const cells = rowCells(lines[i]!);
        const col = r2 < 0.5 ? 3 : r2 < 0.8 ? 1 : 2;
        cells[col] = col === 3 ? op.text : col === 1 ? at(['Open', 'Done', 'Later'], op.r[3]) : dayOf(op.n);
        next[i] = `| ${cells.join(' | ')} |`;
      } else if (r1 < 0.6 || rows.length < 2) {
        next.splice(rows.length ? at(rows, r2) + 1 : header + 2, 0, `| row ${op.n} ${op.text.split(' ')[0]} | ${r2 < 0.5 ? 'Open' : ''} |  | ${op.text} |`);
      } else {
        next.splice(at(rows, r2), 1);
      }
      const after = next.join('\n');
      if (after === before) return 'skipped: the same table';
      saveFile(w, rel, before, after, editor, op.kind);
      return rel;
    }
    case 'local.newFile': {
      const dir = at(dirs, r0);
      const rel = `${dir}/New ${op.n} ${op.text.split(' ')[0]}.md`;
      const text = `${op.text}\n\n- first point of ${op.n}\n`;
      fs.writeFileSync(w.file(rel), text);
      w.localChange(rel, null, text, 'local.newFile');
      return rel;
    }
    case 'local.deleteFile': {
      if (files.length < 4 || state.deletes >= 2) return 'skipped: keeping the delete guard out of it';
      const rel = at(files, r0);
      await w.localDelete(rel);
      state.deletes++;
      return rel;
    }
    case 'local.renameFile':
    case 'local.moveFile': {
      if (files.length === 0) return 'skipped: no file';
      const rel = at(files, r0);
      const to =
        op.kind === 'local.renameFile'
          ? `${path.posix.dirname(rel)}/Renamed ${op.n} ${op.text.split(' ')[1]}.md`
          : `${at(dirs, r1)}/${path.posix.basename(rel)}`;
      if (to === rel || w.exists(to)) return 'skipped: same place';
      fs.renameSync(w.file(rel), w.file(to));
      w.localRename(rel, to);
      targetsMoved(state, rel);
      return `${rel} → ${to}`;
    }
    case 'local.newFolder': {
      const parent = r0 < 0.5 ? '' : (at(userDirs(w), r1) ?? '');
      const dir = `${parent ? `${parent}/` : ''}Folder ${op.n}`;
      fs.mkdirSync(w.file(dir), { recursive: true });
      const rel = `${dir}/Inside ${op.n}.md`;
      fs.writeFileSync(w.file(rel), `${op.text}\n`);
      w.localChange(rel, null, `${op.text}\n`, 'local.newFolder');
      return rel;
    }
    case 'local.renameFolder': {
      const list = userDirs(w);
      if (list.length === 0) return 'skipped: no folder';
      const dir = at(list, r0);
      const to = `${path.posix.dirname(dir) === '.' ? '' : `${path.posix.dirname(dir)}/`}Renamed folder ${op.n}`;
      fs.renameSync(w.file(dir), w.file(to));
      w.note(`local.renameFolder ${dir} → ${to}`);
      targetsMoved(state, dir, to);
      return `${dir} → ${to}`;
    }
    case 'local.moveFolder': {
      const list = userDirs(w);
      if (list.length === 0) return 'skipped: no folder';
      const dir = at(list, r0);
      const into = [...list.filter((d) => d !== dir && !d.startsWith(`${dir}/`)), ''].filter(
        (d) => d !== path.posix.dirname(dir) && !(d === '' && !dir.includes('/')),
      );
      if (into.length === 0) return 'skipped: nowhere to go';
      const parent = at(into, r1);
      const to = `${parent ? `${parent}/` : ''}${path.posix.basename(dir)}`;
      if (w.exists(to)) return 'skipped: the name is taken there';
      fs.renameSync(w.file(dir), w.file(to));
      w.note(`local.moveFolder ${dir} → ${to}`);
      targetsMoved(state, dir, to);
      return `${dir} → ${to}`;
    }
    default:
      return 'skipped';
  }
}

interface LiveDoc {
  doc: FixtureDocument;
  blocks: FixtureBlock[];
}

function prefixOf(b: FixtureBlock): string {
  if (b.listStyle === 'task') return '- [ ] ';
  if (b.listStyle === 'bullet') return '- ';
  if (b.listStyle === 'numbered') return '1. ';
  const h = /^h([1-4])$/.exec(b.textStyle ?? '');
  return h ? `${'#'.repeat(Number(h[1]))} ` : '';
}

function findFolder(list: readonly FixtureFolder[] | undefined, id: string): FixtureFolder | undefined {
  for (const f of list ?? []) {
    if (f.id === id) return f;
    const inner = findFolder(f.folders, id);
    if (inner) return inner;
  }
  return undefined;
}

function folderIds(list: readonly FixtureFolder[] | undefined): string[] {
  return (list ?? []).flatMap((f) => [f.id!, ...folderIds(f.folders)]);
}

/** Another client adds, completes, deletes or re-dates an inbox task (POST, PUT, DELETE /tasks). */
async function remoteInboxOp(w: World, op: ChaosOp): Promise<string> {
  const [r0, r1, r2] = op.r;
  const answer = async (method: string, body: unknown) => `${method} /tasks ${JSON.stringify(body)} → ${(await w.remote(method, '/tasks', body)).status}`;
  if (op.kind === 'remote.inboxAdd') {
    const dates = r1 < 0.4 ? {} : r1 < 0.7 ? { scheduleDate: dayOf(op.n) } : { deadlineDate: dayOf(op.n + 3) };
    return answer('POST', { tasks: [{ markdown: op.text, ...(r1 < 0.4 ? {} : { taskInfo: dates }), location: { type: 'inbox' } }] });
  }
  const tasks = await inboxTasks(w);
  if (tasks.length === 0) return 'skipped: no inbox task';
  const t = at(tasks, r0);
  if (op.kind === 'remote.inboxComplete') return answer('PUT', { tasksToUpdate: [{ id: t.id, taskInfo: { state: 'done' } }] });
  if (op.kind === 'remote.inboxDelete') {
    const said = await answer('DELETE', { idsToDelete: [t.id] });
    // The other client deleted a task it could see: its text going is its choice.
    w.ledger.retire(markdownLines(t.markdown));
    return said;
  }
  const key = r2 < 0.5 ? 'scheduleDate' : 'deadlineDate';
  return answer('PUT', { tasksToUpdate: [{ id: t.id, taskInfo: { [key]: op.r[3] < 0.3 ? null : dayOf(op.n + (key === 'deadlineDate' ? 6 : 1)) } }] });
}

async function remoteOp(w: World, op: ChaosOp, state: RunState): Promise<string> {
  const [r0, r1, r2] = op.r;
  const lookedAt = w.serverNow();
  const snap = await w.snapshot();
  const live: LiveDoc[] = (snap.documents ?? [])
    .filter((d) => d.location !== 'trash' && !d.dailyNoteDate)
    .map((d) => ({ doc: d, blocks: (d.content ?? []).filter((b) => (b.type ?? 'text') === 'text' && !b.content?.length) }));
  const folders = folderIds(snap.folders);
  const destination = (r: number) => {
    const i = Math.floor(r * (folders.length + 1));
    return { destination: i === folders.length ? { destination: 'unsorted' } : { folderId: folders[i]! } };
  };
  if (op.kind.startsWith('remote.inbox')) return remoteInboxOp(w, op);
  if (live.length === 0 && op.kind !== 'remote.newDoc' && op.kind !== 'remote.newFolder') return 'skipped: no document';
  const target = live.length ? at(live, r0) : undefined;
  const answer = async (method: string, p: string, body: unknown) => {
    const r = await w.remote(method, p, body);
    return `${method} ${p} ${JSON.stringify(body)} → ${r.status}`;
  };
  switch (op.kind) {
    case 'remote.edit': {
      if (!target || target.blocks.length === 0) return 'skipped: no block';
      const b = at(target.blocks, r1);
      return answer('PUT', '/blocks', { blocks: [{ id: b.id, markdown: `${prefixOf(b)}${op.text}` }] });
    }
    case 'remote.taskDate': {
      // Another client sets or clears one date of a task block (PUT /tasks).
      const tasks = live.flatMap((d) => d.blocks.filter((b) => b.listStyle === 'task' || /^- \[[ xX-]\] /.test(b.markdown ?? '')));
      if (tasks.length === 0) return 'skipped: no task';
      const b = at(tasks, r1);
      const key = r2 < 0.5 ? 'scheduleDate' : 'deadlineDate';
      const value = op.r[3] < 0.3 ? null : dayOf(op.n + (key === 'deadlineDate' ? 7 : 0));
      return answer('PUT', '/tasks', { tasksToUpdate: [{ id: b.id, taskInfo: { [key]: value } }] });
    }
    case 'remote.collectionCell': {
      // Another client changes one property of an item (PUT /collections/{id}/items).
      const colls = (snap.documents ?? []).filter((d) => d.location !== 'trash').flatMap((d) => (d.content ?? []).filter((b) => b.type === 'collection'));
      const c = colls.length ? at(colls, r0) : undefined;
      const items = c?.content ?? [];
      if (!c || items.length === 0) return 'skipped: no item';
      const it = at(items, r1);
      const key = r2 < 0.6 ? 'note' : r2 < 0.85 ? 'status' : 'due';
      const value = key === 'note' ? op.text : key === 'status' ? at(['Open', 'Done'], op.r[3]) : dayOf(op.n + 3);
      const old = (it.properties as Record<string, unknown> | undefined)?.[key];
      // Writing the value the cell holds changes nothing: no text of the space is written (and a
      // local edit of that cell, pushed later, rightly wins over it).
      if (old === value) return 'skipped: the same value';
      w.touchedIds.add(it.id!);
      const from = w.serverNow();
      const r = await w.remote('PUT', `/collections/${c.id}/items`, { itemsToUpdate: [{ id: it.id, properties: { [key]: value } }] });
      const to = w.serverNow();
      if (r.status === 200) {
        // That side saw the value it overwrote; the one it wrote is a text of the space (its window: a
        // write of the sync on its way meanwhile may overwrite it, as O1 allows for block writes).
        if (typeof old === 'string') w.ledger.retire([normalizeLine(old)]);
        // A write of the sync to these items that landed after this side looked: this side overwrote a
        // value it never saw (its own lost update, not the sync's) — the cell as the file had it.
        const path = `/collections/${c.id}/items`;
        const raced = (await w.clientRequests()).some((q) => q.method === 'PUT' && q.path === path && q.t >= lookedAt && q.receivedAt <= to);
        if (raced) w.ledger.retire(tableCells(w, it.title ?? '', key));
        w.ledger.record([normalizeLine(value)], `remote.collectionCell ${c.id}`, { from, to });
      }
      return `PUT /collections/${c.id}/items ${it.id} ${key}=${value} → ${r.status}`;
    }
    case 'remote.addLink': {
      // Another client links another document (block://) or a day (date://).
      if (!target) return 'skipped';
      const link = op.r[3] < 0.25 ? `date://${dayOf(op.n)}` : `block://${at(live, r2).doc.id}`;
      const position = target.blocks.length ? { position: 'after', siblingId: at(target.blocks, r1).id } : { position: 'end', pageId: target.doc.id };
      return answer('POST', '/blocks', { markdown: `${op.text} [link ${op.n}](${link})`, position });
    }
    case 'remote.addBlockLink': {
      // Another client links a block inside a document (block://<block id>).
      const blocks = live.flatMap((d) => d.blocks);
      if (!target || blocks.length === 0) return 'skipped';
      const linked = at(blocks, r2);
      const position = target.blocks.length ? { position: 'after', siblingId: at(target.blocks, r1).id } : { position: 'end', pageId: target.doc.id };
      return answer('POST', '/blocks', { markdown: `${op.text} [blink ${op.n}](block://${linked.id})`, position });
    }
    case 'remote.insert': {
      if (!target) return 'skipped';
      const position = target.blocks.length ? { position: 'after', siblingId: at(target.blocks, r1).id } : { position: 'end', pageId: target.doc.id };
      return answer('POST', '/blocks', { markdown: r2 < 0.3 ? `- ${op.text}` : op.text, position });
    }
    case 'remote.deleteBlock': {
      if (!target || target.blocks.length < 2) return 'skipped: one block left';
      const gone = at(target.blocks, r1).id!;
      state.goneBlocks.add(gone);
      return answer('DELETE', '/blocks', { blockIds: [gone] });
    }
    case 'remote.moveBlock': {
      if (!target || target.blocks.length < 2) return 'skipped: one block';
      const b = at(target.blocks, r1);
      const other = at(
        target.blocks.filter((x) => x !== b),
        r2,
      );
      return answer('PUT', '/blocks/move', { blockIds: [b.id], position: { position: r2 < 0.5 ? 'before' : 'after', siblingId: other.id } });
    }
    case 'remote.newDoc': {
      const created = await w.remote('POST', '/documents', { documents: [{ title: `App ${op.n} ${op.text.split(' ')[0]}` }], ...destination(r1) });
      if (created.status !== 200) return `POST /documents → ${created.status}`;
      const id = created.body.items[0].id as string;
      return answer('POST', '/blocks', {
        blocks: [
          { type: 'text', markdown: op.text },
          { type: 'text', markdown: `- a point from the app ${op.n}` },
        ],
        position: { position: 'end', pageId: id },
      });
    }
    case 'remote.trashDoc': {
      if (!target || live.length < 4 || state.trashes >= 2) return 'skipped: keeping enough documents';
      state.trashes++;
      return answer('DELETE', '/documents', { documentIds: [target.doc.id] });
    }
    case 'remote.moveDoc':
      if (!target) return 'skipped';
      return answer('PUT', '/documents/move', { documentIds: [target.doc.id], ...destination(r1) });
    case 'remote.renameDoc':
      if (!target) return 'skipped';
      return answer('PUT', '/blocks', { blocks: [{ id: target.doc.id, markdown: `Titled ${op.n} ${op.text.split(' ')[1]}` }] });
    case 'remote.moveFolder': {
      if (folders.length === 0) return 'skipped: no folder';
      const id = at(folders, r1);
      const below = new Set(folderIds(findFolder(snap.folders, id)?.folders));
      const targets = [...folders.filter((f) => f !== id && !below.has(f)), 'root'];
      const to = at(targets, r2);
      return answer('PUT', '/folders/move', { folderIds: [id], destination: to === 'root' ? 'root' : { parentFolderId: to } });
    }
    case 'remote.whiteboardEdit':
      return remoteWhiteboardEdit(snap, op, answer);
    case 'remote.newFolder': {
      const parent = r1 < 0.5 || folders.length === 0 ? {} : { parentFolderId: at(folders, r2) };
      return answer('POST', '/folders', { folders: [{ name: `App folder ${op.n}`, ...parent }] });
    }
    default:
      return 'skipped';
  }
}

/** The requests a sync sends: a fault armed on one of them is met. */
const ENDPOINTS: ReadonlyArray<[string, string]> = [
  ['GET', '^/blocks$'],
  ['GET', '^/documents$'],
  ['GET', '^/folders$'],
  ['PUT', '^/blocks$'],
  ['POST', '^/blocks$'],
  ['DELETE', '^/blocks$'],
  ['PUT', '^/blocks/move$'],
  ['POST', '^/documents$'],
  ['DELETE', '^/documents$'],
  ['PUT', '^/documents/move$'],
  ['POST', '^/folders$'],
  ['DELETE', '^/folders$'],
  ['PUT', '^/folders/move$'],
];

function faultOf(op: ChaosOp): FaultSpec {
  const [r0, , r2] = op.r;
  const [method, p] = at(ENDPOINTS, r0);
  const match = { method, path: p };
  const count = 1 + Math.floor(r2 * 3);
  switch (op.kind) {
    case 'fault.429':
      return { kind: '429', retryAfter: 1, count, match };
    case 'fault.429-no-retry-after':
      return { kind: '429', retryAfter: null, count, match };
    case 'fault.500':
      return { kind: '500', count, match };
    case 'fault.reset-after-apply': {
      // Writing requests only; an upload too (media up: its block must land once, checkImages).
      const [m, q] = at([...ENDPOINTS.slice(3), ['POST', '^/upload$'] as const], r0);
      return { kind: 'reset-after-apply', count: 1, match: { method: m, path: q } };
    }
    default:
      return { kind: 'delay', delayMs: 100 + Math.floor(r2 * 300), count, match };
  }
}

/** Logs a document's file (where it is, its body) and its blocks in the space each time either changes; `id` may be a piece of its title. */
function traceDocument(w: World, id: string, log: (line: string) => void): () => void {
  let lastFile = '';
  let lastRemote = '';
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void (async () => {
      const snap = await w.snapshot();
      // By id, or by a piece of the title (documents the run creates have ids nobody knows before).
      const d = snap.documents?.find((x) => x.id === id) ?? snap.documents?.find((x) => x.title.includes(id));
      const docId = d?.id ?? id;
      const files = w.mdFiles().filter((p) => (w.readOrNull(p) ?? '').includes(`id: ${docId}\n`));
      const file = files.map((p) => `${p}: ${JSON.stringify((w.readOrNull(p) ?? '').replace(/^---\n[\s\S]*?\n---\n/, ''))}`).join(' | ') || '(no file)';
      if (file !== lastFile) log(`trace file ${(lastFile = file)}`);
      const remote = d ? `${d.location ?? d.folderId ?? 'unsorted'}: ${JSON.stringify((d.content ?? []).map((b) => `${b.id}=${b.body ?? ''}`))}` : '(gone)';
      if (remote !== lastRemote) log(`trace space ${(lastRemote = remote)}`);
    })()
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  }, 30);
  return () => clearInterval(timer);
}

/** Runs one seed: the operations with the daemon running and killed, then quiet, then O1–O6. */
export async function runChaos(o: ChaosOptions): Promise<ChaosResult> {
  const started = Date.now();
  const plan = planChaos(o.seed, o.operations, o.kills, o.with);
  const w = await World.open({ fixture: plan.space, name: `chaos-${o.seed}`, ...(o.backup ? { config: { mode: 'backup' } } : {}) });
  // The collection's items are the collection operations' to change or remove, on either side.
  for (const d of plan.space.documents ?? [])
    for (const b of d.content ?? []) if (b.type === 'collection') for (const it of b.content ?? []) w.touchedIds.add(it.id!);
  const log = (line: string) => {
    w.note(line);
    o.log?.(line);
  };
  const failures: string[] = [];
  const state: RunState = { deletes: 0, trashes: 0, goneBlocks: new Set(), damaged: [], links: [], linked: null };
  const stopTrace = o.trace ? traceDocument(w, o.trace, log) : () => undefined;
  try {
    log(
      `seed ${o.seed}: ${plan.space.documents!.length} documents, ${plan.ops.length} operations, kills after ${
        plan.ops
          .filter((x) => x.kill)
          .map((x) => x.n)
          .join(', ') || 'none'
      }`,
    );
    await w.startDaemon();
    for (const op of plan.ops) {
      let what: string;
      try {
        if (op.kind === 'local.loseJournal') what = await loseJournal(w, op);
        else if (op.kind === 'local.symlinkFolder') what = symlinkFolder(w, op, state);
        else if (op.kind.startsWith('local.')) what = await localOp(w, op, state);
        else if (op.kind.startsWith('remote.')) what = await remoteOp(w, op, state);
        else {
          const spec = faultOf(op);
          await w.armFault(spec);
          what = JSON.stringify(spec);
        }
      } catch (e) {
        // The daemon moved or rewrote the file meanwhile: the operation is skipped, as a user's would fail.
        what = `skipped: ${(e as Error).message}`;
      }
      log(`op ${op.n} ${op.kind}: ${what}`);
      if (op.kill) {
        await w.killDaemon();
        await w.startDaemon({ wait: false });
      }
      if (op.pauseMs > 0) await sleep(op.pauseMs);
    }
    // Every byte sequence a user saved is still on disk: the damaged files were neither synced over
    // nor rewritten (wherever a folder move took them). Then the user saves them as UTF-8 again.
    await w.waitQuiet(60_000);
    failures.push(...unlinkFolder(w, state));
    for (const d of state.damaged) {
      const where = w.mdFiles().filter((p) => fs.readFileSync(w.file(p)).equals(d.bytes));
      if (where.length === 0) {
        // Backup mode writes the space's version over a file the space changed too, the file's text
        // kept in the version history first: there they must be.
        if (o.backup && inVersions(w, d.bytes)) {
          log(`the ${d.what} was written over from the space; its bytes are in the version history`);
          continue;
        }
        failures.push(`O1 nothing lost: the bytes of the ${d.what} are in no file any more (the sync wrote over or removed them)`);
        continue;
      }
      fs.writeFileSync(w.file(where[0]!), d.fix);
      // The lines the file held before the damage are the user's old ones (the space may have moved on
      // from them meanwhile); only what the fix adds is new.
      w.localChange(where[0]!, d.original, d.fix, `saved again as UTF-8 (${d.what})`);
      log(`fixed ${d.what} at ${where[0]}`);
    }
    await w.clearFaults();
    log('quiet: faults cleared, waiting for the daemon');
    await w.waitQuiet(60_000);
    if (o.backup) {
      failures.push(...(await checkBackup(w, log)));
      return { seed: o.seed, ok: failures.length === 0, failures, events: w.events, ms: Date.now() - started };
    }
    failures.push(...(await checkOracles(w)));
    failures.push(...(await checkWhiteboards(w)));
    failures.push(...(await checkImages(w)));
    failures.push(...(await checkTaskFiles(w)));
    failures.push(...(await checkLinks(w, state.links)));
  } catch (e) {
    failures.push(`the run stopped: ${(e as Error).stack ?? String(e)}`);
  } finally {
    stopTrace();
    await w.close(failures.length > 0 && process.env.SPACESYNC_KEEP_MIRROR === '1');
  }
  return { seed: o.seed, ok: failures.length === 0, failures, events: w.events, ms: Date.now() - started };
}

/** Whether a version in `.spacesync/versions/` holds exactly these bytes. */
function inVersions(w: World, bytes: Buffer): boolean {
  const dir = path.join(w.root, '.spacesync', 'versions');
  if (!fs.existsSync(dir)) return false;
  return (fs.readdirSync(dir, { recursive: true }) as string[]).some((f) => {
    const file = path.join(dir, f);
    if (!fs.statSync(file).isFile()) return false;
    const raw = fs.readFileSync(file);
    return (f.endsWith('.gz') ? gunzipSync(raw) : raw).equals(bytes);
  });
}

/**
 * Backup mode's oracles: B1, no writing request left spacesync, whatever happened on either side;
 * then a revert (of every change made here) and one cycle bring the folder to the space's state,
 * which the convergence, idempotence, journal and identity oracles check as in two-way mode (with
 * nothing sent, "nothing lost" is the version history's, not the space's).
 */
async function checkBackup(w: World, log: (line: string) => void): Promise<string[]> {
  const out: string[] = [];
  const stop = await w.stopDaemon();
  if (stop.code !== 0) out.push(`the daemon stopped with exit ${stop.code}: ${stop.stderr.trim()}`);
  const revert = await w.spawn(['revert']).done;
  log(`revert: exit ${revert.code}`);
  if (revert.code !== 0) out.push(`revert ended with exit ${revert.code}: ${revert.stderr.trim()}`);
  const cycle = await w.cycle([]);
  if (cycle.code !== 0) out.push(`the cycle after the revert ended with exit ${cycle.code}: ${cycle.stderr.trim()}`);
  out.push(...(await checkOracles(w, { skip: ['O1'] })));
  const sent = w.withoutHarness(await w.requests()).filter((r) => r.method !== 'GET');
  out.unshift(...sent.map((r) => `B1 nothing sent in backup mode: ${r.method} ${r.path} was sent`));
  return out;
}

/**
 * Each link typed in a file to another document (or to a block inside one, by its anchor) reached the
 * space as `block://<its id>` (not as a path, which no other client can follow), wherever its line
 * still is and its target still lives; and no file shows a link to a block the space has as
 * `block://` (which no editor follows) rather than as its anchor.
 */
async function checkLinks(w: World, links: RunState['links']): Promise<string[]> {
  const docs = (await w.snapshot()).documents ?? [];
  const live = new Set(docs.filter((d) => d.location !== 'trash').map((d) => d.id));
  const blocks = new Set<string>();
  const bodies = new Map<string, string>();
  const lines: string[] = [];
  const walk = (list: readonly FixtureBlock[] | undefined, alive: boolean) =>
    (list ?? []).forEach((b) => {
      // A snapshot holds a block's stored text (`body`, without its prefixes), which carries its links.
      const text = b.body ?? b.markdown;
      if (text) lines.push(text);
      if (b.id) blocks.add(b.id);
      if (b.id && b.body !== undefined) bodies.set(b.id, b.body);
      if (alive && b.id) live.add(b.id);
      walk(b.content, alive);
    });
  for (const d of docs) walk(d.content, d.location !== 'trash');
  const shown = w
    .mdFiles()
    .filter((p) => !isConflictCopy(p))
    .flatMap((p) =>
      [...(w.readOrNull(p) ?? '').matchAll(/\]\(block:\/\/([^\s()]+)\)/g)]
        .filter((m) => blocks.has(m[1]!))
        .map((m) => `${p} shows its link to block ${m[1]} as block://, not as the block's anchor`),
    );
  // A target set aside as a conflict copy (an adoption without a journal keeps a file that differs
  // from its document that way, the space's version taking its place): the link names the copy's old
  // path, which is no document's file while the link is sent.
  const files = w.mdFiles();
  const setAside = (target: string) => {
    const dir = path.posix.dirname(target);
    const stem = path.posix.basename(target, '.md');
    return files.some((p) => isConflictCopy(p) && path.posix.dirname(p) === dir && path.posix.basename(p).startsWith(`${stem} (conflict `));
  };
  // A heading renamed since the link to it was typed: a link sent after that names no heading there
  // (when the file holding it was held back meanwhile, a truncated file written again, say).
  const renamed = (l: RunState['links'][number]) => l.heading !== undefined && bodies.has(l.id) && bodies.get(l.id) !== l.heading;
  return [
    ...shown,
    ...links.flatMap((l) => {
      const line = lines.find((m) => m.includes(l.text));
      return line === undefined || l.moved || !live.has(l.id) || line.includes(`${l.text}(block://${l.id})`) || setAside(l.target) || renamed(l)
        ? []
        : [`a link typed in a file reached the space as ${JSON.stringify(line)}, not as block://${l.id}`];
    }),
  ];
}

/** A failed run as one message: the seed (to replay it), what failed, and what happened. */
export function describeFailure(r: ChaosResult): string {
  return `chaos seed ${r.seed} failed (replay: SEED=${r.seed} npm run chaos):\n${r.failures.join('\n')}\n--- what happened\n${r.events.join('\n')}`;
}

// A mirror with something in every section of the console, made the way it happens to a user: the
// small space on the real server, `sync --once`, then an edit here that the next push sends (a
// remote version in the history), the same block edited here and in the space (a conflict, with
// the local version it replaced), and a file that is not UTF-8 text (held back). No vitest here:
// the screenshot script uses it too.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer, type SpaceFixture } from '../../src/server/index.js';
import { spawnCli } from '../cli/spawnCli.js';

export const ROADMAP = 'Projects/Roadmap.md';
export const INBOX = 'Unsorted/Inbox note.md';
export const BROKEN = 'Projects/Broken.md';

/** A small space: a folder with a document, an unsorted document. */
export const consoleSpace: SpaceFixture = {
  version: 1,
  space: { id: 'SPACE-CONSOLE', name: 'Field Notes', timezone: 'UTC', userId: 'U-1' },
  folders: [{ id: 'F-PROJ', name: 'Projects', createdAt: '2026-01-01T00:00:00Z' }],
  documents: [
    {
      id: 'D-ROAD',
      title: 'Roadmap',
      folderId: 'F-PROJ',
      createdAt: '2026-08-01T10:00:00Z',
      content: [
        { id: 'B-H', markdown: '# Goals' },
        { id: 'B-P', markdown: 'Ship the sync engine' },
        { id: 'B-L', markdown: '- first step' },
        { id: 'B-Q', markdown: 'Questions for the team' },
      ],
    },
    { id: 'D-NOTE', title: 'Inbox note', createdAt: '2026-08-02T10:00:00Z', content: [{ id: 'B-N', markdown: 'hello world' }] },
  ],
};

export function tempDir(prefix = 'spacesync-console-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export function writeConfig(root: string, config: Record<string, unknown>): void {
  fs.mkdirSync(path.join(root, '.spacesync'), { recursive: true });
  fs.writeFileSync(path.join(root, '.spacesync', 'config.json'), JSON.stringify(config, null, 2), { mode: 0o600 });
}

export async function sync(root: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return spawnCli(['sync', '--dir', root, '--once']).done;
}

const edit = (root: string, rel: string, from: string, to: string) => {
  const file = path.join(root, rel);
  const text = fs.readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${rel} does not hold "${from}":\n${text}`);
  fs.writeFileSync(file, text.replace(from, to));
};

export interface ConsoleMirror {
  server: RunningServer;
  /** A mirror with a conflict on Roadmap, a held-back Broken.md and a remote version of the Inbox note. */
  root: string;
}

/** The space on a fresh server (limits off), and the mirror in every state the console shows. */
export async function consoleMirror(): Promise<ConsoleMirror> {
  const server = await startServer({ port: 0, seed: consoleSpace, limits: 'off' });
  const root = tempDir();
  writeConfig(root, { link: server.baseUrl, debounceMs: 50, poll: { minSeconds: 1, maxSeconds: 2 } });
  const first = await sync(root);
  if (first.code !== 0) throw new Error(`the first sync failed: ${first.stderr}`);
  // Sent by the next push, which keeps the space's "hello world" as a version.
  edit(root, INBOX, 'hello world', 'hello there');
  // The same block, differently on both sides: a conflict. A block only this side changed merges.
  edit(root, ROADMAP, 'Ship the sync engine', 'Ship the sync engine next week');
  edit(root, ROADMAP, 'Questions for the team', 'Questions for the team (ask Ana)');
  const put = await fetch(`${server.baseUrl}/blocks`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ blocks: [{ id: 'B-P', markdown: 'Ship the sync engine in March' }] }),
  });
  if (put.status !== 200) throw new Error(`the space's edit failed: ${put.status}`);
  fs.writeFileSync(path.join(root, BROKEN), Buffer.from([0x23, 0x20, 0x4e, 0x6f, 0x74, 0x65, 0x0a, 0xff, 0xfe, 0x0a]));
  const second = await sync(root);
  if (second.code !== 3 && second.code !== 4) throw new Error(`the second sync ended with ${second.code}, not 3 or 4: ${second.stdout}\n${second.stderr}`);
  return { server, root };
}

/** A copy of a mirror (the same space): a test that changes it leaves the others theirs. */
export function copyMirror(root: string): string {
  const copy = tempDir();
  fs.cpSync(root, copy, { recursive: true });
  return copy;
}

/** The markdown of a document's blocks in the space now. */
export async function spaceBlocks(server: RunningServer, docId: string): Promise<string[]> {
  const r = await fetch(`${server.baseUrl}/blocks?id=${docId}`);
  return ((await r.json()) as { content: Array<{ markdown: string }> }).content.map((b) => b.markdown);
}

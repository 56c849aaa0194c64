// `spacesync demo [DIR]` (what `npm start` runs): a local space server with the sample space, and
// the sync daemon on DIR, exactly as `spacesync sync` runs it. Ctrl-C stops both. The demo space
// is kept in DIR/.spacesync/demo-server.db, so edits survive a restart; delete DIR to start over.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import type { BuildProgram, Wrap } from './types.js';
import { configPath } from '../config.js';
import { isSpacesyncError, SpacesyncError } from '../errors.js';
import { acquireLock } from '../mirror/index.js';
import { startServer, type RunningServer } from '../server/index.js';
import { shellQuote } from './format.js';
import { ownCommand, type OwnCommand } from './ownCommand.js';
import { statePath } from '../stateDir.js';

export const DEMO_FIXTURE = fileURLToPath(new URL('../../fixtures/spaces/demo.json', import.meta.url));
const DEMO_PORT = 8787;
/** The demo's own file, which tells a demo folder from one synced with a real space. */
const demoDataFile = (root: string) => statePath(root, 'demoServer');

/** A document of the sample space and one of its blocks, for the printed example of a remote change. */
const EXAMPLE = { file: 'Unsorted/Quick idea.md', docId: '1A0E7F52-0D1B-4C8B-9E11-2F6A7C3D0017', blockId: 'B10C0170-DE40-4000-8000-000000000170' };

/** The demo writes sample files: only into a new or empty folder, or one an earlier demo made. */
function checkFolder(root: string): void {
  const st = statSync(root, { throwIfNoEntry: false });
  if (st && !st.isDirectory()) throw new SpacesyncError('usage', `${root} is a file, not a folder. Give the demo a new folder to fill: spacesync demo DIR.`);
  if (!st || existsSync(demoDataFile(root))) return;
  if (existsSync(configPath(root))) {
    throw new SpacesyncError(
      'refused_safety',
      `${root} is already synced with a space, so the demo left it alone. Give the demo a folder of its own: spacesync demo DIR.`,
    );
  }
  const entries = readdirSync(root).filter((n) => n !== '.DS_Store');
  if (entries.length > 0) {
    throw new SpacesyncError(
      'refused_safety',
      `${root} is not empty, and the demo would write its sample files among yours. Give it a new or empty folder: spacesync demo DIR.`,
    );
  }
}

async function startDemoServer(root: string): Promise<RunningServer> {
  const options = { seed: DEMO_FIXTURE, dataFile: demoDataFile(root), limits: 'spec' as const, host: '127.0.0.1' };
  try {
    return await startServer({ ...options, port: DEMO_PORT });
  } catch (e) {
    const inUse = isSpacesyncError(e) && (e.cause as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
    if (!inUse) throw e;
    return startServer({ ...options, port: 0 });
  }
}

/** The config of the demo folder: the fresh link, quick polling, and whatever options the user added. */
function writeDemoConfig(root: string, link: string): void {
  const file = configPath(root);
  let existing: Record<string, unknown> = {};
  try {
    existing = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    /* a first run, or a file to replace */
  }
  const config = { poll: { minSeconds: 2, maxSeconds: 6 }, ...existing, link };
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

export function demoIntro(root: string, server: RunningServer, run: OwnCommand = ownCommand()): string[] {
  const url = server.baseUrl;
  const body = JSON.stringify({ blocks: [{ id: EXAMPLE.blockId, markdown: 'Changed in the space, a moment ago.' }] });
  return [
    'spacesync demo: a local space server with a sample space, synced both ways into a folder.',
    `  Files:   ${root}`,
    `  Server:  ${url}  (local, for this demo only)`,
    `  Try it:  edit a file, for example "${EXAMPLE.file}", save, and read it back from the space:`,
    `             curl -H 'Accept: text/markdown' '${url}/blocks?id=${EXAMPLE.docId}'`,
    '           change it in the space, and see the file change within seconds:',
    `             curl -X PUT '${url}/blocks' -H 'Content-Type: application/json' -d '${body}'`,
    // Named as the user can type it where they stand: `npx spacesync` from a clone.
    `  Status:  ${run.command} status --dir ${shellQuote(root)}   (in another terminal)`,
    '  Ctrl-C stops the server and the sync; the files and the demo space stay for next time.',
    '',
  ];
}

export async function runDemo(dir: string, verbose: boolean, build: BuildProgram): Promise<number> {
  const root = path.resolve(dir);
  checkFolder(root);
  mkdirSync(statePath(root), { recursive: true, mode: 0o700 });
  // A demo already running on this folder is told before anything is written or printed: its
  // config keeps the link of its own server. (The sync below takes the lock for good.)
  acquireLock(root).release();
  const server = await startDemoServer(root);
  try {
    writeDemoConfig(root, server.baseUrl);
    for (const line of demoIntro(root, server)) process.stdout.write(`${line}\n`);
    // The daemon exactly as `spacesync sync` runs it: its loop, its output, its Ctrl-C handling.
    const exit = { code: 0 };
    const args = ['sync', '--dir', root, ...(verbose ? ['--verbose'] : [])];
    await (await build(exit, args)).parseAsync(args, { from: 'user' });
    return exit.code;
  } finally {
    await server.close();
    process.stdout.write(`spacesync demo: the server is stopped. The files stay in ${root}; run the demo again to go on where you left off.\n`);
  }
}

export function registerDemo(program: Command, wrap: Wrap, build: BuildProgram): void {
  program
    .command('demo')
    .description('a local server with a sample space, synced into DIR')
    .argument('[dir]', 'the mirror folder (a new or empty one)', './demo-space')
    .option('--verbose', 'log debug details')
    .action(wrap(async (dir: string, flags: { verbose?: boolean }) => runDemo(dir, flags.verbose === true, build)));
}

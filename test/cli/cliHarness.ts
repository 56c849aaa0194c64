// The command-line tests' harness: the program spawned as a user runs it (node bin/dev.js …,
// asynchronously, so this process keeps serving the in-process test server), temp folders, and a
// small space to sync.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { startServer, type RunningServer, type SpaceFixture } from '../../src/server/index.js';
import { SPAWN_BIN } from '../spawnBin.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = SPAWN_BIN;

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliProcess {
  child: ChildProcess;
  done: Promise<CliResult>;
  /** Everything written so far. */
  output(): { stdout: string; stderr: string };
  /** Resolves once stdout or stderr holds a match (rejects when the process ends first). */
  waitFor(re: RegExp, stream?: 'stdout' | 'stderr' | 'any'): Promise<void>;
}

export interface SpawnOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** The program to run instead of this checkout's sources (the package test runs the installed command). */
  command?: string;
}

/** The environment without the user's SPACESYNC_* variables, plus `env`. */
function cleanEnv(env: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SPACESYNC_')));
  const out: NodeJS.ProcessEnv = { ...base };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

export function spawnCli(args: readonly string[], opts: SpawnOptions = {}): CliProcess {
  const [file, argv] = opts.command === undefined ? [process.execPath, [BIN, ...args]] : [opts.command, [...args]];
  const child = spawn(file, argv, { env: cleanEnv(opts.env), cwd: opts.cwd ?? REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiters: Array<() => void> = [];
  const poke = () => {
    for (const w of [...waiters]) w();
  };
  child.stdout!.on('data', (d) => {
    stdout += String(d);
    poke();
  });
  child.stderr!.on('data', (d) => {
    stderr += String(d);
    poke();
  });
  let ended = false;
  const done = new Promise<CliResult>((resolve) => {
    child.on('close', (code, signal) => {
      ended = true;
      poke();
      resolve({ code, signal, stdout, stderr });
    });
  });
  return {
    child,
    done,
    output: () => ({ stdout, stderr }),
    waitFor(re, stream = 'any') {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          const text = stream === 'stdout' ? stdout : stream === 'stderr' ? stderr : `${stdout}\n${stderr}`;
          if (re.test(text)) {
            waiters.splice(waiters.indexOf(check), 1);
            resolve();
          } else if (ended) {
            waiters.splice(waiters.indexOf(check), 1);
            reject(new Error(`the program ended before printing ${re}:\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
          }
        };
        waiters.push(check);
        check();
      });
    },
  };
}

/** Runs the program to its end. */
export function runCli(args: readonly string[], opts: SpawnOptions = {}): Promise<CliResult> {
  return spawnCli(args, opts).done;
}

export function tempDir(prefix = 'spacesync-cli-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/** The link id of a server's base URL: a secret that must never appear in any output. */
export function linkIdOf(baseUrl: string): string {
  return /\/links\/([^/]+)\//.exec(baseUrl)![1]!;
}

/** A small space: a folder with a document, an unsorted document. */
export const smallSpace: SpaceFixture = {
  version: 1,
  space: { id: 'SPACE-CLI', name: 'Field Notes', timezone: 'America/Toronto', userId: 'U-1' },
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
      ],
    },
    { id: 'D-NOTE', title: 'Inbox note', createdAt: '2026-08-02T10:00:00Z', content: [{ id: 'B-N', markdown: 'hello world' }] },
  ],
};

/** Writes a config file the way init does (mode 0600). */
export function writeConfig(root: string, config: Record<string, unknown>): void {
  fs.mkdirSync(path.join(root, '.spacesync'), { recursive: true });
  fs.writeFileSync(path.join(root, '.spacesync', 'config.json'), JSON.stringify(config, null, 2), { mode: 0o600 });
}

export interface SyncedMirror {
  server: RunningServer;
  /** A mirror synced once by `sync --once`, as a user would: copy it (fs.cpSync) before changing it. */
  synced: string;
}

/**
 * For the tests of the file: the small space on a server (limits off) and one mirror synced from
 * it, made before them (a sync per test would only cost time) and handed to `use`; the server
 * is closed after them.
 */
export function useSyncedMirror(use: (m: SyncedMirror) => void): void {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startServer({ port: 0, seed: smallSpace, limits: 'off' });
    const synced = tempDir();
    writeConfig(synced, { link: server.baseUrl });
    const r = await runCli(['sync', '--dir', synced, '--once']);
    expect(r.code, r.stderr).toBe(0);
    use({ server, synced });
  });
  afterAll(async () => {
    await server?.close();
  });
}

// Runs the program as a user does (node bin/dev.js …, or the compiled one: test/spawnBin.ts) without blocking this process, whose
// event loop serves the in-process test server the program talks to.
import { spawn, type ChildProcess } from 'node:child_process';
import { SPAWN_BIN } from '../spawnBin.js';

export interface CliRun {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

export function spawnCli(args: readonly string[], env: Record<string, string> = {}): CliRun {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SPACESYNC_')));
  const child = spawn(process.execPath, [SPAWN_BIN, ...args], {
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => {
    stdout += String(d);
  });
  child.stderr!.on('data', (d) => {
    stderr += String(d);
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

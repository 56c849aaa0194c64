// A stop request (SIGTERM, as Ctrl-C's SIGINT) ends a wait at once: for the client's budget, for a
// Retry-After, while a request already sent finishes; a second one ends the process at once. Each
// time the next run completes the work, and reads each document exactly once in all.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSpace } from '../../src/server/fixture/generateSpace.js';
import { startServer, type LoggedRequest, type RunningServer } from '../../src/server/index.js';
import { armFault, clearLog, requestLog, adminFetch } from '../client/admin.js';
import { runCli, spawnCli, tempDir, writeConfig, type CliProcess } from './cliHarness.js';

const space = generateSpace({ documents: 24, blocksPerDocument: 2, folders: 0, seed: 21 });
const ids = (space.documents ?? []).map((d) => d.id);

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, seed: space, limits: 'off', admin: true });
});
afterAll(async () => {
  await server.close();
});
const reset = () => adminFetch(server, '/reset', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
/** The mirror the slow-request test leaves in step with the space, for the last test. */
let synced = '';

const reads = (log: LoggedRequest[]) => log.filter((r) => r.method === 'GET' && r.path === '/blocks');
const until = async (what: string, ok: () => Promise<boolean>, ms = 20_000) => {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
};
/** Sends SIGTERM and resolves with the process's end and the time it took. */
const stop = async (p: CliProcess) => {
  const at = Date.now();
  p.child.kill('SIGTERM');
  const ended = await p.done;
  return { ...ended, ms: Date.now() - at };
};
const recorded = (root: string): number => {
  const db = new Database(path.join(root, '.spacesync', 'journal.db'), { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM documents WHERE file_hash IS NOT NULL').get() as { n: number }).n;
  } finally {
    db.close();
  }
};
/** Each document's blocks were read with success exactly once over both runs, and every file is there. */
const completedOnce = async (root: string) => {
  const ok = reads(await requestLog(server))
    .filter((r) => r.status === 200)
    .map((r) => r.query.id);
  expect([...ok].sort()).toEqual([...ids].sort());
  expect(recorded(root)).toBe(ids.length);
  const files = fs.readdirSync(path.join(root, 'Unsorted')).filter((f) => f.endsWith('.md'));
  expect(files).toHaveLength(ids.length);
};

describe('a stop request stops at once', () => {
  it('ends a wait for the budget at once; the next run pulls the rest', async () => {
    await reset();
    const root = tempDir();
    // Eight requests a minute: after the listings and a few reads, the next read waits ~7 s.
    writeConfig(root, { link: server.baseUrl, budget: { requestsPerMinute: 8, reservePercent: 0 } });
    const run = spawnCli(['sync', '--dir', root, '--once']);
    await until('a few reads and then a wait', async () => reads(await requestLog(server)).length >= 2);
    await new Promise((r) => setTimeout(r, 300));
    const before = reads(await requestLog(server)).length;
    const ended = await stop(run);
    expect(ended.code, ended.stderr).toBe(143);
    expect(ended.ms).toBeLessThan(1500);
    expect(ended.stdout).toMatch(/Stopped before the end/);
    expect(reads(await requestLog(server))).toHaveLength(before);
    expect(before).toBeLessThan(ids.length);
    expect(recorded(root)).toBe(before);

    writeConfig(root, { link: server.baseUrl });
    const next = await runCli(['sync', '--dir', root, '--once']);
    expect(next.code, next.stderr).toBe(0);
    await completedOnce(root);
  });

  it('ends a Retry-After wait at once; the next run pulls the rest', async () => {
    await reset();
    const root = tempDir();
    writeConfig(root, { link: server.baseUrl });
    await armFault(server, { match: { method: 'GET', path: '^/blocks' }, kind: '429', retryAfter: 60 });
    const run = spawnCli(['sync', '--dir', root, '--once']);
    await until('the 429', async () => reads(await requestLog(server)).some((r) => r.status === 429));
    await new Promise((r) => setTimeout(r, 200));
    const ended = await stop(run);
    expect(ended.code, ended.stderr).toBe(143);
    expect(ended.ms).toBeLessThan(1500);

    const next = await runCli(['sync', '--dir', root, '--once']);
    expect(next.code, next.stderr).toBe(0);
    await completedOnce(root);
  });

  it('lets a request already sent finish and records it; the next run reads nothing again', async () => {
    await reset();
    const root = tempDir();
    writeConfig(root, { link: server.baseUrl });
    await armFault(server, { match: { method: 'GET', path: '^/blocks' }, kind: 'delay', delayMs: 1500 });
    const run = spawnCli(['sync', '--dir', root, '--once']);
    // Every read but the slow one is answered: the slow one is in flight.
    await until('the other reads', async () => reads(await requestLog(server)).length >= ids.length - 1);
    const ended = await stop(run);
    expect(ended.code, ended.stderr).toBe(143);
    expect(ended.ms).toBeLessThan(1500 + 1000);
    expect(recorded(root)).toBe(ids.length);

    const next = await runCli(['sync', '--dir', root, '--once']);
    expect(next.code, next.stderr).toBe(0);
    await completedOnce(root);
    synced = root;
  });

  it('a second stop request ends the process at once, and the next run completes the work exactly once', async () => {
    const root = synced;
    expect(root).not.toBe('');
    const file = path.join(
      root,
      'Unsorted',
      fs.readdirSync(path.join(root, 'Unsorted')).find((f) => f.endsWith('.md'))!,
    );
    const doc = /^id: (.+)$/m.exec(fs.readFileSync(file, 'utf8'))![1]!.trim();
    fs.appendFileSync(file, '\nA line added here.\n');
    await clearLog(server);
    await armFault(server, { match: { method: 'POST', path: '^/blocks' }, kind: 'delay', delayMs: 2000 });
    const run = spawnCli(['sync', '--dir', root, '--once']);
    await until('the push', async () => /stopping/.test(run.output().stdout) || (await requestLog(server)).length >= 2);
    await new Promise((r) => setTimeout(r, 500));
    run.child.kill('SIGTERM');
    await run.waitFor(/stopping/);
    const at = Date.now();
    run.child.kill('SIGTERM');
    const ended = await run.done;
    expect(Date.now() - at).toBeLessThan(1000);
    expect(ended.code).toBe(128 + 15);
    // The server applies the slow insert after the process is gone.
    // The slow insert reached the server: whether it applies it once its delay is over or drops it
    // with the closed connection, the next run must end with the line in the space once.
    await new Promise((r) => setTimeout(r, 2000));
    const next = await runCli(['sync', '--dir', root, '--once']);
    expect(next.code, next.stderr).toBe(0);
    const blocks = ((await (await fetch(`${server.baseUrl}/blocks?id=${doc}`)).json()) as { content: Array<{ markdown: string }> }).content.map(
      (b) => b.markdown,
    );
    expect(blocks.filter((m) => m === 'A line added here.')).toHaveLength(1);
    await clearLog(server);
    const again = await runCli(['sync', '--dir', root, '--once']);
    expect(again.code).toBe(0);
    expect((await requestLog(server)).filter((r) => r.method !== 'GET')).toEqual([]);
  });
});

// SIGTERM while the daemon is in the middle of a push: the daemon finishes or safely abandons the
// request under way, exits 0, and leaves a journal that the next run completes from, with
// nothing lost and nothing duplicated.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { runCli, smallSpace, spawnCli, tempDir, writeConfig } from './cliHarness.js';
import { adminFetch } from '../client/admin.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, seed: smallSpace, limits: 'off', admin: true });
});
afterAll(async () => {
  await server.close();
});

const admin = async (method: string, route: string, body?: unknown) => {
  const r = await adminFetch(server, route, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return r.json() as Promise<any>;
};
const pendingIntents = (root: string): number => {
  const db = new Database(path.join(root, '.spacesync', 'journal.db'), { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM intents').get() as { n: number }).n;
  } finally {
    db.close();
  }
};
const roadmapMarkdowns = async (): Promise<string[]> => {
  const r = await fetch(`${server.baseUrl}/blocks?id=D-ROAD`);
  return ((await r.json()) as { content: Array<{ markdown: string }> }).content.map((b) => b.markdown);
};

describe('graceful shutdown mid-push', () => {
  it('SIGTERM during a slow push exits 0; the next run ends in the state of an uninterrupted one', async () => {
    const root = tempDir();
    writeConfig(root, { link: server.baseUrl, poll: { minSeconds: 30, maxSeconds: 60 }, debounceMs: 50 });
    const daemon = spawnCli(['sync', '--dir', root]);
    await daemon.waitFor(/Pulled: 2 new/);

    // Every writing request now takes 1.5 s: the push is certainly under way when SIGTERM comes.
    const armed = await admin(
      'POST',
      '/faults',
      ['PUT', 'POST', 'DELETE'].map((method) => ({ match: { method, path: '^/blocks' }, count: 10, kind: 'delay', delayMs: 1500 })),
    );
    expect(armed.items).toHaveLength(3);
    const file = path.join(root, 'Projects', 'Roadmap.md');
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(
      file,
      text.replace('Ship the sync engine', 'Ship the sync engine, then rest').replace('- first step', '- first step\n- second step\n- third step'),
    );
    for (let i = 0; i < 200 && pendingIntents(root) === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(pendingIntents(root)).toBeGreaterThan(0);

    daemon.child.kill('SIGTERM');
    const ended = await daemon.done;
    // At least one slow write was under way (its fault used), and the daemon waited for it.
    const left = ((await admin('GET', '/faults')).items as Array<{ left: number }>).reduce((n, f) => n + f.left, 0);
    expect(left).toBeLessThan(30);
    expect(ended.code, ended.stderr).toBe(0);
    expect(fs.existsSync(path.join(root, '.spacesync', 'lock'))).toBe(false);
    await admin('DELETE', '/faults');

    const next = await runCli(['sync', '--dir', root, '--once']);
    expect(next.code, next.stderr).toBe(0);
    expect(pendingIntents(root)).toBe(0);
    expect(await roadmapMarkdowns()).toEqual(['# Goals', 'Ship the sync engine, then rest', '- first step', '- second step', '- third step']);
    expect(fs.readFileSync(file, 'utf8')).toContain('- second step\n- third step');

    await admin('DELETE', '/requests');
    const idle = await runCli(['sync', '--dir', root, '--once']);
    expect(idle.code).toBe(0);
    const writes = ((await admin('GET', '/requests')).items as Array<{ method: string }>).filter((r) => r.method !== 'GET');
    expect(writes).toEqual([]);
  });
});

// The daemon survives the service being unreachable and catches up when it returns: an edit
// saved while the service is down reaches it once it is back, and the daemon never exits.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/index.js';
import { smallSpace, spawnCli, tempDir, writeConfig } from './cliHarness.js';

async function until(what: string, cond: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A daemon over a space whose server is then stopped, and a note edited while nothing answers. The
 * server comes back on the same port with the same data (`back`); `edited` is whether the space
 * holds the edit.
 */
async function outage(name: string, poll: { minSeconds: number; maxSeconds: number }) {
  const data = path.join(tempDir(`spacesync-${name}-`), 'space.db');
  const options = { seed: smallSpace, limits: 'off' as const, dataFile: data, linkId: `${name}-link-0001` };
  let server = await startServer({ port: 0, ...options });
  const port = Number(new URL(server.baseUrl).port);
  const root = tempDir();
  // The client's retries (and budget windows) at a fifth of the service's: it gives up on a request in
  // about 2 s, not 10. The outage's own probes are not scaled.
  writeConfig(root, { link: server.baseUrl, poll, debounceMs: 50, budget: { scale: 0.2 } });
  const daemon = spawnCli(['sync', '--dir', root]);
  await daemon.waitFor(/Pulled: 2 new/);
  await server.close();
  const file = path.join(root, 'Inbox note.md');
  const unsorted = fs.existsSync(file) ? file : path.join(root, 'Unsorted', 'Inbox note.md');
  fs.writeFileSync(unsorted, fs.readFileSync(unsorted, 'utf8').replace('hello world', 'hello while offline'));
  return {
    daemon,
    back: async () => void (server = await startServer({ port, ...options })),
    edited: async () => {
      const r = await fetch(`${server.baseUrl}/blocks?id=D-NOTE`);
      return ((await r.json()) as { content: Array<{ markdown: string }> }).content.some((b) => b.markdown === 'hello while offline');
    },
    close: async () => {
      daemon.child.kill('SIGTERM');
      await daemon.done;
      await server.close();
    },
  };
}

describe('the daemon while the service is unreachable', () => {
  it('keeps running, and pushes the edits made meanwhile once the service is back', async () => {
    // Saved while nothing answers: the push fails, the daemon says so and goes on.
    const o = await outage('down', { minSeconds: 1, maxSeconds: 1 });
    try {
      // The client's own retries give up first; then the daemon says the space is out of reach and goes on.
      await o.daemon.waitFor(/the space is unreachable/, 'stderr');
      expect(o.daemon.child.exitCode).toBeNull();
      await o.back();
      await until('the edit to reach the service', o.edited);
      expect(o.daemon.child.exitCode).toBeNull();
    } finally {
      await o.close();
    }
  });
});

describe('an outage on the terminal', () => {
  it('is said once when it starts and once when it ends, with no line per retry; an edit saved meanwhile goes out within one probe of the return', async () => {
    // The idle poll is two minutes: only the outage's own probes can send the edit in time.
    const o = await outage('outage', { minSeconds: 60, maxSeconds: 120 });
    const { daemon } = o;
    try {
      await daemon.waitFor(/the space is unreachable/, 'stderr');
      // Five seconds out of reach: more than one probe (2 s, then 4 s later). The backoff's cap is
      // outage.test.ts's: waiting past it here would only make this test slow.
      await new Promise((r) => setTimeout(r, 5_000));
      await o.back();
      const back = Date.now();
      await until('the edit to reach the service', o.edited);
      expect(Date.now() - back).toBeLessThan(15_000 + 50 + 1_500);
      await daemon.waitFor(/the space is reachable again/, 'stdout');
      const { stdout, stderr } = daemon.output();
      const all = `${stdout}\n${stderr}`;
      expect(all.match(/the space is unreachable/g)).toHaveLength(1);
      expect(all.match(/the space is reachable again/g)).toHaveLength(1);
      expect(all).not.toMatch(/sending it again|this cycle failed/);
      expect(stdout).toMatch(/the space is reachable again after \d+ s; 1 edit sent\./);
      expect(daemon.child.exitCode).toBeNull();
    } finally {
      await o.close();
    }
  }, 90_000);
});

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

describe('the daemon while the service is unreachable', () => {
  it('keeps running, and pushes the edits made meanwhile once the service is back', async () => {
    const data = path.join(tempDir('spacesync-down-'), 'space.db');
    const options = { seed: smallSpace, limits: 'off' as const, dataFile: data, linkId: 'down-link-0001' };
    let server = await startServer({ port: 0, ...options });
    const port = new URL(server.baseUrl).port;
    const root = tempDir();
    writeConfig(root, { link: server.baseUrl, poll: { minSeconds: 1, maxSeconds: 1 }, debounceMs: 50 });
    const daemon = spawnCli(['sync', '--dir', root]);
    try {
      await daemon.waitFor(/Pulled: 2 new/);
      await server.close();

      // Saved while nothing answers: the push fails, the daemon says so and goes on.
      const file = path.join(root, 'Inbox note.md');
      const unsorted = fs.existsSync(file) ? file : path.join(root, 'Unsorted', 'Inbox note.md');
      fs.writeFileSync(unsorted, fs.readFileSync(unsorted, 'utf8').replace('hello world', 'hello while offline'));
      // The client's own retries give up first; then the daemon says the cycle failed and goes on.
      await daemon.waitFor(/trying again in|could not send/, 'stderr');
      expect(daemon.child.exitCode).toBeNull();

      server = await startServer({ port: Number(port), ...options });
      await until('the edit to reach the service', async () => {
        const r = await fetch(`${server.baseUrl}/blocks?id=D-NOTE`);
        return ((await r.json()) as { content: Array<{ markdown: string }> }).content.some((b) => b.markdown === 'hello while offline');
      });
      expect(daemon.child.exitCode).toBeNull();
    } finally {
      daemon.child.kill('SIGTERM');
      await daemon.done;
      await server.close();
    }
  });
});

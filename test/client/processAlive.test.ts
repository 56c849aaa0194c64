// A program whose only pending work is a request waiting for budget must not exit half way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../../src/server/index.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, limits: 'off' });
});
afterAll(() => server.close());

describe('the scheduler and the process', () => {
  it('a queued request waiting on the budget keeps the process alive until it is sent', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'alive-'));
    const script = path.join(dir, 'wait.mts');
    writeFileSync(
      script,
      `
      import { createClient } from ${JSON.stringify(path.join(process.cwd(), 'src/client/index.ts'))};
      // 2 requests per (scaled) window: the third waits about 300 ms on the scheduler's timer alone.
      const client = createClient({ link: process.env.LINK, limits: { requestsPerMinute: 2, scale: 0.005 } });
      for (let i = 0; i < 3; i++) await client.getConnection();
      console.log('done');
      client.close();
    `,
    );
    // The server lives in this process: in the child only the client's own timer can keep it alive.
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: process.cwd(), env: { ...process.env, LINK: server.baseUrl } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(err).not.toMatch(/unsettled top-level await/);
    expect(code).toBe(0);
    expect(out).toMatch(/^done/m);
  });
});

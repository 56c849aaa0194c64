// The console in a real browser (headless Chromium): the page of a mirror with a conflict, a
// held-back file and versions; "keep mine" with the daemon running, until the space holds it;
// approving an emptied file and a refused mass delete with the daemon running; restoring a version;
// and nobody else let in — no token, a rebound name (DNS rebinding), a write
// from another origin. Where no Chromium is found, one line says so and how to run them.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyReport } from '../../src/core/report/cycleReport.js';
import { REPORT_KEYS } from '../../src/sync/cycle/recordReport.js';
import { openJournal } from '../../src/journal/index.js';
import { startConsole, type RunningConsole } from '../../src/console/server.js';
import { spawnCli } from '../cli/cliHarness.js';
import { findChromium, launchChromium, SKIPPED } from './chromium.js';
import { startServer } from '../../src/server/index.js';
import { consoleMirror, consoleSpace, copyMirror, INBOX, ROADMAP, spaceBlocks, sync, tempDir, writeConfig, type ConsoleMirror } from './consoleMirror.js';

const CHROMIUM = findChromium();
if (!CHROMIUM) process.stdout.write(SKIPPED);

/** Polls `check` every 50 ms until it holds, for `ms` at most. */
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!CHROMIUM)('the console in Chromium', () => {
  let browser: Browser;
  let made: ConsoleMirror;
  const consoles: RunningConsole[] = [];

  beforeAll(async () => {
    [browser, made] = await Promise.all([launchChromium(CHROMIUM!, ['--host-resolver-rules=MAP rebind.test 127.0.0.1']), consoleMirror()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(consoles.map((c) => c.close()));
    await browser?.close();
    await made?.server.close();
  });

  /** A console on `root` (and `more`), and a page of a fresh browser context that opened its address. */
  async function open(root: string, ...more: string[]): Promise<{ page: Page; console: RunningConsole; errors: string[] }> {
    const c = await startConsole({ dirs: [root, ...more], pollMs: 200 });
    consoles.push(c);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(c.url);
    await page.getByRole('heading', { name: 'Daemon' }).waitFor();
    return { page, console: c, errors };
  }

  it('shows the daemon, the conflict as three versions with its choices, the held-back file and the versions', async () => {
    const { page, errors } = await open(made.root);
    // The token went into the cookie; the address no longer holds it.
    expect(page.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const daemon = page.getByRole('region', { name: 'Daemon' });
    await expect.poll(() => daemon.innerText(), { timeout: 5000 }).toContain('not running');
    expect(await daemon.innerText()).toMatch(/The space\s+reachable/);
    expect(await daemon.innerText()).not.toContain(made.server.linkId);

    const conflicts = page.getByRole('region', { name: /Conflicts/ });
    const table = conflicts.getByRole('table');
    expect(await table.getByRole('columnheader').allInnerTexts()).toEqual(['Base', "The space's", 'Yours']);
    const row = table.getByRole('row').filter({ hasText: 'in March' });
    expect(await row.getByRole('cell').allInnerTexts()).toEqual(['Ship the sync engine', 'Ship the sync engine in March', 'Ship the sync engine next week']);
    expect(await row.locator('.run.ins').allInnerTexts()).toEqual([' in March', ' next week']);
    for (const name of ["Keep the space's", 'Keep mine', 'Keep both', 'Mark resolved']) expect(await conflicts.getByRole('button', { name }).count()).toBe(1);

    const held = page.getByRole('region', { name: /Held back/ });
    expect(await held.innerText()).toContain('Projects/Broken.md');
    expect(await held.innerText()).toContain('not UTF-8 text');
    // No action applies to a held-back file (yet): no button.
    expect(await held.getByRole('button').count()).toBe(0);

    const history = page.getByRole('region', { name: 'History' });
    expect(await history.getByRole('button', { name: INBOX }).count()).toBe(1);
    expect(await page.getByRole('region', { name: 'Rate budget' }).getByRole('img').count()).toBe(2);
    // The recent activity of the mirror's cycles; a section with no data (downloads waiting) is not there.
    expect(await page.getByRole('region', { name: 'Recent activity' }).innerText()).toMatch(/here → space updated Inbox note/);
    expect(await page.getByRole('region', { name: /Downloads waiting/ }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('shows several mirrors, one at a time; the recent activity and the downloads waiting appear where their data is', async () => {
    const other = copyMirror(made.root);
    const j = openJournal(path.join(other, '.spacesync', 'journal.db'));
    const at = new Date().toISOString();
    j.setState(REPORT_KEYS.recent, [
      { ...emptyReport('cycle', at), finishedAt: at, changes: [{ kind: 'document', side: 'remote', action: 'updated', path: INBOX, title: 'Another note' }] },
    ]);
    j.setState('media-retry:B-IMG', {
      url: `${made.server.baseUrl}/assets/A-1`,
      failures: 2,
      notBefore: new Date().toISOString(),
      message: 'The download failed.',
    });
    j.close();
    const { page, errors } = await open(made.root, other);
    const nav = page.getByRole('navigation', { name: 'Mirrors' });
    expect(await nav.getByRole('link').count()).toBe(2);
    expect(await page.getByRole('region', { name: 'Recent activity' }).innerText()).not.toMatch(/Another note/);
    await nav.getByRole('link').nth(1).click();
    const activity = page.getByRole('region', { name: 'Recent activity' });
    await activity.getByText(/Another note/).waitFor();
    expect(await activity.innerText()).toMatch(/space → here updated Another note/);
    const downloads = page.getByRole('region', { name: /Downloads waiting/ });
    expect(await downloads.innerText()).toContain('Failed 2 times in a row');
    expect(await downloads.innerText()).not.toContain(made.server.linkId);
    expect(page.url()).toMatch(/#mirror-1$/);
    expect(errors).toEqual([]);
  });

  it('keep mine, with the daemon running: the conflict closes and the space gets my version', async () => {
    const root = copyMirror(made.root);
    const daemon = spawnCli(['sync', '--dir', root]);
    try {
      const { page, errors } = await open(root);
      await expect.poll(() => page.getByRole('region', { name: 'Daemon' }).innerText(), { timeout: 10_000 }).toMatch(/running \(pid \d+/);
      await page.getByRole('button', { name: 'Keep mine' }).click();
      await expect.poll(() => page.getByRole('status').innerText(), { timeout: 5000 }).toContain(`replaced ${ROADMAP}; the next sync sends it to the space.`);
      await page.getByText('No open conflicts.').waitFor();
      await until('the space to hold my version', async () => (await spaceBlocks(made.server, 'D-ROAD')).includes('Ship the sync engine next week'));
      expect(await spaceBlocks(made.server, 'D-ROAD')).toEqual([
        '# Goals',
        'Ship the sync engine next week',
        '- first step',
        'Questions for the team (ask Ana)',
      ]);
      expect(errors).toEqual([]);
    } finally {
      daemon.child.kill('SIGTERM');
      await daemon.done;
    }
  });

  it('approves an emptied file, then a refused mass delete, with the daemon running: its next cycle goes ahead with each', async () => {
    const notes = ['One', 'Two', 'Three'];
    const server = await startServer({
      port: 0,
      seed: {
        ...consoleSpace,
        documents: [
          consoleSpace.documents![0]!,
          ...notes.map((n) => ({
            id: `D-${n.toUpperCase()}`,
            title: n,
            createdAt: '2026-08-03T10:00:00Z',
            content: [{ id: `B-${n}`, markdown: `note ${n}` }],
          })),
        ],
      },
      limits: 'off',
    });
    const root = tempDir();
    writeConfig(root, { link: server.baseUrl, debounceMs: 50, poll: { minSeconds: 1, maxSeconds: 1 } });
    expect((await sync(root)).code).toBe(0);
    const daemon = spawnCli(['sync', '--dir', root]);
    try {
      const { page, errors } = await open(root);
      await expect.poll(() => page.getByRole('region', { name: 'Daemon' }).innerText(), { timeout: 10_000 }).toMatch(/running \(pid \d+/);

      fs.writeFileSync(path.join(root, ROADMAP), '');
      const held = page.getByRole('region', { name: /Held back/ });
      await held.getByRole('button', { name: 'Approve' }).click({ timeout: 15_000 });
      await expect.poll(() => page.getByRole('status').innerText(), { timeout: 5000 }).toContain(`Approved sending "${ROADMAP}" as it was held back`);
      expect(await page.getByRole('status').innerText()).toContain('acts on it at its next cycle');
      await until('the space to hold the emptied document', async () => (await spaceBlocks(server, 'D-ROAD')).every((b) => b.trim() === ''), 15_000);
      await held.waitFor({ state: 'detached' });

      for (const n of notes) fs.rmSync(path.join(root, 'Unsorted', `${n}.md`));
      const refused = page.getByRole('region', { name: 'Daemon' }).getByRole('note');
      await refused.getByRole('button', { name: 'Approve these deletes' }).click({ timeout: 15_000 });
      await expect.poll(() => page.getByRole('status').innerText(), { timeout: 5000 }).toContain("Approved the refused cycle's 3 deletes, exactly as listed");
      const trashed = async () => ((await (await fetch(`${server.baseUrl}/documents?location=trash`)).json()) as { items: Array<{ title: string }> }).items;
      await until('the three notes in the trash', async () => (await trashed()).length === 3, 15_000);
      expect((await trashed()).map((d) => d.title).sort()).toEqual([...notes].sort());
      await refused.waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
    } finally {
      daemon.child.kill('SIGTERM');
      await daemon.done;
      await server.close();
    }
  });

  it("restores a version from a file's history: the diff against the file now, then the file holds it", async () => {
    const root = copyMirror(made.root);
    const { page, errors } = await open(root);
    await page.getByRole('button', { name: INBOX }).click();
    const versions = page.getByRole('region', { name: 'History' }).getByLabel(`Versions of ${INBOX}`);
    const version = versions.getByRole('article').filter({ hasText: 'remote' }).first();
    await version.getByRole('table').waitFor();
    expect(await version.getByRole('columnheader').allInnerTexts()).toEqual(['This version', 'The file now']);
    expect(await version.getByRole('cell').allInnerTexts()).toEqual(['hello world', 'hello there']);
    await version.getByRole('button', { name: 'Restore' }).click();
    await expect.poll(() => page.getByRole('status').innerText(), { timeout: 5000 }).toContain(`Restored "${INBOX}" to version`);
    expect(fs.readFileSync(path.join(root, INBOX), 'utf8')).toContain('hello world');
    await version.getByText('The file holds this version now.').waitFor();
    expect(errors).toEqual([]);
  });

  it('lets no one else in: no token, a rebound name, a write from another origin', async () => {
    const root = copyMirror(made.root);
    const { page, console: c } = await open(root);
    const port = c.port;

    // Another browser (no cookie) at the address without the token.
    const stranger = await browser.newPage();
    const bare = await stranger.goto(`http://127.0.0.1:${port}/`);
    expect(bare!.status()).toBe(401);
    expect(await stranger.locator('body').innerText()).toContain('Open the address `spacesync console` printed');
    expect((await stranger.goto(`http://127.0.0.1:${port}/app/main.js`))!.status()).toBe(401);

    // A name of another site pointed at this machine (DNS rebinding), even with the token.
    const rebound = await stranger.goto(`http://rebind.test:${port}/?token=${c.token}`);
    expect(rebound!.status()).toBe(403);
    await stranger.close();

    // A page of another origin on this machine: same site, so the browser sends the cookie; its Origin gives it away.
    const other = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>other</title>'));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    try {
      const otherPort = (other.address() as { port: number }).port;
      await page.goto(`http://127.0.0.1:${otherPort}/`);
      const target = `http://127.0.0.1:${port}/api/mirrors/0/actions/settle-conflict`;
      // What went over the wire, as the browser saw it (the page itself may not read a cross-origin answer).
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      const sent = new Map<string, Record<string, string>>();
      const status = new Map<string, number>();
      cdp.on('Network.requestWillBeSentExtraInfo', (e) => sent.set(e.requestId, e.headers as Record<string, string>));
      cdp.on('Network.responseReceivedExtraInfo', (e) => status.set(e.requestId, e.statusCode));
      const outcome = await page.evaluate(
        (url) =>
          fetch(url, {
            method: 'POST',
            mode: 'no-cors',
            credentials: 'include',
            body: '{"id":1,"keep":"mine"}',
            headers: { 'content-type': 'text/plain' },
          }).then(
            (r) => `answered (${r.type})`,
            (e: Error) => e.message,
          ),
        target,
      );
      // Refused, and the answer withheld from the other page (Cross-Origin-Resource-Policy).
      expect(outcome).toBe('Failed to fetch');
      await until('the answer to be seen', () => status.size > 0, 5000);
      const [id, headers] = [...sent].find(([, h]) => h.Origin === `http://127.0.0.1:${otherPort}`)!;
      expect(headers.Cookie).toContain(`spacesync-console-${port}=${c.token}`);
      expect(status.get(id)).toBe(403);
    } finally {
      await new Promise((r) => other.close(r));
    }
    // Nothing was settled: back on the console, the conflict is still open.
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.getByRole('button', { name: 'Keep mine' }).waitFor();
    expect(fs.readdirSync(path.join(root, 'Projects')).some((f) => f.includes('(conflict '))).toBe(true);
  });
});

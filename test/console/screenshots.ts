// The screenshots of docs/console.md: `node bin/run-ts.js test/console/screenshots.ts`. The same
// mirror the browser tests use (a conflict, a held-back file, versions), on a local server, with its
// daemon running, in headless Chromium. The rate chart's last hour is filled in with an hour of an ordinary daemon's
// minutes (a mirror made a second ago has only this minute to show); everything else is as the
// sync left it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openJournal } from '../../src/journal/index.js';
import { RATE_HISTORY_KEY } from '../../src/journal/rateHistory.js';
import { startConsole } from '../../src/console/server.js';
import { findChromium, launchChromium } from './chromium.js';
import { consoleMirror, INBOX } from './consoleMirror.js';
import { spawnCli } from '../cli/spawnCli.js';

const OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/console');

const chromiumPath = findChromium();
if (!chromiumPath) {
  process.stderr.write('No Chromium found: apt-get install chromium (or set CHROMIUM_PATH), then run this again.\n');
  process.exit(1);
}

const { server, root } = await consoleMirror();
const j = openJournal(path.join(root, '.spacesync', 'journal.db'));
const now = Date.now();
j.setState(
  RATE_HISTORY_KEY,
  Array.from({ length: 60 }, (_, i) => {
    const minute = new Date(Math.floor(now / 60_000) * 60_000 - (59 - i) * 60_000).toISOString();
    const busy = i % 17 === 3 || i % 23 === 9;
    return { minute, requests: busy ? 40 + (i % 7) * 6 : 4 + (i % 3), blocks: busy ? 300 + (i % 5) * 90 : 6 + (i % 4) * 3, rateLimited: i === 43 ? 1 : 0 };
  }),
);
j.close();

const daemon = spawnCli(['sync', '--dir', root]);
const c = await startConsole({ dirs: [root] });
const browser = await launchChromium(chromiumPath);
try {
  const page = await browser.newPage({ viewport: { width: 1180, height: 900 }, deviceScaleFactor: 1 });
  await page.goto(c.url);
  await page.getByRole('region', { name: 'Daemon' }).getByText('running (pid').waitFor({ timeout: 15_000 });
  fs.mkdirSync(OUT, { recursive: true });
  const shot = async (name: string, region: string | RegExp) => {
    const file = path.join(OUT, `${name}.png`);
    await page.getByRole('region', { name: region }).screenshot({ path: file });
    process.stdout.write(`${path.relative(process.cwd(), file)}: ${fs.statSync(file).size} bytes\n`);
  };
  await shot('daemon', 'Daemon');
  await shot('conflict', /Conflicts/);
  await shot('held-back', /Held back/);
  await page.getByRole('button', { name: INBOX }).click();
  await page.getByLabel(`Versions of ${INBOX}`).getByRole('table').waitFor();
  await shot('history', 'History');
  await shot('budget', 'Rate budget');
} finally {
  daemon.child.kill('SIGTERM');
  await daemon.done;
  await browser.close();
  await c.close();
  await server.close();
}

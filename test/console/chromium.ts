// The browser the console's browser tests drive: Debian's Chromium (or CHROMIUM_PATH), headless,
// through playwright-core, which never downloads a browser of its own. Nothing from the network:
// no background updates, no sync, no first-run pages; a fresh profile each launch.
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The Chromium to run, or undefined when this machine has none. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const given = env.CHROMIUM_PATH;
  if (given) return fs.existsSync(given) ? given : undefined;
  return CANDIDATES.find((p) => fs.existsSync(p));
}

/** What `npm test` says, in one line, where there is no Chromium. */
export const SKIPPED =
  'console browser tests skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH), then: npx vitest run test/console/browser.test.ts\n';

export async function launchChromium(executablePath: string, extraArgs: readonly string[] = []): Promise<Browser> {
  // playwright's launch gives the browser a fresh temporary profile (--user-data-dir) of its own.
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', ...extraArgs],
  });
}

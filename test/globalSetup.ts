// Before the tests: the compiled program is built from the sources as they are now (incrementally:
// a few seconds when little changed), and the tests spawn it instead of the sources through tsx,
// whose start-up costs every spawned command about half a second more. SPACESYNC_TEST_SOURCES=1
// skips the build and spawns the sources (bin/dev.js).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export default function setup(): void {
  if (process.env.SPACESYNC_TEST_SOURCES === '1') return;
  const bin = path.join(repo, 'dist', 'cli', 'bin.js');
  const info = path.join(repo, 'node_modules', '.cache', 'spacesync', 'tests.tsbuildinfo');
  // Without its output the build info would call the build up to date and emit nothing.
  if (!fs.existsSync(bin)) fs.rmSync(info, { force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--incremental', '--tsBuildInfoFile', info], { cwd: repo, stdio: 'inherit' });
  process.env.SPACESYNC_TEST_BIN = bin;
}

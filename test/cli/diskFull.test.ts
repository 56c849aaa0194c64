// A full disk is said as what it is, not as a bug, and leaves no temp file behind. The mirror lives
// on a small tmpfs mounted in a mount namespace of the test's own (unshare -m: root only, and gone
// with the process); where that is not possible the test says so and is skipped.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { SPAWN_BIN } from '../spawnBin.js';

const canMount = (() => {
  if (process.getuid?.() !== 0) return false;
  const probe = spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs /mnt && umount /mnt'], { stdio: 'ignore' });
  return probe.status === 0;
})();

it.skipIf(!canMount)('a sync on a full disk says the disk is full and leaves no temp file (needs root: unshare -m, mount)', () => {
  const script = [
    'set -e',
    'mount -t tmpfs -o size=64k tmpfs /mnt',
    'mkdir -p /mnt/notes/.spacesync',
    `echo '{"link": "http://127.0.0.1:9/links/L/api/v1"}' > /mnt/notes/.spacesync/config.json`,
    'echo "# a note" > /mnt/notes/Note.md',
    // Fill the rest of the disk.
    'dd if=/dev/zero of=/mnt/filler bs=1k count=200 2>/dev/null || true',
    // The output goes off the full disk.
    `"$NODE" "$BIN" sync --dir /mnt/notes --once > "$OUT" 2>&1 && echo "exit 0" >> "$OUT" || echo "exit $?" >> "$OUT"`,
    'cat "$OUT"',
    'echo "left:"; ls -a /mnt/notes/.spacesync',
  ].join('\n');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-full-'));
  let out: string;
  try {
    out = execFileSync('unshare', ['-m', 'sh', '-c', script], {
      env: { ...process.env, NODE: process.execPath, BIN: SPAWN_BIN, OUT: path.join(dir, 'out') },
      encoding: 'utf8',
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  expect(out).toMatch(/disk space|disk is full/);
  expect(out).not.toContain('This is a bug');
  expect(out).toContain('exit 1');
  expect(out.slice(out.indexOf('left:'))).not.toMatch(/\.lock\..*\.tmp/);
});

import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { systemdEscapePath, unescapeSystemdPath } from './systemdEscapePath.js';

const PATHS = ['/home/you/Notes', '/home/you/My Notes-2', '/', '/a/.hidden/b', '/x/ünï/é%$', '/a//b/', '/a/b.c:d_e', '/.dot', "/it's/a\\b"];
const hasTool = spawnSync('systemd-escape', ['--version']).status === 0;

describe('systemdEscapePath', () => {
  it.each([
    ['/home/you/Notes', 'home-you-Notes'],
    ['/home/you/My Notes-2', 'home-you-My\\x20Notes\\x2d2'],
    ['/', '-'],
    ['/a//b/', 'a-b'],
    ['/.dot', '\\x2edot'],
    ['/x/ü%', 'x-\\xc3\\xbc\\x25'],
  ])('%s is the instance name %s', (p, escaped) => {
    expect(systemdEscapePath(p)).toBe(escaped);
  });

  it.each(PATHS)('unescapes %s back to the folder', (p) => {
    expect(unescapeSystemdPath(systemdEscapePath(p))).toBe(p === '/' ? '/' : `/${p.split('/').filter(Boolean).join('/')}`);
  });

  it.skipIf(!hasTool)('writes what `systemd-escape --path` writes', () => {
    for (const p of PATHS) expect(systemdEscapePath(p), p).toBe(spawnSync('systemd-escape', ['--path', p], { encoding: 'utf8' }).stdout.trim());
  });
});

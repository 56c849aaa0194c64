import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NO_RESTART_EXIT_CODES } from './serviceHost.js';
import { SYSTEMD_TEMPLATE, systemdUnit, systemdUnitName, systemdEscapePath, unescapeSystemdPath } from './systemdUnit.js';

const hasVerify = spawnSync('systemd-analyze', ['--version']).status === 0;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-unit-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A target whose paths exist, as they do after an install (systemd-analyze checks ExecStart's program). */
function target(dirName: string) {
  const dir = path.join(tmp, dirName);
  fs.mkdirSync(dir, { recursive: true });
  const script = path.join(tmp, 'spacesync bin.js');
  fs.writeFileSync(script, '');
  return { node: process.execPath, script, dir };
}

const execStart = (unit: string) => /^ExecStart=(.*)$/m.exec(unit)![1]!;
const template = fs.readFileSync(SYSTEMD_TEMPLATE, 'utf8');
/** A unit's settings and sections, its comments aside. */
const body = (unit: string) => unit.slice(unit.indexOf('[Unit]'));

describe('the systemd unit', () => {
  it('runs node and spacesync by absolute path on the absolute folder: no PATH lookup, no %I', () => {
    const t = target('Notes');
    const unit = systemdUnit(t);
    expect(execStart(unit)).toBe(`"${process.execPath}" "${t.script}" "sync" "--dir" "${t.dir}"`);
    expect(unit).not.toMatch(/%I|%i|\/usr\/bin\/env/);
    expect(systemdUnitName(t.dir)).toMatch(/^spacesync@.+\.service$/);
  });

  it("takes % and $ in a folder name literally (not as specifiers or variables, nor as the replacement's patterns)", () => {
    const unit = systemdUnit({ node: '/n', script: '/s', dir: '/home/you/100% "notes" $HOME $& $\' $$' });
    expect(execStart(unit)).toBe(`"/n" "/s" "sync" "--dir" "/home/you/100%% \\"notes\\" $$HOME $$& $$' $$$$"`);
    expect(unit).toContain(`Description=spacesync: two-way sync of a notes space with /home/you/100%% "notes" $HOME $& $' $$`);
  });

  it('is the template systemd/spacesync@.service with the folder, node and spacesync filled in, and nothing else changed', () => {
    const t = target('Notes');
    const unit = systemdUnit(t);
    expect(unit.split('\n')[1]).toBe(`#   spacesync service install --dir ${t.dir}`);
    const fixed = (text: string) => body(text).replace(/^(Description|ExecStart)=.*$/gm, '$1=');
    expect(fixed(unit)).toBe(fixed(template));
    expect(unit).toContain(`Description=spacesync: two-way sync of a notes space with ${t.dir}\n`);
    expect(template).toMatch(/^ExecStart=\/usr\/bin\/env spacesync sync --dir "%f"$/m);
    expect(template).toMatch(new RegExp(`^RestartPreventExitStatus=${NO_RESTART_EXIT_CODES.join(' ')}$`, 'm'));
  });

  it('refuses a template that lost a line it fills in', () => {
    expect(() => systemdUnit(target('Notes'), template.replace(/^ExecStart=.*\n/m, ''))).toThrow(/should hold one line matching .*ExecStart/);
  });

  it('restarts on failure except after exit 2 (refused by a safety check) and 64 (usage), and names no package page', () => {
    const unit = systemdUnit(target('Notes'));
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(unit).toMatch(/^RestartPreventExitStatus=2 64$/m);
    expect(unit).not.toMatch(/^Documentation=/m);
  });

  it('refuses a folder with a line break in its path', () => {
    expect(() => systemdUnit({ node: '/n', script: '/s', dir: '/a\nb' })).toThrow(/line break/);
  });

  it.skipIf(!hasVerify)('passes systemd-analyze verify, as installed for a folder and as the template installed by hand', () => {
    // A user manager's check needs a runtime folder; a private one keeps the machine's out of it.
    const runtime = fs.mkdtempSync(path.join(tmp, 'runtime-'));
    const verify = (file: string) => {
      const r = spawnSync('systemd-analyze', ['verify', '--user', '--man=no', file], {
        encoding: 'utf8',
        env: { ...process.env, XDG_RUNTIME_DIR: runtime, SYSTEMD_LOG_LEVEL: 'warning' },
      });
      const own = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.includes('spacesync@'));
      expect(own, `${r.stdout}${r.stderr}`).toEqual([]);
      expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    };
    for (const name of ['Notes', 'My Notes-2', 'ü 100%']) {
      const t = target(name);
      const file = path.join(tmp, systemdUnitName(t.dir));
      fs.writeFileSync(file, systemdUnit(t));
      verify(file);
    }
    // The template as its comment says to install it, and an instance of it for a folder.
    const units = fs.mkdtempSync(path.join(tmp, 'by-hand-'));
    fs.copyFileSync(SYSTEMD_TEMPLATE, path.join(units, 'spacesync@.service'));
    verify(path.join(units, 'spacesync@.service'));
    verify(path.join(units, systemdUnitName(target('My Notes-2').dir)));
  });
});

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

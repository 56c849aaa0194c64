// Install / list / uninstall against a temporary unit folder and a recording control command:
// the files written, the systemctl / launchctl calls made, and several folders side by side.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installService, listServices, uninstallService } from './installService.js';
import type { ControlResult, ServiceHost } from './serviceHost.js';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-service-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function mirror(name: string): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(path.join(dir, '.spacesync'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.spacesync', 'config.json'), '{}');
  return dir;
}

function host(kind: 'systemd' | 'launchd', answer: (args: readonly string[]) => ControlResult = () => ({ code: 0, stdout: '', stderr: '' })) {
  const calls: string[] = [];
  const h: ServiceHost = {
    kind,
    unitDir: path.join(tmp, 'units'),
    uid: 501,
    control(args) {
      calls.push(args.join(' '));
      return answer(args);
    },
  };
  return { h, calls };
}

const target = (dir: string) => ({ node: '/opt/node/bin/node', script: '/opt/spacesync/dist/cli/bin.js', dir });
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('service install / uninstall with systemd', () => {
  it('writes one unit per folder, enables and starts it, lists both folders, and removes one', () => {
    const { h, calls } = host('systemd', (args) => ({ code: args[0] === 'is-active' ? 3 : 0, stdout: args[0] === 'is-active' ? 'active\n' : '', stderr: '' }));
    const notes = mirror('Notes');
    const work = mirror('Work notes');
    const a = installService(h, target(notes));
    const b = installService(h, target(work));
    expect(a.file).toBe(path.join(tmp, 'units', a.name));
    expect(b.name).toMatch(/^spacesync@.*-Work\\x20notes\.service$/);
    expect(fs.readFileSync(b.file, 'utf8')).toContain(`ExecStart="/opt/node/bin/node" "/opt/spacesync/dist/cli/bin.js" "sync" "--dir" "${work}"`);
    expect(a.followLog).toBe(`journalctl --user -u '${a.name}' -f`);
    expect(calls).toEqual(['daemon-reload', `enable ${a.name}`, `restart ${a.name}`, 'daemon-reload', `enable ${b.name}`, `restart ${b.name}`]);

    expect(listServices(h).map((s) => [s.dir, s.state])).toEqual([
      [notes, 'active'],
      [work, 'active'],
    ]);

    calls.length = 0;
    uninstallService(h, notes);
    expect(fs.existsSync(a.file)).toBe(false);
    expect(fs.existsSync(b.file)).toBe(true);
    expect(calls).toEqual([`disable --now ${a.name}`, 'daemon-reload']);
    expect(listServices(h).map((s) => s.dir)).toEqual([work]);
  });

  it('refuses a folder that is not a mirror, and writes nothing', () => {
    const { h, calls } = host('systemd');
    const plain = path.join(tmp, 'plain');
    fs.mkdirSync(plain);
    expect(() => installService(h, target(plain))).toThrow(/is not a spacesync mirror.*spacesync init/);
    expect(fs.existsSync(h.unitDir)).toBe(false);
    expect(calls).toEqual([]);
  });

  it('says what failed when systemctl refuses, and how to remove the unit it wrote', () => {
    const { h } = host('systemd', (args) =>
      args[0] === 'enable' ? { code: 1, stdout: '', stderr: 'Failed to connect to bus' } : { code: 0, stdout: '', stderr: '' },
    );
    const notes = mirror('Notes');
    expect(() => installService(h, target(notes))).toThrow(
      /systemctl --user enable spacesync@.* failed \(exit 1\): Failed to connect to bus\. .*spacesync service uninstall --dir/,
    );
  });

  it('uninstall removes the unit and its enablement link when systemctl cannot be reached, and says what is left to do', () => {
    const notes = mirror('Notes');
    const a = installService(host('systemd').h, target(notes));
    // What an earlier `enable` made: the link in default.target.wants.
    const link = path.join(tmp, 'units', 'default.target.wants', a.name);
    fs.mkdirSync(path.dirname(link));
    fs.symlinkSync(a.file, link);
    const { h, calls } = host('systemd', () => ({ code: 1, stdout: '', stderr: 'Failed to connect to bus: No medium found' }));
    expect(() => uninstallService(h, notes)).toThrow(
      new RegExp(
        `^Removed the unit file ${esc(a.file)} and its link ${esc(link)}; could not stop or disable ${esc(a.name)}: systemctl --user failed \\(exit 1: Failed to connect to bus: No medium found\\)\\. .*run \`systemctl --user stop '${esc(a.name)}'; systemctl --user daemon-reload\` when a user session is available`,
      ),
    );
    expect(fs.existsSync(a.file)).toBe(false);
    expect(fs.lstatSync(link, { throwIfNoEntry: false })).toBeUndefined();
    expect(calls).toEqual([`disable --now ${a.name}`]);
    expect(listServices(h)).toEqual([]);
  });

  it('uninstall says so when the unit is gone but the user manager could not be reloaded', () => {
    const notes = mirror('Notes');
    const a = installService(host('systemd').h, target(notes));
    const { h } = host('systemd', (args) =>
      args[0] === 'daemon-reload' ? { code: 1, stdout: '', stderr: 'Access denied' } : { code: 0, stdout: '', stderr: '' },
    );
    expect(() => uninstallService(h, notes)).toThrow(
      /removed its unit file .*could not reload the user manager: systemctl --user failed \(exit 1: Access denied\)\. Run `systemctl --user daemon-reload`/,
    );
    expect(fs.existsSync(a.file)).toBe(false);
  });

  it('uninstalling a folder with no service says so and changes nothing', () => {
    const { h, calls } = host('systemd');
    expect(() => uninstallService(h, mirror('Notes'))).toThrow(/No spacesync service is installed for/);
    expect(calls).toEqual([]);
  });
});

describe('service install / uninstall with launchd', () => {
  it("writes the agent, bootstraps it in the user's domain, lists it, and boots it out", () => {
    const { h, calls } = host('launchd', (args) =>
      args[0] === 'print' ? { code: 0, stdout: 'gui/501/x = {\n\tstate = running\n}', stderr: '' } : { code: 0, stdout: '', stderr: '' },
    );
    const notes = mirror('Notes');
    const a = installService(h, target(notes));
    expect(path.basename(a.file)).toBe(`${a.name}.plist`);
    expect(fs.readFileSync(a.file, 'utf8')).toContain(`<string>${notes}</string>`);
    expect(calls).toEqual([`bootout gui/501/${a.name}`, `bootstrap gui/501 ${a.file}`]);
    expect(listServices(h).map((s) => [s.dir, s.state])).toEqual([[notes, 'running']]);
    calls.length = 0;
    uninstallService(h, notes);
    expect(fs.existsSync(a.file)).toBe(false);
    expect(calls).toEqual([`bootout gui/501/${a.name}`]);
  });

  it('uninstall removes the agent of a service that is not loaded without a word, and says so when launchctl failed', () => {
    const notes = mirror('Notes');
    const a = installService(host('launchd').h, target(notes));
    uninstallService(host('launchd', () => ({ code: 113, stdout: '', stderr: 'Boot-out failed: 113: Could not find specified service' })).h, notes);
    expect(fs.existsSync(a.file)).toBe(false);

    installService(host('launchd').h, target(notes));
    const { h } = host('launchd', () => ({ code: 125, stdout: '', stderr: 'Boot-out failed: 125: Domain does not support specified action' }));
    expect(() => uninstallService(h, notes)).toThrow(
      /^Removed the agent file .*; could not unload com\.spacesync\.sync\..*: launchctl failed \(exit 125: Boot-out failed: 125: Domain does not support specified action\)\. .*`launchctl bootout gui\/501\/com\.spacesync\.sync\..*` when a user session is available/,
    );
    expect(fs.existsSync(a.file)).toBe(false);
  });
});

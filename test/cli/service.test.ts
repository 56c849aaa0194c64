// `spacesync service install|status|uninstall` and `spacesync status` outside a mirror, as a user
// runs them, with the unit folder and systemctl replaced (SPACESYNC_SERVICE_UNIT_DIR,
// SPACESYNC_SERVICE_CONTROL): a recording stand-in answers as systemctl does.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir, writeConfig } from './cliHarness.js';
import { SPAWN_BIN } from '../spawnBin.js';

describe.runIf(process.platform === 'linux')('spacesync service', () => {
  it("installs a folder's unit with absolute paths, lists it in `service status` and in `status` outside a mirror, and uninstalls it", async () => {
    const tmp = tempDir();
    const units = path.join(tmp, 'units');
    const calls = path.join(tmp, 'calls');
    const control = path.join(tmp, 'systemctl');
    fs.writeFileSync(control, `#!/bin/sh\necho "$*" >> '${calls}'\nif [ "$2" = is-active ]; then echo active; exit 0; fi\n`, { mode: 0o755 });
    const root = path.join(tmp, 'My Notes');
    writeConfig(root, { link: 'http://127.0.0.1:9/links/service-link-0001/api/v1' });
    const env = { SPACESYNC_SERVICE_UNIT_DIR: units, SPACESYNC_SERVICE_CONTROL: control };

    const installed = await runCli(['service', 'install', '--dir', root], { env, cwd: tmp });
    expect(installed.code, installed.stderr).toBe(0);
    const name = 'spacesync@' + root.slice(1).replace(/-/g, '\\x2d').replace(/\//g, '-').replace(/ /g, '\\x20') + '.service';
    expect(installed.stdout).toContain(`Installed ${name} for ${root}`);
    expect(installed.stdout).toContain(`journalctl --user -u '${name}' -f`);
    const unit = fs.readFileSync(path.join(units, name), 'utf8');
    expect(unit).toMatch(
      // The program the unit runs is the one installed, here the one the tests spawn (the sources' or the compiled one).
      new RegExp(
        `^ExecStart="${process.execPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" "${SPAWN_BIN.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" "sync" "--dir" "${root}"$`,
        'm',
      ),
    );
    expect(fs.readFileSync(calls, 'utf8')).toBe(`--user daemon-reload\n--user enable ${name}\n--user restart ${name}\n`);

    const listed = await runCli(['service', 'status'], { env, cwd: tmp });
    expect(listed.stdout).toBe(`active  ${root}  (${name})\n`);
    const status = await runCli(['status'], { env, cwd: tmp });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toBe(`active  ${root}  (${name})\n`);

    const removed = await runCli(['service', 'uninstall', '--dir', root], { env, cwd: tmp });
    expect(removed.code, removed.stderr).toBe(0);
    expect(fs.existsSync(path.join(units, name))).toBe(false);
    expect(fs.readFileSync(calls, 'utf8')).toContain(`--user disable --now ${name}\n--user daemon-reload\n`);
  });

  it('uninstall removes the unit install wrote when systemctl --user cannot reach a user bus, and says what is left to do', async () => {
    const tmp = tempDir();
    const units = path.join(tmp, 'units');
    const calls = path.join(tmp, 'calls');
    // A systemctl as in an ssh session or a container: no user bus.
    const bin = path.join(tmp, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'systemctl'), `#!/bin/sh\necho "$*" >> '${calls}'\necho 'Failed to connect to bus: No medium found' >&2\nexit 1\n`, {
      mode: 0o755,
    });
    const root = path.join(tmp, 'Notes');
    writeConfig(root, { link: 'http://127.0.0.1:9/links/service-link-0002/api/v1' });
    const env = { SPACESYNC_SERVICE_UNIT_DIR: units, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
    const name = `spacesync@${root.slice(1).replace(/-/g, '\\x2d').replace(/\//g, '-')}.service`;
    const unit = path.join(units, name);

    const installed = await runCli(['service', 'install', '--dir', root], { env, cwd: tmp });
    expect(installed.code).toBe(1);
    expect(installed.stderr).toContain(`The unit file ${unit} was written; \`spacesync service uninstall --dir ${root}\` removes it.`);
    expect(fs.existsSync(unit)).toBe(true);

    const removed = await runCli(['service', 'uninstall', '--dir', root], { env, cwd: tmp });
    expect(removed.code).toBe(1);
    expect(removed.stderr).toContain(
      `Removed the unit file ${unit}; could not stop or disable ${name}: systemctl --user failed (exit 1: Failed to connect to bus: No medium found).`,
    );
    expect(removed.stderr).toContain(`run \`systemctl --user stop '${name}'; systemctl --user daemon-reload\` when a user session is available`);
    expect(fs.existsSync(unit)).toBe(false);
    expect(fs.readFileSync(calls, 'utf8').split('\n').slice(-2)).toEqual([`--user disable --now ${name}`, '']);

    const listed = await runCli(['service', 'status'], { env, cwd: tmp });
    expect(listed.stdout).toMatch(/^No mirror is installed as a service/);
    const again = await runCli(['service', 'uninstall', '--dir', root], { env, cwd: tmp });
    expect(again.code).toBe(64);
    expect(again.stderr).toContain(`No spacesync service is installed for ${root}`);
  });
});

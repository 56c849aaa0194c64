// The command printed for the user, on real folders laid out as npm lays them: a clone, a global
// install (and `npm link`), a project that depends on spacesync, and an npx or npm start PATH.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoCommand, ownCommand } from './ownCommand.js';

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-own-')));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A spacesync package (or another one, by `name`) at `dir`, with its compiled entry and the development one. */
function pkg(dir: string, name = 'spacesync'): { bin: string; dev: string } {
  fs.mkdirSync(path.join(dir, 'dist', 'cli'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, bin: { spacesync: 'dist/cli/bin.js' } }));
  const bin = path.join(dir, 'dist', 'cli', 'bin.js');
  const dev = path.join(dir, 'bin', 'dev.js');
  fs.writeFileSync(bin, '');
  fs.writeFileSync(dev, '');
  return { bin, dev };
}

function link(target: string, at: string): string {
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.symlinkSync(target, at);
  return at;
}

const clone = path.join(tmp, 'spacesync');
const { bin: cloneBin, dev: cloneDev } = pkg(clone);
fs.mkdirSync(path.join(clone, 'docs'));
// What `npm install -g` lays out: the package under lib/node_modules, its command linked from bin/.
const prefix = path.join(tmp, 'prefix');
const { bin: globalBin } = pkg(path.join(prefix, 'lib', 'node_modules', 'spacesync'));
const globalCommand = link(globalBin, path.join(prefix, 'bin', 'spacesync'));
// `npm link` in the clone: the global command leads into the clone.
const linkedPrefix = path.join(tmp, 'linked');
link(clone, path.join(linkedPrefix, 'lib', 'node_modules', 'spacesync'));
link(path.join(linkedPrefix, 'lib', 'node_modules', 'spacesync', 'dist', 'cli', 'bin.js'), path.join(linkedPrefix, 'bin', 'spacesync'));
// Another program named spacesync on the PATH.
const otherPrefix = path.join(tmp, 'other');
const { bin: otherBin } = pkg(path.join(otherPrefix, 'lib', 'node_modules', 'spacesync-fork'), 'spacesync-fork');
link(otherBin, path.join(otherPrefix, 'bin', 'spacesync'));
// A project depending on spacesync, and the .bin link npm makes for it.
const project = path.join(tmp, 'project');
const { bin: depBin } = pkg(path.join(project, 'node_modules', 'spacesync'));
const depCommand = link(depBin, path.join(project, 'node_modules', '.bin', 'spacesync'));
const elsewhere = path.join(tmp, 'elsewhere');
fs.mkdirSync(elsewhere);
const PATH = (...dirs: string[]) => [...dirs, '/usr/bin', '/bin'].join(path.delimiter);

describe('ownCommand', () => {
  it.each([
    ['npm start in the clone', cloneDev, clone],
    ['npx in a folder of the clone', cloneBin, path.join(clone, 'docs')],
  ])('%s: npx spacesync', (_, script, cwd) => {
    expect(ownCommand({ script, cwd, pathEnv: PATH() })).toEqual({ command: 'npx spacesync', clone });
  });

  it("ignores the project's node_modules/.bin folders npm puts on the PATH of what it runs", () => {
    const npmBin = link(cloneBin, path.join(clone, 'node_modules', '.bin', 'spacesync'));
    expect(ownCommand({ script: npmBin, cwd: clone, pathEnv: PATH(path.dirname(npmBin)) }).command).toBe('npx spacesync');
    expect(ownCommand({ script: depCommand, cwd: project, pathEnv: PATH(path.dirname(depCommand)) })).toEqual({ command: 'npx spacesync' });
  });

  it('a clone run from elsewhere, with no spacesync on the PATH: node and the script', () => {
    expect(ownCommand({ script: cloneDev, cwd: elsewhere, pathEnv: PATH() }).command).toBe(`node ${cloneDev}`);
  });

  it('a spacesync of another package on the PATH is not this one', () => {
    expect(ownCommand({ script: cloneDev, cwd: clone, pathEnv: PATH(path.join(otherPrefix, 'bin')) }).command).toBe('npx spacesync');
    expect(ownCommand({ script: cloneDev, cwd: elsewhere, pathEnv: PATH(path.join(otherPrefix, 'bin')) }).command).toBe(`node ${cloneDev}`);
  });

  it('a global install whose bin folder is on the PATH: spacesync, wherever the user stands', () => {
    for (const cwd of [elsewhere, clone])
      expect(ownCommand({ script: globalCommand, cwd, pathEnv: PATH(path.join(prefix, 'bin')) })).toEqual({ command: 'spacesync' });
  });

  it('a global install whose bin folder is not on the PATH: node and the installed script', () => {
    expect(ownCommand({ script: globalCommand, cwd: elsewhere, pathEnv: PATH() }).command).toBe(`node ${globalBin}`);
  });

  it('the clone linked globally (npm link), run by npm start: spacesync', () => {
    expect(ownCommand({ script: cloneDev, cwd: clone, pathEnv: PATH(path.join(linkedPrefix, 'bin')) })).toEqual({ command: 'spacesync' });
  });
});

describe('demoCommand', () => {
  it("is npm start for the clone's own demo folder, and the demo command with the folder otherwise", () => {
    const run = ownCommand({ script: cloneDev, cwd: clone, pathEnv: PATH() });
    expect(demoCommand(path.join(clone, 'demo-space'), run)).toBe('npm start');
    expect(demoCommand('/home/you/My demo', run)).toBe("npx spacesync demo '/home/you/My demo'");
    expect(demoCommand(path.join(project, 'demo-space'), ownCommand({ script: depCommand, cwd: project, pathEnv: PATH() }))).toBe(
      `npx spacesync demo ${path.join(project, 'demo-space')}`,
    );
    expect(demoCommand('/home/you/demo', { command: 'spacesync' })).toBe('spacesync demo /home/you/demo');
  });
});

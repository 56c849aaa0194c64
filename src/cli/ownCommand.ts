// The command line that runs this very spacesync from where the user stands, for the commands the
// program prints (the demo's "Status:" line, the demo folder's status): `spacesync` when that name
// on the user's PATH is this package (a global install, `npm link`), `npx spacesync` inside the
// clone or the project that holds this package (npx finds the project's own command there), and
// `node <script>` anywhere else. A bare `spacesync` printed from a clone is "command not found".
import fs from 'node:fs';
import path from 'node:path';
import { shellQuote } from './format.js';

export interface Whereabouts {
  /** The running script, process.argv[1]: bin/dev.js, dist/cli/bin.js, or a link to it. */
  script: string;
  /** The user's folder: INIT_CWD under npm (npm start, npx run in the project's root), else the process's. */
  cwd: string;
  /** The user's PATH. */
  pathEnv: string | undefined;
}

export interface OwnCommand {
  /** `spacesync`, `npx spacesync` or `node '/…/bin.js'`. */
  command: string;
  /** The clone of spacesync the user stands in (where `npm start` runs the demo), if so. */
  clone?: string;
}

export function whereabouts(env: NodeJS.ProcessEnv = process.env): Whereabouts {
  return { script: process.argv[1] ?? '', cwd: env.INIT_CWD || process.cwd(), pathEnv: env.PATH };
}

const realpath = (p: string): string | undefined => {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
};

/** The folder of the spacesync package a file belongs to: its nearest ancestor whose package.json names spacesync. */
function packageOf(file: string): string | undefined {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    try {
      if ((JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name === 'spacesync') return dir;
    } catch {
      /* no package.json here, or not one of ours: look further up */
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

const inside = (dir: string, parent: string) => {
  const rel = path.relative(parent, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

export function ownCommand(where: Whereabouts = whereabouts()): OwnCommand {
  const script = realpath(where.script) ?? path.resolve(where.script);
  const own = packageOf(script);
  if (own !== undefined) {
    // npm puts the project's node_modules/.bin folders on the PATH of what it runs (npm start,
    // npx): the user's shell has none of them, so a command found there proves nothing.
    const dirs = (where.pathEnv ?? '').split(path.delimiter).filter((d) => d !== '' && !d.split(path.sep).includes('node_modules'));
    for (const dir of dirs) {
      const found = realpath(path.join(dir, 'spacesync'));
      if (found !== undefined && packageOf(found) === own) return { command: 'spacesync' };
    }
    // A package inside node_modules belongs to the project holding that folder; a clone is its own project.
    const parts = own.split(path.sep);
    const at = parts.lastIndexOf('node_modules');
    const project = at < 0 ? own : parts.slice(0, at).join(path.sep) || path.sep;
    const cwd = realpath(where.cwd) ?? path.resolve(where.cwd);
    if (inside(cwd, project)) return at < 0 ? { command: 'npx spacesync', clone: own } : { command: 'npx spacesync' };
  }
  return { command: `node ${shellQuote(script)}` };
}

/** The command that starts the demo again on its folder `root`: `npm start` for the clone's own ./demo-space. */
export function demoCommand(root: string, run: OwnCommand = ownCommand()): string {
  if (run.clone !== undefined && path.resolve(root) === path.join(run.clone, 'demo-space')) return 'npm start';
  return `${run.command} demo ${shellQuote(root)}`;
}

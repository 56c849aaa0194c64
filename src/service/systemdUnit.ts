// The systemd user unit of one mirror folder, `spacesync@<escaped folder>.service`: the package's
// template systemd/spacesync@.service (the one people who manage units by hand install), filled in
// for the folder: ExecStart runs `<node> <spacesync> sync --dir <folder>` with absolute paths
// instead of finding spacesync on the user manager's PATH, and the folder is written out instead of
// the %f specifier. The rest (restarts, the exit codes that wait for a person, the journal) is the
// template's, word for word.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ServiceTarget } from './serviceHost.js';

/** The template in the package, beside dist/ and src/. */
export const SYSTEMD_TEMPLATE = fileURLToPath(new URL('../../systemd/spacesync@.service', import.meta.url));

/** The unit's file name for the mirror folder `dir`. */
export function systemdUnitName(dir: string): string {
  return `spacesync@${systemdEscapePath(dir)}.service`;
}

/** One argument of ExecStart, quoted: specifiers (%) and variables ($) are taken literally. */
function execArg(s: string): string {
  if (/[\n\r]/.test(s)) throw new Error(`a service cannot run a path with a line break in it: ${JSON.stringify(s)}`);
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%').replace(/\$/g, '$$$$')}"`;
}

/** Replaces the one line of the template that matches `line`; a template without it is a broken package. */
function fill(template: string, line: RegExp, by: (found: string) => string): string {
  const found = template.match(new RegExp(line.source, 'gm')) ?? [];
  if (found.length !== 1) throw new Error(`${SYSTEMD_TEMPLATE} should hold one line matching ${line}, and holds ${found.length}`);
  // A function as the replacement: `$` in a folder's name is not a replacement pattern.
  return template.replace(new RegExp(line.source, 'm'), () => by(found[0]!));
}

export function systemdUnit(target: ServiceTarget, template = readFileSync(SYSTEMD_TEMPLATE, 'utf8')): string {
  const execStart = `ExecStart=${[target.node, target.script, 'sync', '--dir', target.dir].map(execArg).join(' ')}`;
  const header = [
    '# spacesync as a systemd user service for one mirror folder. Written by',
    `#   spacesync service install --dir ${target.dir}`,
    "# from the package's systemd/spacesync@.service, and removed by `spacesync service uninstall --dir …`;",
    "# edit it through those commands. The folder's .spacesync/config.json (written by `spacesync init`,",
    '# mode 0600) holds the link, so the link never appears in this unit.',
  ].join('\n');
  let unit = fill(template, /^(#.*\n)+(?=\[Unit\])/, () => `${header}\n`);
  unit = fill(unit, /^Description=.*%f.*$/, (line) => line.replace('%f', () => target.dir.replace(/%/g, '%%')));
  return fill(unit, /^ExecStart=.*$/, () => execStart);
}

// A folder's path as a systemd unit instance name, the way `systemd-escape --path` writes it:
// slashes become "-", and every byte outside [A-Za-z0-9:_.] (and a leading ".") becomes \xNN.
// unescapeSystemdPath turns it back.
export function systemdEscapePath(absolutePath: string): string {
  const trimmed = absolutePath
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
  if (trimmed === '') return '-';
  let out = '';
  const bytes = Buffer.from(trimmed, 'utf8');
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    const c = String.fromCharCode(b);
    if (c === '/') out += '-';
    else if (/[A-Za-z0-9:_]/.test(c) || (c === '.' && i > 0)) out += c;
    else out += `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return out;
}

export function unescapeSystemdPath(escaped: string): string {
  if (escaped === '-') return '/';
  const bytes: number[] = [];
  for (let i = 0; i < escaped.length; i++) {
    const c = escaped[i]!;
    const hex = /^\\x([0-9a-fA-F]{2})/.exec(escaped.slice(i));
    if (hex) {
      bytes.push(parseInt(hex[1]!, 16));
      i += 3;
    } else if (c === '-') bytes.push(0x2f);
    else bytes.push(...Buffer.from(c, 'utf8'));
  }
  return `/${Buffer.from(bytes).toString('utf8')}`;
}

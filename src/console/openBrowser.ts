// Opens the console in the person's browser (xdg-open on Linux, open on macOS). The address holds
// the token, and a command line is readable by every user of the machine (ps), so the browser is
// handed a private file (mode 0600, in a folder only its owner can enter) that forwards to it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Whether a person sits at this machine's screen: what opening a page in a browser and a desktop
// notification need. Linux: a graphical session names its display (X11 or Wayland); macOS: a session
// not over SSH. Elsewhere, or over SSH without a display, there is nobody to show anything to.
export type DesktopKind = 'linux' | 'macos';

export function desktopSession(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): DesktopKind | null {
  if (platform === 'darwin') return env.SSH_CONNECTION || env.SSH_TTY ? null : 'macos';
  if (platform === 'linux' || platform === 'freebsd' || platform === 'openbsd') return env.DISPLAY || env.WAYLAND_DISPLAY ? 'linux' : null;
  return null;
}

export interface Opened {
  /** What was run, or why nothing was: for one debug line, never an error. */
  said: string;
  /** Removes the forwarding file. */
  cleanUp(): void;
}

/** The forwarding page: a meta refresh to `url` (and a link, should refreshes be off). */
export function forwardingPage(url: string): string {
  const attr = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<!doctype html>\n<meta charset="utf-8">\n<meta http-equiv="refresh" content="0;url=${attr}">\n<title>spacesync console</title>\n<a href="${attr}">Open the spacesync console</a>\n`;
}

export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Opened {
  const kind = desktopSession(env, platform);
  if (!kind) return { said: 'no desktop session (no DISPLAY or WAYLAND_DISPLAY, or over SSH): open the address yourself', cleanUp: () => {} };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'spacesync-console-'));
  const file = path.join(dir, 'open.html');
  writeFileSync(file, forwardingPage(url), { mode: 0o600 });
  const cleanUp = () => rmSync(dir, { recursive: true, force: true });
  const program = kind === 'macos' ? 'open' : 'xdg-open';
  try {
    const child = spawn(program, [file], { detached: true, stdio: 'ignore', env });
    child.on('error', () => {});
    child.unref();
  } catch {
    return { said: `${program} could not be started: open the address yourself`, cleanUp };
  }
  return { said: `opened with ${program}`, cleanUp };
}
